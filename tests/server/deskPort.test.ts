/**
 * OPS_PORT: the desk on a listener of its own. Over real HTTP (the split is by listener): the member port answers 404
 * for /ops and /api/admin, the desk's port serves them and what the desk's page loads, and 404 for member pages and
 * calls. Without it, one port serves both, as before.
 */
import { request } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEnv } from '../../server/env';
import { servedOn } from '../../server/plugins/deskPort';
import { describeWithDatabases } from './support/harness';
import { addOperator, operatorMessage, sessionTokenIn } from './support/testOperators';
import { accounts, TEST_DOMAIN } from './support/memberSignIn';
import { createStaticSite, type StaticSite } from './support/staticSite';

let site: StaticSite;
beforeAll(async () => {
  site = await createStaticSite('md-desk-port-', {
    spa: { 'index.html': '<!doctype html><title>member</title>', 'ops.html': '<!doctype html><title>desk</title>', 'assets/ops-abc123.js': 'export {};' },
    locales: { 'en/ops.json': '{}' },
    beside: {},
  });
});
afterAll(async () => {
  await site.remove();
});

interface HttpAnswer {
  status: number;
  body: string;
  setCookie: string[] | undefined;
}

/** A request over real HTTP (node:http, so the Host header is the test's: the sign-in site). */
function call(base: string, path: string, options: { method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: unknown } = {}): Promise<HttpAnswer> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const sent = request(
      `${base}${path}`,
      {
        method: options.method ?? 'GET',
        headers: { host: TEST_DOMAIN, ...options.headers, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
        agent: false,
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body, setCookie: response.headers['set-cookie'] }));
      },
    );
    sent.on('error', reject);
    sent.end(payload);
  });
}

const get = (base: string, path: string) => call(base, path);

describeWithDatabases('the desk on a port of its own (OPS_PORT)', (ctx) => {
  async function listening(deskOnOwnPort: boolean): Promise<{ app: FastifyInstance; member: string; desk: string | undefined }> {
    const app = await ctx.app({ deskOnOwnPort, spaDir: site.spaDir, localesDir: site.localesDir });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const memberPort = (app.server.address() as { port: number }).port;
    const deskAddress = await app.deskPort?.listen(0, '127.0.0.1');
    return { app, member: `http://127.0.0.1:${memberPort}`, desk: deskAddress ? `http://127.0.0.1:${deskAddress.port}` : undefined };
  }

  it('the member port answers 404 for /ops and /api/admin; the desk’s port serves the desk and its session', async () => {
    await addOperator(ctx.db, accounts.alice.address, ['admin']);
    const { app, member, desk = '' } = await listening(true);
    try {
      for (const path of ['/ops', '/ops/withdrawals', '/api/admin/me', '/api/admin/auth/nonce?address=' + accounts.alice.address]) {
        expect((await get(member, path)).status, path).toBe(404);
      }
      expect((await call(member, '/api/admin/auth/logout', { method: 'POST', body: {} })).status).toBe(404);
      // The member app is still the member port's.
      expect(await get(member, '/')).toMatchObject({ status: 200, body: expect.stringContaining('member') });
      expect((await get(member, '/api/dapp/dappParam')).status).toBe(200);

      expect(await get(desk, '/ops')).toMatchObject({ status: 200, body: expect.stringContaining('desk') });
      expect(await get(desk, '/ops/withdrawals')).toMatchObject({ status: 200, body: expect.stringContaining('desk') });
      for (const path of ['/assets/ops-abc123.js', '/locales/en/ops.json', '/api/dapp/dappParam', '/api/health/live']) expect((await get(desk, path)).status, path).toBe(200);
      // An operator call on the desk's port is an operator call: 1002 without a session.
      expect(JSON.parse((await get(desk, '/api/admin/me')).body)).toMatchObject({ code: 1002 });
      // A session signed in there works there, and its cookie opens nothing on the member port.
      const { result: issued } = JSON.parse((await get(desk, `/api/admin/auth/nonce?address=${accounts.alice.address}`)).body) as { result: { nonce: string } };
      const message = operatorMessage(accounts.alice, issued.nonce, ctx.clock.now());
      const signIn = await call(desk, '/api/admin/auth/signIn', { method: 'POST', body: { message, signature: await accounts.alice.signMessage({ message }) } });
      const token = sessionTokenIn(signIn.setCookie);
      const { csrfToken } = (JSON.parse(signIn.body) as { result: { csrfToken: string } }).result;
      const session = { cookie: `mdo_session=${token ?? ''}`, 'x-csrf-token': csrfToken };
      expect(JSON.parse((await call(desk, '/api/admin/me', { headers: session })).body)).toMatchObject({ code: 0, result: { address: accounts.alice.address, via: 'session' } });
      expect((await call(member, '/api/admin/me', { headers: session })).status).toBe(404);
      expect(JSON.parse((await call(desk, '/api/admin/auth/logout', { method: 'POST', headers: session, body: {} })).body)).toMatchObject({ code: 0 });
    } finally {
      await app.close();
    }
  });

  it('the desk’s port serves no member page or member call (404), so no member script runs on the desk’s origin', async () => {
    const { app, desk = '' } = await listening(true);
    try {
      for (const path of ['/', '/login', '/me', '/atlas', '/api/member/meInfo', '/manifest.webmanifest', '/ops/../login']) expect((await get(desk, path)).status, path).toBe(404);
    } finally {
      await app.close();
    }
  });

  it('without OPS_PORT one port serves the member app and the desk, as before', async () => {
    const { app, member, desk } = await listening(false);
    try {
      expect(desk).toBeUndefined();
      expect(app.deskPort).toBeNull();
      expect(await get(member, '/ops')).toMatchObject({ status: 200, body: expect.stringContaining('desk') });
      expect(JSON.parse((await get(member, '/api/admin/me')).body)).toMatchObject({ code: 1002 });
    } finally {
      await app.close();
    }
  });
});

describe('OPS_PORT', () => {
  it('is optional, a port, and not PORT', () => {
    expect(readEnv({}).OPS_PORT).toBeUndefined();
    expect(readEnv({ OPS_PORT: '8081' }).OPS_PORT).toBe(8081);
    expect(() => readEnv({ OPS_PORT: '8080' })).toThrow(/OPS_PORT must differ from PORT/u);
    expect(() => readEnv({ OPS_PORT: 'eighty' })).toThrow(/OPS_PORT/u);
  });

  it('splits by listener: desk paths only on the desk’s, page needs on both, the rest only on the member’s', () => {
    expect([servedOn('/api/admin/me', true), servedOn('/api/admin/me', false)]).toEqual([true, false]);
    expect([servedOn('/opsx', true), servedOn('/opsx', false)]).toEqual([false, true]);
    expect([servedOn('/assets/ops-1.js', true), servedOn('/assets/ops-1.js', false)]).toEqual([true, true]);
    expect([servedOn('/login', true), servedOn('/login', false)]).toEqual([false, true]);
  });
});
