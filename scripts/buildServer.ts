/**
 * Compiles the server for `npm run start:prod`: server/main.ts and its PGlite worker bundled by
 * esbuild into dist/server/ (ES modules for Node 24), so no TypeScript runs at start. The packages are bundled too:
 * Node 22 and 24 look up the package.json scope of every module they load from node_modules, which cost the start
 * about 3 s of CPU for the 1,200 files of fastify, viem, zod and drizzle (docs/operations.md, "Production"; ADR 0027).
 * Left to node_modules: PGlite (it finds its WebAssembly and data files next to its module), jsdom (loaded on the first
 * content save, with files of its own) and secp256k1 (its native binding, found beside its module). The files the
 * server reads beside its sources (migrations, engine.sql, media, the signer's worker) stay in server/
 * (server/serverFiles.ts finds them from either place). The operators' CLI (scripts/ops.ts) is compiled beside it, to
 * dist/server/opsCli.js (`npm run ops:prod`), since a production install has no tsx to run `npm run ops` with.
 *
 * It also checks that package.json's `dependencies` are exactly the packages the server's own files import: what a
 * production install (`npm ci --omit=dev`) must hold. Anything else (the SPA's packages, the build, the tests, the
 * development chain's anvil) is a devDependency.
 *
 *   npx tsx scripts/buildServer.ts   # or: npm run build (the SPA, then this)
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { isStale } from './start.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * What the bundle leaves to node_modules: the packages it loads from there at run time (what a production install and
 * the Dockerfile's runtime stage must hold: scripts/runtimeModules.ts), and optional native add-ons never installed:
 * pg's binding (loaded only when asked for) and ws's speed-ups (required inside a try, used when present).
 */
export const SERVER_EXTERNALS = {
  installed: ['@electric-sql/pglite', 'jsdom', 'secp256k1'],
  neverInstalled: ['bufferutil', 'pg-native', 'utf-8-validate'],
} as const;

export const serverOutDir = path.join(repoRoot, 'dist', 'server');

/**
 * Writes dist/server/server.js (the server), main.js (its launcher), pgliteWorker.js, opsCli.js (the operators'
 * CLI) and their shared chunks.
 *
 * @returns the files written, relative to the repository
 * @example await buildServer();
 */
export async function buildServer(): Promise<string[]> {
  await rm(serverOutDir, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: repoRoot,
    // server/main.ts becomes server.js; main.js is the launcher below, which loads earlyPglite.js first.
    entryPoints: {
      server: 'server/main.ts',
      earlyPglite: 'server/db/earlyPglite.ts',
      pgliteWorker: 'server/db/pgliteWorker.ts',
      // The signer's fallback worker (server/auth/signerPool.ts), with viem bundled: production installs hold no viem.
      signerWorker: 'server/auth/signerWorker.mjs',
      opsCli: 'scripts/ops.ts',
    },
    outdir: serverOutDir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node24',
    // pg-native: pg's optional native binding, never installed here (pg loads it only when asked for). secp256k1: its
    // binding finds its prebuilt .node file from its own folder (server/auth/signerRecovery.ts).
    external: [...SERVER_EXTERNALS.installed, ...SERVER_EXTERNALS.neverInstalled],
    // The CommonJS packages in the bundle (fastify's) call require() for Node's own modules.
    banner: { js: "import { createRequire as __serverRequire } from 'node:module'; const require = __serverRequire(import.meta.url);" },
    sourcemap: true,
    metafile: true,
    logLevel: 'warning',
  });
  await checkDependencies(result.metafile);
  // What the bundle imports from node_modules at run time, from esbuild's own record: the packages a production
  // install or the Dockerfile's runtime stage must hold (tests/server/deployKit.test.ts compares it with SERVER_EXTERNALS).
  await writeFile(path.join(serverOutDir, 'externals.json'), `${JSON.stringify(externalPackages(result.metafile))}\n`);
  await writeFile(path.join(serverOutDir, 'main.js'), launcher(await enginesNode()));
  // What the bundle read, so serverIsStale can tell when to build again (as dist/spa's record does for the SPA); the
  // lockfile stands for the bundled packages.
  const ownInputs = Object.keys(result.metafile.inputs).filter((file) => !isPackageFile(file));
  // This script (the launcher is written here) and package.json (engines) too.
  await writeFile(inputsFile, `${JSON.stringify([...ownInputs, 'package-lock.json', 'package.json', 'scripts/buildServer.ts'])}\n`);
  return [...Object.keys(result.metafile.outputs).filter((file) => !file.endsWith('.map')), path.relative(repoRoot, path.join(serverOutDir, 'main.js'))];
}

/**
 * dist/server/main.js: turns on V8's compile cache (in NODE_COMPILE_CACHE, or the system's temporary folder) before
 * the bundle loads, then runs it as server/main.ts runs when started directly. Compiling the 4.7 MB bundle cost
 * about 0.55 s of CPU at every start; from the cache, 0.09 s. Before the bundle, it begins to open the database that
 * DATA_DIR already holds (server/db/earlyPglite.ts, a few kB): PGlite's worker opens it on the second core while
 * the bundle loads (ADR 0029).
 */
