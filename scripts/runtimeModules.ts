/**
 * The node_modules folders the compiled server loads at run time (the Dockerfile's runtime stage copies exactly
 * these): the packages scripts/buildServer.ts leaves out of the bundle (SERVER_EXTERNALS) and everything they need,
 * resolved from package-lock.json the way Node resolves an import (a nested node_modules first, then each parent's).
 * Hand-written over `npm ci --omit=dev`, which would install every dependency the bundle already holds (fastify,
 * viem, zod, drizzle: tens of MB the image never loads).
 *
 *   npx tsx scripts/runtimeModules.ts                 # the list
 *   npx tsx scripts/runtimeModules.ts --copy-to /out  # the folders, copied under /out/node_modules (the Dockerfile)
 */
import { cp, readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_EXTERNALS } from './buildServer';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface LockedPackage {
  version?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  dev?: boolean;
}

/** Where Node finds `name` from the package at `from` ('' for the project): the lockfile's key, or undefined. */
function resolve(packages: Record<string, LockedPackage>, from: string, name: string): string | undefined {
  let base = from;
  for (;;) {
    const candidate = base === '' ? `node_modules/${name}` : `${base}/node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (base === '') return undefined;
    const cut = base.lastIndexOf('/node_modules/');
    base = cut === -1 ? '' : base.slice(0, cut);
  }
}

/**
 * The lockfile keys (node_modules paths) of the server's run-time packages and all they need.
 *
 * @param installedOnly - keep only folders present in this checkout's node_modules (platform-specific optional ones)
 * @returns the paths, sorted, with each package's version
 * @example
 * const modules = await runtimeModules(); // [{ path: 'node_modules/jsdom', version: '27.4.0' }, ...]
 */
export async function runtimeModules(installedOnly = false): Promise<{ path: string; version: string }[]> {
  const lock = JSON.parse(await readFile(path.join(repoRoot, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockedPackage> };
  const found = new Map<string, string>();
  const visit = (key: string) => {
    if (found.has(key)) return;
    const locked = lock.packages[key];
    if (!locked) return;
    if (installedOnly && !existsSync(path.join(repoRoot, key))) return;
    found.set(key, locked.version ?? '');
    const optionalPeers = new Set(Object.entries(locked.peerDependenciesMeta ?? {}).filter(([, meta]) => meta.optional).map(([name]) => name));
    const needs = [...Object.keys(locked.dependencies ?? {}), ...Object.keys(locked.optionalDependencies ?? {}), ...Object.keys(locked.peerDependencies ?? {}).filter((name) => !optionalPeers.has(name))];
    for (const name of needs) {
      const resolved = resolve(lock.packages, key, name);
      if (resolved) visit(resolved);
    }
  };
  for (const name of SERVER_EXTERNALS.installed) {
    const key = resolve(lock.packages, '', name);
    if (!key) throw new Error(`package-lock.json has no ${name}, which the compiled server loads`);
    visit(key);
  }
  return [...found].map(([key, version]) => ({ path: key, version })).sort((a, b) => a.path.localeCompare(b.path));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const at = process.argv.indexOf('--copy-to');
  const modules = await runtimeModules(true);
  if (at === -1) {
    for (const entry of modules) console.log(`${entry.path}@${entry.version}`);
  } else {
    const target = process.argv[at + 1];
    if (!target) throw new Error('--copy-to needs a folder');
    // A nested folder is copied with its parent's too; copying it again changes nothing.
    for (const entry of modules) await cp(path.join(repoRoot, entry.path), path.join(target, entry.path), { recursive: true, force: true });
    console.log(`runtimeModules: ${modules.length} packages copied under ${target}/node_modules`);
  }
}
