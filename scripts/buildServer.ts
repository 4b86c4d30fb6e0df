/**
 * Compiles the server for `npm run start:prod` (issue 45, item 2): server/main.ts and its PGlite worker bundled by
 * esbuild into dist/server/ (ES modules, Node 20 and later), packages left to node_modules, so no TypeScript runs
 * at start. The files the server reads beside its sources (migrations, engine.sql, media, the signer's worker) stay
 * in server/ (server/serverFiles.ts finds them from either place).
 *
 *   npx tsx scripts/buildServer.ts   # or: npm run build (the SPA, then this)
 */
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { isStale } from './start.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const serverOutDir = path.join(repoRoot, 'dist', 'server');

/**
 * Writes dist/server/main.js, dist/server/pgliteWorker.js and their shared chunks.
 *
 * @returns the files written, relative to the repository
 * @example await buildServer();
 */
export async function buildServer(): Promise<string[]> {
  await rm(serverOutDir, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: repoRoot,
    entryPoints: { main: 'server/main.ts', pgliteWorker: 'server/db/pgliteWorker.ts' },
    outdir: serverOutDir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    metafile: true,
    logLevel: 'warning',
  });
  // What the bundle read, so serverIsStale can tell when to build again (as dist/spa's record does for the SPA).
  await writeFile(inputsFile, `${JSON.stringify(Object.keys(result.metafile.inputs).filter((file) => !file.startsWith('node_modules/')))}\n`);
  return Object.keys(result.metafile.outputs).filter((file) => !file.endsWith('.map'));
}

const inputsFile = path.join(serverOutDir, 'inputs.json');

/**
 * Whether dist/server must be (re)built: missing, or older than a file the last build read (the SPA's check).
 *
 * @example if (serverIsStale()) await buildServer();
 */
export function serverIsStale(): boolean {
  return isStale(repoRoot, path.join('dist', 'server', 'main.js'), path.join('dist', 'server', 'inputs.json'));
}

/** Builds the server once when it is missing or stale (the kill suites' setup). */
export async function ensureServerBuilt(): Promise<void> {
  if (serverIsStale()) await buildServer();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const files = await buildServer();
  console.log(`buildServer: ${files.length} files in ${path.relative(repoRoot, serverOutDir)}/`);
}
