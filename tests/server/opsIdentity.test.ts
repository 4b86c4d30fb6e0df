/** Operators' sign-in, sessions, operators and roles, API keys: on every database target. */
import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ApiCode } from '../../api-schema/codes';
import { OPERATOR_SIGN_IN_STATEMENT } from '../../api-schema/ops';
import { auditLog, operatorApiKeys, operatorChanges, operatorNonces, operatorSessions, tokens } from '../../server/db/schema';
import { expectNoDbChange, expectRefused } from './support/assertions';
import { describeWithDatabases } from './support/harness';
import { TEST_TREASURY_ADDRESS, treasuryHeaders } from './support/testLedger';
import { addOperator, bearer, createKey, operatorMessage, postOpsSignIn, requestOperatorNonce, signInOperator } from './support/testOperators';
import { accounts, authHeaders, buildMessage, envelope, postSignLogin, requestNonce, signInBound } from './support/memberSignIn';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describeWithDatabases('operator sign-in', (ctx) => {
  it('signs a current operator in with the operators’ statement: a 12-hour session, stored hashed, audited', async () => {
    await addOperator(ctx.db, accounts.alice.address, ['finance', 'support']);
    const app = await ctx.app();
    const signedIn = await signInOperator(app, accounts.alice, ctx.clock.now());
    expect(signedIn.token).toMatch(/^mdo_[A-Za-z0-9_-]{43}$/);
    expect(signedIn.expiresAt).toBe(new Date(ctx.clock.now().getTime() + 12 * HOUR).toISOString());
    expect(signedIn.operator).toEqual({ address: accounts.alice.address, roles: ['finance', 'support'] });
    const sessions = await ctx.db.select().from(operatorSessions);
    expect(sessions.map((row) => row.hash)).toEqual([sha256(signedIn.token)]);

    const me = await app.inject({ method: 'GET', url: '/api/admin/me', headers: signedIn.headers });
    expect(envelope(me)).toEqual({ code: 0, result: { address: accounts.alice.address, roles: ['finance', 'support'], via: 'session', csrfToken: signedIn.csrfToken } });
    const [row] = await ctx.db.select().from(auditLog).where(eq(auditLog.action, 'opsSignIn'));
    expect(row).toMatchObject({ actorAddress: accounts.alice.address, via: 'session', target: accounts.alice.address, clientAddress: '127.0.0.1' });
  });

  it('an address that is no current operator → 1006 after a valid signature, no session, the nonce unused', async () => {
    const app = await ctx.app();
    const nonce = await requestOperatorNonce(app, accounts.bob.address);
    const message = operatorMessage(accounts.bob, nonce, ctx.clock.now());
    const response = await expectNoDbChange(ctx.db, async () => postOpsSignIn(app, { message, signature: await accounts.bob.signMessage({ message }) }));
    expectRefused(response, ApiCode.roleRequired);
  });

  it('a removed operator cannot sign in (1006)', async () => {
    await addOperator(ctx.db, accounts.alice.address, ['admin']);
    await addOperator(ctx.db, accounts.bob.address, ['finance']);
    const app = await ctx.app();
    const alice = await signInOperator(app, accounts.alice, ctx.clock.now());
    expect(envelope(await app.inject({ method: 'POST', url: '/api/admin/operators/remove', headers: alice.headers, payload: { address: accounts.bob.address } })).code).toBe(0);
    await expect(signInOperator(app, accounts.bob, ctx.clock.now())).rejects.toThrow(/"code":1006/);
  });

  it('refuses any other statement (1005), and a member’s sign-in refuses the operators’ statement (1005)', async () => {
    await addOperator(ctx.db, accounts.alice.address, ['admin']);
    const app = await ctx.app();
    const nonce = await requestOperatorNonce(app, accounts.alice.address);
    for (const statement of ['Sign in to Member DApp', `${OPERATOR_SIGN_IN_STATEMENT} `, undefined]) {
      const message = buildMessage(accounts.alice, nonce, ctx.clock.now(), { statement });
      const response = await expectNoDbChange(ctx.db, async () => postOpsSignIn(app, { message, signature: await accounts.alice.signMessage({ message }) }));
      expectRefused(response, ApiCode.signatureInvalid);
    }
    const memberNonce = await requestNonce(app, accounts.alice.address);
    const message = buildMessage(accounts.alice, memberNonce, ctx.clock.now(), { statement: OPERATOR_SIGN_IN_STATEMENT });
    const response = await expectNoDbChange(ctx.db, async () => postSignLogin(app, { message, signature: await accounts.alice.signMessage({ message }) }));
    expectRefused(response, ApiCode.signatureInvalid);
  });

  it('a member’s nonce does not sign an operator in, nor the reverse (1004)', async () => {
    await addOperator(ctx.db, accounts.alice.address, ['admin']);
    const app = await ctx.app();
    const memberNonce = await requestNonce(app, accounts.alice.address);
    const opsMessage = operatorMessage(accounts.alice, memberNonce, ctx.clock.now());
    expectRefused(await postOpsSignIn(app, { message: opsMessage, signature: await accounts.alice.signMessage({ message: opsMessage }) }), ApiCode.nonceInvalid);
    const operatorNonce = await requestOperatorNonce(app, accounts.alice.address);
    const memberMessage = buildMessage(accounts.alice, operatorNonce, ctx.clock.now());
    expectRefused(await postSignLogin(app, { message: memberMessage, signature: await accounts.alice.signMessage({ message: memberMessage }) }), ApiCode.nonceInvalid);
  });

  it('a replayed message → 1004; an expired message or nonce → 1004; a wrong domain or signer → 1005', async () => {
    await addOperator(ctx.db, accounts.alice.address, ['admin']);
    const app = await ctx.app();
    const nonce = await requestOperatorNonce(app, accounts.alice.address);
    const message = operatorMessage(accounts.alice, nonce, ctx.clock.now());
    const payload = { message, signature: await accounts.alice.signMessage({ message }) };
    expect(envelope(await postOpsSignIn(app, payload)).code).toBe(0);
    expectRefused(await expectNoDbChange(ctx.db, () => postOpsSignIn(app, payload)), ApiCode.nonceInvalid);

    const stale = operatorMessage(accounts.alice, await requestOperatorNonce(app, accounts.alice.address), new Date(ctx.clock.now().getTime() - 6 * MINUTE));
    expectRefused(await postOpsSignIn(app, { message: stale, signature: await accounts.alice.signMessage({ message: stale }) }), ApiCode.nonceInvalid);

    const late = await requestOperatorNonce(app, accounts.alice.address);
    ctx.clock.advance(5 * MINUTE + 1000);
    const lateMessage = operatorMessage(accounts.alice, late, ctx.clock.now());
    expectRefused(await postOpsSignIn(app, { message: lateMessage, signature: await accounts.alice.signMessage({ message: lateMessage }) }), ApiCode.nonceInvalid);

    const elsewhere = operatorMessage(accounts.alice, await requestOperatorNonce(app, accounts.alice.address), ctx.clock.now(), { domain: 'evil.test' });
    expectRefused(await postOpsSignIn(app, { message: elsewhere, signature: await accounts.alice.signMessage({ message: elsewhere }) }), ApiCode.signatureInvalid);
    const forged = operatorMessage(accounts.alice, await requestOperatorNonce(app, accounts.alice.address), ctx.clock.now());
    expectRefused(await postOpsSignIn(app, { message: forged, signature: await accounts.mallory.signMessage({ message: forged }) }), ApiCode.signatureInvalid);
    expect(await ctx.db.select().from(operatorSessions)).toHaveLength(1);
  });

  it('the same message three times at once → one session', async () => {
    await addOperator(ctx.db, accounts.alice.address, ['admin']);
    const app = await ctx.app();
    const message = operatorMessage(accounts.alice, await requestOperatorNonce(app, accounts.alice.address), ctx.clock.now());
    const payload = { message, signature: await accounts.alice.signMessage({ message }) };
    const codes = (await Promise.all([postOpsSignIn(app, payload), postOpsSignIn(app, payload), postOpsSignIn(app, payload)])).map((r) => envelope(r).code);
    expect(codes.sort()).toEqual([0, ApiCode.nonceInvalid, ApiCode.nonceInvalid]);
  });

  it('a session expires after 12 hours (1002) and ends at logout (1002), audited', async () => {
    await addOperator(ctx.db, accounts.alice.address, ['admin']);
    const app = await ctx.app();
    const first = await signInOperator(app, accounts.alice, ctx.clock.now());
    const second = await signInOperator(app, accounts.alice, ctx.clock.now());
    expect(envelope(await app.inject({ method: 'POST', url: '/api/admin/auth/logout', headers: first.headers })).code).toBe(0);
    expectRefused(await app.inject({ method: 'GET', url: '/api/admin/me', headers: first.headers }), ApiCode.notSignedIn);
    expect(envelope(await app.inject({ method: 'GET', url: '/api/admin/me', headers: second.headers })).code).toBe(0);
    expect(await ctx.db.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.action, 'opsLogout'))).toHaveLength(1);
    ctx.clock.advance(12 * HOUR);
    expectRefused(await app.inject({ method: 'GET', url: '/api/admin/me', headers: second.headers }), ApiCode.notSignedIn);
  });

  it('a member’s token opens no operator call, and an operator’s token no member call (1002)', async () => {
    await addOperator(ctx.db, accounts.alice.address, ['admin']);
    const app = await ctx.app();
    const memberToken = await signInBound(app, accounts.alice, ctx.clock.now());
    const operator = await signInOperator(app, accounts.alice, ctx.clock.now());
    expectRefused(await app.inject({ method: 'GET', url: '/api/admin/me', headers: bearer(memberToken) }), ApiCode.notSignedIn);
    expectRefused(await app.inject({ method: 'GET', url: '/api/admin/me', headers: authHeaders(memberToken) }), ApiCode.notSignedIn);
    expectRefused(await app.inject({ method: 'GET', url: '/api/member/meInfo', headers: bearer(operator.token) }), ApiCode.notSignedIn);
    expectRefused(await app.inject({ method: 'POST', url: '/api/member/logout', headers: bearer(operator.token) }), ApiCode.notSignedIn);
    expect(await ctx.db.select().from(tokens)).toHaveLength(1);
  });

  it('nonces are rate-limited as members’ (4290)', async () => {
    const app = await ctx.app({ rateLimits: { loginNonce: { max: 2, timeWindow: 60_000 } } });
    await requestOperatorNonce(app, accounts.alice.address);
    await requestOperatorNonce(app, accounts.alice.address);
    expectRefused(await app.inject({ method: 'GET', url: '/api/admin/auth/nonce', query: { address: accounts.alice.address } }), ApiCode.tooManyRequests);
    expect(await ctx.db.select().from(operatorNonces)).toHaveLength(2);
  });

  it('sign-in is rate-limited as members’ (4290)', async () => {
    const app = await ctx.app({ rateLimits: { memberSignLogin: { max: 1, timeWindow: 60_000 } } });
    expectRefused(await postOpsSignIn(app, { message: 'x', signature: '0x00' }), ApiCode.invalidParameters);
    expectRefused(await postOpsSignIn(app, { message: 'x', signature: '0x00' }), ApiCode.tooManyRequests);
  });
});

