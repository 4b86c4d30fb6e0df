/**
 * The sign-in limits (ADR 0007): loginNonce and memberSignLogin per client address and instance; 4290 with
 * Retry-After past them. Behind a proxy the client is X-Forwarded-For, read only as far as TRUST_PROXY trusts.
 */
import type { FastifyInstance } from 'fastify';
import { expect, it } from 'vitest';
import { ApiCode } from '../../api-schema/codes';
import { expectRefused } from './support/assertions';
import { describeWithDatabases } from './support/harness';
import { accounts, envelope, TEST_DOMAIN } from './support/siwe';

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
});
