/**
 * Health (docs/API.md, "Health"): liveness answers without the database; readiness checks the
 * database, the migrations, the chain's head and the payer's and top-up watcher's rounds, answers 503 (5030) with
 * the failing checks, and fails from the moment the instance begins to stop. One chain for the file, behind a relay
 * that can go down.
 */
import type { FastifyInstance } from 'fastify';
import { generatePrivateKey } from 'viem/accounts';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { ApiCode } from '../../api-schema/codes';
import type { Readiness } from '../../api-schema/health';
import type { Db } from '../../server/db/client';
import { buildMigrationStamps, createReadiness } from '../../server/health/readiness';
import { startTestChain, type TestChain } from './support/testChain';
import { describeWithDatabases } from './support/harness';
import { relayedChain, startRpcRelay, type RpcRelay } from './support/rpcRelay';

let testChain: TestChain;
let relay: RpcRelay;
beforeAll(async () => {
  testChain = await startTestChain();
  relay = await startRpcRelay(testChain.node.url);
}, 60_000);
afterAll(async () => {
  await relay?.stop();
  await testChain?.stop();
});

async function ready(app: FastifyInstance): Promise<{ status: number; code: number; result: Readiness }> {
  const response = await app.inject({ method: 'GET', url: '/api/health/ready' });
  const body = response.json<{ code: number; result: Readiness }>();
  return { status: response.statusCode, code: body.code, result: body.result };
}

