/**
 * Operator changes, four eyes (docs/API.md, "Operators"): only a signed-in session changes operators, roles or keys
 * (an API key or the bootstrap token: 1006, whatever its roles); an admin's put or remove waits for a second,
 * different admin, except while they are the only admin; a waiting change of an admin removed since no longer counts;
 * one confirmed twice at once is carried out once. Every act leaves one audit row.
 */
import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect, it } from 'vitest';
import { ApiCode } from '../../api-schema/codes';
import type { OperatorRole } from '../../api-schema/endpoint';
import { auditLog, operatorApiKeys, operatorChanges } from '../../server/db/schema';
import { runOpsCli } from '../../server/ops/cli';
import { listOperators } from '../../server/ops/operators';
import { expectRefused } from './support/assertions';
import { describeWithDatabases } from './support/harness';
import { TEST_TREASURY_ADDRESS, treasuryHeaders } from './support/testLedger';
import { bearer, createKey } from './support/testOperators';
import { operatorWithSession, type TestOperator } from './support/financeDeskCalls';
import { accounts, envelope } from './support/memberSignIn';

interface Change {
  id: string;
  kind: 'put' | 'remove';
  address: string;
  roles: OperatorRole[] | null;
  requestedBy: string;
  status: 'waiting' | 'done' | 'cancelled';
  confirmedBy: string | null;
  confirmedAt: string | null;
  cancelledAt: string | null;
  operator?: { address: string; roles: OperatorRole[]; addedBy: string | null };
  removed?: { sessionsEnded: number; keysRevoked: number };
}

function post(app: FastifyInstance, headers: Record<string, string>, url: string, payload: Record<string, unknown>): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'POST', url: `/api/admin/${url}`, headers, payload });
}

/** A call that answers a change; throws unless code 0. */
async function changed(response: Promise<LightMyRequestResponse>): Promise<Change> {
  const body = envelope<Change>(await response);
  if (body.code !== 0 || !body.result) throw new Error(`expected a change, got ${JSON.stringify(body)}`);
  return body.result;
}

async function waiting(app: FastifyInstance, operator: TestOperator): Promise<Change[]> {
  const body = envelope<{ changes: Change[] }>(await app.inject({ method: 'GET', url: '/api/admin/operators/changes', headers: operator.headers }));
  return body.result?.changes ?? [];
}

