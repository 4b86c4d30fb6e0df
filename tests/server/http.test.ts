/** The HTTP shell: unknown paths, malformed requests, internal errors, the SPA and the locales. */
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ApiCode } from '../../api-schema/codes';
import { endpoints, type EndpointName } from '../../api-schema/endpoints';
import { appConfig } from '../../server/db/schema';
import { expectNoDbChange, expectRefused } from './support/assertions';
import { describeWithDatabases } from './support/harness';
import { createStaticSite, type StaticSite } from './support/staticSite';
import { accounts, buildMessage, envelope, postSignLogin, requestNonce } from './support/memberSignIn';

describeWithDatabases('http shell', (ctx) => {
  const implemented: EndpointName[] = [
    'loginNonce',
    'memberSignLogin',
    'bindRecommendRelation',
    'logout',
    'meInfo',
    'getRentValidBindMemberAddress',
    'dappParam',
    'queryPagePlatformNotice',
    'noticeDetail',
    'aboutOur',
  ];

  it('registers the implemented endpoints at the contract’s method and path', async () => {
    const app = await ctx.app();
    await app.ready();
    for (const name of implemented) {
      const { method, path: url } = endpoints[name];
      expect(app.hasRoute({ method, url }), name).toBe(true);
    }
  });

  it.each([
    ['GET', '/api/nothing/here'],
    ['GET', '/api'],
    ['POST', '/api/dapp/dappParam'],
    ['GET', '/api/member/logout'],
    ['DELETE', '/api/member/meInfo'],
  ] as const)('%s %s → 4004 envelope with 404', async (method, url) => {
    const app = await ctx.app();
    expectRefused(await app.inject({ method, url }), ApiCode.notFound);
  });

  it('returns a request id header on every answer', async () => {
    const app = await ctx.app();
    const ok = await app.inject({ method: 'GET', url: '/api/dapp/dappParam' });
    const notFound = await app.inject({ method: 'GET', url: '/api/nope' });
    expect(ok.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(notFound.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('bad JSON → 1001 (400)', async () => {
    const app = await ctx.app();
    const response = await app.inject({ method: 'POST', url: '/api/member/memberSignLogin', headers: { 'content-type': 'application/json' }, payload: '{"message":' });
    expectRefused(response, ApiCode.invalidParameters, 'body');
  });

  it('a text body → 1001 (400); an unknown media type → 1001 (415)', async () => {
    const app = await ctx.app();
    const text = await app.inject({ method: 'POST', url: '/api/member/memberSignLogin', headers: { 'content-type': 'text/plain' }, payload: 'hello' });
    expectRefused(text, ApiCode.invalidParameters, 'body');
    const xml = await app.inject({ method: 'POST', url: '/api/member/memberSignLogin', headers: { 'content-type': 'application/xml' }, payload: '<a/>' });
    expectRefused(xml, ApiCode.invalidParameters, 'body', 415);
  });

  it('a body over the limit → 1001 (413), even with a smaller configured limit', async () => {
    const app = await ctx.app({ bodyLimit: 1024 });
    const response = await app.inject({ method: 'POST', url: '/api/member/memberSignLogin', payload: { message: 'x'.repeat(2000), signature: '0x00' } });
    expectRefused(response, ApiCode.invalidParameters, 'body', 413);
  });

  it('an unexpected error → 5000, logged with the request id, no internals in the answer', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const app = await ctx.app({ logger: { level: 'error', stream } });
    await ctx.db.delete(appConfig);
    const response = await app.inject({ method: 'GET', url: '/api/dapp/dappParam' });
    expectRefused(response, ApiCode.internal);
    const requestId = String(response.headers['x-request-id']);
    expect(envelope(response).message).toBe(`Internal error, request ${requestId}`);
    expect(response.body).not.toContain('app_config');
    const logged = lines.map((line) => JSON.parse(line) as { reqId?: string; msg?: string; err?: { message?: string } });
    expect(logged).toContainEqual(expect.objectContaining({ reqId: requestId, msg: 'unexpected error', err: expect.objectContaining({ message: expect.stringContaining('app_config') }) }));
  });

  it('a failure inside the sign-in transaction leaves nothing half-written: nonce unused, no member, no token', async () => {
    const app = await ctx.app();
    const nonce = await requestNonce(app, accounts.alice.address);
    const message = buildMessage(accounts.alice, nonce, ctx.clock.now());
    const signature = await accounts.alice.signMessage({ message });
    // The token insert is the last write of the transaction; make it fail.
    await ctx.db.execute(sql`CREATE FUNCTION fail_token_insert() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'disk full'; END $$ LANGUAGE plpgsql`);
    await ctx.db.execute(sql`CREATE TRIGGER fail_token_insert BEFORE INSERT ON tokens FOR EACH ROW EXECUTE FUNCTION fail_token_insert()`);
    try {
      const response = await expectNoDbChange(ctx.db, () => postSignLogin(app, { message, signature, inviteCode: 'DEMO2026' }));
      expectRefused(response, ApiCode.internal);
    } finally {
      await ctx.db.execute(sql`DROP TRIGGER fail_token_insert ON tokens`);
      await ctx.db.execute(sql`DROP FUNCTION fail_token_insert()`);
    }
    // The nonce was given back: the same message now signs in.
    expect(envelope(await postSignLogin(app, { message, signature })).code).toBe(0);
  });

  it('without a built SPA, other paths answer the 4004 envelope', async () => {
    const app = await ctx.app({ spaDir: null });
    expectRefused(await app.inject({ method: 'GET', url: '/' }), ApiCode.notFound);
    expectRefused(await app.inject({ method: 'GET', url: '/login/DEMO2026' }), ApiCode.notFound);
  });
});

describeWithDatabases('SPA and locales', (ctx) => {
  let site: StaticSite;

  beforeAll(async () => {
    site = await createStaticSite('md-static-', {
      spa: { 'index.html': '<!doctype html><title>Member DApp</title>', 'assets/index-abc123.js': 'console.log(1)' },
      locales: { 'zh/Common.json': '{"1001":"参数错误"}' },
      beside: { 'secret.json': '{"secret":true}' },
    });
  });

  afterAll(async () => {
    await site.remove();
  });

  it('serves index.html at / and for any client route (history fallback)', async () => {
    const app = await ctx.app({ spaDir: site.spaDir, localesDir: site.localesDir });
    for (const url of ['/', '/login/DEMO2026', '/notice/welcome?lang=en', '/missing.png']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toContain('<title>Member DApp</title>');
    }
  });

  it('serves fingerprinted assets as immutable', async () => {
    const app = await ctx.app({ spaDir: site.spaDir, localesDir: site.localesDir });
    const response = await app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('javascript');
    expect(response.headers['cache-control']).toContain('immutable');
  });

  it('keeps /api unknown paths as the 4004 envelope, and POST elsewhere too', async () => {
    const app = await ctx.app({ spaDir: site.spaDir, localesDir: site.localesDir });
    expectRefused(await app.inject({ method: 'GET', url: '/api/unknown' }), ApiCode.notFound);
    expectRefused(await app.inject({ method: 'POST', url: '/login' }), ApiCode.notFound);
  });

  it('serves /locales/{lng}/{ns}.json from the locales folder', async () => {
    const app = await ctx.app({ spaDir: site.spaDir, localesDir: site.localesDir });
    const response = await app.inject({ method: 'GET', url: '/locales/zh/Common.json' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('application/json');
    expect(response.json()).toEqual({ 1001: '参数错误' });
  });

  it.each([
    '/locales/en/Common.json',
    '/locales/fr/Common.json',
    '/locales/zh/Common',
    '/locales/zh/com-mon.json',
    '/locales/zh/%2e%2e.json',
    '/locales/zh',
    '/locales/',
  ])('%s → 4004 (404)', async (url) => {
    const app = await ctx.app({ spaDir: site.spaDir, localesDir: site.localesDir });
    await expectNoDbChange(ctx.db, async () => expectRefused(await app.inject({ method: 'GET', url }), ApiCode.notFound));
  });

  it('a dot segment behind %2F → 1001 "path" (400); oddRequests.test.ts has every shape', async () => {
    const app = await ctx.app({ spaDir: site.spaDir, localesDir: site.localesDir });
    expectRefused(await app.inject({ method: 'GET', url: '/locales/zh/..%2F..%2Fsecret.json' }), ApiCode.invalidParameters, 'path');
  });
});
