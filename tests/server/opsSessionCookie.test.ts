/**
 * The desk's session is an HttpOnly cookie (OWASP ASVS, session management): its attributes, no token in any answer,
 * the CSRF header on state-changing calls, foreign Origins refused, API keys as bearer unchanged, logout clearing it.
 */
import { expect, it } from 'vitest';
import { ApiCode } from '../../api-schema/codes';
import { expectNoDbChange, expectRefused } from './support/assertions';
import { describeWithDatabases } from './support/harness';
import { addOperator, bearer, createKey, operatorMessage, postOpsSignIn, requestOperatorNonce, sessionTokenIn, signInOperator } from './support/testOperators';
import { accounts, envelope, TEST_DOMAIN } from './support/memberSignIn';

const TWELVE_HOURS_S = 12 * 60 * 60;

describeWithDatabases('the desk session cookie', (ctx) => {
  async function signedIn() {
    await addOperator(ctx.db, accounts.alice.address, ['admin']);
    const app = await ctx.app();
    return { app, session: await signInOperator(app, accounts.alice, ctx.clock.now()) };
  }
  const putBob = { address: accounts.bob.address, roles: ['support'] };

  it('sign-in sets the session as an HttpOnly, Secure, SameSite=Strict cookie of /api/admin for the session’s life', async () => {
    const { session } = await signedIn();
    const [pair, ...attributes] = session.setCookie.split(';').map((part) => part.trim());
    expect(pair).toBe(`mdo_session=${session.token}`);
    expect(new Set(attributes)).toEqual(new Set([`Max-Age=${TWELVE_HOURS_S}`, 'Path=/api/admin', 'HttpOnly', 'Secure', 'SameSite=Strict']));
  });

  it('no answer carries the session token: sign-in and opsMe give only the CSRF token, derived from the session', async () => {
    await addOperator(ctx.db, accounts.alice.address, ['admin']);
    const app = await ctx.app();
    const message = operatorMessage(accounts.alice, await requestOperatorNonce(app, accounts.alice.address), ctx.clock.now());
    const response = await postOpsSignIn(app, { message, signature: await accounts.alice.signMessage({ message }) });
    const token = sessionTokenIn(response.headers['set-cookie']) ?? 'no cookie';
    expect(token).toMatch(/^mdo_/u);
    expect(response.body).not.toContain(token);
    const result = envelope<{ csrfToken: string }>(response).result;
    expect(Object.keys(result ?? {}).sort()).toEqual(['csrfToken', 'expiresAt', 'operator']);
    expect(result?.csrfToken).toMatch(/^[A-Za-z0-9_-]{43}$/u);
    const me = await app.inject({ method: 'GET', url: '/api/admin/me', headers: { cookie: `mdo_session=${token}` } });
    expect(me.body).not.toContain(token);
    expect(envelope<{ csrfToken: string; via: string }>(me).result).toMatchObject({ via: 'session', csrfToken: result?.csrfToken });
    const second = await signInOperator(app, accounts.alice, ctx.clock.now());
    expect(second.csrfToken).not.toBe(result?.csrfToken);
  });

  it('a state-changing cookie call without the CSRF header, or with another session’s, is refused (1006) and changes nothing', async () => {
    const { app, session } = await signedIn();
    const other = await signInOperator(app, accounts.alice, ctx.clock.now());
    const cookie = session.headers.cookie ?? '';
    for (const headers of [{ cookie }, { cookie, 'x-csrf-token': other.csrfToken }, { cookie, 'x-csrf-token': '' }]) {
      const response = await expectNoDbChange(ctx.db, () => app.inject({ method: 'POST', url: '/api/admin/operators/put', headers, payload: putBob }));
      expectRefused(response, ApiCode.roleRequired);
    }
    // A read needs no CSRF token.
    expect(envelope(await app.inject({ method: 'GET', url: '/api/admin/operators', headers: { cookie } })).code).toBe(0);
  });

  it('the same call with the session’s CSRF header goes through', async () => {
    const { app, session } = await signedIn();
    const put = await app.inject({ method: 'POST', url: '/api/admin/operators/put', headers: session.headers, payload: putBob });
    expect(envelope(put).code).toBe(0);
  });

  it('a foreign Origin is refused (1006) even with the CSRF header; the request’s own origin is not', async () => {
    const { app, session } = await signedIn();
    const call = (origin: string, method: 'GET' | 'POST' = 'POST') =>
      app.inject({ method, url: method === 'POST' ? '/api/admin/operators/put' : '/api/admin/me', headers: { ...session.headers, host: TEST_DOMAIN, origin }, ...(method === 'POST' ? { payload: putBob } : {}) });
    for (const origin of ['https://evil.example', `https://${TEST_DOMAIN}.evil.example`, 'null']) {
      expectRefused(await expectNoDbChange(ctx.db, () => call(origin)), ApiCode.roleRequired);
      expectRefused(await call(origin, 'GET'), ApiCode.roleRequired);
    }
    expect(envelope(await call(`http://${TEST_DOMAIN}`)).code).toBe(0);
  });

  it('sign-in from a foreign Origin is refused (1006), with no cookie set', async () => {
    await addOperator(ctx.db, accounts.alice.address, ['admin']);
    const app = await ctx.app();
    const response = await app.inject({ method: 'POST', url: '/api/admin/auth/signIn', headers: { host: TEST_DOMAIN, origin: 'https://evil.example' }, payload: { message: 'x', signature: '0x00' } });
    expectRefused(response, ApiCode.roleRequired);
    expect(response.headers['set-cookie']).toBeUndefined();
  });

  it('the session token is no bearer: sent as Authorization it is refused (1002)', async () => {
    const { app, session } = await signedIn();
    expectRefused(await app.inject({ method: 'GET', url: '/api/admin/me', headers: bearer(session.token) }), ApiCode.notSignedIn);
  });

  it('an API key as bearer works as before, with no CSRF token and whatever its Origin', async () => {
    const { app, session } = await signedIn();
    const { key } = await createKey(app, session.headers, ['admin']);
    const me = envelope(await app.inject({ method: 'GET', url: '/api/admin/me', headers: bearer(key) }));
    expect(me.result).toEqual({ address: accounts.alice.address, roles: ['admin'], via: 'apiKey', csrfToken: null });
    // (A key changes no operator: a state-changing call it may make.)
    const run = await app.inject({ method: 'POST', url: '/api/admin/distribute', headers: { ...bearer(key), origin: 'https://scripts.example' }, payload: {} });
    expect(envelope(run).code).toBe(0);
    // An API key in the desk's cookie opens nothing.
    expectRefused(await app.inject({ method: 'GET', url: '/api/admin/me', headers: { cookie: `mdo_session=${key}` } }), ApiCode.notSignedIn);
  });

  it('logout ends the session and clears the cookie; the cookie then opens nothing (1002)', async () => {
    const { app, session } = await signedIn();
    const logout = await app.inject({ method: 'POST', url: '/api/admin/auth/logout', headers: session.headers });
    expect(envelope(logout).code).toBe(0);
    const cleared = String(logout.headers['set-cookie']);
    expect(cleared).toMatch(/^mdo_session=;/u);
    expect(cleared).toContain('Max-Age=0');
    expect(cleared).toContain('Path=/api/admin');
    expectRefused(await app.inject({ method: 'GET', url: '/api/admin/me', headers: session.headers }), ApiCode.notSignedIn);
  });

  it('logout without the CSRF header is refused (1006) and the session holds', async () => {
    const { app, session } = await signedIn();
    expectRefused(await app.inject({ method: 'POST', url: '/api/admin/auth/logout', headers: { cookie: session.headers.cookie ?? '' } }), ApiCode.roleRequired);
    expect(envelope(await app.inject({ method: 'GET', url: '/api/admin/me', headers: session.headers })).code).toBe(0);
  });
});
