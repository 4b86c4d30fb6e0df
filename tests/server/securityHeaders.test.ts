/** Security headers on every answer: the SPA, its scripts, styles and icons, the API (public and authenticated), locales, errors. */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithDatabases } from './support/harness';
import { createStaticSite, type StaticSite } from './support/staticSite';
import { accounts, authHeaders, envelope, signInBound, TEST_DOMAIN } from './support/memberSignIn';

/** The CSP directives of a response, by name. */
function cspOf(response: LightMyRequestResponse): Map<string, string> {
  const header = String(response.headers['content-security-policy'] ?? '');
  return new Map(
    header
      .split(';')
      .map((part) => part.trim())
      .filter(Boolean)
      .map((part) => {
        const [name = '', ...values] = part.split(/\s+/);
        return [name, values.join(' ')] as const;
      }),
  );
}

/**
 * Every answer that is never the SPA's HTML (API, assets, locales, media): nothing may load or run should one be
 * opened as a document, and none may be framed. The page's policy is the <meta> of index.html, not repeated here.
 */
const resourcePolicy = {
  'default-src': "'none'",
  'frame-ancestors': "'none'",
};

/**
 * The SPA's HTML: no script or style policy in the header (it is the page's <meta>, in force from where it is
 * parsed, so a wallet's inline script injected at document start runs: ADR 0007), framing still refused.
 */
const documentPolicy = {
  'object-src': "'none'",
  'base-uri': "'self'",
  'form-action': "'self'",
  'frame-ancestors': "'none'",
};

/** The headers that govern a browsing context: on the page only. */
const pageOnlyHeaders = ['permissions-policy', 'cross-origin-opener-policy', 'origin-agent-cluster', 'x-dns-prefetch-control'];

/**
 * Asserts the headers every answer carries, and on the page the ones that govern it. Inert files (the build's scripts
 * and stylesheets, raster images) carry no policy, framing refusal or referrer policy of their own: opened alone they
 * are text or a picture, and the page's govern the scripts and styles (ADR 0030).
 */
function expectSecurityHeaders(response: LightMyRequestResponse, label: string): void {
  const csp = cspOf(response);
  const contentType = String(response.headers['content-type']);
  const isDocument = contentType.startsWith('text/html');
  const isInert = /^(text\/javascript|application\/javascript|text\/css|image\/png)/.test(contentType);
  expect(response.headers['x-content-type-options'], label).toBe('nosniff');
  expect(response.headers['cross-origin-resource-policy'], label).toBe('same-origin');
  if (isInert) {
    for (const name of ['content-security-policy', 'referrer-policy', 'x-frame-options', ...pageOnlyHeaders]) expect(response.headers[name], label).toBeUndefined();
    return;
  }
  expect(Object.fromEntries(csp), label).toEqual(isDocument ? documentPolicy : resourcePolicy);
  expect(response.headers['referrer-policy'], label).toBe('no-referrer');
  expect(response.headers['x-frame-options'], label).toBe('DENY');
  if (isDocument) {
    const permissions = String(response.headers['permissions-policy'] ?? '');
    for (const feature of ['camera', 'microphone', 'geolocation', 'payment', 'usb']) expect(permissions, label).toContain(`${feature}=()`);
    expect(permissions, label).not.toContain('clipboard-write');
    expect(response.headers['cross-origin-opener-policy'], label).toBe('same-origin');
  } else {
    for (const name of pageOnlyHeaders) expect(response.headers[name], label).toBeUndefined();
  }
  // Plain HTTP: HSTS would mean nothing (and would pin a LAN address to HTTPS).
  expect(response.headers['strict-transport-security'], label).toBeUndefined();
  // Legacy headers no browser of a member reads are not sent (bytes on every answer).
  for (const legacy of ['x-download-options', 'x-permitted-cross-domain-policies', 'x-xss-protection']) expect(response.headers[legacy], label).toBeUndefined();
}

