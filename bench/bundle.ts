/**
 * Figure 1: what /login's first load and a member's sign-in cost on the wire, from the project's own server
 * (bench/wire.ts: Chromium loads the page with the test wallet; each answer's body as sent, br or gzip, plus its
 * headers), against the minimal page of floorPage.ts (its JS files' br copies). /login's first load is what the page
 * needs to render: the document, its CSS, the locale files and the entry and login scripts (the entry chunk's static
 * imports united with the login route's); the sign-in total is every answer up to memberSignLogin's. The gzip of
 * each JS file (level 9) is printed beside them, and each lazy route chunk is a figure of its own.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import { build } from 'vite';
import { keepNodeEnv } from './keepNodeEnv';
import { spaIsStale } from '../tests/e2e/support/build';
import { startServer } from '../tests/e2e/support/server';
import { recordChunkModules, shareByGroup, totalByGroup, type ChunkModules, type GroupShare } from './attribution';
import { buildFloorPage } from './floorPage';
import { gzipBytes, gzipSizeOf, gzipTotal, readManifest, staticClosure, type Manifest } from './manifest';
import { atMost, detail, emit, kib } from './report';
import { measureWire, type WireFigures, type WireFile, type WireLoad } from './wire';

const LOGIN_BUDGET = 155 * 1024;
const SIGN_IN_BUDGET = 180 * 1024;
const ROUTE_BUDGET = 30 * 1024;
const ENTRY_KEY = 'index.html';
const LOGIN_KEY = 'src/routes/login.tsx';
/** Route modules, and lazy parts a route loads on demand under a folder of src/routes (the withdrawal sheet). */
const ROUTE_PATTERN = /^src\/routes\/(?:[^/]+\/)?[^/]+\.tsx$/;
/**
 * Lazy chunks the app asks for as soon as it starts, after the first render: the contract schemas (the config
 * check and the first API call) and the wallet discovery (eager connect); viem's runtime only when a wallet is
 * injected. Not part of the first load (the page renders without them), printed so the whole start is visible.
 */
const AT_START_KEYS = ['api-schema/clientContract.ts', 'src/wallet/discovery.ts'];
/**
 * The wallet path: what loads when a wallet is injected and the member connects and signs. The wallet runtime
 * (viem's client and the request wrapper, src/actors/walletActors.ts) with the first wallet request, then viem's
 * siwe helpers with the signature step (src/actors/authActors.ts), each with its static imports.
 */
const WALLET_RUNTIME_KEY = 'src/wallet/walletRuntime.ts';
const SIWE_KEY_PATTERN = /(^|\/)node_modules\/viem\/_esm\/siwe\/index\.js$/;

export interface BundleOptions {
  repoRoot: string;
  /** Print the package split of every chunk, not only of /login's first load on a miss. */
  verbose: boolean;
}

async function buildSpa(repoRoot: string, outDir: string | undefined, modules: ChunkModules): Promise<void> {
  await keepNodeEnv(() =>
    build({
      configFile: path.join(repoRoot, 'vite.config.ts'),
      root: repoRoot,
      mode: 'production',
      logLevel: outDir ? 'silent' : 'warn',
      plugins: [recordChunkModules(modules)],
      ...(outDir ? { build: { outDir, emptyOutDir: true } } : {}),
    }),
  );
}

/** Sums the files' brotli sizes: the build's .br copies where written, else compressed here at the same level. */
function brTotal(dir: string, files: Iterable<string>): number {
  let total = 0;
  for (const file of files) {
    const full = path.join(dir, file);
    total += existsSync(`${full}.br`)
      ? statSync(`${full}.br`).size
      : brotliCompressSync(readFileSync(full), { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY } }).length;
  }
  return total;
}

function describeWire(load: WireLoad): string {
  return load.files.map((file) => `${file.url.split('?')[0] ?? ''} ${kib(file.bytes)} ${file.encoding}`).join(', ');
}

