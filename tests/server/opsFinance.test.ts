/**
 * The finance calls of the operators' desk: the withdrawals' queue with its filters and pages, approval by
 * quorum (two different operators above APPROVAL_QUORUM_ABOVE, the same one twice counts once, the removed ADMIN_TOKEN's
 * header is nobody), bulk approval, a member's lookup, sign-out and freeze (3008), and adjustments at most once per request id,
 * confirmed by a second operator above the threshold. The books are checked after every money step; every act leaves
 * an audit row.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { toMinor } from '../../api-schema/amount';
import { ApiCode } from '../../api-schema/codes';
import { queryRows } from '../../server/db/client';
import type { AutoApproval } from '../../server/ledger/autoApproval';
import { postRequests } from '../../server/ledger/engine';
import { memberIdByAddress } from '../../server/ledger/queries';
import { postingRequest, sendRequest } from '../../server/ledger/withdrawals';
import { unlessFrozen } from '../../server/members/freezes';
import { expectRefused } from './support/assertions';
import { describeWithDatabases } from './support/harness';
import { expectBooksBalanced, grant, TEST_TREASURY_ADDRESS, treasuryHeaders, withdraw } from './support/testLedger';
import { adjust, approve, approveMany, confirmAdjust, fail, freeze, operatorWithSession, queue, type TestOperator } from './support/financeDeskCalls';
import { accounts, authHeaders, envelope, signInBound } from './support/memberSignIn';

/** The tests' quorum threshold: withdrawals and adjustments above 100 need two operators. */
const QUORUM = '100';

/** What an old deployment's scripts still send: the removed ADMIN_TOKEN, which opens nothing now. */
const LEFTOVER_ADMIN_TOKEN = { 'x-admin-token': 'test-admin-token-0123456789abcdef0123' };

interface Queued {
  id: string;
  address: string;
  amount: string;
  status: string;
  note?: string;
  txHash?: string;
  approvals: { address: string }[];
  approvalsNeeded: number;
}