describeWithDatabases('operators and roles', (ctx) => {
  async function adminSession() {
    await addOperator(ctx.db, accounts.alice.address, ['admin']);
    const app = await ctx.app();
    return { app, session: (await signInOperator(app, accounts.alice, ctx.clock.now())).headers };
  }

  it('the only admin adds, changes and lists operators at once; each change is audited with before and after', async () => {
    const { app, session } = await adminSession();
    const put = await app.inject({ method: 'POST', url: '/api/admin/operators/put', headers: { ...session, 'x-request-id': 'ticket-42' }, payload: { address: accounts.bob.address.toLowerCase(), roles: ['support', 'finance'] } });
    expect(envelope(put)).toMatchObject({
      code: 0,
      result: { status: 'done', operator: { address: accounts.bob.address, roles: ['finance', 'support'], addedAt: ctx.clock.now().toISOString(), addedBy: accounts.alice.address } },
    });
    ctx.clock.advance(MINUTE);
    await app.inject({ method: 'POST', url: '/api/admin/operators/put', headers: session, payload: { address: accounts.bob.address, roles: ['content'] } });
    const list = envelope<{ operators: { address: string; roles: string[] }[] }>(await app.inject({ method: 'GET', url: '/api/admin/operators', headers: session }));
    // The test treasury first: every test's database has it (tests/support/treasury.ts).
    expect(list.result?.operators.map(({ address, roles }) => ({ address, roles }))).toEqual([
      { address: TEST_TREASURY_ADDRESS, roles: ['finance'] },
      { address: accounts.alice.address, roles: ['admin'] },
      { address: accounts.bob.address, roles: ['content'] },
    ]);
    const rows = await ctx.db.select().from(auditLog).where(eq(auditLog.action, 'opsOperatorPut'));
    expect(rows.map((row) => ({ before: row.before, after: (row.after as { roles: string[] }).roles, requestId: row.requestId }))).toEqual([
      { before: null, after: ['finance', 'support'], requestId: 'ticket-42' },
      { before: expect.objectContaining({ roles: ['finance', 'support'] }), after: ['content'], requestId: expect.any(String) },
    ]);
  });

  it('a demoted operator’s session acts with the new roles at once', async () => {
    const { app, session } = await adminSession();
    await addOperator(ctx.db, accounts.bob.address, ['finance']);
    const bob = await signInOperator(app, accounts.bob, ctx.clock.now());
    expect(envelope(await app.inject({ method: 'GET', url: '/api/admin/ledger', headers: bob.headers })).code).toBe(0);
    await app.inject({ method: 'POST', url: '/api/admin/operators/put', headers: session, payload: { address: accounts.bob.address, roles: ['support'] } });
    expectRefused(await app.inject({ method: 'GET', url: '/api/admin/ledger', headers: bob.headers }), ApiCode.roleRequired);
  });

  it('removing an operator ends their sessions and revokes their keys at once', async () => {
    const { app, session } = await adminSession();
    await addOperator(ctx.db, accounts.bob.address, ['finance']);
    const bob = await signInOperator(app, accounts.bob, ctx.clock.now());
    const key = await createKey(app, bob.headers, ['finance']);
    const removed = await app.inject({ method: 'POST', url: '/api/admin/operators/remove', headers: session, payload: { address: accounts.bob.address } });
    expect(envelope(removed)).toMatchObject({ code: 0, result: { status: 'done', removed: { sessionsEnded: 1, keysRevoked: 1 } } });
    expectRefused(await app.inject({ method: 'GET', url: '/api/admin/me', headers: bob.headers }), ApiCode.notSignedIn);
    expectRefused(await app.inject({ method: 'GET', url: '/api/admin/me', headers: bearer(key.key) }), ApiCode.notSignedIn);
    expectRefused(await app.inject({ method: 'POST', url: '/api/admin/operators/remove', headers: session, payload: { address: accounts.bob.address } }), ApiCode.notFound);
  });

  it('the last admin can be neither removed nor demoted (1001), no change kept; with a second admin, once confirmed, they can', async () => {
    const { app, session } = await adminSession();
    const demote = () => app.inject({ method: 'POST', url: '/api/admin/operators/put', headers: session, payload: { address: accounts.alice.address, roles: ['finance'] } });
    const remove = () => app.inject({ method: 'POST', url: '/api/admin/operators/remove', headers: session, payload: { address: accounts.alice.address } });
    expectRefused(await expectNoDbChange(ctx.db, demote), ApiCode.invalidParameters, 'roles');
    expectRefused(await expectNoDbChange(ctx.db, remove), ApiCode.invalidParameters, 'address');
    expect(await ctx.db.select().from(operatorChanges)).toEqual([]);
    await addOperator(ctx.db, accounts.bob.address, ['admin']);
    const asked = envelope<{ id: string; status: string }>(await remove());
    expect(asked.result?.status).toBe('waiting');
    const bob = await signInOperator(app, accounts.bob, ctx.clock.now());
    const confirmed = await app.inject({ method: 'POST', url: '/api/admin/operators/confirm', headers: bob.headers, payload: { id: asked.result?.id } });
    expect(envelope<{ status: string }>(confirmed).result?.status).toBe('done');
    expectRefused(await app.inject({ method: 'GET', url: '/api/admin/me', headers: session }), ApiCode.notSignedIn);
  });

  it('an X-Admin-Token header (the removed ADMIN_TOKEN) is nobody: 1002, and nothing is changed or audited', async () => {
    const { app } = await adminSession();
    const leftover = { 'x-admin-token': 'test-admin-token-0123456789abcdef0123' };
    expectRefused(await app.inject({ method: 'GET', url: '/api/admin/me', headers: leftover }), ApiCode.notSignedIn);
    const put = () => app.inject({ method: 'POST', url: '/api/admin/operators/put', headers: leftover, payload: { address: accounts.carol.address, roles: ['content'] } });
    expectRefused(await expectNoDbChange(ctx.db, put), ApiCode.notSignedIn);
    expect(await ctx.db.select().from(auditLog).where(eq(auditLog.target, accounts.carol.address))).toEqual([]);
  });
});