const launcher = (nodeAtLeast: readonly [number, number]) => `// The compiled server's entry (scripts/buildServer.ts): Node's version first, V8's compile cache, the database's
// worker, the server.
import module from 'node:module';
import { hostname } from 'node:os';
// One JSON line in pino's shape (server/logLine.ts), written before any of the server's modules load.
const fatal = (msg, err) =>
  console.error(JSON.stringify({ level: 60, time: Date.now(), pid: process.pid, hostname: hostname(), ...(err ? { err: { type: err.name, message: err.message, stack: err.stack } } : {}), msg }));
// package.json's engines: an older Node is refused here, in one line, before anything fails in a stranger way.
const NODE_AT_LEAST = ${JSON.stringify(nodeAtLeast)};
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < NODE_AT_LEAST[0] || (major === NODE_AT_LEAST[0] && minor < NODE_AT_LEAST[1])) {
  const wanted = NODE_AT_LEAST[1] ? NODE_AT_LEAST.join('.') : String(NODE_AT_LEAST[0]);
  fatal('Node ' + process.versions.node + ' is older than this server needs (package.json engines: node >=' + wanted + '); start it with Node ' + wanted + ' or later');
  process.exit(1);
}
const cache = module.enableCompileCache?.();
// Worker threads turn theirs on from the environment they inherit (PGlite's, the signer's).
if (cache?.directory) process.env.NODE_COMPILE_CACHE ??= cache.directory;
const { openExistingPgliteEarly } = await import('./earlyPglite.js');
const early = { pglite: openExistingPgliteEarly(process.env) };
const { main } = await import('./server.js');
main(process.env, early).catch((error) => {
  fatal(error instanceof Error ? error.message : String(error), error instanceof Error ? error : undefined);
  process.exit(1);
});
`;

/**
 * The oldest Node package.json's engines allows (`>=24` or `>=24.1`), which the launcher refuses to start below.
 *
 * @returns major and minor
 * @throws when engines.node is not such a range
 * @example const [major] = await enginesNode();
 */
export async function enginesNode(): Promise<[number, number]> {
  const manifest = JSON.parse(await readFile(path.join(repoRoot, 'package.json'), 'utf8')) as { engines?: { node?: string } };
  const match = /^>=\s*(\d+)(?:\.(\d+))?(?:\.\d+)?$/.exec(manifest.engines?.node?.trim() ?? '');
  if (!match) throw new Error(`package.json engines.node must be ">=major[.minor]", not ${manifest.engines?.node ?? 'missing'}`);
  return [Number(match[1]), Number(match[2] ?? 0)];
}

/**
 * The packages the bundle's outputs import and leave external (Node's own modules aside), sorted.
 *
 * @param metafile - esbuild's metafile
 * @returns the package names
 * @example externalPackages(result.metafile); // ['@electric-sql/pglite', 'jsdom', 'pg-native', 'secp256k1']
 */
function externalPackages(metafile: Metafile): string[] {
  const imports = Object.values(metafile.outputs).flatMap((output) => output.imports.filter((entry) => entry.external).map((entry) => entry.path));
  return [...new Set(imports.filter((specifier) => !specifier.startsWith('node:') && !builtinModules.includes(specifier)).map(packageOf))].sort();
}

/**
 * Whether a bundled file is a package's: under node_modules/, or under ../x/node_modules/ when node_modules is a link
 * to another checkout's (esbuild names files by their real path).
 */
function isPackageFile(file: string): boolean {
  return file.startsWith('node_modules/') || file.includes('/node_modules/');
}

/** The npm package a bare import names (`viem/accounts` -> `viem`, `@fastify/static` -> `@fastify/static`). */
function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

/**
 * The packages the server's own files import (not their packages' imports, not Node's modules).
 *
 * @example packagesImported(result.metafile) // ['@electric-sql/pglite', 'fastify', ...]
 */
export function packagesImported(metafile: Metafile): string[] {
  const packages = new Set<string>();
  for (const [file, input] of Object.entries(metafile.inputs)) {
    if (isPackageFile(file)) continue;
    for (const entry of input.imports) {
      // A bundled import keeps its specifier in `original`; an external one is its `path`.
      const specifier = entry.original ?? (entry.external ? entry.path : undefined);
      if (specifier === undefined || specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:')) continue;
      packages.add(packageOf(specifier));
    }
  }
  return [...packages].sort();
}

/** Fails the build when package.json's dependencies are not exactly what the server imports. */
async function checkDependencies(metafile: Metafile): Promise<void> {
  const manifest = JSON.parse(await readFile(path.join(repoRoot, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  const declared = new Set(Object.keys(manifest.dependencies ?? {}));
  const imported = packagesImported(metafile);
  const missing = imported.filter((name) => !declared.has(name));
  const unused = [...declared].filter((name) => !imported.includes(name));
  if (missing.length === 0 && unused.length === 0) return;
  throw new Error(
    'buildServer: package.json dependencies must be exactly what the server imports (a production install holds only them; docs/operations.md, "Production"):' +
      (missing.length > 0 ? ` move to dependencies: ${missing.join(', ')}.` : '') +
      (unused.length > 0 ? ` not imported by the server, move to devDependencies: ${unused.join(', ')}.` : ''),
  );
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
