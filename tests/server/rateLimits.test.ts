/**
 * The rate limits (ADR 0007, docs/operations.md, "Rate limits"): loginNonce and memberSignLogin (and the operators'
 * two) per client address, topUp per member; 4290 with Retry-After past them. Behind a proxy the client is
 * X-Forwarded-For, read only as far as TRUST_PROXY trusts. On PostgreSQL the counts are the database's
 * (server/plugins/rateLimitStore.ts), one limit for every instance; on PGlite, one process, they are in memory.
 */
import { sql } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { ApiCode } from '../../api-schema/codes';
import { queryRows } from '../../server/db/client';
import { hitRateLimit, sweepRateLimits } from '../../server/plugins/rateLimitStore';
import { expectRefused } from './support/assertions';
import { describeWithDatabases } from './support/harness';
import { accounts, authHeaders, envelope, signInBound, TEST_DOMAIN } from './support/memberSignIn';

describeWithDatabases('rate limits', (ctx) => {
  const nonceAs = (app: FastifyInstance, headers: Record<string, string> = {}) =>
    app.inject({ method: 'GET', url: '/api/member/loginNonce', query: { address: accounts.alice.address }, headers });

  it('a limit reached answers 4290 (429) in the envelope, with Retry-After in seconds and no-store', async () => {
    const app = await ctx.app({ rateLimits: { loginNonce: { max: 2, timeWindow: 30_000 } } });
    expect([(await nonceAs(app)).statusCode, (await nonceAs(app)).statusCode]).toEqual([200, 200]);
    const limited = await nonceAs(app);
    expectRefused(limited, ApiCode.tooManyRequests);
    expect(limited.headers['retry-after']).toBe('30');
    expect(limited.headers['cache-control']).toBe('no-store');
  });

  it('counts loginNonce and memberSignLogin separately; other endpoints are not limited', async () => {
    const app = await ctx.app({ rateLimits: { loginNonce: { max: 1, timeWindow: 60_000 }, memberSignLogin: { max: 1, timeWindow: 60_000 } } });
    expect(envelope(await nonceAs(app)).code).toBe(0);
    expect(envelope(await nonceAs(app)).code).toBe(ApiCode.tooManyRequests);
    const signIn = () => app.inject({ method: 'POST', url: '/api/member/memberSignLogin', headers: { host: TEST_DOMAIN }, payload: { message: 'x', signature: '0x00' } });
    expect(envelope(await signIn()).code).toBe(ApiCode.invalidParameters);
    expect(envelope(await signIn()).code).toBe(ApiCode.tooManyRequests);
    for (let i = 0; i < 5; i++) expect(envelope(await app.inject({ method: 'GET', url: '/api/dapp/dappParam' })).code).toBe(0);
  });

  it('without TRUST_PROXY, X-Forwarded-For is ignored: every caller through the socket address shares one budget', async () => {
    const app = await ctx.app({ trustProxy: false, rateLimits: { loginNonce: { max: 1, timeWindow: 60_000 } } });
    expect(envelope(await nonceAs(app, { 'x-forwarded-for': '203.0.113.1' })).code).toBe(0);
    expect(envelope(await nonceAs(app, { 'x-forwarded-for': '203.0.113.2' })).code).toBe(ApiCode.tooManyRequests);
  });

  it('with TRUST_PROXY=1, each client behind the proxy has its own budget, and a forged X-Forwarded-For does not buy a new one', async () => {
    const app = await ctx.app({ trustProxy: 1, rateLimits: { loginNonce: { max: 1, timeWindow: 60_000 } } });
    // The proxy appends the address it saw; the server trusts that one hop.
    expect(envelope(await nonceAs(app, { 'x-forwarded-for': '203.0.113.1' })).code).toBe(0);
    expect(envelope(await nonceAs(app, { 'x-forwarded-for': '203.0.113.2' })).code).toBe(0);
    expect(envelope(await nonceAs(app, { 'x-forwarded-for': '203.0.113.1' })).code).toBe(ApiCode.tooManyRequests);
    // Client 1 sends its own X-Forwarded-For; the proxy appends the real address after it.
    expect(envelope(await nonceAs(app, { 'x-forwarded-for': '198.51.100.7, 203.0.113.1' })).code).toBe(ApiCode.tooManyRequests);
  });

  it('with TRUST_PROXY=true every hop is trusted, so the leftmost address counts (safe only when the proxy overwrites the header)', async () => {
    const app = await ctx.app({ trustProxy: true, rateLimits: { loginNonce: { max: 1, timeWindow: 60_000 } } });
    expect(envelope(await nonceAs(app, { 'x-forwarded-for': '203.0.113.1' })).code).toBe(0);
    expect(envelope(await nonceAs(app, { 'x-forwarded-for': '198.51.100.7, 203.0.113.1' })).code).toBe(0);
  });

  it('with TRUST_PROXY naming the proxy address, X-Forwarded-For is read only from it', async () => {
    const trusted = await ctx.app({ trustProxy: ['127.0.0.1'], rateLimits: { loginNonce: { max: 1, timeWindow: 60_000 } } });
    expect(envelope(await nonceAs(trusted, { 'x-forwarded-for': '203.0.113.1' })).code).toBe(0);
    expect(envelope(await nonceAs(trusted, { 'x-forwarded-for': '203.0.113.2' })).code).toBe(0);
    // inject() comes from 127.0.0.1; a proxy list without it trusts nothing.
    const untrusted = await ctx.app({ trustProxy: ['10.0.0.0/8'], rateLimits: { loginNonce: { max: 1, timeWindow: 60_000 } } });
    expect(envelope(await nonceAs(untrusted, { 'x-forwarded-for': '203.0.113.1' })).code).toBe(0);
    expect(envelope(await nonceAs(untrusted, { 'x-forwarded-for': '203.0.113.2' })).code).toBe(ApiCode.tooManyRequests);
  });

  const counted = () => queryRows(ctx.db, sql`SELECT bucket, key, hits FROM rate_limits ORDER BY bucket, key`, z.object({ bucket: z.string(), key: z.string(), hits: z.number() }));

  it('hits split across the instances count against one limit (PostgreSQL: two instances, the count in rate_limits; PGlite: one, in memory)', async () => {
    const apps = await ctx.instances({ rateLimits: { loginNonce: { max: 3, timeWindow: 60_000 } } });
    const codes = [];
    for (let i = 0; i < 6; i++) codes.push(envelope(await nonceAs(apps[i % apps.length] as FastifyInstance)).code);
    expect(codes).toEqual([0, 0, 0, ApiCode.tooManyRequests, ApiCode.tooManyRequests, ApiCode.tooManyRequests]);
    expect(apps).toHaveLength(ctx.target === 'postgres' ? 2 : 1);
    expect(await counted()).toEqual(ctx.target === 'postgres' ? [{ bucket: 'GET /api/member/loginNonce', key: '127.0.0.1', hits: 6 }] : []);
  });

  it('every limited call counts across the instances: the sign-in calls, the operators’ and topUp (per member)', async () => {
    const apps = await ctx.instances({
      trustProxy: 1,
      rateLimits: { loginNonce: { max: 1, timeWindow: 60_000 }, memberSignLogin: { max: 1, timeWindow: 60_000 }, topUp: { max: 1, timeWindow: 60_000 } },
    });
    const [one, two] = [apps[0] as FastifyInstance, apps.at(-1) as FastifyInstance];
    // Alice signs in from the socket's address; the calls below come from another client behind the proxy.
    const token = await signInBound(one, accounts.alice, ctx.clock.now());
    const client = { 'x-forwarded-for': '203.0.113.9' };
    const address = accounts.bob.address;
    const calls: [string, (app: FastifyInstance) => Promise<LightMyRequestResponse>][] = [
      ['loginNonce', (app) => app.inject({ method: 'GET', url: '/api/member/loginNonce', query: { address }, headers: client })],
      ['memberSignLogin', (app) => app.inject({ method: 'POST', url: '/api/member/memberSignLogin', headers: { ...client, host: TEST_DOMAIN }, payload: { message: 'x', signature: '0x00' } })],
      ['opsLoginNonce', (app) => app.inject({ method: 'GET', url: '/api/admin/auth/nonce', query: { address }, headers: client })],
      ['opsSignIn', (app) => app.inject({ method: 'POST', url: '/api/admin/auth/signIn', headers: { ...client, host: TEST_DOMAIN }, payload: { message: 'x', signature: '0x00' } })],
      ['topUp', (app) => app.inject({ method: 'POST', url: '/api/member/topUp', headers: authHeaders(token), payload: { txHash: `0x${'ab'.repeat(32)}` } })],
    ];
    for (const [name, call] of calls) {
      expect({ name, code: envelope(await call(one)).code }).not.toEqual({ name, code: ApiCode.tooManyRequests });
      expect({ name, code: envelope(await call(two)).code }).toEqual({ name, code: ApiCode.tooManyRequests });
    }
  });

  it('hits at the same moment on both instances: no more than the limit passes (in the database, exactly the limit)', async () => {
    const apps = await ctx.instances({ rateLimits: { loginNonce: { max: 10, timeWindow: 60_000 } } });
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => nonceAs(apps[i % apps.length] as FastifyInstance)));
    const codes = answers.map((answer) => envelope(answer).code);
    expect(codes.filter((code) => code !== 0 && code !== ApiCode.tooManyRequests)).toEqual([]);
    const passed = codes.filter((code) => code === 0).length;
    // The in-memory store hands back its live counter, so the hits of one tick all read the tick's last count: a
    // burst may be refused whole (never let past the limit).
    if (ctx.target === 'postgres') expect(passed).toBe(10);
    else expect(passed).toBeLessThanOrEqual(10);
  });

  it.runIf(ctx.target === 'postgres')('in the database, the window ends by the app clock: Retry-After counts down, then the limit starts again', async () => {
    const [one, two] = (await ctx.instances({ rateLimits: { loginNonce: { max: 1, timeWindow: 30_000 } } })) as [FastifyInstance, FastifyInstance];
    expect(envelope(await nonceAs(one)).code).toBe(0);
    ctx.clock.advance(10_000);
    const limited = await nonceAs(two);
    expectRefused(limited, ApiCode.tooManyRequests);
    expect(limited.headers['retry-after']).toBe('20');
    ctx.clock.advance(20_000);
    expect(envelope(await nonceAs(two)).code).toBe(0);
    expect(envelope(await nonceAs(one)).code).toBe(ApiCode.tooManyRequests);
  });

  it('the store’s upsert: counts in the window, starts again after it, and the sweep deletes only ended windows', async () => {
    const at = ctx.clock.now();
    const later = (ms: number) => new Date(at.getTime() + ms);
    const hit = (key: string, ms: number, windowMs = 1_000) => hitRateLimit(ctx.db, { bucket: 'GET /x', key, windowMs, now: later(ms) });
    expect(await hit('a', 0)).toEqual({ hits: 1, ttlMs: 1_000 });
    expect(await hit('a', 400)).toEqual({ hits: 2, ttlMs: 600 });
    expect(await hit('b', 500, 5_000)).toEqual({ hits: 1, ttlMs: 5_000 });
    // At the window's end a hit opens the next one, with the window it asks for.
    expect(await hit('a', 1_000, 2_000)).toEqual({ hits: 1, ttlMs: 2_000 });
    expect(await sweepRateLimits(ctx.db, later(3_000))).toBe(0);
    expect(await sweepRateLimits(ctx.db, later(3_001))).toBe(1);
    expect(await counted()).toEqual([{ bucket: 'GET /x', key: 'b', hits: 1 }]);
  });
});
