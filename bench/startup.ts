/**
 * Figure 4: time from spawning `node --import tsx server/main.ts` to the first 200 of GET /api/dapp/dappParam,
 * with an empty DATA_DIR (PGlite initdb, migrations, seed) and again with the same, now existing, DATA_DIR.
 * The floor is the same spawn and probe of a bare Fastify program (floorServer.ts): node + tsx + Fastify.
 * Then the compiled server (`npm run start:prod`, dist/server/main.js; issue 45, item 2: at most 1.5 s on existing
 * data) against the same floor compiled by esbuild: node + Fastify, no tsx.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { build } from 'esbuild';
import { ensureServerBuilt } from '../scripts/buildServer';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort, sleep } from './net';
import { emit, ms } from './report';

const PROBE_PATH = '/api/dapp/dappParam';
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 15_000;

function childEnv(port: number, dataDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir };
  // PGlite is what this figure is about; a PostgreSQL URL or a fixed domain in the bench's environment must not leak in.
  delete env.DATABASE_URL;
  delete env.SIWE_DOMAIN;
  return env;
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}

/**
 * Spawns a program and measures until the probe answers 200; the child is stopped (SIGTERM, then waited for)
 * before returning.
 *
 * @param script - path of the program, relative to repoRoot: TypeScript runs through tsx, JavaScript as it is
 * @param repoRoot - working directory
 * @param dataDir - DATA_DIR for the child
 * @returns milliseconds from spawn to the first 200
 * @throws when the child exits or does not answer within 60 s
 * @example
 * const coldMs = await timeToFirstAnswer('server/main.ts', repoRoot, dir);
 */
export async function timeToFirstAnswer(script: string, repoRoot: string, dataDir: string): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const args = script.endsWith('.ts') ? ['--import', 'tsx', script] : [script];
  const child = spawn(process.execPath, args, {
    cwd: repoRoot,
    env: childEnv(port, dataDir),
    stdio: ['ignore', 'ignore', 'pipe'],
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
        if (response.status === 200) return performance.now() - started;
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
    // The compiled server and a compiled floor (dist/bench-floor.js, beside node_modules so Fastify resolves).
    await ensureServerBuilt();
    const floorJs = path.join('dist', 'bench-floor.js');
    await build({ absWorkingDir: repoRoot, entryPoints: ['bench/floorServer.ts'], outfile: floorJs, bundle: true, format: 'esm', platform: 'node', packages: 'external', logLevel: 'warning' });
    const compiledFloor = await timeToFirstAnswer(floorJs, repoRoot, floorDir);
    const compiled = await timeToFirstAnswer(path.join('dist', 'server', 'main.js'), repoRoot, dataDir);
    emit({
      name: 'startup.compiled.existingDataDir',
      value: ms(compiled),
      floor: `${ms(compiledFloor)} (node + bare Fastify, compiled)`,
      target: '<= 1500 ms',
      verdict: compiled <= 1_500 ? 'PASS' : 'MISS',
      note: 'npm run start:prod on the same DATA_DIR',
    });
  } finally {
    await rm(floorDir, { recursive: true, force: true });
  }
}
