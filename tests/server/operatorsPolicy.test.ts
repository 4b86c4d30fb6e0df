/**
 * No operator alone (docs/API.md, "Operators: the policy"; docs/decisions/0032-no-operator-alone.md): the ways one
 * finance or content operator could create or move value by themselves, each tried over HTTP as an operator would,
 * on both databases, and refused or made to wait for a second operator. The books are checked after every test that
 * moves money.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { toMinor } from '../../api-schema/amount';
import { ApiCode } from '../../api-schema/codes';
import { queryRows } from '../../server/db/client';
import { systemAccountId } from '../../server/ledger/accounts';
import { removeOperator } from '../../server/ops/operators';
import { expectRefused } from './support/assertions';
import { describeWithDatabases } from './support/harness';
import { expectBooksBalanced, fundSystemAccount, grant, systemBalance, withdraw } from './support/testLedger';
import { adjust, approve, approveMany, confirmAdjust, freeze, operatorWithSession, type TestOperator } from './support/financeDeskCalls';
import { accounts, authHeaders, envelope, signInBound } from './support/memberSignIn';

/** The server's defaults: alone up to 1,000 an act, 5,000 an operator and 1,000 a member in 24 hours; 100,000 at most. */
const DEFAULTS = { policyLimits: {} };

const home = { name: '李雷', phone: '138 0013 8000', region: '浙江省 / 杭州市 / 西湖区', detail: '文三路 100 号', isDefault: true };

