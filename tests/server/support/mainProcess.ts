/**
 * The server as `npm run start:prod` runs it, in a child process (server/main.ts compiled, with its development chain), for the suites
 * that kill it (kill -9) and start it again: start, the storages it runs on, and a member signed in over HTTP.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { freePort } from '../../../server/chain/anvil';
import { openScratchPostgres, postgresUrl } from './databases';
import { copyPgliteTemplate } from '../../support/pgliteTemplate';
import { TEST_TREASURY_ADDRESS } from '../../support/treasury';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export interface RunningMain {
  child: ChildProcess;
  output: () => string;
  /** Resolves when the process has exited (at once if it has). */
  exited: () => Promise<void>;
}

/**
 * Starts the compiled server/main.ts and resolves once it listens.
 *
 * @param env - its environment on top of this process's
 * @param options - the folder it runs in (default: the repository; a production layout elsewhere: deployKit.test.ts)
 * @returns the child, its output so far and its exit
 * @example
 * const server = await startMain({ PORT: '8090', DATA_DIR: dir });
 */
export async function startMain(env: Record<string, string>, options: { cwd?: string } = {}): Promise<RunningMain> {
  // Not the test run's DATABASE_URL (.ci/with-postgres.sh sets it for the shared test database, which other suites
  // reset and disconnect): PGlite unless `env` names a database of its own.
  const { DATABASE_URL: _shared, ...inherited } = process.env;
  // The compiled server (`npm run start:prod`; the unit project's globalSetup builds it from server/main.ts): a
  // start costs about 40 % less than through tsx, and it is what a deployment runs. V8 keeps PGlite's WebAssembly
  // at its first tier (--liftoff-only): optimising it cost each start about 1.1-1.3 s of CPU on the second core, never
  // paid back by a process that lives seconds (on PGlite, 4.0 -> 2.9 CPU-s from spawn to 1.5 s after listening, and
  // 5.1 -> 3.8 CPU-s over 10 s of rounds every 250 ms). The same code runs; only how V8 compiles it differs.
  const child = spawn(process.execPath, ['--liftoff-only', 'dist/server/main.js'], { cwd: options.cwd ?? repoRoot, env: { ...inherited, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  // Resolved by the banner (looked for in each chunk as it comes, not polled every 200 ms), or failed by an exit before it.
  let started: { resolve: () => void; reject: (error: Error) => void } | undefined;
  const listening = new Promise<void>((resolve, reject) => (started = { resolve, reject }));
  const keep = (chunk: Buffer) => {
    output += chunk.toString();
    // The banner: a server started to die at a payer step (PAYER_FAULT_AT) may already have done so by the time the
    // caller looks, after listening; the caller waits for that exit itself.
    if (output.includes('Credit on chain:')) started?.resolve();
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exit = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // 'close': after the exit and the last of its output (the banner may come after 'exit').
  child.once('close', () => started?.reject(new Error(`server/main.ts exited: ${output}`)));
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`not listening within 90 s: ${output.slice(-600)}`)), 90_000);
  });
  try {
    await Promise.race([listening, late]);
  } catch (error) {
    // Not left running by a start that failed.
    child.kill('SIGKILL');
    throw error;
  } finally {
    clearTimeout(timer);
  }
  return { child, output: () => output, exited: () => exit };
}

/** PGlite in DATA_DIR always; PostgreSQL too when the run has it (a scratch database of its own). */
export const mainStorages: { name: string; banner: string; database: () => Promise<{ env: Record<string, string>; drop: () => Promise<void> }> }[] = [
  { name: 'PGlite', banner: '(storage: PGlite in ', database: async () => ({ env: {}, drop: async () => undefined }) },
  ...(postgresUrl
    ? [
        {
          name: 'PostgreSQL',
          banner: '(storage: PostgreSQL)',
          database: async () => {
            const scratch = await openScratchPostgres(postgresUrl ?? '');
            // Only its URL: the server opens its own pool; close() drops the database at the end.
            return { env: { DATABASE_URL: scratch.url }, drop: () => scratch.close() };
          },
        },
      ]
    : []),
];

// The kill suites sign members in over HTTP as the e2e journeys do (tests/server/support/httpSignIn.ts), and the
// test treasury, the first admin of their servers, too.
export { apiCaller, signInOverHttp } from './httpSignIn';
export { treasuryHeadersOverHttp } from '../../support/treasury';

/**
 * What a kill -9 suite's run needs: a temp DATA_DIR, the storage's database, free ports for the server and its
 * development chain, and the environment for server/main.ts; each thing made is undone by `cleanup` (in reverse).
 *
 * @param storage - one of mainStorages
 * @param cleanup - where the undo steps go (the suite runs them after each test)
 * @param options - fresh: an empty DATA_DIR, as a deployer's first start (else PGlite starts from the run's seeded
 *   copy, tests/support/pgliteTemplate.ts)
 * @returns the environment and the server's port
 * @example
 * const { env, port } = await prepareMainRun(storage, cleanup);
 */