describeWithDatabases('operator changes', (ctx) => {
  const auditRows = (action: string) => ctx.db.select().from(auditLog).where(eq(auditLog.action, action)).orderBy(asc(auditLog.id));
  // The operators a test made (the test treasury, a finance operator of every test's database, aside).
  const current = async () => (await listOperators(ctx.db)).filter(({ address }) => address !== TEST_TREASURY_ADDRESS).map(({ address, roles }) => ({ address, roles }));

  it('an API key, an admin’s too, changes no operator and no key (1006), whatever its roles', async () => {
    const ann = await operatorWithSession(ctx.db, ['admin'], ctx.clock.now());
    const ben = await operatorWithSession(ctx.db, ['admin'], ctx.clock.now());
    const app = await ctx.app();
    const key = await createKey(app, ann.headers, ['admin'], 'leaked');
    const pending = await changed(post(app, ann.headers, 'operators/put', { address: accounts.carol.address, roles: ['finance'] }));
    const operatorsBefore = await current();
    for (const headers of [bearer(key.key), treasuryHeaders()]) {
      expectRefused(await post(app, headers, 'operators/put', { address: accounts.mallory.address, roles: ['admin'] }), ApiCode.roleRequired);
      expectRefused(await post(app, headers, 'operators/remove', { address: ben.address }), ApiCode.roleRequired);
      expectRefused(await post(app, headers, 'operators/confirm', { id: pending.id }), ApiCode.roleRequired);
      expectRefused(await post(app, headers, 'operators/cancel', { id: pending.id }), ApiCode.roleRequired);
      expectRefused(await post(app, headers, 'keys/create', { label: 'more', roles: ['admin'] }), ApiCode.roleRequired);
      expectRefused(await post(app, headers, 'keys/revoke', { id: key.id }), ApiCode.roleRequired);
    }
    expect(await current()).toEqual(operatorsBefore);
    expect((await ctx.db.select().from(operatorChanges)).map((row) => row.id.toString())).toEqual([pending.id]);
    expect((await waiting(app, ann)).map((change) => change.status)).toEqual(['waiting']);
    expect((await ctx.db.select({ id: operatorApiKeys.id, revokedAt: operatorApiKeys.revokedAt }).from(operatorApiKeys).where(eq(operatorApiKeys.id, key.id)))).toEqual([{ id: key.id, revokedAt: null }]);
    // Reading stays open to an admin's key.
    expect(envelope(await app.inject({ method: 'GET', url: '/api/admin/operators/changes', headers: bearer(key.key) })).code).toBe(0);
  });

  it('with two admins a put waits; its requester cannot confirm it; the second admin does, once; each act audited once', async () => {
    const ann = await operatorWithSession(ctx.db, ['admin'], ctx.clock.now());
    const ben = await operatorWithSession(ctx.db, ['admin'], ctx.clock.now());
    const app = await ctx.app();
    const asked = await changed(post(app, { ...ann.headers, 'x-request-id': 'ticket-7' }, 'operators/put', { address: accounts.carol.address.toLowerCase(), roles: ['support', 'finance'] }));
    expect(asked).toMatchObject({ kind: 'put', address: accounts.carol.address, roles: ['finance', 'support'], requestedBy: ann.address, status: 'waiting', confirmedBy: null });
    expect(asked.operator).toBeUndefined();
    expect((await current()).map((operator) => operator.address)).not.toContain(accounts.carol.address);
    // Every admin sees it waiting.
    expect((await waiting(app, ann)).map((change) => change.id)).toEqual([asked.id]);
    expect((await waiting(app, ben)).map((change) => change.id)).toEqual([asked.id]);

    // Its requester's own confirmation is refused as every act's is under the policy (1007); it stays waiting.
    expectRefused(await post(app, ann.headers, 'operators/confirm', { id: asked.id }), ApiCode.selfActRefused);
    expect((await waiting(app, ann)).map((change) => [change.id, change.status])).toContainEqual([asked.id, 'waiting']);
    expect((await current()).map((operator) => operator.address)).not.toContain(accounts.carol.address);

    ctx.clock.advance(60_000);
    const confirmed = await changed(post(app, ben.headers, 'operators/confirm', { id: asked.id }));
    expect(confirmed).toMatchObject({ id: asked.id, status: 'done', confirmedBy: ben.address, confirmedAt: ctx.clock.now().toISOString() });
    expect(confirmed.operator).toMatchObject({ address: accounts.carol.address, roles: ['finance', 'support'], addedBy: ben.address });
    expect(await current()).toContainEqual({ address: accounts.carol.address, roles: ['finance', 'support'] });
    expect(await waiting(app, ann)).toEqual([]);
    // Again: answered as it is, done nothing more.
    const again = await changed(post(app, ben.headers, 'operators/confirm', { id: asked.id }));
    expect(again).toMatchObject({ status: 'done', confirmedBy: ben.address });
    expect(again.operator).toBeUndefined();

    const [request] = await auditRows('opsOperatorPut');
    expect(await auditRows('opsOperatorPut')).toHaveLength(1);
    expect(request).toMatchObject({ actorAddress: ann.address, via: 'session', target: accounts.carol.address, before: null, requestId: 'ticket-7' });
    expect(request?.after).toMatchObject({ change: { id: asked.id, requestedBy: ann.address, confirmedAt: null } });
    const confirmations = await auditRows('opsOperatorConfirm');
    expect(confirmations).toHaveLength(1);
    expect(confirmations[0]).toMatchObject({ actorAddress: ben.address, target: accounts.carol.address, before: null });
    expect(confirmations[0]?.after).toMatchObject({ roles: ['finance', 'support'], changeId: asked.id });
  });

  it('with two admins a remove waits; confirmed, the operator’s sessions and keys end', async () => {
    const ann = await operatorWithSession(ctx.db, ['admin'], ctx.clock.now());
    const ben = await operatorWithSession(ctx.db, ['admin'], ctx.clock.now());
    const fay = await operatorWithSession(ctx.db, ['finance'], ctx.clock.now());
    const app = await ctx.app();
    const key = await createKey(app, fay.headers, ['finance']);
    const asked = await changed(post(app, ann.headers, 'operators/remove', { address: fay.address }));
    expect(asked).toMatchObject({ kind: 'remove', roles: null, status: 'waiting' });
    expect(envelope(await app.inject({ method: 'GET', url: '/api/admin/me', headers: fay.headers })).code).toBe(0);
    expectRefused(await post(app, ann.headers, 'operators/remove', { address: accounts.mallory.address }), ApiCode.notFound);

    const confirmed = await changed(post(app, ben.headers, 'operators/confirm', { id: asked.id }));
    expect(confirmed).toMatchObject({ status: 'done', removed: { sessionsEnded: 1, keysRevoked: 1 } });
    expectRefused(await app.inject({ method: 'GET', url: '/api/admin/me', headers: fay.headers }), ApiCode.notSignedIn);
    expectRefused(await app.inject({ method: 'GET', url: '/api/admin/me', headers: bearer(key.key) }), ApiCode.notSignedIn);
    expect(await auditRows('opsOperatorRemove')).toHaveLength(1);
    expect((await auditRows('opsOperatorConfirm')).map((row) => row.after)).toEqual([expect.objectContaining({ removed: true, sessionsEnded: 1, keysRevoked: 1, changeId: asked.id })]);
  });

  it('the only admin’s changes are done at once; once there are two, the next one waits', async () => {
    const ann = await operatorWithSession(ctx.db, ['admin'], ctx.clock.now());
    const app = await ctx.app();
    const added = await changed(post(app, ann.headers, 'operators/put', { address: accounts.bob.address, roles: ['admin'] }));
    expect(added).toMatchObject({ status: 'done', requestedBy: ann.address, confirmedBy: ann.address, operator: { address: accounts.bob.address, roles: ['admin'] } });
    expect(await waiting(app, ann)).toEqual([]);
    const rows = await auditRows('opsOperatorPut');
    expect(rows).toHaveLength(1);
    expect(rows[0]?.after).toMatchObject({ roles: ['admin'], changeId: added.id });

    const next = await changed(post(app, ann.headers, 'operators/put', { address: accounts.carol.address, roles: ['content'] }));
    expect(next.status).toBe('waiting');
    expect((await current()).map((operator) => operator.address).sort()).toEqual([ann.address, accounts.bob.address].sort());
  });

  it('a waiting change of an admin removed or demoted since no longer counts (3006)', async () => {
    const ann = await operatorWithSession(ctx.db, ['admin'], ctx.clock.now());
    const ben = await operatorWithSession(ctx.db, ['admin'], ctx.clock.now());
    const cat = await operatorWithSession(ctx.db, ['admin'], ctx.clock.now());
    const app = await ctx.app();
    const annAsks = await changed(post(app, ann.headers, 'operators/put', { address: accounts.dave.address, roles: ['admin'] }));
    const catAsks = await changed(post(app, cat.headers, 'operators/put', { address: accounts.dave.address, roles: ['finance'] }));
    const removeAnn = await changed(post(app, ben.headers, 'operators/remove', { address: ann.address }));
    const demoteCat = await changed(post(app, ben.headers, 'operators/put', { address: cat.address, roles: ['support'] }));
    expect((await waiting(app, ben)).map((change) => change.id)).toEqual([annAsks.id, catAsks.id, removeAnn.id, demoteCat.id]);

    await changed(post(app, cat.headers, 'operators/confirm', { id: removeAnn.id }));
    expect((await waiting(app, ben)).map((change) => change.id)).toEqual([catAsks.id, demoteCat.id]);
    await changed(post(app, cat.headers, 'operators/confirm', { id: demoteCat.id }));
    expect(await waiting(app, ben)).toEqual([]);
    for (const id of [annAsks.id, catAsks.id]) expectRefused(await post(app, ben.headers, 'operators/confirm', { id }), ApiCode.alreadyDecided);
    expect((await current()).map((operator) => operator.address)).not.toContain(accounts.dave.address);
    const confirmations = await auditRows('opsOperatorConfirm');
    expect(confirmations.map((row) => (row.after as { changesCancelled?: string[] }).changesCancelled)).toEqual([[annAsks.id], [catAsks.id]]);
    const stored = await ctx.db.select().from(operatorChanges).where(eq(operatorChanges.id, BigInt(annAsks.id)));
    expect(stored[0]?.cancelledAt?.toISOString()).toBe(ctx.clock.now().toISOString());
  });

  it('the CLI acts at once with two admins; its removal of an admin cancels their waiting changes', async () => {
    const ann = await operatorWithSession(ctx.db, ['admin'], ctx.clock.now());
    const ben = await operatorWithSession(ctx.db, ['admin'], ctx.clock.now());
    const app = await ctx.app();
    const asked = await changed(post(app, ann.headers, 'operators/put', { address: accounts.dave.address, roles: ['finance'] }));
    const io = { db: ctx.db, now: ctx.clock.now(), out: () => undefined, err: () => undefined };
    expect(await runOpsCli(['add', accounts.carol.address, 'support'], io)).toBe(0);
    expect(await current()).toContainEqual({ address: accounts.carol.address, roles: ['support'] });
    expect(await runOpsCli(['remove', ann.address], io)).toBe(0);
    expect(await waiting(app, ben)).toEqual([]);
    expectRefused(await post(app, ben.headers, 'operators/confirm', { id: asked.id }), ApiCode.alreadyDecided);
    const [removal] = await auditRows('cliRemove');
    expect(removal).toMatchObject({ via: 'cli', target: ann.address, after: expect.objectContaining({ changesCancelled: [asked.id] }) });
  });

  it('a waiting change is withdrawn by any admin, once; a withdrawn one is confirmed by nobody (3006)', async () => {
    const ann = await operatorWithSession(ctx.db, ['admin'], ctx.clock.now());
    const ben = await operatorWithSession(ctx.db, ['admin'], ctx.clock.now());
    const app = await ctx.app();
    const asked = await changed(post(app, ann.headers, 'operators/put', { address: accounts.carol.address, roles: ['finance'] }));
    const cancelled = await changed(post(app, ben.headers, 'operators/cancel', { id: asked.id }));
    expect(cancelled).toMatchObject({ status: 'cancelled', cancelledAt: ctx.clock.now().toISOString() });
    expect(await changed(post(app, ann.headers, 'operators/cancel', { id: asked.id }))).toMatchObject({ status: 'cancelled' });
    expectRefused(await post(app, ben.headers, 'operators/confirm', { id: asked.id }), ApiCode.alreadyDecided);
    expect(await waiting(app, ann)).toEqual([]);
    expect(await auditRows('opsOperatorCancel')).toHaveLength(1);

    const done = await changed(post(app, ann.headers, 'operators/put', { address: accounts.carol.address, roles: ['finance'] }));
    await changed(post(app, ben.headers, 'operators/confirm', { id: done.id }));
    expectRefused(await post(app, ann.headers, 'operators/cancel', { id: done.id }), ApiCode.alreadyDecided);
    expectRefused(await post(app, ann.headers, 'operators/confirm', { id: '999' }), ApiCode.notFound);
  });

  it('two admins confirming one change at once, on two instances: it is done once, audited once', async () => {
    const ann = await operatorWithSession(ctx.db, ['admin'], ctx.clock.now());
    const ben = await operatorWithSession(ctx.db, ['admin'], ctx.clock.now());
    const cat = await operatorWithSession(ctx.db, ['admin'], ctx.clock.now());
    const instances = await ctx.instances();
    const first = instances[0];
    const last = instances.at(-1);
    if (!first || !last) throw new Error('no app');
    const asked = await changed(post(first, ann.headers, 'operators/put', { address: accounts.dave.address, roles: ['finance'] }));
    const answers = await Promise.all([ben, cat, ben, cat].map((admin, index) => changed(post(index % 2 ? last : first, admin.headers, 'operators/confirm', { id: asked.id }))));
    expect(answers.map((answer) => answer.status)).toEqual(['done', 'done', 'done', 'done']);
    expect(answers.filter((answer) => answer.operator !== undefined)).toHaveLength(1);
    expect(new Set(answers.map((answer) => answer.confirmedBy)).size).toBe(1);
    expect([ben.address, cat.address]).toContain(answers[0]?.confirmedBy);
    expect(await auditRows('opsOperatorConfirm')).toHaveLength(1);
    expect(await current()).toContainEqual({ address: accounts.dave.address, roles: ['finance'] });
  });

  it('two admins removing each other, both confirmed at once: one stays', async () => {
    const ann = await operatorWithSession(ctx.db, ['admin'], ctx.clock.now());
    const ben = await operatorWithSession(ctx.db, ['admin'], ctx.clock.now());
    const app = await ctx.app();
    const removeBen = await changed(post(app, ann.headers, 'operators/remove', { address: ben.address }));
    const removeAnn = await changed(post(app, ben.headers, 'operators/remove', { address: ann.address }));
    const answers = await Promise.all([post(app, ben.headers, 'operators/confirm', { id: removeBen.id }), post(app, ann.headers, 'operators/confirm', { id: removeAnn.id })]);
    // The second waits for the first's lock, then finds its caller gone (1002 or 1006) or its change cancelled (3006).
    const codes = answers.map((response) => envelope(response).code).sort((a, b) => a - b);
    expect(codes[0]).toBe(0);
    expect([ApiCode.notSignedIn, ApiCode.roleRequired, ApiCode.alreadyDecided]).toContain(codes[1]);
    expect(await current()).toHaveLength(1);
  });
});
