import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { getAddress } from 'viem';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { enginesNode } from '../../scripts/buildServer';
import { needsBuild } from '../../scripts/start.mjs';
import { DEV_CHAIN_ID } from '../../server/chain/devChain';
import { ADMIN_TOKEN_GONE } from '../../server/env';
import { startTestChain, TEST_NODE_CHAIN_ID } from './support/testChain';
import { mainStorages, prepareMainRun, startMain, treasuryHeadersOverHttp, type Cleanup, type MainStorage } from './support/mainProcess';
import { startRpcRelay } from './support/rpcRelay';


const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('npm start: needsBuild', () => {
  let root: string;
  const at = (iso: string) => new Date(iso);

  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'md-start-'));
    await mkdir(path.join(root, 'src', 'routes'), { recursive: true });
    await writeFile(path.join(root, 'index.html'), '<html>');
    await writeFile(path.join(root, 'src', 'routes', 'home.tsx'), 'x');
    await utimes(path.join(root, 'index.html'), at('2026-01-01T00:00:00Z'), at('2026-01-01T00:00:00Z'));
    await utimes(path.join(root, 'src', 'routes', 'home.tsx'), at('2026-01-02T00:00:00Z'), at('2026-01-02T00:00:00Z'));
  });

  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  /** A build at `iso` that read `inputs` (as scripts/vite/buildInputsPlugin.ts records them). */
  async function build(iso: string, inputs: string[] = ['index.html', 'src/routes/home.tsx']) {
    await mkdir(path.join(root, 'dist', 'spa', '.vite'), { recursive: true });
    await writeFile(path.join(root, 'dist', 'spa', 'index.html'), '<html>');
    await writeFile(path.join(root, 'dist', 'spa', '.vite', 'inputs.json'), JSON.stringify(inputs));
    await utimes(path.join(root, 'dist', 'spa', 'index.html'), at(iso), at(iso));
  }

  async function touch(file: string, iso: string) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), 'x');
    await utimes(path.join(root, file), at(iso), at(iso));
  }

  it('behavior: builds when dist/spa is missing', () => {
    expect(needsBuild(root)).toBe(true);
  });

  it('behavior: skips the build when dist/spa is newer than src/ and index.html', async () => {
    await build('2026-01-03T00:00:00Z');
    expect(needsBuild(root)).toBe(false);
  });

  it('behavior: builds again when a nested source file is newer', async () => {
    await build('2026-01-03T00:00:00Z');
    await utimes(path.join(root, 'src', 'routes', 'home.tsx'), at('2026-01-04T00:00:00Z'), at('2026-01-04T00:00:00Z'));
    expect(needsBuild(root)).toBe(true);
  });

  it('behavior: builds again when index.html is newer', async () => {
    await build('2026-01-03T00:00:00Z');
    await utimes(path.join(root, 'index.html'), at('2026-01-05T00:00:00Z'), at('2026-01-05T00:00:00Z'));
    expect(needsBuild(root)).toBe(true);
  });

  it.each(['machines/wallet/walletMachine.ts', 'api-schema/codes.ts', 'vite.config.ts', 'scripts/vite/cspMetaPlugin.ts', 'package-lock.json'])(
    'behavior: builds again when %s, which the build read, is newer (not only src/ and index.html)',
    async (file) => {
      await touch(file, '2026-01-02T00:00:00Z');
      await build('2026-01-03T00:00:00Z', ['index.html', 'src/routes/home.tsx', file]);
      expect(needsBuild(root)).toBe(false);
      await touch(file, '2026-01-04T00:00:00Z');
      expect(needsBuild(root)).toBe(true);
    },
  );

  it('behavior: builds again when a file the build read is gone', async () => {
    await touch('machines/old.ts', '2026-01-02T00:00:00Z');
    await build('2026-01-03T00:00:00Z', ['index.html', 'machines/old.ts']);
    await rm(path.join(root, 'machines', 'old.ts'));
    expect(needsBuild(root)).toBe(true);
  });

  it('behavior: builds again when the build left no record of its inputs (or an unreadable one)', async () => {
    await build('2026-01-03T00:00:00Z');
    await rm(path.join(root, 'dist', 'spa', '.vite', 'inputs.json'));
    expect(needsBuild(root)).toBe(true);
    await writeFile(path.join(root, 'dist', 'spa', '.vite', 'inputs.json'), '{');
    expect(needsBuild(root)).toBe(true);
  });
});

