/**
 * Several stateless instances on one PostgreSQL database (docs/architecture.md, "Reference server"): nonces and tokens live
 * in the database, so any instance answers any step. Runs only when DATABASE_URL is set (.ci/with-postgres.sh).
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { openDatabase, type Database } from '../../server/db/client';
import { seed } from '../../server/seed/seed';
import { createTestClock } from './support/testClock';
import { openScratchPostgres, postgresUrl } from './support/databases';
import { accounts, authHeaders, buildMessage, envelope, postSignLogin, requestNonce, TEST_DOMAIN } from './support/memberSignIn';

describe.skipIf(!postgresUrl)('two app instances on one PostgreSQL database', () => {
  const clock = createTestClock();
  let primary: Database & { url: string };
  let secondary: Database;
  let one: FastifyInstance;
  let two: FastifyInstance;

  beforeAll(async () => {
    primary = await openScratchPostgres(postgresUrl ?? '');
    secondary = await openDatabase({ url: primary.url, poolSize: 3 });
    // Both instances migrate and seed at start, at the same moment: the advisory locks keep that safe.
    await Promise.all([primary.migrate(), secondary.migrate()]);
    await Promise.all([seed(primary.db), seed(secondary.db)]);
    const options = { now: clock.now, siweDomain: TEST_DOMAIN, spaDir: null };
    one = await buildApp({ ...options, db: primary.db });
    two = await buildApp({ ...options, db: secondary.db });
  }, 120_000);

  afterAll(async () => {
    await one?.close();
    await two?.close();
    await secondary?.close();
    await primary?.close();
  });

  it('signs in through one instance and reads meInfo through the other', async () => {
    const nonce = await requestNonce(one, accounts.alice.address);
    const message = buildMessage(accounts.alice, nonce, clock.now());
    const signature = await accounts.alice.signMessage({ message });
    // The nonce issued by instance one is checked and used by instance two.
    const signedIn = envelope<{ auth: string; isFinishedBind: boolean }>(await postSignLogin(two, { message, signature, inviteCode: 'DEMO2026' }));
    expect(signedIn.code).toBe(0);
    const token = signedIn.result?.auth ?? '';

    const me = envelope<{ address: string }>(await one.inject({ method: 'GET', url: '/api/member/meInfo', headers: authHeaders(token) }));
    expect(me).toMatchObject({ code: 0, result: { address: accounts.alice.address } });

    // A replay at the other instance is refused too, and logout at one revokes everywhere.
    expect(envelope(await postSignLogin(one, { message, signature })).code).toBe(1004);
    await two.inject({ method: 'POST', url: '/api/member/logout', headers: authHeaders(token) });
    expect(envelope(await one.inject({ method: 'GET', url: '/api/member/meInfo', headers: authHeaders(token) })).code).toBe(1002);
  });

  it('lets exactly one of two concurrent binds make a pair of members each other’s recommender', async () => {
    const signInAt = async (app: FastifyInstance, account: typeof accounts.bob) => {
      const nonce = await requestNonce(app, account.address);
      const message = buildMessage(account, nonce, clock.now());
      const body = envelope<{ auth: string }>(await postSignLogin(app, { message, signature: await account.signMessage({ message }) }));
      return body.result?.auth ?? '';
    };
    const bob = await signInAt(one, accounts.bob);
    const carol = await signInAt(two, accounts.carol);
    const codeOf = async (token: string) =>
      envelope<{ inviteCode: string }>(await one.inject({ method: 'GET', url: '/api/member/meInfo', headers: authHeaders(token) })).result?.inviteCode ?? '';
    const [bobCode, carolCode] = await Promise.all([codeOf(bob), codeOf(carol)]);

    const results = await Promise.all([
      one.inject({ method: 'POST', url: '/api/member/bindRecommendRelation', headers: authHeaders(bob), payload: { inviteCode: carolCode } }),
      two.inject({ method: 'POST', url: '/api/member/bindRecommendRelation', headers: authHeaders(carol), payload: { inviteCode: bobCode } }),
    ]);
    expect(results.map((r) => envelope(r).code).sort()).toEqual([0, 2003]);
  });

  it('counts the sign-in rate limits per instance (ADR 0007): each instance gives a client its own budget', async () => {
    const limited = { loginNonce: { max: 1, timeWindow: 60_000 } };
    const a = await buildApp({ now: clock.now, siweDomain: TEST_DOMAIN, spaDir: null, db: primary.db, rateLimits: limited });
    const b = await buildApp({ now: clock.now, siweDomain: TEST_DOMAIN, spaDir: null, db: secondary.db, rateLimits: limited });
    try {
      const ask = (app: FastifyInstance) => app.inject({ method: 'GET', url: '/api/member/loginNonce', query: { address: accounts.dave.address } });
      const codes = [envelope(await ask(a)).code, envelope(await ask(a)).code, envelope(await ask(b)).code, envelope(await ask(b)).code];
      expect(codes).toEqual([0, 4290, 0, 4290]);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
