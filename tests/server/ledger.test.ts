/**
 * Money through the HTTP API on every database target: grants, withdrawals, the operator's decisions, records and
 * totals, the at-most-once rule for request ids, and bad input refused with its code and no money moved; the
 * books are checked after each step.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { expect, it } from 'vitest';
import { ApiCode } from '../../api-schema/codes';
import { systemAccountId } from '../../server/ledger/accounts';
import { memberIdByAddress, type CreditRecord } from '../../server/ledger/queries';
import { creditMember, debitMember } from '../../server/ledger/transfers';
import { runWithdrawalBatch } from '../../server/ledger/withdrawals';
import { expectRefused } from './support/assertions';
import { describeWithDatabases } from './support/harness';
import {
  decide,
  expectBooksBalanced,
  expectNoMoneyMoved,
  grant,
  holdRequestKey,
  holdTransaction,
  memberBalances,
  someoneWaitsForALock,
  systemBalance,
  treasuryHeaders,
  withdraw,
} from './support/testLedger';
import { accounts, authHeaders, envelope, signInBound } from './support/memberSignIn';
import { TEST_TREASURY_ADDRESS, TEST_TREASURY_KEY } from '../support/treasury';

describeWithDatabases('ledger', (ctx) => {
  async function setup(): Promise<{ app: FastifyInstance; alice: string }> {
    const app = await ctx.app();
    const alice = await signInBound(app, accounts.alice, ctx.clock.now());
    return { app, alice };
  }

  /** The member id behind a test wallet that has signed in. */
  async function memberIdOf(address: string): Promise<number> {
    const memberId = await memberIdByAddress(ctx.db, address);
    if (memberId === undefined) throw new Error(`${address} is not a member`);
    return memberId;
  }

  async function balanceOf(app: FastifyInstance, token: string): Promise<string> {
    return envelope<{ creditBalance: string }>(await app.inject({ method: 'GET', url: '/api/member/meInfo', headers: authHeaders(token) })).result
      ?.creditBalance ?? '';
  }

  async function records(app: FastifyInstance, token: string, query: { [key: string]: string } = {}) {
    const response = await app.inject({ method: 'GET', url: '/api/member/creditRecord', headers: authHeaders(token), query });
    return envelope<{ list: CreditRecord[]; total: number; page: number; pageSize: number }>(response);
  }

  async function granted(app: FastifyInstance, amount: string): Promise<void> {
    const body = envelope(await grant(app, { address: accounts.alice.address, amount, requestId: randomUUID() }));
    expect(body.code).toBe(0);
  }

  it('grants credit from issuance: a reward record, the balance in meInfo, a repeat returns the first answer', async () => {
    const { app, alice } = await setup();
    const requestId = randomUUID();
    const first = envelope<{ id: string; balanceAfter: string }>(await grant(app, { address: accounts.alice.address, amount: '100.5', requestId, memo: 'welcome' }, treasuryHeaders()));
    expect(first).toMatchObject({ code: 0, result: { balanceAfter: '100.5' } });
    const again = await expectNoMoneyMoved(ctx.db, () => grant(app, { address: accounts.alice.address, amount: '100.500', requestId, memo: 'welcome' }, treasuryHeaders()));
    expect(envelope(again)).toEqual(first);
    expectRefused(await expectNoMoneyMoved(ctx.db, () => grant(app, { address: accounts.alice.address, amount: '100', requestId, memo: 'welcome' }, treasuryHeaders())), ApiCode.requestIdReused);
    expect(await balanceOf(app, alice)).toBe('100.5');
    const page = await records(app, alice);
    expect(page.result).toMatchObject({ total: 1, page: 1, pageSize: 20, list: [{ id: first.result?.id, type: 'reward', amount: '100.5', balanceAfter: '100.5', status: 'done' }] });
    await expectBooksBalanced(ctx.db);
  });

  it('pages records by keyset (before = the last id shown) exactly as by offset, filter included; a bad before is 1001', async () => {
    const { app, alice } = await setup();
    for (let n = 1; n <= 7; n++) await granted(app, `${n}`);
    expect(envelope(await withdraw(app, alice, { amount: '20', requestId: randomUUID() })).code).toBe(0);
    const byOffset = [];
    for (const page of ['1', '2', '3']) byOffset.push((await records(app, alice, { page, pageSize: '3' })).result?.list ?? []);
    expect(byOffset.map((list) => list.length)).toEqual([3, 3, 2]);
    const byKeyset = [await records(app, alice, { pageSize: '3' })];
    for (let index = 0; index < 2; index++) {
      const last = byKeyset.at(-1)?.result?.list.at(-1)?.id ?? '';
      byKeyset.push(await records(app, alice, { page: String(index + 2), pageSize: '3', before: last }));
    }
    expect(byKeyset.map((page) => page.result?.list)).toEqual(byOffset);
    expect(byKeyset.map((page) => page.result?.total)).toEqual([8, 8, 8]);
    // With a type, before skips within that type only.
    const rewards = (await records(app, alice, { type: 'reward', pageSize: '20' })).result?.list ?? [];
    const afterThird = await records(app, alice, { type: 'reward', pageSize: '20', before: rewards[2]?.id ?? '' });
    expect(afterThird.result?.list).toEqual(rewards.slice(3));
    for (const before of ['0', '-1', 'abc', '1.5', '1'.repeat(19)]) {
      const refused = await app.inject({ method: 'GET', url: '/api/member/creditRecord', headers: authHeaders(alice), query: { before } });
      expectRefused(refused, ApiCode.invalidParameters, 'before');
    }
    await expectBooksBalanced(ctx.db);
  });

  it('grants WPOS: a reward in wposRecord and meInfo, nothing in creditRecord', async () => {
    const { app, alice } = await setup();
    const body = envelope<{ id: string }>(await grant(app, { address: accounts.alice.address, asset: 'WPOS', amount: '3.25', requestId: randomUUID() }));
    expect(body.code).toBe(0);
    const me = envelope<{ creditBalance: string; wposBalance: string }>(await app.inject({ method: 'GET', url: '/api/member/meInfo', headers: authHeaders(alice) }));
    expect(me.result).toMatchObject({ creditBalance: '0', wposBalance: '3.25' });
    const wpos = envelope(await app.inject({ method: 'GET', url: '/api/member/wposRecord', headers: authHeaders(alice) }));
    expect(wpos.result).toEqual({
      list: [{ id: body.result?.id, type: 'reward', amount: '3.25', balanceAfter: '3.25', createdAt: ctx.clock.now().toISOString() }],
      total: 1,
      page: 1,
      pageSize: 20,
    });
    expect((await records(app, alice)).result?.total).toBe(0);
    expectRefused(await app.inject({ method: 'GET', url: '/api/member/wposRecord', headers: authHeaders(alice), query: { type: 'withdraw' } }), ApiCode.invalidParameters, 'type');
    await expectBooksBalanced(ctx.db);
  });

  it('withdraws: amount off the balance, fee to fees, the rest payable, pending; a repeat moves nothing', async () => {
    const { app, alice } = await setup();
    await granted(app, '100');
    const requestId = randomUUID();
    const first = envelope(await withdraw(app, alice, { amount: '20', requestId }));
    expect(first).toMatchObject({ code: 0, result: { amount: '20', fee: '1', status: 'pending' } });
    expect(envelope(await expectNoMoneyMoved(ctx.db, () => withdraw(app, alice, { amount: '20.0', requestId })))).toEqual(first);
    expect(await balanceOf(app, alice)).toBe('80');
    const ledger = envelope(await app.inject({ method: 'GET', url: '/api/admin/ledger', headers: treasuryHeaders() }));
    expect(ledger.result).toEqual({
      assets: { CREDIT: { members: '80', system: '-80', total: '0' }, WPOS: { members: '0', system: '0', total: '0' } },
      negativeAccounts: 0,
    });
    expect({ payable: await systemBalance(ctx.db, 3), fees: await systemBalance(ctx.db, 2) }).toEqual({ payable: '19000000', fees: '1000000' });
    const page = await records(app, alice);
    expect(page.result?.list.map((r) => [r.type, r.amount, r.balanceAfter, r.status])).toEqual([
      ['withdraw', '-20', '80', 'pending'],
      ['reward', '100', '100', 'done'],
    ]);
    expect((await records(app, alice, { type: 'reward' })).result?.list).toHaveLength(1);
    expect((await records(app, alice, { page: '2', pageSize: '1' })).result).toMatchObject({ total: 2, page: 2, pageSize: 1, list: [{ type: 'reward' }] });
    await expectBooksBalanced(ctx.db);
  });

  it.each([
    ['7 decimals', '10.0000001'],
    ['zero', '0'],
    ['zero with decimals', '0.000000'],
    ['negative', '-10'],
    ['13 integer digits', '1000000000000'],
    ['a number', 10],
    ['exponent', '1e3'],
  ])('refuses an amount with %s: 1001 naming the field, nothing moved', async (_name, amount) => {
    const { app, alice } = await setup();
    await granted(app, '100');
    const response = await expectNoMoneyMoved(ctx.db, () => withdraw(app, alice, { amount, requestId: randomUUID() }));
    expectRefused(response, ApiCode.invalidParameters, 'amount');
  });

  it('refuses a malformed request id (1001) and an unknown field (1001)', async () => {
    const { app, alice } = await setup();
    await granted(app, '100');
    expectRefused(await expectNoMoneyMoved(ctx.db, () => withdraw(app, alice, { amount: '10', requestId: 'not-a-uuid' })), ApiCode.invalidParameters, 'requestId');
    expectRefused(await expectNoMoneyMoved(ctx.db, () => withdraw(app, alice, { amount: '10', requestId: randomUUID(), extra: 1 })), ApiCode.invalidParameters);
  });

  it('refuses above the balance (3001), outside min/max (3002) and over the daily cap (3002); a repeat gets the same refusal', async () => {
    const { app, alice } = await setup();
    await granted(app, '30');
    const short = randomUUID();
    expectRefused(await expectNoMoneyMoved(ctx.db, () => withdraw(app, alice, { amount: '30.000001', requestId: short })), ApiCode.insufficientBalance);
    await granted(app, '20000');
    // The same id keeps its first outcome even though the balance would cover it now.
    expectRefused(await expectNoMoneyMoved(ctx.db, () => withdraw(app, alice, { amount: '30.000001', requestId: short })), ApiCode.insufficientBalance);
    expectRefused(await expectNoMoneyMoved(ctx.db, () => withdraw(app, alice, { amount: '9.999999', requestId: randomUUID() })), ApiCode.amountOutOfLimits);
    expectRefused(await expectNoMoneyMoved(ctx.db, () => withdraw(app, alice, { amount: '5000.000001', requestId: randomUUID() })), ApiCode.amountOutOfLimits);
    // Daily cap 10000: two of 5000 fit, a third does not; a failed one no longer counts; the next UTC day starts afresh.
    const firstId = envelope<{ id: string }>(await withdraw(app, alice, { amount: '5000', requestId: randomUUID() })).result?.id;
    expect(envelope(await withdraw(app, alice, { amount: '5000', requestId: randomUUID() })).code).toBe(0);
    expectRefused(await expectNoMoneyMoved(ctx.db, () => withdraw(app, alice, { amount: '10', requestId: randomUUID() })), ApiCode.amountOutOfLimits);
    expect(envelope(await decide(app, { id: firstId, status: 'failed' })).code).toBe(0);
    expect(envelope(await withdraw(app, alice, { amount: '10', requestId: randomUUID() })).code).toBe(0);
    ctx.clock.advance(24 * 60 * 60 * 1000);
    expect(envelope(await withdraw(app, alice, { amount: '5000', requestId: randomUUID() })).code).toBe(0);
    await expectBooksBalanced(ctx.db);
  });

  it('refuses the same request id with another body (3003), and the refusal moves nothing', async () => {
    const { app, alice } = await setup();
    await granted(app, '100');
    const requestId = randomUUID();
    expect(envelope(await withdraw(app, alice, { amount: '10', requestId })).code).toBe(0);
    expectRefused(await expectNoMoneyMoved(ctx.db, () => withdraw(app, alice, { amount: '11', requestId })), ApiCode.requestIdReused);
    expect(envelope(await withdraw(app, alice, { amount: '10.000', requestId }))).toMatchObject({ code: 0, result: { amount: '10' } });
    expect(await balanceOf(app, alice)).toBe('90');
    await expectBooksBalanced(ctx.db);
  });

  // PGlite is one session, where advisory locks are re-entrant: there a repeat only ever runs after the first.
  it.skipIf(ctx.target === 'pglite')('answers 3005 while the first request still runs elsewhere; after it died, a retry runs once', async () => {
    const { app, alice } = await setup();
    await granted(app, '100');
    const running = randomUUID();
    const memberId = await memberIdOf(accounts.alice.address);
    // The first request, on another connection (another server instance): it holds the key, then dies.
    const first = await holdRequestKey(ctx.db, { scope: `member:${memberId}`, endpoint: 'withdrawCredit', requestId: running });
    expectRefused(await expectNoMoneyMoved(ctx.db, () => withdraw(app, alice, { amount: '12', requestId: running })), ApiCode.requestInProgress);
    await first.die();
    expect(envelope(await withdraw(app, alice, { amount: '12', requestId: running }))).toMatchObject({ code: 0, result: { amount: '12' } });
    expect(await balanceOf(app, alice)).toBe('88');
    await expectBooksBalanced(ctx.db);
  });

  it('opens an empty account for a member who withdraws without one: 3001, the account at 0 with no entries', async () => {
    const { app, alice } = await setup();
    const memberId = await memberIdOf(accounts.alice.address);
    const outcomes = await runWithdrawalBatch(ctx.db, [{ memberId, amount: 20_000_000n, requestId: randomUUID(), now: ctx.clock.now() }]);
    expect(outcomes.map((outcome) => outcome.code)).toEqual([ApiCode.insufficientBalance]);
    expect((await memberBalances(ctx.db)).get(`${memberId}:CREDIT`)).toBe(0n);
    expect(await balanceOf(app, alice)).toBe('0');
    await expectBooksBalanced(ctx.db);
  });

  // Migration 0009: a batch opens its members' accounts before it locks them in member order, so it never locks an
  // account out of that order later (two instances' batches deadlocked on that in CI). An account that a grant is
  // creating on another connection is waited for, and its credit is then seen.
  it.skipIf(ctx.target === 'pglite')('waits for an account that the first grant is creating elsewhere, then withdraws from its credit', async () => {
    const { app, alice } = await setup();
    const memberId = await memberIdOf(accounts.alice.address);
    const now = ctx.clock.now();
    const firstGrant = await holdTransaction(ctx.db, (tx) =>
      creditMember(tx, { asset: 'CREDIT', type: 'reward', memberId, systemAccountId: systemAccountId('CREDIT', 'issuance'), amount: 100_000_000n, now }),
    );
    const batch = runWithdrawalBatch(ctx.db, [{ memberId, amount: 30_000_000n, requestId: randomUUID(), now }]);
    try {
      await someoneWaitsForALock(ctx.db);
    } finally {
      await firstGrant.end();
    }
    expect((await batch).map((outcome) => outcome.code)).toEqual([0]);
    expect(await balanceOf(app, alice)).toBe('70');
    await expectBooksBalanced(ctx.db);
  });

  it('runs a batch in one transaction: each item against the balance the earlier ones left, a repeat inside the batch moves once', async () => {
    const { app, alice } = await setup();
    await granted(app, '100');
    const memberId = await memberIdOf(accounts.alice.address);
    const now = ctx.clock.now();
    const first = randomUUID();
    const outcomes = await runWithdrawalBatch(ctx.db, [
      { memberId, amount: 60_000_000n, requestId: first, now },
      { memberId, amount: 60_000_000n, requestId: randomUUID(), now },
      { memberId, amount: 60_000_000n, requestId: first, now },
      { memberId, amount: 30_000_000n, requestId: first, now },
      // An id without a credit account.
      { memberId: memberId + 1000, amount: 20_000_000n, requestId: randomUUID(), now },
    ]);
    expect(outcomes.map((outcome) => outcome.code)).toEqual([0, ApiCode.insufficientBalance, 0, ApiCode.requestIdReused, ApiCode.insufficientBalance]);
    expect(outcomes[2]).toEqual(outcomes[0]);
    expect(outcomes[0]?.result).toMatchObject({ amount: '60', fee: '1', status: 'pending' });
    expect(await balanceOf(app, alice)).toBe('40');
    await expectBooksBalanced(ctx.db);
  });

  it('runs a batch set-based for a member whose items all fit, one by one for a member whose do not: the answers and entries of one by one', async () => {
    const { app, alice } = await setup();
    const bob = await signInBound(app, accounts.bob, ctx.clock.now());
    await granted(app, '100');
    expect(envelope(await grant(app, { address: accounts.bob.address, amount: '100', requestId: randomUUID() })).code).toBe(0);
    const aliceId = await memberIdOf(accounts.alice.address);
    const bobId = await memberIdOf(accounts.bob.address);
    const now = ctx.clock.now();
    const item = (memberId: number, amount: bigint) => ({ memberId, amount, requestId: randomUUID(), now });
    // Alice's three fit together (60 of 100): one statement. Bob's do not (150 of 100): the second is refused and
    // the third, smaller, still goes through, as one by one would.
    const items = [
      item(bobId, 60_000_000n),
      item(aliceId, 30_000_000n),
      item(bobId, 60_000_000n),
      item(aliceId, 20_000_000n),
      item(bobId, 30_000_000n),
      item(aliceId, 10_000_000n),
    ];
    const outcomes = await runWithdrawalBatch(ctx.db, items);
    expect(outcomes.map((outcome) => outcome.code)).toEqual([0, 0, ApiCode.insufficientBalance, 0, 0, 0]);
    expect(outcomes.map((outcome) => outcome.setBased)).toEqual([false, true, false, true, false, true]);
    expect(outcomes.map((outcome) => outcome.result)).toEqual([
      expect.objectContaining({ amount: '60', fee: '1', status: 'pending' }),
      expect.objectContaining({ amount: '30', fee: '1', status: 'pending' }),
      null,
      expect.objectContaining({ amount: '20', fee: '1', status: 'pending' }),
      expect.objectContaining({ amount: '30', fee: '1', status: 'pending' }),
      expect.objectContaining({ amount: '10', fee: '1', status: 'pending' }),
    ]);
    expect(await balanceOf(app, alice)).toBe('40');
    expect(await balanceOf(app, bob)).toBe('10');
    // Newest first, each with the balance it left: alice's in her request order.
    expect((await records(app, alice)).result?.list.map((record) => [record.amount, record.balanceAfter])).toEqual([
      ['-10', '40'],
      ['-20', '50'],
      ['-30', '70'],
      ['100', '100'],
    ]);
    // A repeat of a set-based request answers its stored outcome and moves nothing.
    const [repeated] = await expectNoMoneyMoved(ctx.db, () =>
      runWithdrawalBatch(ctx.db, [{ memberId: aliceId, amount: 30_000_000n, requestId: items[1]?.requestId ?? '', now }]),
    );
    expect(repeated).toEqual({ ...outcomes[1], setBased: false });
    await expectBooksBalanced(ctx.db);
  });

  it('runs a member whose batch spans midnight one by one: each withdrawal counts on its own day', async () => {
    const { app, alice } = await setup();
    await granted(app, '100');
    const memberId = await memberIdOf(accounts.alice.address);
    const outcomes = await runWithdrawalBatch(ctx.db, [
      { memberId, amount: 20_000_000n, requestId: randomUUID(), now: new Date('2026-11-23T23:59:59.999Z') },
      { memberId, amount: 30_000_000n, requestId: randomUUID(), now: new Date('2026-11-24T00:00:00.000Z') },
    ]);
    expect(outcomes.map((outcome) => [outcome.code, outcome.setBased])).toEqual([
      [0, false],
      [0, false],
    ]);
    expect(await balanceOf(app, alice)).toBe('50');
    // expectBooksBalanced compares each day's total with that day's withdrawals.
    await expectBooksBalanced(ctx.db);
  });

  it('lets two racing requests with one id move money once', async () => {
    const { app, alice } = await setup();
    await granted(app, '100');
    const requestId = randomUUID();
    const answers = await Promise.all(Array.from({ length: 8 }, () => withdraw(app, alice, { amount: '10', requestId })));
    const codes = answers.map((answer) => envelope(answer).code);
    expect(codes.filter((code) => code === 0).length).toBeGreaterThanOrEqual(1);
    expect(codes.every((code) => code === 0 || code === ApiCode.requestInProgress)).toBe(true);
    expect(new Set(answers.filter((a) => envelope(a).code === 0).map((a) => a.body)).size).toBe(1);
    expect(await balanceOf(app, alice)).toBe('90');
    await expectBooksBalanced(ctx.db);
  });

  it('debits a member only when the balance covers it (debitMember, for the flows to come): the entry keeps the balance before and after', async () => {
    const { app, alice } = await setup();
    await granted(app, '10');
    const memberId = await memberIdOf(accounts.alice.address);
    const base = { asset: 'CREDIT', type: 'transfer', memberId, systemAccountId: systemAccountId('CREDIT', 'exchange'), now: ctx.clock.now() } as const;
    expect(await expectNoMoneyMoved(ctx.db, () => ctx.db.transaction((tx) => debitMember(tx, { ...base, amount: 10_000_001n })))).toBeUndefined();
    const leg = await ctx.db.transaction((tx) => debitMember(tx, { ...base, amount: 4_000_000n }));
    expect(leg?.balanceAfter).toBe(6_000_000n);
    expect(await balanceOf(app, alice)).toBe('6');
    expect((await records(app, alice)).result?.list[0]).toMatchObject({ type: 'transfer', amount: '-4', balanceAfter: '6' });
    expect(await systemBalance(ctx.db, systemAccountId('CREDIT', 'exchange'))).toBe('4000000');
    await expectBooksBalanced(ctx.db);
  });

  it('approves a withdrawal (no money moves); the same decision again returns it; failing it then refunds it', async () => {
    const { app, alice } = await setup();
    await granted(app, '100');
    const id = envelope<{ id: string }>(await withdraw(app, alice, { amount: '20', requestId: randomUUID() })).result?.id;
    const before = await memberBalances(ctx.db);
    const approved = envelope(await decide(app, { id, status: 'approved' }));
    expect(await memberBalances(ctx.db)).toEqual(before);
    expect(approved).toMatchObject({ code: 0, result: { id, address: accounts.alice.address, amount: '20', fee: '1', status: 'approved' } });
    expect(envelope(await expectNoMoneyMoved(ctx.db, () => decide(app, { id, status: 'approved' })))).toEqual(approved);
    expect(await balanceOf(app, alice)).toBe('80');
    expect((await records(app, alice)).result?.list[0]).toMatchObject({ type: 'withdraw', amount: '-20', status: 'approved' });
    await expectBooksBalanced(ctx.db);
    // An approved withdrawal not sent yet can still fail; a failed one is never approved.
    expect(envelope(await decide(app, { id, status: 'failed' }))).toMatchObject({ code: 0, result: { id, status: 'failed', reason: 'rejected' } });
    expectRefused(await expectNoMoneyMoved(ctx.db, () => decide(app, { id, status: 'approved' })), ApiCode.alreadyDecided);
    expect(await balanceOf(app, alice)).toBe('100');
    await expectBooksBalanced(ctx.db);
  });

  it('marks a withdrawal failed: the whole amount comes back as a second, positive withdraw record', async () => {
    const { app, alice } = await setup();
    await granted(app, '100');
    const id = envelope<{ id: string }>(await withdraw(app, alice, { amount: '20', requestId: randomUUID() })).result?.id;
    expect(envelope(await decide(app, { id, status: 'failed' }))).toMatchObject({ code: 0, result: { status: 'failed' } });
    expectRefused(await expectNoMoneyMoved(ctx.db, () => decide(app, { id, status: 'approved' })), ApiCode.alreadyDecided);
    expect(await balanceOf(app, alice)).toBe('100');
    expect((await records(app, alice)).result?.list.map((r) => [r.type, r.amount, r.balanceAfter, r.status])).toEqual([
      ['withdraw', '20', '100', 'done'],
      ['withdraw', '-20', '80', 'failed'],
      ['reward', '100', '100', 'done'],
    ]);
    expect(await systemBalance(ctx.db, 2)).toBe('0');
    await expectBooksBalanced(ctx.db);
  });

  it('refuses the operator calls without the right token (1002), an unknown withdrawal (4004), an unknown member (4004)', async () => {
    const { app, alice } = await setup();
    await granted(app, '100');
    const id = envelope<{ id: string }>(await withdraw(app, alice, { amount: '20', requestId: randomUUID() })).result?.id;
    const notTheKey = { authorization: `Bearer ${TEST_TREASURY_KEY.slice(0, -1)}1` };
    const refused: Record<string, string>[] = [{}, notTheKey, { authorization: `Bearer ${TEST_TREASURY_KEY}x` }, { 'x-admin-token': TEST_TREASURY_KEY }, { authorization: alice }];
    for (const headers of refused) {
      expectRefused(await expectNoMoneyMoved(ctx.db, () => decide(app, { id, status: 'approved' }, headers)), ApiCode.notSignedIn);
      expectRefused(await expectNoMoneyMoved(ctx.db, () => grant(app, { address: accounts.alice.address, amount: '1', requestId: randomUUID() }, headers)), ApiCode.notSignedIn);
      expectRefused(await app.inject({ method: 'GET', url: '/api/admin/ledger', headers }), ApiCode.notSignedIn);
    }
    expectRefused(await expectNoMoneyMoved(ctx.db, () => decide(app, { id: '999999', status: 'approved' })), ApiCode.notFound);
    expectRefused(await expectNoMoneyMoved(ctx.db, () => decide(app, { id: 'abc', status: 'approved' })), ApiCode.invalidParameters, 'id');
    // `done` is the chain's to say, never an operator's.
    for (const status of ['pending', 'done', 'sent']) {
      expectRefused(await expectNoMoneyMoved(ctx.db, () => decide(app, { id, status })), ApiCode.invalidParameters, 'status');
    }
    const nobody = randomUUID();
    expectRefused(await expectNoMoneyMoved(ctx.db, () => grant(app, { address: accounts.mallory.address, amount: '1', requestId: nobody }, treasuryHeaders())), ApiCode.notFound);
    expectRefused(await expectNoMoneyMoved(ctx.db, () => grant(app, { address: accounts.mallory.address, amount: '1', requestId: nobody }, treasuryHeaders())), ApiCode.notFound);
    expectRefused(await expectNoMoneyMoved(ctx.db, () => grant(app, { address: accounts.alice.address, amount: '0', requestId: randomUUID() }, treasuryHeaders())), ApiCode.invalidParameters, 'amount');
    expectRefused(
      await expectNoMoneyMoved(ctx.db, () => grant(app, { address: accounts.alice.address.toLowerCase().replace('0x', '0X'), amount: '1', requestId: randomUUID() }, treasuryHeaders())),
      ApiCode.invalidParameters,
      'address',
    );
    expectRefused(
      await expectNoMoneyMoved(ctx.db, () => app.inject({ method: 'POST', url: '/api/admin/distribute', headers: notTheKey, payload: {} })),
      ApiCode.notSignedIn,
    );
  });

  it('an X-Admin-Token header is ignored: alone it opens no operator call (1002), beside an operator key it changes nothing', async () => {
    const app = await ctx.app();
    const leftover = { 'x-admin-token': 'test-admin-token-0123456789abcdef0123' };
    expectRefused(await app.inject({ method: 'GET', url: '/api/admin/ledger', headers: leftover }), ApiCode.notSignedIn);
    expectRefused(await expectNoMoneyMoved(ctx.db, () => grant(app, { address: accounts.alice.address, amount: '1', requestId: randomUUID() }, leftover)), ApiCode.notSignedIn);
    expectRefused(await app.inject({ method: 'GET', url: '/api/admin/me', headers: leftover }), ApiCode.notSignedIn);
    const me = envelope(await app.inject({ method: 'GET', url: '/api/admin/me', headers: { ...leftover, ...treasuryHeaders() } }));
    expect(me).toEqual({ code: 0, result: { address: TEST_TREASURY_ADDRESS, roles: ['finance'], via: 'apiKey', csrfToken: null } });
  });

  it('keeps member-only rules on the money calls: a temporary token gets 1003, none 1002', async () => {
    const { app } = await setup();
    expectRefused(await withdraw(app, '', { amount: '10', requestId: randomUUID() }), ApiCode.notSignedIn);
    expectRefused(await app.inject({ method: 'GET', url: '/api/member/creditRecord' }), ApiCode.notSignedIn);
  });
});
