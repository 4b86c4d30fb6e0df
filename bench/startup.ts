/**
 * Figure 4: time from spawning `node --import tsx server/main.ts` to the first 200 of GET /api/dapp/dappParam,
 * with an empty DATA_DIR (PGlite initdb, migrations, seed) and again with the same, now existing, DATA_DIR.
 * The floor is the same spawn and probe of a bare Fastify program (floorServer.ts): node + tsx + Fastify.
 * Then the compiled server (`npm run start:prod`, dist/server/main.js; at most 1.5 s on existing
 * data) as a deployer runs it (NODE_ENV=production, its chain configured and already running), against the same
 * floor bundled by esbuild as the server is: node + Fastify, no tsx. The compiled figure is the median of three
 * restarts, each right after a run of its floor, with the server's own step times (its startMs log) beside it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { build } from 'esbuild';
import { ensureServerBuilt } from '../scripts/buildServer';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Address } from 'viem';
import { startDevChain } from '../server/chain/devChain';
import { SEED_TEAM } from '../server/seed/content';
import { freePort, sleep } from './net';
import { detail, emit, ms } from './report';

const PROBE_PATH = '/api/dapp/dappParam';
// A start on an empty DATA_DIR (initdb, the chain deployed) took 36-60+ s through tsx on the loaded 2-core host.
const START_TIMEOUT_MS = 180_000;
const STOP_TIMEOUT_MS = 15_000;

function childEnv(port: number, devChainPort: number, dataDir: string, extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  // DEV_CHAIN_PORT: a port of its own, not 8545, where another `npm start` on the machine may run its chain.
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DEV_CHAIN_PORT: String(devChainPort) };
  // PGlite is what this figure is about; a PostgreSQL URL or a fixed domain in the bench's environment must not leak in.
  delete env.DATABASE_URL;
  delete env.SIWE_DOMAIN;
  return { ...env, ...extra };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}

/** One start: milliseconds from spawn to the first 200, and the server's own step times if it logged them. */
export interface StartRun {
  ms: number;
  /** `startMs` of the server's "listening" log line (server/main.ts): milliseconds from its start to each step. */
  steps?: Record<string, number>;
}

/**
 * Spawns a program and measures until the probe answers 200; the child is stopped (SIGTERM, then waited for)
 * before returning.
 *
 * @param script - path of the program, relative to repoRoot: TypeScript runs through tsx, JavaScript as it is
 * @param repoRoot - working directory
 * @param dataDir - DATA_DIR for the child
 * @param extra - more environment for the child (a configured chain)
 * @returns milliseconds from spawn to the first 200, and the server's step times
 * @throws when the child exits or does not answer within 180 s
 * @example
 * const { ms } = await startOnce('server/main.ts', repoRoot, dir);
 */
export async function startOnce(script: string, repoRoot: string, dataDir: string, extra: NodeJS.ProcessEnv = {}): Promise<StartRun> {
  const port = await freePort();
  const devChainPort = await freePort();
  const started = performance.now();
  const args = script.endsWith('.ts') ? ['--import', 'tsx', script] : [script];
  const child = spawn(process.execPath, args, {
    cwd: repoRoot,
    env: childEnv(port, devChainPort, dataDir, extra),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let steps: Record<string, number> | undefined;
  let stdout = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
    const lines = stdout.split('\n');
    stdout = lines.pop() ?? '';
    for (const line of lines) if (line.includes('"startMs"')) steps = stepsOf(line) ?? steps;
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-2_000);
  });
  try {
    while (performance.now() - started < START_TIMEOUT_MS) {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`${script} exited (${child.exitCode ?? child.signalCode}) before answering: ${stderr.trim()}`);
      }
      try {
        const response = await fetch(`http://127.0.0.1:${port}${PROBE_PATH}`, { signal: AbortSignal.timeout(2_000) });
        await response.arrayBuffer();
        if (response.status === 200) return { ms: performance.now() - started, ...(steps ? { steps } : {}) };
      } catch {
        // not listening yet
      }
      await sleep(20);
    }
    throw new Error(`${script} did not answer ${PROBE_PATH} within ${START_TIMEOUT_MS} ms: ${stderr.trim()}`);
  } finally {
    await stopChild(child);
  }
}

/** The startMs of a JSON log line, or undefined. */
function stepsOf(line: string): Record<string, number> | undefined {
  try {
    const parsed: unknown = JSON.parse(line);
    if (typeof parsed !== 'object' || parsed === null || !('startMs' in parsed)) return undefined;
    const { startMs } = parsed;
    if (typeof startMs !== 'object' || startMs === null) return undefined;
    return Object.fromEntries(Object.entries(startMs).filter((entry): entry is [string, number] => typeof entry[1] === 'number'));
  } catch {
    return undefined;
  }
}

/**
 * Milliseconds from spawning a program to its first 200 (startOnce without the step times).
 *
 * @example
 * const coldMs = await timeToFirstAnswer('server/main.ts', repoRoot, dir);
 */