describeWithDatabases('security headers', (ctx) => {
  let site: StaticSite;

  beforeAll(async () => {
    site = await createStaticSite('md-headers-', {
      spa: {
        'index.html': '<!doctype html><title>Member DApp</title><script type="module" src="/assets/index-abc123.js"></script>',
        'assets/index-abc123.js': 'console.log(1)',
        'assets/index-abc123.css': 'body{margin:0}',
      },
      locales: { 'en/common.json': '{"ok":"OK"}' },
      beside: {},
    });
  });

  afterAll(async () => {
    await site.remove();
  });

  async function appWithSpa(options: { trustProxy?: boolean } = {}): Promise<FastifyInstance> {
    return ctx.app({ spaDir: site.spaDir, localesDir: site.localesDir, ...options });
  }

  it('are on the SPA HTML, an asset, a public and an authenticated API answer, a locale file, and refusals', async () => {
    const app = await appWithSpa();
    const token = await signInBound(app, accounts.alice, ctx.clock.now());
    const answers: [string, LightMyRequestResponse][] = [
      ['SPA at /', await app.inject({ method: 'GET', url: '/' })],
      ['SPA deep link', await app.inject({ method: 'GET', url: '/login/DEMO2026' })],
      ['asset', await app.inject({ method: 'GET', url: '/assets/index-abc123.js' })],
      ['stylesheet', await app.inject({ method: 'GET', url: '/assets/index-abc123.css' })],
      ['app icon', await app.inject({ method: 'GET', url: '/media/icons/icon-192.png' })],
      ['dappParam', await app.inject({ method: 'GET', url: '/api/dapp/dappParam' })],
      ['meInfo', await app.inject({ method: 'GET', url: '/api/member/meInfo', headers: authHeaders(token) })],
      ['locale', await app.inject({ method: 'GET', url: '/locales/en/common.json' })],
      ['goods image', await app.inject({ method: 'GET', url: '/media/goods/coffee-beans.svg' })],
      ['unknown API path', await app.inject({ method: 'GET', url: '/api/nothing' })],
      ['meInfo without token', await app.inject({ method: 'GET', url: '/api/member/meInfo' })],
      ['bad JSON', await app.inject({ method: 'POST', url: '/api/member/memberSignLogin', headers: { 'content-type': 'application/json' }, payload: '{' })],
    ];
    expect(answers.map(([label, response]) => [label, response.statusCode])).toEqual([
      ['SPA at /', 200],
      ['SPA deep link', 200],
      ['asset', 200],
      ['stylesheet', 200],
      ['app icon', 200],
      ['dappParam', 200],
      ['meInfo', 200],
      ['locale', 200],
      ['goods image', 200],
      ['unknown API path', 404],
      ['meInfo without token', 401],
      ['bad JSON', 400],
    ]);
    for (const [label, response] of answers) expectSecurityHeaders(response, label);
    expect(answers.filter(([, response]) => cspOf(response).get('default-src') === "'none'").map(([label]) => label)).toEqual([
      'dappParam',
      'meInfo',
      'locale',
      'goods image',
      'unknown API path',
      'meInfo without token',
      'bad JSON',
    ]);
  });

  it('Cache-Control: no-store on every API answer (authenticated, sign-in, nonce, refusals); the SPA and locales keep theirs', async () => {
    const app = await appWithSpa();
    const token = await signInBound(app, accounts.alice, ctx.clock.now());
    const noStore = {
      meInfo: await app.inject({ method: 'GET', url: '/api/member/meInfo', headers: authHeaders(token) }),
      recipients: await app.inject({ method: 'GET', url: '/api/wpos/getRentValidBindMemberAddress', headers: authHeaders(token) }),
      loginNonce: await app.inject({ method: 'GET', url: '/api/member/loginNonce', query: { address: accounts.bob.address } }),
      memberSignLogin: await app.inject({ method: 'POST', url: '/api/member/memberSignLogin', headers: { host: TEST_DOMAIN }, payload: { message: 'x', signature: '0x00' } }),
      dappParam: await app.inject({ method: 'GET', url: '/api/dapp/dappParam' }),
      refused: await app.inject({ method: 'GET', url: '/api/member/meInfo' }),
      logout: await app.inject({ method: 'POST', url: '/api/member/logout', headers: authHeaders(token) }),
    };
    expect(Object.fromEntries(Object.entries(noStore).map(([name, response]) => [name, response.headers['cache-control']]))).toEqual({
      meInfo: 'no-store',
      recipients: 'no-store',
      loginNonce: 'no-store',
      memberSignLogin: 'no-store',
      dappParam: 'no-store',
      refused: 'no-store',
      logout: 'no-store',
    });
    expect(envelope(noStore.meInfo).code).toBe(0);
    expect((await app.inject({ method: 'GET', url: '/' })).headers['cache-control']).toBe('no-cache');
    expect((await app.inject({ method: 'GET', url: '/locales/en/common.json' })).headers['cache-control']).toBe('no-cache');
    expect((await app.inject({ method: 'GET', url: '/assets/index-abc123.js' })).headers['cache-control']).toContain('immutable');
  });

  it('a rate-limited answer carries them too, with no-store and Retry-After', async () => {
    const app = await ctx.app({ spaDir: site.spaDir, localesDir: site.localesDir, rateLimits: { loginNonce: { max: 1, timeWindow: 60_000 } } });
    const ask = () => app.inject({ method: 'GET', url: '/api/member/loginNonce', query: { address: accounts.alice.address } });
    expect((await ask()).statusCode).toBe(200);
    const limited = await ask();
    expect({ status: limited.statusCode, code: envelope(limited).code }).toEqual({ status: 429, code: 4290 });
    expect(limited.headers['retry-after']).toBe('60');
    expect(limited.headers['cache-control']).toBe('no-store');
    expectSecurityHeaders(limited, 'rate limited');
  });

  it('Strict-Transport-Security only when the request came over HTTPS (X-Forwarded-Proto from a trusted proxy)', async () => {
    const trusting = await appWithSpa({ trustProxy: true });
    const overHttps = await trusting.inject({ method: 'GET', url: '/', headers: { 'x-forwarded-proto': 'https' } });
    expect(overHttps.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    const overHttp = await trusting.inject({ method: 'GET', url: '/', headers: { 'x-forwarded-proto': 'http' } });
    expect(overHttp.headers['strict-transport-security']).toBeUndefined();

    // Without TRUST_PROXY the header is the caller's word, not the transport: no HSTS.
    const direct = await appWithSpa({ trustProxy: false });
    const claimed = await direct.inject({ method: 'GET', url: '/', headers: { 'x-forwarded-proto': 'https' } });
    expect(claimed.headers['strict-transport-security']).toBeUndefined();
  });
});
