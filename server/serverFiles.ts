/**
 * Where the server's own files are, whether it runs from its sources (tsx, vitest: server/**.ts) or compiled by
 * `npm run build` (scripts/buildServer.ts: one bundle in dist/server/, where import.meta.url names the bundle, not
 * the source file, so `new URL('./x', import.meta.url)` would point into dist/). The files beside the sources (the
 * migrations, engine.sql, the media, the signer's worker) are read from server/ in both cases.
 */
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** This module's path, read when first asked: UI tests import the server's modules in jsdom, with no file URL. */
const here = (): string => fileURLToPath(import.meta.url);

/** Whether this is the compiled server (dist/server/*.js) rather than its TypeScript sources. */
export const isCompiled = (): boolean => !here().endsWith('.ts');

/** The repository's root: above server/ for the sources, above dist/server/ for the bundle. */
export function repoRoot(): string {
  const folder = path.dirname(here());
  return isCompiled() ? path.resolve(folder, '..', '..') : path.resolve(folder, '..');
}

/**
 * A file or folder under server/ in the repository.
 *
 * @example serverPath('db', 'migrations') // <repo>/server/db/migrations
 */
export const serverPath = (...parts: string[]): string => path.join(repoRoot(), 'server', ...parts);

/**
 * The module a worker thread of the server starts from: the compiled entry in dist/server/ (`name`.js), or its
 * TypeScript source (run through tsx by server/tsWorker.ts).
 *
 * @example workerModule('pgliteWorker', 'db/pgliteWorker.ts')
 */
export function workerModule(name: string, source: string): URL {
  return isCompiled() ? pathToFileURL(path.join(path.dirname(here()), `${name}.js`)) : pathToFileURL(serverPath(source));
}
