/**
 * The operator's decisions on withdrawals of different amounts, as members and operators use the app:
 * several withdrawals per member and day, some sent at once so they share a batch, approved or failed in every
 * order (`done` is the chain's, no operator's), and decisions sent while other withdrawals are still arriving. After every step the books balance, the
 * member's records replay to meInfo's balance, and the day's total the cap reads is the withdrawals not failed, so a
 * new withdrawal fits the cap exactly as if a failed one had never been made.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { formatMinor, toMinor } from '../../api-schema/amount';
import { ApiCode } from '../../api-schema/codes';
import { getAppConfig } from '../../server/config/appConfig';
import { queryRows } from '../../server/db/client';
import { postRequests } from '../../server/ledger/engine';
import { memberIdByAddress, type CreditRecord } from '../../server/ledger/queries';
import { approvalRequest, failureRequest, withdrawalRequest } from '../../server/ledger/withdrawals';
import { expectRefused } from './support/assertions';
import { describeWithDatabases, type ServerTestContext } from './support/harness';
import { decide, expectBooksBalanced, grant, withdraw } from './support/testLedger';
import { accounts, authHeaders, envelope, signInBound } from './support/memberSignIn';

type Decision = 'approved' | 'failed';

/** The daily cap the decision tests run under (the seed's 10000 would need many withdrawals of at most 5000). */
const CAP = '100';

async function setCap(ctx: ServerTestContext, cap: string): Promise<void> {
  await ctx.db.execute(sql`UPDATE app_config SET value = value || jsonb_build_object('dailyWithdrawCap', ${cap}::text) WHERE id = 1`);
}

async function balanceOf(app: FastifyInstance, token: string): Promise<string> {
  const me = envelope<{ creditBalance: string }>(await app.inject({ method: 'GET', url: '/api/member/meInfo', headers: authHeaders(token) }));
  return me.result?.creditBalance ?? '';
}

async function creditRecords(app: FastifyInstance, token: string): Promise<CreditRecord[]> {
  const page = envelope<{ list: CreditRecord[] }>(
    await app.inject({ method: 'GET', url: '/api/member/creditRecord', headers: authHeaders(token), query: { pageSize: '100' } }),
  );
  return page.result?.list ?? [];
}

/** The day's total the cap reads for the member (ledger_limits), in minor units. */
async function dayTotal(ctx: ServerTestContext, address: string): Promise<bigint> {
  const [row] = await queryRows(
    ctx.db,
    sql`SELECT coalesce(sum(l.total), 0)::text AS total FROM ledger_limits l JOIN members m ON m.id = l.member_id
        WHERE m.address = ${address} AND l.name = 'withdrawCredit' AND l.day = ${ctx.clock.now().toISOString().slice(0, 10)}::date`,
    z.object({ total: z.string() }),
  );
  return BigInt(row?.total ?? '0');
}

