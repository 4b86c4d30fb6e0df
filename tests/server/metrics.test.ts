/**
 * GET /metrics (docs/operations.md, "Metrics and alerts"), read by a real Prometheus text parser: per-route request
 * counts and latency histograms, sign-ins and failed sign-ins by wallet, and who may read it (METRICS_ALLOW, the
 * connection's own address, never a forwarded header).
 */
import type { FastifyInstance } from 'fastify';
import { expect, it } from 'vitest';
import { ApiCode } from '../../api-schema/codes';
import { walletOf } from '../../server/metrics/walletOf';
import { describeWithDatabases } from './support/harness';
import { metricSamples, scrape } from './support/metricsScrape';
import { accounts, authHeaders, buildMessage, envelope, requestNonce, signInBound, TEST_DOMAIN } from './support/memberSignIn';

const TOKEN_POCKET_UA = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36 TokenPocket/2.1.6';
const METAMASK_UA = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MetaMaskMobile/7.24.0';

describeWithDatabases('metrics', (ctx) => {
  /** A sign-in from a wallet's browser, its signature made by `signer` (another account's: refused with 1005). */
  async function signInFrom(app: FastifyInstance, userAgent: string, signer = accounts.bob) {
    const nonce = await requestNonce(app, accounts.bob.address);
    const message = buildMessage(accounts.bob, nonce, ctx.clock.now());
    const signature = await signer.signMessage({ message });
    return app.inject({
      method: 'POST',
      url: '/api/member/memberSignLogin',
      headers: { host: TEST_DOMAIN, 'user-agent': userAgent },
      payload: { message, signature, inviteCode: 'DEMO2026' },
    });
  }

  it('counts requests per route template and status, with their latency histogram', async () => {
    const app = await ctx.app();
    const token = await signInBound(app, accounts.alice, ctx.clock.now());
    for (let i = 0; i < 3; i++) expect(envelope(await app.inject({ method: 'GET', url: '/api/member/meInfo', headers: authHeaders(token) })).code).toBe(0);
    expect((await app.inject({ method: 'GET', url: '/api/member/meInfo' })).statusCode).toBe(401);
    // A member's address in the query is not a label: the route's template is.
    await app.inject({ method: 'GET', url: `/api/member/team?page=1&pageSize=20&of=${accounts.bob.address}`, headers: authHeaders(token) });

    const families = await scrape(app);
    const requests = metricSamples(families, 'member_dapp_http_requests_total');
    const meInfo = (status: string) => requests.find((s) => s.labels.route === '/api/member/meInfo' && s.labels.status_code === status && s.labels.method === 'GET');
    expect(Number(meInfo('200')?.value)).toBe(3);
    expect(Number(meInfo('401')?.value)).toBe(1);
    expect(requests.some((s) => JSON.stringify(s.labels).includes(accounts.bob.address))).toBe(false);
    const latency = (await app.metrics.httpDuration.get()).values.filter((v) => v.labels.route === '/api/member/meInfo');
    expect(latency.find((v) => v.metricName === 'member_dapp_http_request_duration_seconds_count')?.value).toBe(4);
    // prom-client labels a bucket with `le` beside the histogram's own labels.
    const infinite = latency.find((v) => v.metricName === 'member_dapp_http_request_duration_seconds_bucket' && (v.labels as Record<string, unknown>).le === '+Inf');
    expect(infinite?.value).toBe(4);
    expect(latency.find((v) => v.metricName === 'member_dapp_http_request_duration_seconds_sum')?.value).toBeGreaterThan(0);
    expect(families.find((family) => family.name === 'member_dapp_http_request_duration_seconds')?.type).toBe('HISTOGRAM');
  });

  it('counts sign-ins and failed sign-ins by wallet, the failure by its envelope code', async () => {
    const app = await ctx.app();
    expect(envelope(await signInFrom(app, TOKEN_POCKET_UA)).code).toBe(0);
    expect(envelope(await signInFrom(app, METAMASK_UA, accounts.carol)).code).toBe(ApiCode.signatureInvalid);
    const families = await scrape(app);
    expect(metricSamples(families, 'member_dapp_sign_ins_total').map((s) => [s.labels.wallet, s.value])).toEqual([['tokenpocket', '1']]);
    expect(metricSamples(families, 'member_dapp_sign_ins_failed_total').map((s) => [s.labels.wallet, s.labels.code, s.value])).toEqual([['metamask', String(ApiCode.signatureInvalid), '1']]);
  });

  it('answers only the addresses METRICS_ALLOW names, by the connection, not by X-Forwarded-For', async () => {
    const app = await ctx.app({ metricsAllow: '10.0.0.0/8, 2001:db8::/32', trustProxy: true });
    const fromPeer = (remoteAddress: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url: '/metrics', remoteAddress, headers });
    const allowed = await fromPeer('10.20.30.40');
    expect(allowed.statusCode).toBe(200);
    expect(allowed.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect((await fromPeer('::ffff:10.1.1.1')).statusCode).toBe(200);
    expect((await fromPeer('2001:db8::7')).statusCode).toBe(200);
    // Not allowed: what an unknown path answers (this app serves no SPA: the 404 envelope), forwarded header or not.
    for (const refused of [await fromPeer('127.0.0.1'), await fromPeer('203.0.113.9', { 'x-forwarded-for': '10.0.0.1' })]) {
      expect(refused.statusCode).toBe(404);
      expect(refused.body).not.toContain('member_dapp_');
    }
  });

  it('refuses a METRICS_ALLOW that is not addresses and ranges, naming the entry', async () => {
    await expect(ctx.app({ metricsAllow: '10.0.0.0/8, intranet' })).rejects.toThrow(/"intranet" is not an address or a CIDR range/);
    await expect(ctx.app({ metricsAllow: '10.0.0.0/33' })).rejects.toThrow(/"10\.0\.0\.0\/33"/);
  });
});

it('names the wallet of a User-Agent by a fixed set of labels', () => {
  expect(walletOf(TOKEN_POCKET_UA)).toBe('tokenpocket');
  expect(walletOf(METAMASK_UA)).toBe('metamask');
  expect(walletOf('Mozilla/5.0 (Linux; Android 13) imToken/2.14.1')).toBe('imtoken');
  expect(walletOf('Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0')).toBe('browser');
  expect(walletOf(undefined)).toBe('none');
});