/**
 * Measures the loads on the wire against the real server (bench/wire.ts) and keeps, as the first load, the answers
 * the page needs to render /login: the document, its CSS, the locale files and the entry and login scripts.
 */
async function measureServed(loginFiles: Set<string>): Promise<WireFigures> {
  const server = await startServer();
  try {
    const { firstLoad, signIn } = await measureWire(server.url);
    const rendersLogin = (file: WireFile) => {
      const pathname = file.url.split('?')[0] ?? '';
      return pathname.startsWith('/login/') || pathname.endsWith('.css') || pathname.startsWith('/locales/') || loginFiles.has(pathname.slice(1));
    };
    const kept = firstLoad.files.filter(rendersLogin);
    return { firstLoad: { files: kept, bytes: kept.reduce((sum, file) => sum + file.bytes, 0) }, signIn };
  } finally {
    await server.stop();
  }
}

function routeName(key: string): string {
  return key.replace(/^src\/routes\//, '').replace(/\.tsx$/, '').replace('/', '.');
}

/** The entry's static closure united with the route's; a route the entry imports statically (login) is in it already. */
function firstLoadOf(manifest: Manifest, routeKey: string): Set<string> {
  const entry = staticClosure(manifest, ENTRY_KEY);
  return manifest[routeKey] ? staticClosure(manifest, routeKey, entry) : entry;
}

/** The files of a member's sign-in in a wallet browser, in load order; each part lists only files not in an earlier one. */
interface SignInParts {
  firstLoad: Set<string>;
  afterFirstRender: string[];
  walletPath: string[];
  /** Chunks the wallet path may import dynamically but that connect and sign do not load (e.g. viem's ccip). */
  offPath: string[];
  /** The manifest keys taken as the wallet path. */
  walletKeys: string[];
}

function signInPartsOf(manifest: Manifest): SignInParts {
  const firstLoad = firstLoadOf(manifest, LOGIN_KEY);
  const atStart = new Set<string>();
  for (const key of AT_START_KEYS) staticClosure(manifest, key, atStart);
  const afterFirstRender = [...atStart].filter((file) => !firstLoad.has(file));
  const walletKeys = [WALLET_RUNTIME_KEY, ...Object.keys(manifest).filter((key) => SIWE_KEY_PATTERN.test(key))];
  const wallet = new Set<string>();
  for (const key of walletKeys) staticClosure(manifest, key, wallet);
  const walletPath = [...wallet].filter((file) => !firstLoad.has(file) && !atStart.has(file));
  const offPath = new Set<string>();
  for (const key of walletKeys) {
    for (const imported of manifest[key]?.dynamicImports ?? []) {
      const file = manifest[imported]?.file;
      if (file && !firstLoad.has(file) && !atStart.has(file) && !wallet.has(file)) offPath.add(file);
    }
  }
  return { firstLoad, afterFirstRender, walletPath, offPath: [...offPath], walletKeys };
}

/** A manifest key as a reader knows it: `viem/_esm/siwe/index.js` rather than a path through node_modules. */
function shortKey(key: string): string {
  const marker = key.lastIndexOf('node_modules/');
  return marker >= 0 ? key.slice(marker + 'node_modules/'.length) : key;
}

function listFiles(dir: string, files: Iterable<string>): string {
  const sized = [...files].map((file) => ({ file, size: gzipSizeOf(dir, file) })).sort((a, b) => b.size - a.size);
  return sized.length === 0 ? 'none' : sized.map(({ file, size }) => `${path.basename(file)} ${kib(size)}`).join(', ');
}

function signedKib(bytes: number): string {
  return `${bytes < 0 ? '-' : '+'}${kib(Math.abs(bytes))}`;
}

function describeShares(label: string, shares: GroupShare[], limit: number): void {
  const listed = shares
    .slice(0, limit)
    .map(({ group, bytes }) => `${group} ${kib(bytes)}`)
    .join(', ');
  detail(`${label}: ${listed}`);
}

/**
 * Measures figure 1 and prints its lines.
 *
 * @param options - repository root and verbosity
 * @returns when printed
 * @example
 * await benchBundle({ repoRoot, verbose: false });
 */
export async function benchBundle(options: BundleOptions): Promise<void> {
  const { repoRoot, verbose } = options;
  const spaDir = path.join(repoRoot, 'dist', 'spa');
  let appModules: ChunkModules | undefined;
  let appModulesDir = spaDir;
  const started = performance.now();
  // One staleness check for npm start, the e2e setup and the bench (scripts/start.mjs needsBuild).
  if (await spaIsStale()) {
    appModules = new Map();
    await buildSpa(repoRoot, undefined, appModules);
    detail(`bundle: built dist/spa in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  } else {
    detail('bundle: reusing dist/spa (nothing it was built from changed)');
  }

  const floor = await buildFloorPage(repoRoot);
  let analysisDir: string | undefined;
  try {
    const manifest = readManifest(spaDir);
    const floorManifest = readManifest(floor.outDir);

    const loginFiles = firstLoadOf(manifest, LOGIN_KEY);
    const floorFiles = firstLoadOf(floorManifest, floor.routeKey);
    const loginGzip = gzipTotal(spaDir, loginFiles);
    const floorGzip = gzipTotal(floor.outDir, floorFiles);
    // The budgets are on what the server sends (bench/wire.ts); the gzip of each JS file is a detail beside it.
    const wire = await measureServed(loginFiles);
    const loginVerdict = atMost(wire.firstLoad.bytes, LOGIN_BUDGET);
    emit({
      name: 'bundle.login.firstLoad',
      value: `${kib(wire.firstLoad.bytes)} on the wire`,
      floor: `${kib(brTotal(floor.outDir, floorFiles))} br`,
      target: `budget <= ${kib(LOGIN_BUDGET)}`,
      verdict: loginVerdict,
      note: `${wire.firstLoad.files.length} answers (document, CSS, the entry and login scripts, locale files; bodies as sent plus headers); the floor is its JS files' br`,
    });
    detail(`bundle.login.wire: ${describeWire(wire.firstLoad)}`);
    detail(`bundle.login.jsGzip: ${kib(loginGzip)} gzip, ${loginFiles.size} JS files, ${signedKib(loginGzip - floorGzip)} over the floor's ${kib(floorGzip)}`);
    const fileList = [...loginFiles].map((file) => ({ file, size: gzipSizeOf(spaDir, file) })).sort((a, b) => b.size - a.size);
    detail(`bundle.login.files: ${fileList.map(({ file, size }) => `${path.basename(file)} ${kib(size)}`).join(', ')}`);
    const asOne = gzipBytes(Buffer.concat(fileList.map(({ file }) => readFileSync(path.join(spaDir, file)))));
    detail(`bundle.login.asOneFile: ${kib(asOne)} gzip if the ${fileList.length} files were one (the split costs ${kib(loginGzip - asOne)})`);
    const cssFiles = new Set<string>();
    for (const key of [ENTRY_KEY, LOGIN_KEY]) for (const file of manifest[key]?.css ?? []) cssFiles.add(file);
    detail(`bundle.login.css: ${kib(gzipTotal(spaDir, cssFiles))} gzip (${listFiles(spaDir, cssFiles)}), not in the figures (JS only)`);

    // What a member in a wallet browser loads to sign in: first load, then what follows the first render, then
    // the wallet path (connect and sign).
    const signIn = signInPartsOf(manifest);
    const afterGzip = gzipTotal(spaDir, signIn.afterFirstRender);
    const walletGzip = gzipTotal(spaDir, signIn.walletPath);
    const signInGzip = loginGzip + afterGzip + walletGzip;
    const signInCount = loginFiles.size + signIn.afterFirstRender.length + signIn.walletPath.length;
    const signInVerdict = atMost(wire.signIn.bytes, SIGN_IN_BUDGET);
    emit({
      name: 'bundle.signIn.total',
      value: `${kib(wire.signIn.bytes)} on the wire`,
      floor: `${kib(brTotal(floor.outDir, floorFiles))} br`,
      target: `budget <= ${kib(SIGN_IN_BUDGET)}`,
      verdict: signInVerdict,
      note: `every answer up to memberSignLogin's, ${wire.signIn.files.length} answers; the floor has no wallet path`,
    });
    detail(`bundle.signIn.wire: ${describeWire(wire.signIn)}`);
    detail(`bundle.signIn.jsGzip: ${kib(signInGzip)} gzip (first load ${kib(loginGzip)} + after first render ${kib(afterGzip)} + wallet path ${kib(walletGzip)}; ${signInCount} files)`);
    detail(`bundle.login.afterFirstRender: +${kib(afterGzip)} requested at start whatever the wallet (${listFiles(spaDir, signIn.afterFirstRender)})`);
    detail(
      `bundle.signIn.walletPath: +${kib(walletGzip)} when a wallet is injected and the member connects and signs ` +
        `(${listFiles(spaDir, signIn.walletPath)}; from ${signIn.walletKeys.map(shortKey).join(', ')})`,
    );
    if (signIn.offPath.length > 0) detail(`bundle.signIn.offPath: not counted, loaded only by calls the app does not make: ${listFiles(spaDir, signIn.offPath)}`);

    const entryFiles = staticClosure(manifest, ENTRY_KEY);
    const floorEntryFiles = staticClosure(floorManifest, ENTRY_KEY);
    const floorRouteFile = floorManifest[floor.routeKey]?.file;
    if (!floorRouteFile) throw new Error(`floor manifest has no ${floor.routeKey}`);
    const floorRouteOwn = gzipSizeOf(floor.outDir, floorRouteFile);
    const floorRouteWith = gzipTotal(floor.outDir, [...staticClosure(floorManifest, floor.routeKey)].filter((f) => !floorEntryFiles.has(f)));

    const routeKeys = Object.keys(manifest)
      .filter((key) => ROUTE_PATTERN.test(key) && manifest[key]?.isDynamicEntry)
      .sort();
    if (routeKeys.length === 0) throw new Error('no lazy route chunk (src/routes/*.tsx) in the manifest');
    for (const key of routeKeys) {
      const chunk = manifest[key];
      if (!chunk) continue;
      const own = gzipSizeOf(spaDir, chunk.file);
      const extra = [...staticClosure(manifest, key)].filter((file) => !entryFiles.has(file));
      const withImports = gzipTotal(spaDir, extra);
      const name = routeName(key);
      emit({
        name: `bundle.route.${name}`,
        value: `${kib(own)} gzip`,
        floor: `${kib(floorRouteOwn)} gzip`,
        target: `budget <= ${kib(ROUTE_BUDGET)}`,
        verdict: atMost(own, ROUTE_BUDGET),
      });
      emit({
        name: `bundle.route.${name}.withImports`,
        value: `${kib(withImports)} gzip`,
        floor: `${kib(floorRouteWith)} gzip`,
        target: `budget <= ${kib(ROUTE_BUDGET)}`,
        verdict: atMost(withImports, ROUTE_BUDGET),
        note: `${extra.length} files not loaded by the entry`,
      });
    }

    // The operators' desk (ops.html, its own build: .vite/ops-manifest.json): what an operator's first visit runs,
    // its home the overview with it, and the chart library apart (loaded when finance's overview draws money).
    const desk = readManifest(spaDir, 'ops-manifest.json');
    const deskEntry = staticClosure(desk, 'ops.html');
    const deskHome = [...staticClosure(desk, 'src/ops/screens/overview.tsx')].filter((file) => !deskEntry.has(file));
    const chart = Object.entries(desk).filter(([key]) => key.includes('node_modules/uplot/')).map(([, chunk]) => chunk.file);
    emit({
      name: 'bundle.desk.firstLoad',
      value: `${kib(gzipTotal(spaDir, [...deskEntry, ...deskHome]))} gzip`,
      floor: '-',
      target: 'measured',
      verdict: 'INFO',
      note: `ops.html's ${deskEntry.size} JS files and the overview's ${deskHome.length}; the chart apart: ${kib(gzipTotal(spaDir, chart))} gzip`,
    });

    // Which packages fill the first load (and the rest of the sign-in): printed on a miss or with --verbose.
    if (loginVerdict === 'MISS' || signInVerdict === 'MISS' || verbose) {
      if (!appModules) {
        appModules = new Map();
        analysisDir = await mkdtemp(path.join(os.tmpdir(), 'bench-spa-'));
        await buildSpa(repoRoot, analysisDir, appModules);
        appModulesDir = analysisDir;
      }
      const analysisManifest = appModulesDir === spaDir ? manifest : readManifest(appModulesDir);
      const analysisFiles = firstLoadOf(analysisManifest, LOGIN_KEY);
      const same = [...analysisFiles].sort().join() === [...loginFiles].sort().join();
      if (!same) detail('bundle: note: the analysis build emitted other file names than dist/spa; shares are of the analysis build');
      const sharesOf = (dir: string, files: Iterable<string>, modules: ChunkModules, root = repoRoot): Map<string, GroupShare[]> => {
        const result = new Map<string, GroupShare[]>();
        for (const file of files) result.set(file, shareByGroup(modules.get(file) ?? new Map(), gzipSizeOf(dir, file), root));
        return result;
      };
      const appShares = sharesOf(appModulesDir, analysisFiles, appModules);
      const floorShares = sharesOf(floor.outDir, floorFiles, floor.modules, floor.root);
      if (signInVerdict === 'MISS' || verbose) {
        const parts = signInPartsOf(analysisManifest);
        const rest = sharesOf(appModulesDir, [...parts.afterFirstRender, ...parts.walletPath], appModules);
        detail('bundle.signIn.packages (estimated gzip share after the first load: after first render and wallet path):');
        for (const { group, bytes } of totalByGroup([...rest.values()]).slice(0, verbose ? 40 : 15)) detail(`  ${group.padEnd(36)} ${kib(bytes).padStart(11)}`);
      }
      const appTotal = totalByGroup([...appShares.values()]);
      const floorTotal = new Map(totalByGroup([...floorShares.values()]).map(({ group, bytes }) => [group, bytes]));
      detail('bundle.login.packages (estimated gzip share in /login first load, vs the floor page):');
      for (const { group, bytes } of appTotal.slice(0, verbose ? 40 : 15)) {
        const inFloor = floorTotal.get(group) ?? 0;
        detail(`  ${group.padEnd(36)} ${kib(bytes).padStart(11)} | floor ${kib(inFloor).padStart(11)} | ${signedKib(bytes - inFloor)}`);
      }
      for (const [file, shares] of appShares) describeShares(`bundle.chunk ${path.basename(file)}`, shares, verbose ? 12 : 6);
      if (verbose) {
        const rest = new Set(Object.values(analysisManifest).map((chunk) => chunk.file).filter((file) => file.endsWith('.js')));
        for (const file of analysisFiles) rest.delete(file);
        const restShares = sharesOf(appModulesDir, rest, appModules);
        for (const [file, shares] of restShares) describeShares(`bundle.chunk ${path.basename(file)} (lazy)`, shares, 12);
        for (const [file, shares] of floorShares) describeShares(`bundle.floorChunk ${path.basename(file)}`, shares, 12);
      }
    }
  } finally {
    await floor.cleanup();
    if (analysisDir) await rm(analysisDir, { recursive: true, force: true });
  }
}