describeWithDatabases('no operator alone', (ctx) => {
  interface Setup {
    app: FastifyInstance;
    alice: string;
    ann: TestOperator;
    ben: TestOperator;
  }

  async function setup(options: Parameters<typeof ctx.app>[0] = DEFAULTS): Promise<Setup> {
    const app = await ctx.app(options);
    const alice = await signInBound(app, accounts.alice, ctx.clock.now());
    const ann = await operatorWithSession(ctx.db, ['finance'], ctx.clock.now());
    const ben = await operatorWithSession(ctx.db, ['finance'], ctx.clock.now());
    return { app, alice, ann, ben };
  }

  const credit = async (app: FastifyInstance, token: string) =>
    envelope<{ creditBalance: string; wposBalance: string }>(await app.inject({ method: 'GET', url: '/api/member/meInfo', headers: authHeaders(token) })).result;

  const auditRows = (action: string) =>
    queryRows(
      ctx.db,
      sql`SELECT actor_address AS actor, target, request_id AS "requestId" FROM audit_log WHERE action = ${action} ORDER BY id`,
      z.object({ actor: z.string().nullable(), target: z.string().nullable(), requestId: z.string().nullable() }),
    );

  /** An operator removed as the CLI removes one (the row dated removed, their sessions and keys ended). */
  async function removed(operator: TestOperator): Promise<void> {
    await removeOperator(ctx.db, operator.address, { at: ctx.clock.now(), actorAddress: null, actorRoles: [], via: 'cli', requestId: null, clientAddress: null }, 'cliRemove');
  }

  const post = (app: FastifyInstance, operator: TestOperator, url: string, payload: Record<string, unknown>) =>
    app.inject({ method: 'POST', url, headers: operator.headers, payload });

  it('1. one finance operator cannot grant 5,000 alone: the grant is refused, the adjustment waits for a second operator, each act audited once', async () => {
    const s = await setup();
    const requestId = randomUUID();
    const grantBody = { address: accounts.alice.address, asset: 'CREDIT', amount: '5000', requestId };
    expectRefused(await post(s.app, s.ann, '/api/admin/grant', grantBody), ApiCode.policyLimit);
    // The refusal is the request's outcome: the same id again answers it, and nothing moved.
    expectRefused(await post(s.app, s.ann, '/api/admin/grant', grantBody), ApiCode.policyLimit);
    expect((await credit(s.app, s.alice))?.creditBalance).toBe('0');
    const waiting = envelope<{ id: string; status: string }>(await adjust(s.app, s.ann, { address: accounts.alice.address, amount: '5000', requestId: randomUUID() }));
    expect(waiting).toMatchObject({ code: 0, result: { status: 'waiting' } });
    expect((await credit(s.app, s.alice))?.creditBalance).toBe('0');
    expectRefused(await confirmAdjust(s.app, s.ann, waiting.result?.id ?? ''), ApiCode.selfActRefused);
    expect(envelope(await confirmAdjust(s.app, s.ben, waiting.result?.id ?? ''))).toMatchObject({ code: 0, result: { status: 'done', confirmedBy: s.ben.address } });
    expect((await credit(s.app, s.alice))?.creditBalance).toBe('5000');
    // Within what one grants alone, a grant is done at once, with its audit row.
    const small = randomUUID();
    expect(envelope(await post(s.app, s.ben, '/api/admin/grant', { ...grantBody, amount: '10', address: accounts.bob.address, requestId: small })).code).toBe(ApiCode.notFound);
    await signInBound(s.app, accounts.bob, ctx.clock.now());
    const bobGrant = { ...grantBody, amount: '10', address: accounts.bob.address, requestId: randomUUID() };
    expect(envelope(await post(s.app, s.ben, '/api/admin/grant', bobGrant))).toMatchObject({ code: 0, result: { balanceAfter: '10' } });
    expect(await auditRows('opsGrant')).toEqual([{ actor: s.ben.address, target: accounts.bob.address, requestId: bobGrant.requestId }]);
    expect((await auditRows('opsAdjust')).map((row) => row.actor)).toEqual([s.ann.address]);
    expect((await auditRows('opsAdjustConfirm')).map((row) => row.actor)).toEqual([s.ben.address]);
    await expectBooksBalanced(ctx.db);
  });

  it('2. splitting never escapes the policy: adjustments and approvals count against 24-hour totals per operator and per member', async () => {
    const s = await setup();
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(envelope<{ status: string }>(await adjust(s.app, s.ann, { address: accounts.alice.address, amount: '1000', requestId: randomUUID() })));
    // 1,000 a member a day alone: the first is done, the next two wait for a second operator.
    expect(answers.map((answer) => answer.result?.status)).toEqual(['done', 'waiting', 'waiting']);
    expect((await credit(s.app, s.alice))?.creditBalance).toBe('1000');
    // A day later the member's total has room again (Ann's session has ended by then: Cara asks).
    ctx.clock.advance(24 * 60 * 60 * 1000 + 1);
    const cara = await operatorWithSession(ctx.db, ['finance'], ctx.clock.now());
    expect(envelope<{ status: string }>(await adjust(s.app, cara, { address: accounts.alice.address, amount: '1000', requestId: randomUUID() })).result?.status).toBe('done');
    s.ann = await operatorWithSession(ctx.db, ['finance'], ctx.clock.now());
    s.ben = await operatorWithSession(ctx.db, ['finance'], ctx.clock.now());

    // Withdrawals: 5,000 an operator a day alone; in bulk, each counts before the next is decided.
    const members = [accounts.bob, accounts.carol, accounts.dave, accounts.mallory];
    const ids: string[] = [];
    for (const account of members) {
      const token = await signInBound(s.app, account, ctx.clock.now());
      expect(envelope(await grant(s.app, { address: account.address, amount: '3000', requestId: randomUUID() })).code).toBe(0);
      for (let i = 0; i < 2; i++) ids.push(envelope<{ id: string }>(await withdraw(s.app, token, { amount: '500', requestId: randomUUID() })).result?.id ?? '');
    }
    const bulk = envelope<{ results: { id: string; code: number; waitsForSecondApproval?: boolean }[] }>(await approveMany(s.app, s.ann, [...ids, ...ids.slice(0, 2)]));
    // Eight of 500 and then two repeats: the first two per member within the member's 1,000; 4,000 for the operator.
    expect(bulk.result?.results.map((result) => result.waitsForSecondApproval)).toEqual([false, false, false, false, false, false, false, false, false, false]);
    const more: string[] = [];
    const token = await signInBound(s.app, accounts.bob, ctx.clock.now());
    for (let i = 0; i < 3; i++) more.push(envelope<{ id: string }>(await withdraw(s.app, token, { amount: '400', requestId: randomUUID() })).result?.id ?? '');
    // Bob's member total is used up: each waits; a second operator completes one.
    const waits = envelope<{ results: { waitsForSecondApproval?: boolean }[] }>(await approveMany(s.app, s.ann, more));
    expect(waits.result?.results.map((result) => result.waitsForSecondApproval)).toEqual([true, true, true]);
    expect(envelope(await approve(s.app, s.ben, more[0] ?? ''))).toMatchObject({ code: 0, result: { status: 'approved', waitsForSecondApproval: false } });
    await expectBooksBalanced(ctx.db);
  });

  it('2. ten adjustments of 150 at once from two instances against a 1,000 total: at most the total passes alone', async () => {
    const s = await setup({ policyLimits: { operatorDay: toMinor('1000'), memberDay: toMinor('1000') } });
    const instances = await ctx.instances({ policyLimits: { operatorDay: toMinor('1000'), memberDay: toMinor('1000') } });
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, index) => adjust(instances[index % instances.length] ?? s.app, s.ann, { address: accounts.alice.address, amount: '150', requestId: randomUUID() })),
    );
    const statuses = answers.map((answer) => envelope<{ status: string }>(answer)).map((answer) => answer.result?.status);
    expect(statuses.filter((status) => status === 'done').length).toBe(6);
    expect(statuses.filter((status) => status === 'waiting').length).toBe(4);
    expect((await credit(s.app, s.alice))?.creditBalance).toBe('900');
    const [used] = await queryRows(ctx.db, sql`SELECT coalesce(sum(amount), 0)::text AS total FROM ops_policy_usage WHERE act = 'grant'`, z.object({ total: z.string() }));
    expect(used?.total).toBe('900000000');
    await expectBooksBalanced(ctx.db);
  });

  it('2b. twelve fundings of 600 at once from two instances against a 5,000 total, each sent twice: eight pass, once each', async () => {
    const limits = { policyLimits: { operatorDay: toMinor('5000') } };
    const s = await setup(limits);
    const instances = await ctx.instances(limits);
    const bodies = Array.from({ length: 12 }, () => ({ account: 'sharePools', amount: '600', requestId: randomUUID() }));
    // Each body twice, on different instances, all at once: a replay answers the first outcome.
    const answers = await Promise.all(
      [...bodies, ...bodies].map((body, index) => post(instances[index % instances.length] ?? s.app, s.ann, '/api/admin/fund', body).then((response) => envelope<{ id: string }>(response))),
    );
    const byRequest = new Map<string, Set<string>>();
    answers.forEach((answer, index) => {
      const requestId = [...bodies, ...bodies][index]?.requestId ?? '';
      byRequest.set(requestId, new Set([...(byRequest.get(requestId) ?? []), `${answer.code}:${answer.result?.id ?? ''}`]));
    });
    // A request and its replay answered alike (or one of them while the other was under way: 3005).
    const outcomes = [...byRequest.values()].map((seen) => [...seen].filter((outcome) => !outcome.startsWith(`${ApiCode.requestInProgress}:`)));
    expect(outcomes.every((seen) => seen.length === 1)).toBe(true);
    expect(outcomes.filter((seen) => seen[0]?.startsWith('0:')).length).toBe(8);
    expect(outcomes.filter((seen) => seen[0]?.startsWith(`${ApiCode.policyLimit}:`)).length).toBe(4);
    expect(await systemBalance(ctx.db, systemAccountId('WPOS', 'pools'))).toBe(toMinor('4800').toString());
    expect((await auditRows('opsFund')).length).toBe(8);
    await expectBooksBalanced(ctx.db);
  });

  it('3. a replay writes no second audit row, request ids are each operator’s own, and an act whose audit row fails moves nothing', async () => {
    const s = await setup();
    const requestId = randomUUID();
    const body = { address: accounts.alice.address, amount: '40', requestId };
    const first = envelope<{ id: string }>(await adjust(s.app, s.ann, body));
    for (let i = 0; i < 3; i++) expect(envelope(await adjust(s.app, s.ann, body))).toEqual(first);
    const bens = envelope<{ id: string; requestedBy: string }>(await adjust(s.app, s.ben, body));
    expect(bens.result?.requestedBy).toBe(s.ben.address);
    expect(bens.result?.id).not.toBe(first.result?.id);
    expect((await auditRows('opsAdjust')).map((row) => [row.actor, row.requestId])).toEqual([
      [s.ann.address, requestId],
      [s.ben.address, requestId],
    ]);
    expect((await credit(s.app, s.alice))?.creditBalance).toBe('80');
    // The audit row is written by the act's own transaction: when it cannot be written, the money does not move.
    const failing = randomUUID();
    await ctx.db.execute(
      sql.raw(`CREATE OR REPLACE FUNCTION test_audit_fails() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
        IF NEW.request_id = '${failing}' THEN RAISE EXCEPTION 'audit log unavailable'; END IF; RETURN NEW; END $$`),
    );
    await ctx.db.execute(sql`CREATE TRIGGER test_audit_fails BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION test_audit_fails()`);
    try {
      const refused = await adjust(s.app, s.ann, { ...body, requestId: failing, amount: '7' });
      expect(refused.statusCode).toBe(500);
      const grantRefused = await post(s.app, s.ann, '/api/admin/grant', { address: accounts.alice.address, asset: 'CREDIT', amount: '7', requestId: failing });
      expect(grantRefused.statusCode).toBe(500);
    } finally {
      await ctx.db.execute(sql`DROP TRIGGER test_audit_fails ON audit_log`);
      await ctx.db.execute(sql`DROP FUNCTION test_audit_fails()`);
    }
    expect((await credit(s.app, s.alice))?.creditBalance).toBe('80');
    // Nothing of it was kept: the same request again runs afresh, and now it moves once with its row.
    expect(envelope(await adjust(s.app, s.ann, { ...body, requestId: failing, amount: '7' }))).toMatchObject({ code: 0, result: { status: 'done' } });
    expect((await credit(s.app, s.alice))?.creditBalance).toBe('87');
    expect((await auditRows('opsAdjust')).length).toBe(3);
    await expectBooksBalanced(ctx.db);
  });

  it('4. no role creates WPOS or credit from a pool: content cannot set an amount, the pools pay only what finance funded', async () => {
    const s = await setup();
    const contentOperator = await operatorWithSession(ctx.db, ['content'], ctx.clock.now());
    expect(envelope(await grant(s.app, { address: accounts.alice.address, asset: 'WPOS', amount: '100', requestId: randomUUID() })).code).toBe(0);
    // Content: not the amount, not a new pool with one.
    expectRefused(await post(s.app, contentOperator, '/api/admin/content/pools/put', { id: '1', name: 'Starter', totalAmount: '999999999999', minHolding: '1' }), ApiCode.roleRequired);
    expectRefused(await post(s.app, contentOperator, '/api/admin/content/pools/put', { name: 'Jackpot', totalAmount: '999999999999', minHolding: '0' }), ApiCode.roleRequired);
    // Finance: within the cap only.
    expectRefused(await post(s.app, s.ann, '/api/admin/content/pools/put', { id: '1', name: 'Starter', totalAmount: '999999999999', minHolding: '1' }), ApiCode.policyLimit);
    // Unfunded, the pools pay nothing, and say so.
    const distribute = () => post(s.app, s.ann, '/api/admin/distribute', {}).then((response) => envelope<{ pools: number; paid: string; unfunded: number }>(response));
    expect(await distribute()).toEqual({ code: 0, result: { pools: 0, paid: '0', unfunded: 2 } });
    expect((await credit(s.app, s.alice))?.wposBalance).toBe('100');
    // Funded by finance under the policy (alone within its amounts; above them, refused): they pay out of it.
    expectRefused(await post(s.app, s.ann, '/api/admin/fund', { account: 'sharePools', amount: '1000.000001', requestId: randomUUID() }), ApiCode.policyLimit);
    expectRefused(await post(s.app, contentOperator, '/api/admin/fund', { account: 'sharePools', amount: '10', requestId: randomUUID() }), ApiCode.roleRequired);
    expect(envelope(await post(s.app, s.ann, '/api/admin/fund', { account: 'sharePools', amount: '150', requestId: randomUUID() }))).toMatchObject({
      code: 0,
      result: { account: 'sharePools', asset: 'WPOS', amount: '150', balance: '150' },
    });
    // 150 covers the Starter pool's 100, not Silver's 500 as well: Silver waits for more funding.
    expect(await distribute()).toEqual({ code: 0, result: { pools: 1, paid: '100', unfunded: 1 } });
    expect((await credit(s.app, s.alice))?.wposBalance).toBe('200');
    // WPOS exchanges back to credit only as far as the exchange holds credit: none came in, none was funded.
    expectRefused(await s.app.inject({ method: 'POST', url: '/api/member/flashExchange', headers: authHeaders(s.alice), payload: { from: 'WPOS', amount: '200', requestId: randomUUID() } }), ApiCode.insufficientBalance);
    expect(await credit(s.app, s.alice)).toMatchObject({ creditBalance: '0', wposBalance: '200' });
    expect((await auditRows('opsFund')).map((row) => row.actor)).toEqual([s.ann.address]);
    expect((await auditRows('opsDistribute')).map((row) => row.actor)).toEqual([s.ann.address]);
    await expectBooksBalanced(ctx.db);
  });

  it('5. a freeze freezes: no value leaves the member’s accounts by any flow, though finance may still deduct', async () => {
    const s = await setup();
    await fundSystemAccount(ctx.db, 'exchangeCredit', '100');
    const me = envelope<{ inviteCode: string }>(await s.app.inject({ method: 'GET', url: '/api/member/meInfo', headers: authHeaders(s.alice) }));
    const bob = await signInBound(s.app, accounts.bob, ctx.clock.now(), me.result?.inviteCode);
    for (const asset of ['CREDIT', 'WPOS'] as const) expect(envelope(await grant(s.app, { address: accounts.alice.address, asset, amount: '500', requestId: randomUUID() })).code).toBe(0);
    expect(envelope(await freeze(s.app, s.ann, { address: accounts.alice.address, frozen: true, reason: 'chargeback' })).code).toBe(0);
    const member = (url: string, payload: Record<string, unknown>) => s.app.inject({ method: 'POST', url, headers: authHeaders(s.alice), payload: { requestId: randomUUID(), ...payload } });
    const deliveryId = envelope<{ deliveryId: string }>(await member('/api/member/delivery/add', home)).result?.deliveryId;
    expectRefused(await withdraw(s.app, s.alice, { amount: '10', requestId: randomUUID() }), ApiCode.withdrawalsFrozen);
    expectRefused(await member('/api/member/flashExchange', { from: 'CREDIT', amount: '10' }), ApiCode.withdrawalsFrozen);
    expectRefused(await member('/api/member/flashExchange', { from: 'WPOS', amount: '10' }), ApiCode.withdrawalsFrozen);
    expectRefused(await member('/api/member/transferWpos', { toAddress: accounts.bob.address, amount: '10' }), ApiCode.withdrawalsFrozen);
    expectRefused(await member('/api/order/settle', { goodsId: 'longjing-tea', quantity: 1, deliveryId }), ApiCode.withdrawalsFrozen);
    expect(await credit(s.app, s.alice)).toMatchObject({ creditBalance: '500', wposBalance: '500' });
    // Value may still come in (a refund, a grant), and finance may take back what the member should not have.
    expect(envelope(await adjust(s.app, s.ann, { address: accounts.alice.address, amount: '-200', requestId: randomUUID() }))).toMatchObject({ code: 0, result: { status: 'done' } });
    expect((await credit(s.app, s.alice))?.creditBalance).toBe('300');
    // Unfrozen, the same flows work again.
    expect(envelope(await freeze(s.app, s.ann, { address: accounts.alice.address, frozen: false, reason: 'cleared' })).code).toBe(0);
    expect(envelope(await member('/api/member/transferWpos', { toAddress: accounts.bob.address, amount: '10' })).code).toBe(0);
    expect((await credit(s.app, bob))?.wposBalance).toBe('10');
    await expectBooksBalanced(ctx.db);
  });

  it('7. nobody approves, confirms or grants to their own member address', async () => {
    const s = await setup();
    // Carol is a member and a finance operator with the same wallet.
    const carolToken = await signInBound(s.app, accounts.carol, ctx.clock.now());
    const carol = await operatorWithSession(ctx.db, ['finance'], ctx.clock.now(), accounts.carol.address);
    expect(envelope(await grant(s.app, { address: accounts.carol.address, amount: '5000', requestId: randomUUID() })).code).toBe(0);
    const own = envelope<{ id: string }>(await withdraw(s.app, carolToken, { amount: '100', requestId: randomUUID() })).result?.id ?? '';
    expectRefused(await approve(s.app, carol, own), ApiCode.selfActRefused);
    expect(envelope<{ results: { code: number }[] }>(await approveMany(s.app, carol, [own])).result?.results.map((result) => result.code)).toEqual([ApiCode.selfActRefused]);
    expectRefused(await adjust(s.app, carol, { address: accounts.carol.address, amount: '10', requestId: randomUUID() }), ApiCode.selfActRefused);
    expectRefused(await post(s.app, carol, '/api/admin/grant', { address: accounts.carol.address, asset: 'CREDIT', amount: '10', requestId: randomUUID() }), ApiCode.selfActRefused);
    // Nor confirms a grant to themselves that someone else asked for.
    const forCarol = envelope<{ id: string }>(await adjust(s.app, s.ann, { address: accounts.carol.address, amount: '2000', requestId: randomUUID() })).result?.id ?? '';
    expectRefused(await confirmAdjust(s.app, carol, forCarol), ApiCode.selfActRefused);
    // Another operator may approve Carol's withdrawal.
    expect(envelope(await approve(s.app, s.ann, own))).toMatchObject({ code: 0, result: { status: 'approved' } });
    // A removed operator's waiting request no longer counts: its confirmation is 4004 and it leaves the list.
    const bens = envelope<{ id: string }>(await adjust(s.app, s.ben, { address: accounts.alice.address, amount: '2000', requestId: randomUUID() })).result?.id ?? '';
    await removed(s.ben);
    expectRefused(await confirmAdjust(s.app, s.ann, bens), ApiCode.notFound);
    const pending = envelope<{ list: { id: string }[] }>(await s.app.inject({ method: 'GET', url: '/api/admin/adjust/pending', headers: s.ann.headers }));
    expect(pending.result?.list.map((item) => item.id)).toEqual([forCarol]);
    await expectBooksBalanced(ctx.db);
  });

  it('shows the policy to every operator, rule by rule, and names a removed operator’s approval no more', async () => {
    const s = await setup();
    const support = await operatorWithSession(ctx.db, ['support'], ctx.clock.now());
    const policy = envelope<{ rules: { act: string; roles: string[]; alonePerAct: string | null; aloneOperatorDay: string | null; aloneMemberDay: string | null; above: string; cap: string | null }[] }>(
      await s.app.inject({ method: 'GET', url: '/api/admin/policy', headers: support.headers }),
    );
    expect(policy.result?.rules.map((rule) => [rule.act, rule.roles, rule.alonePerAct, rule.aloneOperatorDay, rule.aloneMemberDay, rule.above, rule.cap])).toEqual([
      ['grant', ['finance'], '1000', '5000', '1000', 'confirm', '100000'],
      ['deduct', ['finance'], '1000', '5000', '1000', 'confirm', '100000'],
      ['withdrawalApprove', ['finance'], '1000', '5000', '1000', 'confirm', null],
      ['topUpRelease', ['finance'], '1000', '5000', '1000', 'confirm', null],
      ['orderRefund', ['support'], '1000', '5000', '1000', 'confirm', null],
      ['fund', ['finance'], '1000', '5000', null, 'refuse', '100000'],
      ['poolAmount', ['finance'], null, null, null, 'refuse', '100000'],
      ['distribute', ['finance'], null, null, null, 'refuse', null],
      ['topUpsReread', ['finance'], null, null, null, 'refuse', null],
      ['paymentsRecover', ['finance'], null, null, null, 'refuse', null],
      ['unknownPaymentSettle', ['finance'], '1000', '5000', '1000', 'confirm', null],
      ['payoutsResume', ['finance'], '0', '0', null, 'confirm', null],
      ['moneySettings', ['finance'], '0', '0', null, 'confirm', null],
    ]);
    // A withdrawal above what one approves alone, approved by Ben, who is then removed: Ann's approval is the first again.
    expect(envelope(await grant(s.app, { address: accounts.alice.address, amount: '3000', requestId: randomUUID() })).code).toBe(0);
    const big = envelope<{ id: string }>(await withdraw(s.app, s.alice, { amount: '1500', requestId: randomUUID() })).result?.id ?? '';
    expect(envelope(await approve(s.app, s.ben, big))).toMatchObject({ code: 0, result: { waitsForSecondApproval: true } });
    await removed(s.ben);
    expect(envelope(await approve(s.app, s.ann, big))).toMatchObject({ code: 0, result: { status: 'pending', waitsForSecondApproval: true, approvals: [{ address: s.ann.address }] } });
    await expectBooksBalanced(ctx.db);
  });
});