describeWithDatabases('withdrawal decisions', (ctx) => {
  async function setup(credit = '1000'): Promise<{ app: FastifyInstance; alice: string }> {
    const app = await ctx.app();
    const alice = await signInBound(app, accounts.alice, ctx.clock.now());
    expect(envelope(await grant(app, { address: accounts.alice.address, amount: credit, requestId: randomUUID() })).code).toBe(0);
    await setCap(ctx, CAP);
    return { app, alice };
  }

  async function withdrawn(app: FastifyInstance, token: string, amount: string): Promise<string> {
    const body = envelope<{ id: string; status: string }>(await withdraw(app, token, { amount, requestId: randomUUID() }));
    expect(body).toMatchObject({ code: 0, result: { status: 'pending' } });
    return body.result?.id ?? '';
  }

  /**
   * The member's side after a step: the books balance, the records replay to meInfo's balance (each record's
   * balanceAfter is the one before plus its amount, the newest is meInfo's), every withdrawal's records say its
   * status, and the day's total is exactly the amounts not failed.
   */
  async function expectMemberConsistent(app: FastifyInstance, token: string, withdrawals: Map<string, { amount: string; status: string }>) {
    await expectBooksBalanced(ctx.db);
    const records = await creditRecords(app, token);
    const oldestFirst = [...records].reverse();
    let running = 0n;
    for (const record of oldestFirst) {
      running += toMinor(record.amount.replace(/^-/, '')) * (record.amount.startsWith('-') ? -1n : 1n);
      expect(record.balanceAfter).toBe(formatMinor(running));
    }
    expect(await balanceOf(app, token)).toBe(formatMinor(running));
    const notFailed = [...withdrawals.values()].filter((w) => w.status !== 'failed').reduce((sum, w) => sum + toMinor(w.amount), 0n);
    expect(await dayTotal(ctx, accounts.alice.address)).toBe(notFailed);
    // One negative record per withdrawal with its status (a failed one's with its reason), and a positive refund
    // record (done) for each failed one.
    expect(records.filter((record) => record.status === 'failed').every((record) => record.reason === 'rejected')).toBe(true);
    const withdrawRecords = records.filter((record) => record.type === 'withdraw');
    const failed = [...withdrawals.values()].filter((w) => w.status === 'failed');
    expect(withdrawRecords.filter((record) => record.amount.startsWith('-')).map((record) => `${record.amount} ${record.status}`).sort()).toEqual(
      [...withdrawals.values()].map((w) => `-${w.amount} ${w.status}`).sort(),
    );
    expect(withdrawRecords.filter((record) => !record.amount.startsWith('-')).map((record) => `${record.amount} ${record.status}`).sort()).toEqual(
      failed.map((w) => `${w.amount} done`).sort(),
    );
    return { running, notFailed };
  }

  /** A withdrawal of exactly what is left of the cap fits; a unit more does not. */
  async function expectCapLeft(app: FastifyInstance, token: string, used: bigint, withdrawals: Map<string, { amount: string; status: string }>) {
    const left = toMinor(CAP) - used;
    if (left >= toMinor('10')) {
      expectRefused(await withdraw(app, token, { amount: formatMinor(left + 1n), requestId: randomUUID() }), ApiCode.amountOutOfLimits);
      const id = await withdrawn(app, token, formatMinor(left));
      withdrawals.set(id, { amount: formatMinor(left), status: 'pending' });
    }
    expectRefused(await withdraw(app, token, { amount: '10', requestId: randomUUID() }), ApiCode.amountOutOfLimits);
  }

  it('refunds the smaller of two withdrawals the same day (20, then 11, fail the 11): the record, meInfo and the cap agree', async () => {
    const { app, alice } = await setup('100');
    await setCap(ctx, '10000');
    const twenty = await withdrawn(app, alice, '20');
    const eleven = await withdrawn(app, alice, '11');
    const failed = envelope<{ id: string; status: string; amount: string }>(await decide(app, { id: eleven, status: 'failed' }));
    expect(failed).toMatchObject({ code: 0, result: { id: eleven, status: 'failed', amount: '11' } });
    expect(await balanceOf(app, alice)).toBe('80');
    const records = await creditRecords(app, alice);
    expect(records.map((r) => [r.type, r.amount, r.balanceAfter, r.status])).toEqual([
      ['withdraw', '11', '80', 'done'],
      ['withdraw', '-11', '69', 'failed'],
      ['withdraw', '-20', '80', 'pending'],
      ['reward', '100', '100', 'done'],
    ]);
    expect(await dayTotal(ctx, accounts.alice.address)).toBe(toMinor('20'));
    expect(envelope(await decide(app, { id: twenty, status: 'approved' }))).toMatchObject({ code: 0, result: { status: 'approved' } });
    await expectBooksBalanced(ctx.db);
    // With the cap at 31 the failed 11 left room for exactly 11 more today.
    await setCap(ctx, '31');
    expectRefused(await withdraw(app, alice, { amount: '11.000001', requestId: randomUUID() }), ApiCode.amountOutOfLimits);
    expect(envelope(await withdraw(app, alice, { amount: '11', requestId: randomUUID() })).code).toBe(0);
    await expectBooksBalanced(ctx.db);
  });

  const amounts = ['20', '11', '35.5', '14.25'];
  const patterns: [string, Decision[]][] = [
    ['all failed', ['failed', 'failed', 'failed', 'failed']],
    ['all approved', ['approved', 'approved', 'approved', 'approved']],
    ['approved and failed alternating', ['approved', 'failed', 'approved', 'failed']],
    ['failed and approved alternating', ['failed', 'approved', 'failed', 'approved']],
  ];
  for (const [name, decisions] of patterns) {
    for (const order of ['oldest first', 'newest first'] as const) {
      for (const sending of ['one by one', 'at once'] as const) {
        it(`decides withdrawals of ${amounts.join(', ')} sent ${sending}: ${name}, ${order}`, async () => {
          const { app, alice } = await setup();
          const withdrawals = new Map<string, { amount: string; status: string }>();
          const ids =
            sending === 'at once'
              ? await Promise.all(amounts.map((amount) => withdrawn(app, alice, amount)))
              : await amounts.reduce<Promise<string[]>>(async (sent, amount) => [...(await sent), await withdrawn(app, alice, amount)], Promise.resolve([]));
          ids.forEach((id, index) => withdrawals.set(id, { amount: amounts[index] ?? '', status: 'pending' }));
          await expectMemberConsistent(app, alice, withdrawals);
          const sequence = ids.map((id, index) => ({ id, decision: decisions[index] as Decision }));
          if (order === 'newest first') sequence.reverse();
          for (const { id, decision } of sequence) {
            const answer = envelope<{ status: string }>(await decide(app, { id, status: decision }));
            expect(answer).toMatchObject({ code: 0, result: { status: decision } });
            const withdrawal = withdrawals.get(id);
            if (withdrawal) withdrawal.status = decision;
            await expectMemberConsistent(app, alice, withdrawals);
            // Deciding again the same way changes nothing; a failed one cannot be approved.
            expect(envelope(await decide(app, { id, status: decision }))).toMatchObject({ code: 0, result: { status: decision } });
            if (decision === 'failed') expectRefused(await decide(app, { id, status: 'approved' }), ApiCode.alreadyDecided);
          }
          const { notFailed } = await expectMemberConsistent(app, alice, withdrawals);
          await expectCapLeft(app, alice, notFailed, withdrawals);
          await expectMemberConsistent(app, alice, withdrawals);
        });
      }
    }
  }

  it('decides withdrawals while others arrive: failures among concurrent withdrawals of different amounts', async () => {
    const { app, alice } = await setup();
    const withdrawals = new Map<string, { amount: string; status: string }>();
    const first = await Promise.all(['12', '25.5', '10.75'].map((amount) => withdrawn(app, alice, amount)));
    first.forEach((id, index) => withdrawals.set(id, { amount: ['12', '25.5', '10.75'][index] ?? '', status: 'pending' }));
    // The failures of the first wave race a second wave of withdrawals that, with the first, fill the cap exactly.
    const second = ['21', '30.75'];
    const [decisions, sent] = await Promise.all([
      Promise.all([decide(app, { id: first[2], status: 'failed' }), decide(app, { id: first[0], status: 'failed' }), decide(app, { id: first[1], status: 'approved' })]),
      Promise.all(second.map((amount) => withdraw(app, alice, { amount, requestId: randomUUID() }))),
    ]);
    expect(decisions.map((response) => envelope(response).code)).toEqual([0, 0, 0]);
    const statuses: Decision[] = ['failed', 'approved', 'failed'];
    first.forEach((id, index) => withdrawals.set(id, { amount: ['12', '25.5', '10.75'][index] ?? '', status: statuses[index] as Decision }));
    // 12 + 25.5 + 10.75 + 21 + 30.75 = 100: every one fits whatever order the failures and withdrawals took.
    for (const [index, response] of sent.entries()) {
      const body = envelope<{ id: string }>(response);
      expect(body.code).toBe(0);
      withdrawals.set(body.result?.id ?? '', { amount: second[index] ?? '', status: 'pending' });
    }
    const { notFailed } = await expectMemberConsistent(app, alice, withdrawals);
    expect(notFailed).toBe(toMinor('25.5') + toMinor('21') + toMinor('30.75'));
    await expectCapLeft(app, alice, notFailed, withdrawals);
    await expectMemberConsistent(app, alice, withdrawals);
  });

  it('refunds a failed withdrawal of an earlier day on that day, never today', async () => {
    const { app, alice } = await setup();
    const yesterday = await withdrawn(app, alice, '40');
    const before = await withdrawn(app, alice, '15');
    ctx.clock.advance(24 * 60 * 60 * 1000);
    const today = await withdrawn(app, alice, '60');
    expect(envelope(await decide(app, { id: yesterday, status: 'failed' })).code).toBe(0);
    // Today's total is still 60: the 40 came off its own day.
    expect(await dayTotal(ctx, accounts.alice.address)).toBe(toMinor('60'));
    expectRefused(await withdraw(app, alice, { amount: '40.000001', requestId: randomUUID() }), ApiCode.amountOutOfLimits);
    expect(envelope(await decide(app, { id: before, status: 'failed' })).code).toBe(0);
    expect(envelope(await decide(app, { id: today, status: 'failed' })).code).toBe(0);
    expect(await dayTotal(ctx, accounts.alice.address)).toBe(0n);
    await expectBooksBalanced(ctx.db);
  });

  /**
   * One batch of the engine holding new withdrawals of different amounts and the failure of an earlier one, for the
   * same member and day: the set-based write when they surely fit, one by one when they may not; either way the
   * day's total and the books are what one by one in request order gives.
   */
  async function batchWithFailure(newAmounts: string[], failedIndex: number) {
    const { app, alice } = await setup();
    const memberId = (await memberIdByAddress(ctx.db, accounts.alice.address)) ?? 0;
    const earlier = await Promise.all(['40', '20'].map((amount) => withdrawn(app, alice, amount)));
    const failing = earlier[failedIndex] ?? '';
    const config = await getAppConfig(ctx.db);
    const now = ctx.clock.now();
    const requests = newAmounts.map((amount) => withdrawalRequest({ memberId, amount: toMinor(amount), requestId: randomUUID(), now }, config));
    const failedAmount = failedIndex === 0 ? '40' : '20';
    const outcomes = await postRequests(ctx.db, [failureRequest(BigInt(failing), 'rejected', now), ...requests]);
    await expectBooksBalanced(ctx.db);
    return { outcomes, memberId, failedAmount };
  }

  it('fails a withdrawal in the same batch as new ones that fit: set-based, the total what it should be', async () => {
    // 40 + 20 today; the 40 fails while 30 and 10 arrive: 20 + 30 + 10 = 60 of 100.
    const { outcomes } = await batchWithFailure(['30', '10'], 0);
    expect(outcomes.map((outcome) => [outcome.code, outcome.setBased])).toEqual([
      [0, true],
      [0, true],
      [0, true],
    ]);
    expect(await dayTotal(ctx, accounts.alice.address)).toBe(toMinor('60'));
  });

  it('fails a withdrawal in the same batch as new ones that pass the cap: one by one, the give-back still applied', async () => {
    // 40 + 20 today; the 20 fails while 35 and 10 arrive: the 35 fits (95), the 10 does not, then the 20 comes off.
    const { outcomes } = await batchWithFailure(['35', '10.5'], 1);
    expect(outcomes.map((outcome) => outcome.code)).toEqual([0, 0, ApiCode.amountOutOfLimits]);
    expect(await dayTotal(ctx, accounts.alice.address)).toBe(toMinor('40') + toMinor('35'));
  });

  it('moves withdrawals in one batch: set-based when each is moved once from a stage it may leave, else one by one in order', async () => {
    const { app, alice } = await setup();
    const [twice, once, gone] = await Promise.all(['10', '20', '30'].map((amount) => withdrawn(app, alice, amount)));
    expect(envelope(await decide(app, { id: gone, status: 'failed' })).code).toBe(0);
    const now = ctx.clock.now();
    const outcomes = await postRequests(ctx.db, [
      approvalRequest(BigInt(twice ?? ''), now),
      failureRequest(BigInt(once ?? ''), 'rejected', now),
      failureRequest(BigInt(twice ?? ''), 'rejected', now),
      approvalRequest(BigInt(gone ?? ''), now),
    ]);
    // The withdrawal moved twice goes one by one, approved then failed; the failed one cannot be approved.
    expect(outcomes.map((outcome) => [outcome.code, outcome.setBased])).toEqual([
      [0, false],
      [0, true],
      [0, false],
      [ApiCode.alreadyDecided, false],
    ]);
    const withdrawals = new Map([twice, once, gone].map((id, index) => [id ?? '', { amount: ['10', '20', '30'][index] ?? '', status: 'failed' }]));
    await expectMemberConsistent(app, alice, withdrawals);
    expect(await dayTotal(ctx, accounts.alice.address)).toBe(0n);
  });
});