/** Runs the compiled server/main.ts (the unit project builds it) until it exits (a refused start), with `env` on top of this process's but no NODE_ENV or DATABASE_URL. */
async function startRefused(env: Record<string, string>, node = process.execPath): Promise<{ code: number | null; output: string }> {
  const { DATABASE_URL: _database, NODE_ENV: _nodeEnv, ...inherited } = process.env;
  const child = spawn(node, ['dist/server/main.js'], { cwd: repoRoot, env: { ...inherited, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
  return { code, output };
}

const nothingListensAt = async (port: number) => fetch(`http://127.0.0.1:${port}`).then(() => false, () => true);

/** A test body with its own undo steps, run in reverse however it ends (the tests run at once: each mostly waits). */
const withCleanup = (run: (cleanup: Cleanup) => Promise<void>) => async () => {
  const cleanup: Cleanup = [];
  try {
    await run(cleanup);
  } finally {
    for (const step of cleanup.splice(0).reverse()) await step();
  }
};

// A fresh clone's `npm start` (no NODE_ENV, no chain setting) runs the development chain: the kill suites start it so
// (tests/server/payerCrash.test.ts, topUpCrash.test.ts). server/env.test.ts has every refusal's message.
describe.concurrent('npm start: the chain it runs, failing closed', { timeout: 120_000 }, () => {

  it('behavior: refuses a production start without a chain, naming what is missing, and starts no development chain', withCleanup(async (cleanup) => {
    // An empty DATA_DIR: no database for the launcher to open early (and close again) before the settings are read.
    const { env } = await prepareMainRun(mainStorages[0] as MainStorage, cleanup, { fresh: true });
    const { code, output } = await startRefused({ ...env, NODE_ENV: 'production' });
    expect(code).toBe(1);
    expect(output).toContain('NODE_ENV is production, so a real chain needs CHAIN_RPC_URL, TOKEN_ADDRESS, TREASURY_ADDRESS; missing: CHAIN_RPC_URL, TOKEN_ADDRESS, TREASURY_ADDRESS');
    expect(await nothingListensAt(Number(env.DEV_CHAIN_PORT))).toBe(true);
    expect(existsSync(path.join(env.DATA_DIR ?? '', 'chain'))).toBe(false);
  }));

  it('behavior: refuses to start on a Node older than package.json engines, in one JSON line, before anything else', withCleanup(async (cleanup) => {
    // The machines' own Node (NodeSource's 20 at /usr/bin/node; ADR 0027): older than engines, as Debian's 18 is.
    const old = '/usr/bin/node';
    const version = execFileSync(old, ['--version'], { encoding: 'utf8' }).trim().replace(/^v/, '');
    const [atLeast] = await enginesNode();
    expect(Number(version.split('.')[0]), `${old} must be older than engines for this test`).toBeLessThan(atLeast);
    const { env } = await prepareMainRun(mainStorages[0] as MainStorage, cleanup, { fresh: true });
    const { code, output } = await startRefused(env, old);
    expect(code).toBe(1);
    expect(output.trim().split('\n').map((line) => JSON.parse(line) as unknown)).toEqual([
      expect.objectContaining({ level: 60, msg: `Node ${version} is older than this server needs (package.json engines: node >=${atLeast}); start it with Node ${atLeast} or later` }),
    ]);
    expect(await nothingListensAt(Number(env.PORT))).toBe(true);
  }));

  it('behavior: refuses a start with ADMIN_TOKEN set, in one line saying it is gone and how the first admin is made', withCleanup(async (cleanup) => {
    const { env } = await prepareMainRun(mainStorages[0] as MainStorage, cleanup, { fresh: true });
    const { code, output } = await startRefused({ ...env, ADMIN_TOKEN: 'a-token-from-an-old-deployment-0123456789' });
    expect(code).toBe(1);
    expect(output.split('\n').filter((line) => line.includes('ADMIN_TOKEN'))).toEqual([expect.stringContaining(`Invalid environment: ADMIN_TOKEN: ${ADMIN_TOKEN_GONE}`)]);
    expect(output).not.toContain('a-token-from-an-old-deployment');
    // A failed start is one JSON line in pino's shape, its stack inside it.
    expect(output.trim().split('\n').map((line) => JSON.parse(line) as { level: number; err?: { stack?: string } })).toEqual([expect.objectContaining({ level: 60, err: expect.objectContaining({ stack: expect.any(String) }) })]);
    expect(await nothingListensAt(Number(env.PORT))).toBe(true);
  }));

  it('behavior: refuses a real chain on a database the development chain ran on, saying to start on a new one', withCleanup(async (cleanup) => {
    const { env } = await prepareMainRun(mainStorages[0] as MainStorage, cleanup);
    const [developed, testChain] = await Promise.all([startMain(env), startTestChain({ confirmations: 1 })]);
    cleanup.push(() => testChain.stop());
    const param = (await (await fetch(`http://127.0.0.1:${env.PORT}/api/dapp/dappParam`)).json()) as { result: { chainId: number } };
    expect(param.result.chainId).toBe(DEV_CHAIN_ID);
    developed.child.kill('SIGTERM');
    await developed.exited();
    const { code, output } = await startRefused({ ...env, CHAIN_RPC_URL: testChain.node.url, TOKEN_ADDRESS: testChain.token, TREASURY_ADDRESS: testChain.treasury, CONFIRMATIONS: '1' });
    expect(code).toBe(1);
    expect(output).toContain(`CHAIN_RPC_URL reports chain ${TEST_NODE_CHAIN_ID}, but this database ran the development chain (${DEV_CHAIN_ID})`);
    expect(output).toContain('a real chain starts on a new database');
    expect(await nothingListensAt(Number(env.PORT))).toBe(true);
  }));

  it('behavior: a production start seeds only the root inviter it is given, serves no atlas, and logs JSON lines only', withCleanup(async (cleanup) => {
    const testChain = await startTestChain({ confirmations: 1 });
    cleanup.push(() => testChain.stop());
    const relay = await startRpcRelay(testChain.node.url);
    cleanup.push(() => relay.stop());
    relay.on('eth_chainId', () => '0x38');
    const { env } = await prepareMainRun(mainStorages[0] as MainStorage, cleanup, { fresh: true });
    const root = getAddress('0x2a3f7cc1d0a37e3e2b63e91c4c8b1d6f6f0c1a2b');
    const settings = { NODE_ENV: 'production', CHAIN_RPC_URL: relay.url, TOKEN_ADDRESS: testChain.token, TREASURY_ADDRESS: testChain.treasury, CONFIRMATIONS: '1' };
    // Without the root inviter, production refuses to start: its default seed is minimal.
    const refused = await startRefused({ ...env, ...settings });
    expect(refused.code).toBe(1);
    expect(refused.output).toContain('ROOT_INVITER_ADDRESS: NODE_ENV=production seeds minimal content (SEED=demo for the demo): set ROOT_INVITER_ADDRESS');
    const server = await startMain({ ...env, ...settings, ROOT_INVITER_ADDRESS: root, ROOT_INVITE_CODE: 'root2027' });
    cleanup.push(async () => {
      server.child.kill('SIGKILL');
      await server.exited();
    });
    const base = `http://127.0.0.1:${env.PORT}`;
    const read = async (url: string, headers: Record<string, string> = {}) => (await fetch(`${base}${url}`, { headers })).json() as Promise<{ code: number; result?: unknown }>;
    expect(await read('/api/dapp/queryPagePlatformNotice?page=1&pageSize=10')).toMatchObject({ code: 0, result: { list: [], total: 0 } });
    expect(await read('/api/goods/list')).toMatchObject({ code: 0, result: { list: [] } });
    expect(await read('/api/dapp/solbotList?page=1&pageSize=10')).toMatchObject({ code: 0, result: { list: [] } });
    const desk = await treasuryHeadersOverHttp(base);
    expect(await read('/api/admin/member?q=DEMO2026', desk)).toMatchObject({ code: 4004 });
    expect(await read('/api/admin/member?q=ROOT2027', desk)).toMatchObject({ code: 0, result: { address: root, inviteCode: 'ROOT2027' } });
    expect((await fetch(`${base}/atlas/`)).status).toBe(404);
    const lines = server.output().trim().split('\n');
    expect(lines.filter((line) => !line.startsWith('{'))).toEqual([]);
    expect(lines.map((line) => (JSON.parse(line) as { msg: string }).msg)).toContain('Root inviter: ' + root + ', invite code ROOT2027 (members join at /login/ROOT2027)');
  }));

  it('behavior: on a real chain prints and logs its RPC URLs without path or query, also when the node fails', withCleanup(async (cleanup) => {
    const testChain = await startTestChain({ confirmations: 1 });
    cleanup.push(() => testChain.stop());
    const relay = await startRpcRelay(testChain.node.url);
    cleanup.push(() => relay.stop());
    // The seeded app config is BNB Smart Chain's (56): the relay presents the test chain as it.
    relay.on('eth_chainId', () => '0x38');
    const chainSettings = { TOKEN_ADDRESS: testChain.token, TREASURY_ADDRESS: testChain.treasury, CONFIRMATIONS: '1' };
    // A start whose node is down fails with the same care: run at once with the first start below (on a seeded
    // DATA_DIR of its own, behind a relay down from the start), as the two mostly wait on their own processes.
    const downRelay = await startRpcRelay(testChain.node.url);
    cleanup.push(() => downRelay.stop());
    downRelay.down(true);
    const downRun = await prepareMainRun(mainStorages[0] as MainStorage, cleanup);
    const downStart = startRefused({ ...downRun.env, ...chainSettings, CHAIN_RPC_URL: `${downRelay.url}/v1/SECRET-KEY` });
    // Its DATA_DIR is removed only once it has exited, however the test ends.
    cleanup.push(() => downStart.then(() => undefined));
    // A deployer's first start: an empty DATA_DIR, migrated and seeded by the server itself.
    const { env } = await prepareMainRun(mainStorages[0] as MainStorage, cleanup, { fresh: true });
    const server = await startMain({ ...env, ...chainSettings, CHAIN_RPC_URL: `${relay.url}/v1/SECRET-KEY?apikey=SECRET-TOO` });
    cleanup.push(async () => {
      server.child.kill('SIGKILL');
      await server.exited();
    });
    expect(server.output()).toContain(`Credit on chain: chain 56 at ${relay.url}/…, token`);
    // A deployment seeds the inviter and the content, not the demo downline of the development chain.
    const seeded = await fetch(`http://127.0.0.1:${env.PORT}/api/admin/member?q=DEMO2026`, { headers: await treasuryHeadersOverHttp(`http://127.0.0.1:${env.PORT}`) });
    expect(await seeded.json()).toMatchObject({ code: 0, result: { inviteCode: 'DEMO2026', team: { direct: 0, total: 0 } } });
    // The watcher's failed rounds are logged with viem's error, which names the URL.
    relay.down(true);
    await vi.waitFor(() => expect(server.output()).toContain('top-up watcher round failed'), { timeout: 30_000, interval: 200 });
    expect(server.output()).toContain(`${relay.url}/…`);
    expect(server.output()).not.toContain('SECRET');
    const down = await downStart;
    expect(down.code).toBe(1);
    expect(down.output).toContain(`${downRelay.url}/…`);
    expect(down.output).not.toContain('SECRET');
  }));
});