export async function prepareMainRun(storage: MainStorage, cleanup: Cleanup, { fresh = false }: { fresh?: boolean } = {}): Promise<{ env: Record<string, string>; port: number }> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'md-crash-'));
  // Retries: a killed server's files can still be settling on a busy host (ENOTEMPTY seen under load).
  cleanup.push(() => rm(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 }));
  const database = await storage.database();
  cleanup.push(() => database.drop());
  // PGlite from the run's seeded copy unless asked for a first start (its migrations and seed run in the server).
  if (!fresh && database.env.DATABASE_URL === undefined) await copyPgliteTemplate(dataDir);
  const [port, chainPort] = [await freePort(), await freePort()];
  // The chain outlives a killed server (as a supervisor's would): it is stopped at the end by its port.
  cleanup.push(async () => {
    // Its own port only (a prefix would also match a longer port of another suite's chain). SIGKILL, and gone before
    // DATA_DIR is removed: on SIGTERM it writes its state file there while the folder is being removed.
    const pattern = `anvil.*--port ${chainPort}( |$)`;
    spawnSync('pkill', ['-KILL', '-f', pattern]);
    await vi.waitFor(() => expect(spawnSync('pgrep', ['-f', pattern]).status).toBe(1), { timeout: 10_000, interval: 100 });
  });
  // Four blocks a second, looked at as often: the same steps as at one a second, in a quarter of the waiting.
  const pace = { DEV_CHAIN_BLOCK_TIME: '0.25', CHAIN_POLL_MS: '250' };
  // The test treasury is the first admin, as a deployer's own wallet would be: the child's database is not this
  // process's to write, so the treasury signs in over HTTP and makes its key there (treasuryHeadersOverHttp).
  // Its grants fund members (set-up): the operators' policy's 24-hour totals out of its way, each act still within
  // APPROVAL_QUORUM_ABOVE (tests/server/operatorsPolicy.test.ts tests the totals).
  const operators = { OPS_FIRST_ADMIN: TEST_TREASURY_ADDRESS, OPS_OPERATOR_DAY_TOTAL: '1000000000', OPS_MEMBER_DAY_TOTAL: '1000000000' };
  const env = { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DEV_CHAIN_PORT: String(chainPort), LOG_LEVEL: 'warn', ...operators, ...pace, ...database.env };
  return { env, port };
}

export type MainStorage = (typeof mainStorages)[number];
/** Undo steps a run collects (prepareMainRun's and its own); they run in reverse after it. */
export type Cleanup = (() => Promise<void> | void)[];

/**
 * One test per storage, all at once (each its own DATA_DIR, database, ports and chain: the test mostly waits on its
 * servers), each cleaned up after, however it ends.
 *
 * @param suite - the describe's name
 * @param test - the test's name ($name is the storage)
 * @param timeout - per test, in ms
 * @param run - the test's body
 * @example
 * describeOnEveryStorage('top-ups across a kill -9', 'credits each once ($name)', 240_000, creditAcrossKill);
 */
export function describeOnEveryStorage(suite: string, test: string, timeout: number, run: (storage: MainStorage, cleanup: Cleanup) => Promise<void>): void {
  describe.concurrent(suite, { timeout }, () => {
    it.for(mainStorages)(test, async (storage) => {
      const cleanup: Cleanup = [];
      try {
        await run(storage, cleanup);
      } finally {
        for (const step of cleanup.splice(0).reverse()) await step();
      }
    });
  });
}

/**
 * startMain for a kill -9 suite: every server it starts is killed (SIGKILL) in the run's cleanup, whatever the test
 * left running.
 *
 * @param cleanup - the run's undo steps
 * @returns a startMain that remembers its servers, and the servers started so far
 * @example
 * const { start } = mainStarter(cleanup); const first = await start({ ...env, PAYER_FAULT_AT: 'signed' });
 */
export function mainStarter(cleanup: Cleanup): { start: (env: Record<string, string>) => Promise<RunningMain>; running: readonly RunningMain[] } {
  const running: RunningMain[] = [];
  cleanup.push(() => {
    for (const server of running) server.child.kill('SIGKILL');
  });
  const start = async (env: Record<string, string>) => {
    const server = await startMain(env);
    running.push(server);
    return server;
  };
  return { start, running };
}

/**
 * A request during which a fault kills the server (its *_FAULT_AT): no answer comes, and the process died by
 * SIGKILL, not of an error.
 *
 * @param server - the server the fault kills
 * @param request - the request that reaches the fault
 * @returns once the process has exited
 * @example
 * await expectKilledDuring(first, fetch(`${base}/api/admin/distribute`, { method: 'POST', headers, body: '{}' }));
 */
export async function expectKilledDuring(server: RunningMain, request: Promise<Response>): Promise<void> {
  const cut = await request.then(
    () => 'answered',
    () => 'cut',
  );
  expect(cut).toBe('cut');
  await server.exited();
  expect({ signal: server.child.signalCode }, server.output()).toEqual({ signal: 'SIGKILL' });
}