describeWithDatabases('operators: finance calls', (ctx) => {
  interface Setup {
    app: FastifyInstance;
    alice: string;
    bob: string;
    ann: TestOperator;
    ben: TestOperator;
  }

  async function setup(credit = '1000'): Promise<Setup> {
    const app = await ctx.app({ approvalQuorumAbove: toMinor(QUORUM) });
    const alice = await signInBound(app, accounts.alice, ctx.clock.now());
    const bob = await signInBound(app, accounts.bob, ctx.clock.now());
    for (const account of credit === '0' ? [] : [accounts.alice, accounts.bob]) {
      expect(envelope(await grant(app, { address: account.address, amount: credit, requestId: randomUUID() })).code).toBe(0);
    }
    const ann = await operatorWithSession(ctx.db, ['finance'], ctx.clock.now());
    const ben = await operatorWithSession(ctx.db, ['admin'], ctx.clock.now());
    return { app, alice, bob, ann, ben };
  }

  async function withdrawn(app: FastifyInstance, token: string, amount: string): Promise<string> {
    const body = envelope<{ id: string; status: string }>(await withdraw(app, token, { amount, requestId: randomUUID() }));
    expect(body).toMatchObject({ code: 0, result: { status: 'pending' } });
    return body.result?.id ?? '';
  }

  type Page = { list: Queued[]; nextCursor: string | null; total: number };
  async function list(s: Setup, query: Record<string, string> = {}, operator: TestOperator = s.ann): Promise<Page> {
    const body = envelope<Page>(await queue(s.app, operator, query));
    expect(body.code).toBe(0);
    return body.result ?? { list: [], nextCursor: null, total: -1 };
  }

  const stageOf = async (id: string) =>
    (await queryRows(ctx.db, sql`SELECT stage FROM ledger_pending WHERE id = ${id}::bigint`, z.object({ stage: z.string() })))[0]?.stage;

  const auditActions = async () =>
    (await queryRows(ctx.db, sql`SELECT action, actor_address AS actor, target FROM audit_log ORDER BY id`, z.object({ action: z.string(), actor: z.string().nullable(), target: z.string().nullable() })));

  async function fakePayment(id: string, fields: { createdAt: Date; blockHash?: string; receiptStatus?: number }) {
    await ctx.db.execute(
      sql`INSERT INTO payments (hash, withdrawal_id, chain_id, payer, nonce, token_amount, max_fee_per_gas, max_priority_fee_per_gas, raw, created_at, block_hash, receipt_status)
          VALUES (${`0x${randomUUID().replaceAll('-', '').padEnd(64, '0')}`}, ${id}::bigint, 31337, ${accounts.carol.address}, 0, '1', '1', '1', '0x', ${fields.createdAt.toISOString()}::timestamptz,
            ${fields.blockHash ?? null}, ${fields.receiptStatus ?? null})`,
    );
  }

  it('lists the queue by status and address, newest first, in pages, with approvals, notes and payments', async () => {
    const s = await setup();
    const pending = await withdrawn(s.app, s.alice, '20');
    const approved = await withdrawn(s.app, s.alice, '30');
    const failed = await withdrawn(s.app, s.bob, '40');
    const sent = await withdrawn(s.app, s.bob, '25');
    const stuck = await withdrawn(s.app, s.bob, '26');
    const paid = await withdrawn(s.app, s.alice, '27');
    const lost = await withdrawn(s.app, s.alice, '28');
    const big = await withdrawn(s.app, s.alice, '150');
    expect(envelope(await approve(s.app, s.ann, approved))).toMatchObject({ code: 0, result: { status: 'approved', waitsForSecondApproval: false } });
    const failing = await s.app.inject({ method: 'POST', url: '/api/admin/withdrawal/decide', headers: s.ann.headers, payload: { id: failed, status: 'failed', reason: 'address on a sanctions list' } });
    expect(envelope(failing)).toMatchObject({ code: 0, result: { status: 'failed', reason: 'rejected', note: 'address on a sanctions list' } });
    // The payer's moves, as its rounds make them (the chain is payer.test.ts's subject).
    const now = ctx.clock.now();
    for (const id of [sent, stuck, paid, lost]) {
      expect(envelope(await approve(s.app, s.ann, id)).code).toBe(0);
      await postRequests(ctx.db, [sendRequest(BigInt(id), now)]);
    }
    await fakePayment(stuck, { createdAt: new Date(now.getTime() - 6 * 60_000) });
    await fakePayment(sent, { createdAt: now });
    for (const [id, amount] of [[paid, '27'], [lost, '28']] as const) {
      await postRequests(ctx.db, [postingRequest({ id: BigInt(id), amount: toMinor(amount), fee: toMinor('1') }, now)]);
    }
    await fakePayment(paid, { createdAt: now, blockHash: `0x${'ab'.repeat(32)}`, receiptStatus: 1 });
    // Mined, then the chain lost its block: reconcile's lost payment.
    await fakePayment(lost, { createdAt: now, receiptStatus: 1 });
    expect(envelope(await approve(s.app, s.ann, big))).toMatchObject({ code: 0, result: { status: 'pending', waitsForSecondApproval: true } });
    await expectBooksBalanced(ctx.db);

    const all = await list(s);
    expect(all.list.map((row) => [row.id, row.status])).toEqual([
      [big, 'pending'],
      [lost, 'lost'],
      [paid, 'paid'],
      [stuck, 'stuck'],
      [sent, 'sent'],
      [failed, 'failed'],
      [approved, 'approved'],
      [pending, 'pending'],
    ]);
    expect(all.nextCursor).toBeNull();
    expect(all.total).toBe(8);
    expect(all.list.find((row) => row.id === big)).toMatchObject({ amount: '150', approvals: [{ address: s.ann.address }], approvalsNeeded: 2 });
    expect(all.list.find((row) => row.id === failed)).toMatchObject({ note: 'address on a sanctions list', approvals: [], approvalsNeeded: 1 });
    expect(all.list.find((row) => row.id === paid)?.txHash).toMatch(/^0x/);
    for (const status of ['pending', 'approved', 'sent', 'stuck', 'failed', 'lost', 'paid'] as const) {
      const page = await list(s, { status });
      expect(page.list.map((row) => row.id)).toEqual(all.list.filter((row) => row.status === status).map((row) => row.id));
      expect(page.total).toBe(page.list.length);
    }
    // What waits for an operator's approval: ann approved the big one (it waits for a second), so ann sees only the
    // one she has not; ben, who has approved nothing, sees both; with a member filter, that member's.
    expect((await list(s, { awaiting: 'me' })).list.map((row) => row.id)).toEqual([pending]);
    expect(await list(s, { awaiting: 'me' }, s.ben)).toMatchObject({ list: [{ id: big }, { id: pending }], total: 2 });
    expect((await list(s, { awaiting: 'me', address: accounts.bob.address }, s.ben)).list).toEqual([]);
    expectRefused(await queue(s.app, s.ann, { awaiting: 'you' }), ApiCode.invalidParameters);
    expect((await list(s, { address: accounts.bob.address.toLowerCase() })).list.map((row) => row.id)).toEqual([stuck, sent, failed]);
    expect((await list(s, { status: 'pending', address: accounts.alice.address })).list.map((row) => row.id)).toEqual([big, pending]);
    // Pages of three: each starts below the last id of the one before; together they are the whole list.
    const pages: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Page = await list(s, { limit: '3', ...(cursor ? { cursor } : {}) });
      expect(page.list.length).toBeLessThanOrEqual(3);
      // The total counts every page's rows, whichever page is read.
      expect(page.total).toBe(8);
      pages.push(...page.list.map((row) => row.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(pages).toEqual(all.list.map((row) => row.id));
    expectRefused(await queue(s.app, s.ann, { status: 'done' }), ApiCode.invalidParameters);
    // A support operator may not see the queue; a member's token is no operator's.
    const sam = await operatorWithSession(ctx.db, ['support'], ctx.clock.now());
    expectRefused(await queue(s.app, sam), ApiCode.roleRequired);
    expectRefused(await s.app.inject({ method: 'GET', url: '/api/admin/withdrawals', headers: authHeaders(s.alice) }), ApiCode.notSignedIn);
  });

  it('approves above the threshold only with two different operators; the same operator twice counts once', async () => {
    const s = await setup();
    const small = await withdrawn(s.app, s.alice, '100');
    const big = await withdrawn(s.app, s.alice, '100.000001');
    expect(envelope(await approve(s.app, s.ann, small))).toMatchObject({ code: 0, result: { status: 'approved', waitsForSecondApproval: false, approvals: [{ address: s.ann.address }] } });
    for (let attempt = 0; attempt < 2; attempt++) {
      expect(envelope(await approve(s.app, s.ann, big))).toMatchObject({ code: 0, result: { status: 'pending', waitsForSecondApproval: true, approvals: [{ address: s.ann.address }] } });
    }
    expect(await stageOf(big)).toBe('held');
    // The removed ADMIN_TOKEN's header is nobody: not a second approval (1002).
    expectRefused(await s.app.inject({ method: 'POST', url: '/api/admin/withdrawal/decide', headers: LEFTOVER_ADMIN_TOKEN, payload: { id: big, status: 'approved' } }), ApiCode.notSignedIn);
    expect(await stageOf(big)).toBe('held');
    ctx.clock.advance(1000);
    const second = envelope<{ status: string; approvals: { address: string }[] }>(await approve(s.app, s.ben, big));
    expect(second).toMatchObject({ code: 0, result: { status: 'approved', waitsForSecondApproval: false } });
    expect(second.result?.approvals.map((approval) => approval.address)).toEqual([s.ann.address, s.ben.address]);
    // Again: it is approved, as it was.
    expect(envelope(await approve(s.app, s.ann, big))).toMatchObject({ code: 0, result: { status: 'approved' } });
    // At or below it, one operator approves alone: a script's API key too (the test treasury's), listed by its address.
    const third = await withdrawn(s.app, s.bob, '50');
    expect(envelope(await s.app.inject({ method: 'POST', url: '/api/admin/withdrawal/decide', headers: treasuryHeaders(), payload: { id: third, status: 'approved' } }))).toMatchObject({
      code: 0,
      result: { status: 'approved', approvals: [{ address: TEST_TREASURY_ADDRESS }] },
    });
    // A reason is for failing only; failing needs one operator.
    expectRefused(await s.app.inject({ method: 'POST', url: '/api/admin/withdrawal/decide', headers: s.ann.headers, payload: { id: small, status: 'approved', reason: 'x' } }), ApiCode.invalidParameters);
    const bigFail = await withdrawn(s.app, s.bob, '500');
    expect(envelope(await s.app.inject({ method: 'POST', url: '/api/admin/withdrawal/decide', headers: s.ann.headers, payload: { id: bigFail, status: 'failed' } }))).toMatchObject({ code: 0, result: { status: 'failed' } });
    await expectBooksBalanced(ctx.db);
    const audited = await auditActions();
    expect(audited.filter((row) => row.action === 'opsWithdrawalDecide' && row.target === big).map((row) => row.actor)).toEqual([s.ann.address, s.ben.address]);
  });

  it('two operators approving one withdrawal at once, on two instances: approved once', async () => {
    const s = await setup();
    const instances = await ctx.instances({ approvalQuorumAbove: toMinor(QUORUM) });
    for (let round = 0; round < 4; round++) {
      const id = await withdrawn(s.app, s.alice, '150');
      const [first, second] = await Promise.all([approve(instances[0] ?? s.app, s.ann, id), approve(instances.at(-1) ?? s.app, s.ben, id)]);
      const answers = [envelope<{ status: string; waitsForSecondApproval: boolean }>(first), envelope<{ status: string; waitsForSecondApproval: boolean }>(second)];
      expect(answers.map((answer) => answer.code)).toEqual([0, 0]);
      // Of two approvals at once, at least one sees both.
      expect(answers.some((answer) => answer.result?.status === 'approved')).toBe(true);
      expect(await stageOf(id)).toBe('approved');
      // One move: its stage changed once (held → approved), no other request for it stored.
      const [moves] = await queryRows(ctx.db, sql`SELECT count(*)::int AS n FROM withdrawal_approvals WHERE withdrawal_id = ${id}::bigint`, z.object({ n: z.number() }));
      expect(moves?.n).toBe(2);
    }
    await expectBooksBalanced(ctx.db);
  });

  it('two failures and an approval of one withdrawal at once, on two instances: failed once, audited once', async () => {
    const s = await setup();
    const instances = await ctx.instances({ approvalQuorumAbove: toMinor(QUORUM) });
    const [one, other] = [instances[0] ?? s.app, instances.at(-1) ?? s.app];
    for (let round = 0; round < 4; round++) {
      const id = await withdrawn(s.app, s.alice, '20');
      const [failed, failedAgain, approval] = await Promise.all([fail(one, s.ann, id), fail(other, s.ben, id), approve(round % 2 ? one : other, s.ben, id)]);
      expect([envelope(failed), envelope(failedAgain)]).toMatchObject([{ code: 0, result: { status: 'failed' } }, { code: 0, result: { status: 'failed' } }]);
      // Approved before the failures, or refused after them.
      const approved = envelope<{ status: string }>(approval);
      expect(approved.code === 0 ? approved.result?.status : approved.code).toBeOneOf(['approved', ApiCode.alreadyDecided]);
      expect(await stageOf(id)).toBe('voided');
      const failures = await queryRows(
        ctx.db,
        sql`SELECT count(*)::int AS n FROM audit_log WHERE target = ${id} AND action = 'opsWithdrawalDecide' AND after->>'status' = 'failed'`,
        z.object({ n: z.number() }),
      );
      expect(failures[0]?.n).toBe(1);
    }
    await expectBooksBalanced(ctx.db);
  });

  it('bulk approval answers per withdrawal with the same rules', async () => {
    const s = await setup();
    const small = await withdrawn(s.app, s.alice, '20');
    const big = await withdrawn(s.app, s.alice, '200');
    const failed = await withdrawn(s.app, s.bob, '30');
    expect(envelope(await s.app.inject({ method: 'POST', url: '/api/admin/withdrawal/decide', headers: s.ann.headers, payload: { id: failed, status: 'failed' } })).code).toBe(0);
    const first = envelope<{ results: { id: string; code: number; waitsForSecondApproval?: boolean; withdrawal?: Queued }[] }>(await approveMany(s.app, s.ann, [small, big, failed, '999999']));
    expect(first.result?.results).toMatchObject([
      { id: small, code: 0, waitsForSecondApproval: false, withdrawal: { status: 'approved' } },
      { id: big, code: 0, waitsForSecondApproval: true, withdrawal: { status: 'pending', approvalsNeeded: 2 } },
      { id: failed, code: ApiCode.alreadyDecided },
      { id: '999999', code: ApiCode.notFound },
    ]);
    const second = envelope<{ results: { id: string; code: number; waitsForSecondApproval?: boolean }[] }>(await approveMany(s.app, s.ben, [big, small]));
    expect(second.result?.results).toMatchObject([
      { id: big, code: 0, waitsForSecondApproval: false },
      { id: small, code: 0, waitsForSecondApproval: false },
    ]);
    expect(await stageOf(big)).toBe('approved');
    expectRefused(await approveMany(s.app, s.ann, []), ApiCode.invalidParameters);
    await expectBooksBalanced(ctx.db);
  });

  it('lists the members newest first, by the start of an address or invite code, frozen ones alone, in pages with a total', async () => {
    const s = await setup();
    type Listed = { address: string; inviteCode: string; credit: string; frozen: boolean; recommender: string | null };
    type Members = { list: Listed[]; nextCursor: string | null; total: number };
    const members = async (query: Record<string, string> = {}, operator: TestOperator = s.ann) => {
      const answer = envelope<Members>(await s.app.inject({ method: 'GET', url: `/api/admin/members?${new URLSearchParams(query).toString()}`, headers: operator.headers }));
      expect(answer.code).toBe(0);
      return answer.result ?? { list: [], nextCursor: null, total: -1 };
    };
    const all = await members();
    // The seed's inviter first joined; alice then bob after it: newest first.
    expect(all.list.slice(0, 2).map((member) => member.address)).toEqual([accounts.bob.address, accounts.alice.address]);
    expect(all.total).toBe(all.list.length);
    expect(all.list[0]).toMatchObject({ credit: '1000', frozen: false });
    // The start of an address in any case; of an invite code as typed in lower case.
    expect((await members({ q: accounts.alice.address.slice(0, 12).toLowerCase() })).list.map((member) => member.address)).toEqual([accounts.alice.address]);
    const code = all.list[1]?.inviteCode ?? '';
    expect((await members({ q: code.slice(0, 6).toLowerCase() })).list.map((member) => member.inviteCode)).toContain(code);
    // LIKE's own characters are letters: a prefix of "%" is refused by the schema, "0x%" matches nothing.
    expectRefused(await s.app.inject({ method: 'GET', url: '/api/admin/members?q=%25', headers: s.ann.headers }), ApiCode.invalidParameters);
    expect(envelope(await freeze(s.app, s.ann, { address: accounts.bob.address, frozen: true, reason: 'chargeback under review' })).code).toBe(0);
    expect(await members({ frozen: 'true' })).toMatchObject({ list: [{ address: accounts.bob.address, frozen: true }], total: 1 });
    // Pages of one: each below the last, together the whole list, the total the same on each.
    const pages: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Members = await members({ limit: '1', ...(cursor ? { cursor } : {}) });
      expect(page.total).toBe(all.total);
      pages.push(...page.list.map((member) => member.address));
      cursor = page.nextCursor;
    } while (cursor);
    expect(pages).toEqual(all.list.map((member) => member.address));
    // Support sees them too; a content operator does not.
    const sue = await operatorWithSession(ctx.db, ['support'], ctx.clock.now());
    expect((await members({}, sue)).total).toBe(all.total);
    const cal = await operatorWithSession(ctx.db, ['content'], ctx.clock.now());
    expectRefused(await s.app.inject({ method: 'GET', url: '/api/admin/members', headers: cal.headers }), ApiCode.roleRequired);
  });

  it('a frozen member cannot withdraw (3008) nor have a withdrawal approved; unfrozen, the same request id works', async () => {
    const s = await setup();
    const held = await withdrawn(s.app, s.alice, '20');
    const frozen = envelope<{ frozen: { reason: string; frozenBy: string } | null }>(await freeze(s.app, s.ann, { address: accounts.alice.address, frozen: true, reason: 'chargeback under review' }));
    expect(frozen).toMatchObject({ code: 0, result: { frozen: { reason: 'chargeback under review', frozenBy: s.ann.address } } });
    const requestId = randomUUID();
    expectRefused(await withdraw(s.app, s.alice, { amount: '20', requestId }), ApiCode.withdrawalsFrozen);
    expectRefused(await approve(s.app, s.ben, held), ApiCode.withdrawalsFrozen);
    expect(await stageOf(held)).toBe('held');
    // A withdrawal that passed the refusal just before the freeze landed is not approved on request either.
    const memberId = await memberIdByAddress(ctx.db, accounts.alice.address);
    const approveAll: AutoApproval = { decide: async () => 'approved' };
    expect(await unlessFrozen(ctx.db, approveAll, 1).decide({ id: BigInt(held), memberId: memberId ?? 0, amount: toMinor('20') }, ctx.clock.now())).toBe('pending');
    expect(await unlessFrozen(ctx.db, approveAll, 1).decide({ id: 1n, memberId: (await memberIdByAddress(ctx.db, accounts.bob.address)) ?? 0, amount: 1n }, ctx.clock.now())).toBe('approved');
    // Another member is not frozen; failing a frozen member's withdrawal (a refund) is allowed.
    expect(envelope(await withdraw(s.app, s.bob, { amount: '20', requestId: randomUUID() })).code).toBe(0);
    const lookup = envelope<{ frozen: { reason: string } | null }>(await s.app.inject({ method: 'GET', url: '/api/admin/member', headers: s.ann.headers, query: { q: accounts.alice.address } }));
    expect(lookup.result?.frozen?.reason).toBe('chargeback under review');
    expect(envelope(await freeze(s.app, s.ben, { address: accounts.alice.address, frozen: false, reason: 'cleared' }))).toMatchObject({ code: 0, result: { frozen: null } });
    expect(envelope(await withdraw(s.app, s.alice, { amount: '20', requestId }))).toMatchObject({ code: 0, result: { status: 'pending' } });
    expect(envelope(await approve(s.app, s.ben, held))).toMatchObject({ code: 0, result: { status: 'approved' } });
    expectRefused(await freeze(s.app, s.ann, { address: accounts.carol.address, frozen: true, reason: 'x' }), ApiCode.notFound);
    await expectBooksBalanced(ctx.db);
    expect((await auditActions()).filter((row) => row.action === 'opsMemberFreeze').map((row) => [row.actor, row.target])).toEqual([
      [s.ann.address, accounts.alice.address],
      [s.ben.address, accounts.alice.address],
    ]);
  });

  it('looks a member up by address or invite code, and signs them out everywhere', async () => {
    const s = await setup();
    const second = await signInBound(s.app, accounts.alice, ctx.clock.now());
    await withdrawn(s.app, s.alice, '20');
    const byAddress = envelope<{ address: string; inviteCode: string; balances: { CREDIT: string; WPOS: string }; sessions: number; team: { direct: number; total: number }; frozen: null; records: { type: string; amount: string }[] }>(
      await s.app.inject({ method: 'GET', url: '/api/admin/member', headers: s.ann.headers, query: { q: accounts.alice.address.toLowerCase() } }),
    );
    expect(byAddress).toMatchObject({ code: 0, result: { address: accounts.alice.address, balances: { CREDIT: '980', WPOS: '0' }, sessions: 2, frozen: null, team: { direct: 0, total: 0 } } });
    expect(byAddress.result?.records.map((record) => [record.type, record.amount])).toEqual([
      ['withdraw', '-20'],
      ['reward', '1000'],
    ]);
    const support = await operatorWithSession(ctx.db, ['support'], ctx.clock.now());
    const byCode = envelope<{ address: string }>(await s.app.inject({ method: 'GET', url: '/api/admin/member', headers: support.headers, query: { q: byAddress.result?.inviteCode.toLowerCase() ?? '' } }));
    expect(byCode.result?.address).toBe(accounts.alice.address);
    expectRefused(await s.app.inject({ method: 'GET', url: '/api/admin/member', headers: s.ann.headers, query: { q: 'ZZZZZZZZ' } }), ApiCode.notFound);
    const signedOut = await s.app.inject({ method: 'POST', url: '/api/admin/member/signOut', headers: support.headers, payload: { address: accounts.alice.address } });
    expect(envelope(signedOut)).toMatchObject({ code: 0, result: { revoked: 2 } });
    for (const token of [s.alice, second]) {
      expectRefused(await s.app.inject({ method: 'GET', url: '/api/member/meInfo', headers: authHeaders(token) }), ApiCode.notSignedIn);
    }
    expect(envelope(await s.app.inject({ method: 'GET', url: '/api/member/meInfo', headers: authHeaders(s.bob) })).code).toBe(0);
    // Content operators look up no member.
    const content = await operatorWithSession(ctx.db, ['content'], ctx.clock.now());
    expectRefused(await s.app.inject({ method: 'GET', url: '/api/admin/member', headers: content.headers, query: { q: accounts.alice.address } }), ApiCode.roleRequired);
    expect((await auditActions()).filter((row) => row.action === 'opsMemberSignOut')).toEqual([{ action: 'opsMemberSignOut', actor: support.address, target: accounts.alice.address }]);
    await expectBooksBalanced(ctx.db);
  });

  it('grants and deducts with a reason, never below zero; above the threshold a second operator confirms, once', async () => {
    const s = await setup('50');
    const credit = async () => envelope<{ creditBalance: string }>(await s.app.inject({ method: 'GET', url: '/api/member/meInfo', headers: authHeaders(s.alice) })).result?.creditBalance;
    expect(envelope(await adjust(s.app, s.ann, { address: accounts.alice.address, amount: '30', reason: 'goodwill', requestId: randomUUID() }))).toMatchObject({
      code: 0,
      result: { status: 'done', amount: '30', reason: 'goodwill', requestedBy: s.ann.address },
    });
    expect(await credit()).toBe('80');
    expectRefused(await adjust(s.app, s.ann, { address: accounts.alice.address, amount: '-80.000001', requestId: randomUUID() }), ApiCode.insufficientBalance);
    expect(envelope(await adjust(s.app, s.ann, { address: accounts.alice.address, amount: '-80', requestId: randomUUID() }))).toMatchObject({ code: 0, result: { status: 'done', amount: '-80' } });
    expect(await credit()).toBe('0');
    await expectBooksBalanced(ctx.db);

    // Above the threshold: nothing moves until another operator confirms; its requester cannot (1007).
    const waiting = envelope<{ id: string; status: string }>(await adjust(s.app, s.ann, { address: accounts.alice.address, amount: '500', reason: 'promotion', requestId: randomUUID() }));
    expect(waiting).toMatchObject({ code: 0, result: { status: 'waiting' } });
    const id = waiting.result?.id ?? '';
    expect(await credit()).toBe('0');
    expectRefused(await confirmAdjust(s.app, s.ann, id), ApiCode.selfActRefused);
    expectRefused(await s.app.inject({ method: 'POST', url: '/api/admin/adjust/confirm', headers: LEFTOVER_ADMIN_TOKEN, payload: { id } }), ApiCode.notSignedIn);
    expect(await credit()).toBe('0');
    const confirmed = envelope(await confirmAdjust(s.app, s.ben, id));
    expect(confirmed).toMatchObject({ code: 0, result: { status: 'done', confirmedBy: s.ben.address } });
    expect(envelope(await confirmAdjust(s.app, s.ben, id))).toEqual(confirmed);
    expect(await credit()).toBe('500');
    // A big deduction the balance no longer covers when confirmed is refused and stays waiting; confirmed later, it moves.
    const deduction = envelope<{ id: string }>(await adjust(s.app, s.ann, { address: accounts.alice.address, amount: '-450', requestId: randomUUID() })).result?.id ?? '';
    expect(envelope(await withdraw(s.app, s.alice, { amount: '100', requestId: randomUUID() })).code).toBe(0);
    expectRefused(await confirmAdjust(s.app, s.ben, deduction), ApiCode.insufficientBalance);
    expect(envelope(await adjust(s.app, s.ben, { address: accounts.alice.address, amount: '50', requestId: randomUUID() })).code).toBe(0);
    expect(envelope(await confirmAdjust(s.app, s.ben, deduction))).toMatchObject({ code: 0, result: { status: 'done' } });
    expect(await credit()).toBe('0');
    // The removed ADMIN_TOKEN's header may not ask for one (1002); a member that does not exist is 4004; WPOS too.
    expectRefused(await s.app.inject({ method: 'POST', url: '/api/admin/adjust', headers: LEFTOVER_ADMIN_TOKEN, payload: { address: accounts.alice.address, asset: 'CREDIT', amount: '101', reason: 'x', requestId: randomUUID() } }), ApiCode.notSignedIn);
    expectRefused(await adjust(s.app, s.ann, { address: accounts.carol.address, amount: '1', requestId: randomUUID() }), ApiCode.notFound);
    expectRefused(await adjust(s.app, s.ann, { address: accounts.alice.address, amount: '0', requestId: randomUUID() }), ApiCode.invalidParameters);
    expect(envelope(await adjust(s.app, s.ann, { address: accounts.alice.address, asset: 'WPOS', amount: '7.5', requestId: randomUUID() }))).toMatchObject({ code: 0, result: { asset: 'WPOS', status: 'done' } });
    await expectBooksBalanced(ctx.db);
    // One row per act done (six adjustments, two confirmations); none for a refusal or the requester's own confirmation.
    expect((await auditActions()).filter((row) => row.action.startsWith('opsAdjust')).length).toBe(8);
  });

  it('lists the adjustments waiting for a second operator, oldest first, a page at a time; a confirmed one leaves the list', async () => {
    const s = await setup('50');
    type Pending = { list: { id: string; amount: string; status: string; requestedBy: string | null; address: string }[]; nextCursor: string | null };
    const pending = async (query: Record<string, string> = {}) => {
      const body = envelope<Pending>(await s.app.inject({ method: 'GET', url: '/api/admin/adjust/pending', headers: s.ann.headers, query }));
      expect(body.code).toBe(0);
      return body.result ?? { list: [], nextCursor: null };
    };
    expect(await pending()).toEqual({ list: [], nextCursor: null });
    // One at or below the threshold moves at once and is never listed; three above it wait.
    expect(envelope(await adjust(s.app, s.ann, { address: accounts.alice.address, amount: '100', requestId: randomUUID() })).code).toBe(0);
    const ids: string[] = [];
    for (const amount of ['500', '-120', '101']) {
      ids.push(envelope<{ id: string }>(await adjust(s.app, s.ann, { address: accounts.alice.address, amount, reason: 'promotion', requestId: randomUUID() })).result?.id ?? '');
    }
    const first = await pending({ limit: '2' });
    expect(first.list.map((item) => [item.id, item.amount, item.status, item.requestedBy, item.address])).toEqual([
      [ids[0], '500', 'waiting', s.ann.address, accounts.alice.address],
      [ids[1], '-120', 'waiting', s.ann.address, accounts.alice.address],
    ]);
    expect(first.nextCursor).toBe(ids[1]);
    expect((await pending({ limit: '2', cursor: first.nextCursor ?? '' })).list.map((item) => item.id)).toEqual([ids[2]]);
    expect(envelope(await confirmAdjust(s.app, s.ben, ids[0] ?? '')).code).toBe(0);
    expect(await pending()).toMatchObject({ list: [{ id: ids[1] }, { id: ids[2] }], nextCursor: null });
    expectRefused(await s.app.inject({ method: 'GET', url: '/api/admin/adjust/pending', headers: s.ann.headers, query: { cursor: '0' } }), ApiCode.invalidParameters);
  });

  it('moves an adjustment at most once per request id, however many arrive at once on however many instances', async () => {
    const s = await setup('0');
    const instances = await ctx.instances({ approvalQuorumAbove: toMinor(QUORUM) });
    const requestId = randomUUID();
    const body = { address: accounts.alice.address, amount: '40', reason: 'refund of order 12', requestId };
    const answers = await Promise.all(Array.from({ length: 8 }, (_, index) => adjust(instances[index % instances.length] ?? s.app, s.ann, body)));
    const envelopes = answers.map((answer) => envelope<{ id: string }>(answer));
    // Every answer is the first's; or, on PostgreSQL, 3005 while the first still runs on the other instance.
    const done = envelopes.filter((answer) => answer.code === 0);
    expect(done.length).toBeGreaterThan(0);
    expect(new Set(done.map((answer) => answer.result?.id)).size).toBe(1);
    expect(envelopes.every((answer) => answer.code === 0 || answer.code === ApiCode.requestInProgress)).toBe(true);
    // Another body under the same id is 3003.
    expectRefused(await adjust(s.app, s.ann, { ...body, amount: '41' }), ApiCode.requestIdReused);
    // A request id is its operator's: another operator's same id is another act, which never answers the first's.
    const bens = envelope<{ id: string; requestedBy: string }>(await adjust(s.app, s.ben, { ...body, amount: '1' }));
    expect(bens).toMatchObject({ code: 0, result: { requestedBy: s.ben.address } });
    expect(bens.result?.id).not.toBe(done[0]?.result?.id);
    expect(envelope(await adjust(s.app, s.ben, { ...body, amount: '1' }))).toEqual(bens);
    const [balance] = await queryRows(
      ctx.db,
      sql`SELECT balance::text FROM ledger_accounts a JOIN members m ON m.id = a.member_id WHERE m.address = ${accounts.alice.address} AND a.asset = 'CREDIT'`,
      z.object({ balance: z.string() }),
    );
    expect(balance?.balance).toBe('41000000');
    // Two operators confirming one waiting adjustment at once: it moves once.
    const big = envelope<{ id: string }>(await adjust(s.app, s.ann, { address: accounts.alice.address, amount: '200', requestId: randomUUID() })).result?.id ?? '';
    const carl = await operatorWithSession(ctx.db, ['finance'], ctx.clock.now());
    const confirms = await Promise.all([confirmAdjust(instances[0] ?? s.app, s.ben, big), confirmAdjust(instances.at(-1) ?? s.app, carl, big)]);
    expect(confirms.map((answer) => envelope<{ status: string }>(answer)).map((answer) => [answer.code, answer.result?.status])).toEqual([
      [0, 'done'],
      [0, 'done'],
    ]);
    const [after] = await queryRows(
      ctx.db,
      sql`SELECT balance::text FROM ledger_accounts a JOIN members m ON m.id = a.member_id WHERE m.address = ${accounts.alice.address} AND a.asset = 'CREDIT'`,
      z.object({ balance: z.string() }),
    );
    expect(after?.balance).toBe('241000000');
    await expectBooksBalanced(ctx.db);
  });
});