export async function timeToFirstAnswer(script: string, repoRoot: string, dataDir: string, extra: NodeJS.ProcessEnv = {}): Promise<number> {
  return (await startOnce(script, repoRoot, dataDir, extra)).ms;
}

/** The middle of an odd number of runs (by ms). */
function medianRun<T extends { ms: number }>(runs: readonly T[]): T {
  const sorted = [...runs].sort((a, b) => a.ms - b.ms);
  const middle = sorted[Math.floor(sorted.length / 2)];
  if (!middle) throw new Error('no runs');
  return middle;
}

/** Timed restarts of the compiled server, each after a run of its floor: the host's load changes within seconds. */
const COMPILED_RUNS = 3;

/**
 * Measures figure 4 and prints its lines.
 *
 * @param repoRoot - repository root
 * @param dataDir - an empty folder for DATA_DIR; left in place (a migrated, seeded PGlite) for the caller
 * @returns when printed
 * @example
 * await benchStartup(repoRoot, await mkdtemp(path.join(os.tmpdir(), 'bench-')));
 */
export async function benchStartup(repoRoot: string, dataDir: string): Promise<void> {
  const floorDir = await mkdtemp(path.join(os.tmpdir(), 'bench-floordir-'));
  try {
    const floor = await timeToFirstAnswer('bench/floorServer.ts', repoRoot, floorDir);
    const empty = await timeToFirstAnswer('server/main.ts', repoRoot, dataDir);
    const existing = await timeToFirstAnswer('server/main.ts', repoRoot, dataDir);
    const floorText = `${ms(floor)} (node --import tsx + bare Fastify)`;
    emit({ name: 'startup.emptyDataDir', value: ms(empty), floor: floorText, target: '-', verdict: 'INFO', note: 'PGlite initdb + migrations + seed + listen' });
    emit({ name: 'startup.existingDataDir', value: ms(existing), floor: floorText, target: '-', verdict: 'INFO', note: 'same DATA_DIR again' });
    // The compiled server and a floor compiled as it is (dist/bench-floor.js): Fastify bundled in, as the server's
    // packages are (scripts/buildServer.ts).
    await ensureServerBuilt();
    const floorJs = path.join('dist', 'bench-floor.js');
    await build({
      absWorkingDir: repoRoot,
      entryPoints: ['bench/floorServer.ts'],
      outfile: floorJs,
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node24',
      banner: { js: "import { createRequire as __floorRequire } from 'node:module'; const require = __floorRequire(import.meta.url);" },
      logLevel: 'warning',
    });
    // A production start has its chain configured (docs/operations.md, "Production"): the node runs outside the
    // measured span, as a deployer's does, here the development chain the runs above left in DATA_DIR/chain, now on a
    // port of its own.
    const chain = await startDevChain({ dataDir, port: await freePort(), fund: SEED_TEAM.map((member) => member.address as Address) });
    const floors: StartRun[] = [];
    const restarts: StartRun[] = [];
    try {
      const { rpcUrls, token, treasury, confirmations } = chain.settings;
      const production = { NODE_ENV: 'production', SEED: 'demo', CHAIN_RPC_URL: rpcUrls.join(','), TOKEN_ADDRESS: token, TREASURY_ADDRESS: treasury, CONFIRMATIONS: String(confirmations) };
      const server = path.join('dist', 'server', 'main.js');
      // Once untimed: the first start of a new build fills Node's compile cache (dist/server/main.js), as a
      // deployment's first start does; the figure is a restart.
      await startOnce(server, repoRoot, dataDir, production);
      for (let run = 0; run < COMPILED_RUNS; run += 1) {
        floors.push(await startOnce(floorJs, repoRoot, floorDir));
        restarts.push(await startOnce(server, repoRoot, dataDir, production));
      }
    } finally {
      await chain.node.stop();
    }
    const compiled = medianRun(restarts);
    const compiledFloor = medianRun(floors).ms;
    emit({
      name: 'startup.compiled.existingDataDir',
      value: ms(compiled.ms),
      floor: `${ms(compiledFloor)} (node + bare Fastify, bundled)`,
      target: '<= 1500 ms',
      verdict: compiled.ms <= 1_500 ? 'PASS' : 'MISS',
      note: `npm run start:prod restarted on the same DATA_DIR, NODE_ENV=production, chain configured (its node started before); median of ${COMPILED_RUNS}, each after a floor run`,
    });
    detail(`startup.compiled runs: ${restarts.map((run) => ms(run.ms)).join(', ')}; floor ${floors.map((run) => ms(run.ms)).join(', ')}`);
    // The server's own clock (from its process's start), for the median run: where the time went.
    if (compiled.steps) detail(`startup.compiled.steps (ms from the process's start): ${Object.entries(compiled.steps).map(([step, at]) => `${step} ${at}`).join(', ')}`);
  } finally {
    await rm(floorDir, { recursive: true, force: true });
  }
}