describeWithDatabases('operator API keys', (ctx) => {
  it('a key is shown once, stored as its sha256, acts with its roles, and stops at revocation', async () => {
    await addOperator(ctx.db, accounts.alice.address, ['finance', 'support']);
    const app = await ctx.app();
    const { headers: session } = await signInOperator(app, accounts.alice, ctx.clock.now());
    const created = await createKey(app, session, ['finance'], 'nightly reconcile');
    expect(created.key).toMatch(new RegExp(`^mdk_${created.id}_[A-Za-z0-9_-]{43}$`));
    const [stored] = await ctx.db.select().from(operatorApiKeys).where(eq(operatorApiKeys.id, created.id));
    expect(stored).toMatchObject({ id: created.id, hash: sha256(created.key), roles: ['finance'], createdBy: accounts.alice.address, lastUsedAt: null });
    expect(JSON.stringify(await ctx.db.select({ before: auditLog.before, after: auditLog.after }).from(auditLog))).not.toContain(created.key);

    const listed = envelope<{ keys: Record<string, unknown>[] }>(await app.inject({ method: 'GET', url: '/api/admin/keys', headers: session }));
    expect(listed.result?.keys).toEqual([expect.objectContaining({ id: created.id, label: 'nightly reconcile', roles: ['finance'], revokedAt: null })]);
    expect(JSON.stringify(listed)).not.toContain(created.key.slice(22));

    expect(envelope(await app.inject({ method: 'GET', url: '/api/admin/me', headers: bearer(created.key) })).result).toEqual({ address: accounts.alice.address, roles: ['finance'], via: 'apiKey', csrfToken: null });
    expect(envelope(await app.inject({ method: 'GET', url: '/api/admin/ledger', headers: bearer(created.key) })).code).toBe(0);
    const [used] = await ctx.db.select().from(operatorApiKeys).where(eq(operatorApiKeys.id, created.id));
    expect(used?.lastUsedAt?.toISOString()).toBe(ctx.clock.now().toISOString());

    const revoke = await app.inject({ method: 'POST', url: '/api/admin/keys/revoke', headers: session, payload: { id: created.id } });
    expect(envelope<{ revokedAt: string }>(revoke).result?.revokedAt).toBe(ctx.clock.now().toISOString());
    expectRefused(await app.inject({ method: 'GET', url: '/api/admin/ledger', headers: bearer(created.key) }), ApiCode.notSignedIn);
    expect(await ctx.db.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.target, created.id))).toEqual([{ action: 'opsKeyCreate' }, { action: 'opsKeyRevoke' }]);
  });

  it('last use is written at most once a minute', async () => {
    await addOperator(ctx.db, accounts.alice.address, ['finance']);
    const app = await ctx.app();
    const { headers: session } = await signInOperator(app, accounts.alice, ctx.clock.now());
    const { id, key } = await createKey(app, session, ['finance']);
    const lastUsed = async () => (await ctx.db.select().from(operatorApiKeys).where(eq(operatorApiKeys.id, id)))[0]?.lastUsedAt?.toISOString();
    const start = ctx.clock.now();
    await app.inject({ method: 'GET', url: '/api/admin/me', headers: bearer(key) });
    ctx.clock.advance(30_000);
    await app.inject({ method: 'GET', url: '/api/admin/me', headers: bearer(key) });
    expect(await lastUsed()).toBe(start.toISOString());
    ctx.clock.advance(30_000);
    await app.inject({ method: 'GET', url: '/api/admin/me', headers: bearer(key) });
    expect(await lastUsed()).toBe(ctx.clock.now().toISOString());
  });

  it('roles beyond the creator’s → 1006; a key (the test treasury’s too) cannot make keys (1006)', async () => {
    await addOperator(ctx.db, accounts.alice.address, ['support']);
    const app = await ctx.app();
    const { headers: session } = await signInOperator(app, accounts.alice, ctx.clock.now());
    const create = (headers: Record<string, string>, roles: string[]) => app.inject({ method: 'POST', url: '/api/admin/keys/create', headers, payload: { label: 'x', roles } });
    expectRefused(await expectNoDbChange(ctx.db, () => create(session, ['finance'])), ApiCode.roleRequired);
    const { key } = await createKey(app, session, ['support']);
    expectRefused(await create(bearer(key), ['support']), ApiCode.roleRequired);
    expectRefused(await create(treasuryHeaders(), ['support']), ApiCode.roleRequired);
  });

  it('a key acts only with the roles its creator still holds; another operator’s key is not theirs to revoke (4004)', async () => {
    await addOperator(ctx.db, accounts.alice.address, ['finance', 'support']);
    await addOperator(ctx.db, accounts.bob.address, ['support']);
    const app = await ctx.app();
    const alice = await signInOperator(app, accounts.alice, ctx.clock.now());
    const bob = await signInOperator(app, accounts.bob, ctx.clock.now());
    const key = await createKey(app, alice.headers, ['finance', 'support']);
    await addOperator(ctx.db, accounts.alice.address, ['support']);
    expect(envelope<{ roles: string[] }>(await app.inject({ method: 'GET', url: '/api/admin/me', headers: bearer(key.key) })).result?.roles).toEqual(['support']);
    expectRefused(await app.inject({ method: 'POST', url: '/api/admin/keys/revoke', headers: bob.headers, payload: { id: key.id } }), ApiCode.notFound);
    expect(envelope<{ keys: unknown[] }>(await app.inject({ method: 'GET', url: '/api/admin/keys', headers: bob.headers })).result?.keys).toEqual([]);
  });

  it('a bearer shaped like a key with a wrong secret, or a made-up session, is 1002', async () => {
    await addOperator(ctx.db, accounts.alice.address, ['finance']);
    const app = await ctx.app();
    const { headers: session } = await signInOperator(app, accounts.alice, ctx.clock.now());
    const { id } = await createKey(app, session, ['finance']);
    for (const credential of [`mdk_${id}_${'A'.repeat(43)}`, `mdo_${'A'.repeat(43)}`, 'Bearer', id]) {
      expectRefused(await app.inject({ method: 'GET', url: '/api/admin/me', headers: bearer(credential) }), ApiCode.notSignedIn);
    }
  });
});

describe('operator sign-in statement', () => {
  it('is the one the contract names', () => {
    expect(OPERATOR_SIGN_IN_STATEMENT).toBe("Sign in to the Member DApp operators' desk.");
  });
});