describeWithDatabases('health', (ctx) => {
  it('live answers 200; ready answers 200 with the database reachable and every migration applied', async () => {
    const app = await ctx.app();
    const live = await app.inject({ method: 'GET', url: '/api/health/live' });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toMatchObject({ code: 0, result: { live: true } });
    const { status, code, result } = await ready(app);
    expect({ status, code }).toEqual({ status: 200, code: 0 });
    expect(result).toMatchObject({ ready: true, failing: [], checks: { stopping: { ok: true }, database: { ok: true }, migrations: { ok: true, behind: 0 } } });
    // No chain: no chain checks.
    expect(Object.keys(result.checks).sort()).toEqual(['database', 'migrations', 'stopping']);
  });

  it('from beginStop() on, ready answers 503 (5030) naming `stopping`, while live still answers 200', async () => {
    const app = await ctx.app();
    expect((await app.inject({ method: 'GET', url: '/api/dapp/dappParam' })).headers.connection).not.toBe('close');
    await app.beginStop();
    const { status, code, result } = await ready(app);
    expect({ status, code, failing: result.failing, ready: result.ready }).toEqual({ status: 503, code: ApiCode.notReady, failing: ['stopping'], ready: false });
    expect((await app.inject({ method: 'GET', url: '/api/health/live' })).statusCode).toBe(200);
    // Requests are still served until close(), each answer closing its connection.
    const served = await app.inject({ method: 'GET', url: '/api/dapp/dappParam' });
    expect({ status: served.statusCode, connection: served.headers.connection }).toEqual({ status: 200, connection: 'close' });
  });

  it('close() after beginStop() does not wait on a keep-alive connection whose request was under way', async () => {
    const app = await ctx.app();
    let reached!: () => void;
    let release!: () => void;
    const inHandler = new Promise<void>((resolve) => (reached = resolve));
    const gate = new Promise<void>((resolve) => (release = resolve));
    app.get('/api/test/slow', { config: { access: 'public' } }, async () => {
      reached();
      await gate;
      return { code: 0 };
    });
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    // Sent before the stop, over a keep-alive connection the client keeps open afterwards.
    const slow = fetch(`${base}/api/test/slow`);
    await inHandler;
    await app.beginStop();
    const closed = app.close().then(() => performance.now());
    release();
    const answer = await slow;
    expect({ status: answer.status, connection: answer.headers.get('connection') }).toEqual({ status: 200, connection: 'close' });
    await answer.arrayBuffer();
    const answeredAt = performance.now();
    // Without Connection: close the server waited for the client's keep-alive timeout (72 s).
    expect((await closed) - answeredAt).toBeLessThan(2_000);
  });

  it('a check under way when the stop begins answers `stopping` at once, not after its query', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const slow = new Proxy(ctx.db, {
      get: (target, property, receiver) =>
        property === 'execute' ? (...args: Parameters<Db['execute']>) => held.then(() => target.execute(...args)) : Reflect.get(target, property, receiver),
    }) as Db;
    const probe = createReadiness({ db: slow, now: ctx.clock.now, maxLagMs: 60_000 });
    const pending = probe.check();
    const stoppedAt = performance.now();
    probe.beginStop();
    expect(await pending).toEqual({ ready: false, failing: ['stopping'], checks: { stopping: { ok: false, problem: 'this instance is stopping' } } });
    // Not after the check's 2 s.
    expect(performance.now() - stoppedAt).toBeLessThan(1_000);
    release();
  });

  it('a migration of this build the database has not applied fails `migrations`', async () => {
    const probe = createReadiness({ db: ctx.db, now: ctx.clock.now, maxLagMs: 60_000, migrationStamps: [...buildMigrationStamps(), Date.now() * 2] });
    expect(await probe.check()).toMatchObject({ ready: false, failing: ['migrations'], checks: { database: { ok: true }, migrations: { ok: false, behind: 1 } } });
  });

  it('a database that cannot be reached fails `database` and `migrations`, saying no more than that', async () => {
    const down = new Proxy(ctx.db, {
      get: (target, property, receiver) => (property === 'execute' ? () => Promise.reject(new Error('connect ECONNREFUSED 10.1.2.3:5432 password=secret')) : Reflect.get(target, property, receiver)),
    }) as Db;
    const result = await createReadiness({ db: down, now: ctx.clock.now, maxLagMs: 60_000 }).check();
    expect(result).toMatchObject({ ready: false, failing: ['database', 'migrations'], checks: { database: { ok: false, problem: 'the database cannot be reached' } } });
    expect(JSON.stringify(result)).not.toMatch(/10\.1\.2\.3|secret/);
  });

  it('with a chain: the head fresh and the rounds keeping up; a node down fails chainHead, payer and topUpWatcher past READY_MAX_LAG_MS', async () => {
    relay.reset();
    await testChain.mine(1);
    // The node's time: the head was just mined.
    ctx.clock.set(new Date());
    const options = {
      chain: relayedChain(testChain.chain, [relay]),
      topUpWatcher: { startBlock: testChain.deployBlock, timer: true, pollMs: 50 },
      payer: { key: generatePrivateKey(), holder: 'health-test', timer: true, pollMs: 50 },
    };
    const app = await ctx.app(options);
    await expect.poll(async () => (await ready(app)).result.checks.topUpWatcher?.lastRoundSeconds, { timeout: 10_000, interval: 50 }).toBeTypeOf('number');
    const fine = await ready(app);
    expect(fine).toMatchObject({ status: 200, result: { ready: true, checks: { chainHead: { ok: true, ageSeconds: expect.any(Number) as number }, payer: { ok: true }, topUpWatcher: { ok: true } } } });
    expect(fine.result.checks.chainHead?.block).toBe(String(await testChain.head()));

    // The node goes down and a minute passes without a round: all three fail; the answer names no URL.
    relay.down(true);
    // (The answer that says so is the one looked at: a round begun before the node went down may still succeed.)
    const failed = await vi.waitFor(
      async () => {
        ctx.clock.advance(61_000);
        const answer = await ready(app);
        expect(answer.result.failing).toEqual(['chainHead', 'payer', 'topUpWatcher']);
        return answer;
      },
      { timeout: 10_000, interval: 50 },
    );
    expect({ status: failed.status, code: failed.code }).toEqual({ status: 503, code: ApiCode.notReady });
    // The head read within the last second is shared (stale by now), or the read fails: viem retries a node that
    // answers 503, past the check's 2 s or not.
    expect(failed.result.checks.chainHead).toMatchObject({ ok: false, problem: expect.stringMatching(/^the chain('s head is \d+ s old| cannot be reached| did not answer within 2 s)$/) as string });
    expect(failed.result.checks.payer?.problem).toMatch(/^the payer has not completed a round for \d+ s$/);
    expect(JSON.stringify(failed.result)).not.toContain('127.0.0.1');

    // READY_MAX_LAG_MS=0: the same is reported, and the instance stays ready.
    const lenient = await ctx.app({ ...options, payer: { ...options.payer, holder: 'health-test-2' }, readyMaxLagMs: 0 });
    ctx.clock.advance(61_000);
    expect(await ready(lenient)).toMatchObject({ status: 200, result: { ready: true, failing: [], checks: { chainHead: { ok: false } } } });

    // The node is back: the rounds catch up and the instance is ready again.
    relay.down(false);
    await testChain.mine(1);
    ctx.clock.set(new Date());
    await expect.poll(async () => (await ready(app)).status, { timeout: 10_000, interval: 50 }).toBe(200);
  });
});
