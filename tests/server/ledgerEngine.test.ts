/**
 * The ledger engine itself (server/ledger/engine.ts, engine.sql) on every database target, through the flow that
 * the WPOS issue will put behind transferWpos: member-to-member transfers. Linked legs move all or none, the batch
 * answers each request as one by one would, at most once per request id, and the books balance after each step.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { toMinor } from '../../api-schema/amount';
import { ApiCode } from '../../api-schema/codes';
import { queryRows } from '../../server/db/client';
import { systemAccountId } from '../../server/ledger/accounts';
import { createLedgerBatcher, postRequests, type LedgerRequest } from '../../server/ledger/engine';
import { memberTransferRequest, type MemberTransferRequest } from '../../server/ledger/memberTransfers';
import { memberIdByAddress } from '../../server/ledger/queries';
import { creditMember } from '../../server/ledger/transfers';
import { describeWithDatabases } from './support/harness';
import { expectBooksBalanced, expectNoMoneyMoved, memberBalances } from './support/testLedger';
import { accounts, signInBound } from './support/memberSignIn';

describeWithDatabases('ledger engine', (ctx) => {
  /** Alice, Bob and Carol signed in and bound, each granted `wpos` WPOS; their member ids. */
  async function threeMembers(wpos: bigint): Promise<{ alice: number; bob: number; carol: number }> {
    const app = await ctx.app();
    const ids: number[] = [];
    for (const wallet of [accounts.alice, accounts.bob, accounts.carol]) {
      await signInBound(app, wallet, ctx.clock.now());
      const memberId = await memberIdByAddress(ctx.db, wallet.address);
      if (memberId === undefined) throw new Error('not a member');
      await ctx.db.transaction((tx) =>
        creditMember(tx, { asset: 'WPOS', type: 'reward', memberId, systemAccountId: systemAccountId('WPOS', 'issuance'), amount: wpos, now: ctx.clock.now() }),
      );
      ids.push(memberId);
    }
    const [alice = 0, bob = 0, carol = 0] = ids;
    return { alice, bob, carol };
  }

  const wposOf = async (memberId: number) => (await memberBalances(ctx.db)).get(`${memberId}:WPOS`);

  function transfer(from: number, to: number, amount: string, extra: Partial<MemberTransferRequest> = {}): LedgerRequest {
    return memberTransferRequest({
      endpoint: 'transferWpos',
      asset: 'WPOS',
      fromMemberId: from,
      toMemberId: to,
      amount: toMinor(amount),
      minimum: toMinor('1'),
      recipientAllowed: true,
      requestId: randomUUID(),
      now: ctx.clock.now(),
      ...extra,
    });
  }

  it('transfers between members: both entries, at most once per request id, another body with the id is 3003', async () => {
    const { alice, bob } = await threeMembers(100_000_000n);
    const ledger = createLedgerBatcher(ctx.db, { maxInFlight: 1 });
    const requestId = randomUUID();
    const first = await ledger.post(() => transfer(alice, bob, '30', { requestId }), ctx.clock.now());
    expect(first).toMatchObject({ code: 0, result: { amount: '30', status: 'done' } });
    expect(await wposOf(alice)).toBe(70_000_000n);
    expect(await wposOf(bob)).toBe(130_000_000n);
    const again = await expectNoMoneyMoved(ctx.db, () => ledger.post(() => transfer(alice, bob, '30.000', { requestId }), ctx.clock.now()));
    expect(again).toEqual({ ...first, setBased: false });
    const other = await expectNoMoneyMoved(ctx.db, () => ledger.post(() => transfer(alice, bob, '31', { requestId }), ctx.clock.now()));
    expect(other.code).toBe(ApiCode.requestIdReused);
    await expectBooksBalanced(ctx.db);
  });

  it('decides each batch of the ledger batcher by the app config as it is when the batch runs, though the batcher keeps it between batches', async () => {
    const { alice, bob } = await threeMembers(100_000_000n);
    const setMinTransfer = (value: string) =>
      ctx.db.execute(sql`UPDATE app_config SET value = value || jsonb_build_object('minTransfer', ${value}::text) WHERE id = 1`);
    const ledger = createLedgerBatcher(ctx.db, { maxInFlight: 1 });
    const byConfig = () => ledger.post((config) => transfer(alice, bob, '2', { minimum: toMinor(config.minTransfer) }), ctx.clock.now());
    await setMinTransfer('1');
    expect((await byConfig()).code).toBe(0);
    await setMinTransfer('5');
    expect((await expectNoMoneyMoved(ctx.db, byConfig)).code).toBe(ApiCode.amountOutOfLimits);
    await setMinTransfer('2');
    expect((await byConfig()).code).toBe(0);
    expect(await wposOf(bob)).toBe(104_000_000n);
    await expectBooksBalanced(ctx.db);
  });

  it('refuses and stores: the sender itself or a recipient not allowed (3004), below the minimum (3002), above the balance (3001)', async () => {
    const { alice, bob } = await threeMembers(10_000_000n);
    const refusals: [LedgerRequest, number][] = [
      [transfer(alice, alice, '1'), ApiCode.recipientInvalid],
      [transfer(alice, bob, '1', { recipientAllowed: false }), ApiCode.recipientInvalid],
      [transfer(alice, bob, '0.5'), ApiCode.amountOutOfLimits],
      [transfer(alice, bob, '10.000001'), ApiCode.insufficientBalance],
    ];
    for (const [request, code] of refusals) {
      const balances = await memberBalances(ctx.db);
      const [outcome] = await postRequests(ctx.db, [request]);
      expect(outcome).toEqual({ code, result: null, setBased: false });
      expect(await memberBalances(ctx.db)).toEqual(balances);
      // A repeat answers the stored refusal.
      expect((await expectNoMoneyMoved(ctx.db, () => postRequests(ctx.db, [request])))[0]?.code).toBe(code);
    }
    await expectBooksBalanced(ctx.db);
  });

  it('moves linked legs all or none: a request whose second debit is not covered moves nothing of its first', async () => {
    const { alice, bob, carol } = await threeMembers(10_000_000n);
    const both: LedgerRequest = {
      now: ctx.clock.now(),
      key: { scope: 'test', endpoint: 'linked', requestId: randomUUID(), body: {} },
      legs: [
        { asset: 'WPOS', type: 'transfer', from: { member: alice }, to: { member: carol }, amount: 5_000_000n },
        { asset: 'WPOS', type: 'transfer', from: { member: bob }, to: { member: carol }, amount: 10_000_001n },
      ],
    };
    const [outcome] = await expectNoMoneyMoved(ctx.db, () => postRequests(ctx.db, [both]));
    expect(outcome?.code).toBe(ApiCode.insufficientBalance);
    await expectBooksBalanced(ctx.db);
  });

  it('moves a fan leg as one leg per member, in order, all or none with the request\'s other legs', async () => {
    const { alice, bob, carol } = await threeMembers(10_000_000n);
    const payout = (carolPays: bigint): LedgerRequest => ({
      now: ctx.clock.now(),
      key: { scope: 'test', endpoint: 'fan', requestId: randomUUID(), body: {} },
      legs: [
        { asset: 'WPOS', type: 'reward', from: { system: systemAccountId('WPOS', 'issuance') }, to: { members: [alice, bob] }, amounts: [1_000_000n, 2_000_000n], memo: 'fan' },
        { asset: 'WPOS', type: 'transfer', from: { member: carol }, to: { member: alice }, amount: carolPays },
      ],
    });
    const [refused] = await expectNoMoneyMoved(ctx.db, () => postRequests(ctx.db, [payout(10_000_001n)]));
    expect(refused?.code).toBe(ApiCode.insufficientBalance);
    const [paid] = await postRequests(ctx.db, [payout(5_000_000n)]);
    expect(paid?.code).toBe(0);
    expect([await wposOf(alice), await wposOf(bob), await wposOf(carol)]).toEqual([16_000_000n, 12_000_000n, 5_000_000n]);
    const moved = await queryRows(
      ctx.db,
      sql`SELECT t.type, t.amount::text AS amount, t.memo, a.member_id AS "to" FROM ledger_transfers t JOIN ledger_accounts a ON a.id = t.credit_account_id
          WHERE t.memo = 'fan' OR t.type = 'transfer' ORDER BY t.id`,
      z.object({ type: z.string(), amount: z.string(), memo: z.string().nullable(), to: z.number() }),
    );
    expect(moved).toEqual([
      { type: 'reward', amount: '1000000', memo: 'fan', to: alice },
      { type: 'reward', amount: '2000000', memo: 'fan', to: bob },
      { type: 'transfer', amount: '5000000', memo: null, to: alice },
    ]);
    await expectBooksBalanced(ctx.db);
  });

  it('writes a batch that surely fits in one statement, with the running balance of each entry', async () => {
    const { alice, bob, carol } = await threeMembers(100_000_000n);
    const outcomes = await postRequests(ctx.db, [
      transfer(alice, bob, '10'),
      transfer(bob, carol, '20'),
      transfer(alice, carol, '30'),
      transfer(carol, alice, '5'),
    ]);
    expect(outcomes.map((outcome) => [outcome.code, outcome.setBased])).toEqual([
      [0, true],
      [0, true],
      [0, true],
      [0, true],
    ]);
    expect([await wposOf(alice), await wposOf(bob), await wposOf(carol)]).toEqual([65_000_000n, 90_000_000n, 145_000_000n]);
    // expectBooksBalanced checks every entry's balance before and after against the account's history.
    await expectBooksBalanced(ctx.db);
  });

  it('answers a batch that may not fit one by one, as requests in turn would be: only the one the balance no longer covers is refused', async () => {
    const { alice, bob, carol } = await threeMembers(100_000_000n);
    const outcomes = await postRequests(ctx.db, [
      transfer(alice, bob, '60'),
      transfer(bob, carol, '10'),
      transfer(alice, carol, '60'),
      transfer(alice, carol, '40'),
    ]);
    expect(outcomes.map((outcome) => [outcome.code, outcome.setBased])).toEqual([
      [0, false],
      [0, true],
      [ApiCode.insufficientBalance, false],
      [0, false],
    ]);
    expect([await wposOf(alice), await wposOf(bob), await wposOf(carol)]).toEqual([0n, 150_000_000n, 150_000_000n]);
    await expectBooksBalanced(ctx.db);
  });

  it('runs transfers in both directions from many requests at once without a deadlock, each exactly once', async () => {
    const { alice, bob, carol } = await threeMembers(1_000_000_000n);
    const ledger = createLedgerBatcher(ctx.db, { maxInFlight: ctx.target === 'pglite' ? 1 : 4 });
    const members = [alice, bob, carol];
    const requests = Array.from({ length: 120 }, (_, index) => {
      const from = members[index % 3] ?? alice;
      const to = members[(index + 1 + (index % 2)) % 3] ?? bob;
      return transfer(from, to, '1');
    });
    // Every request twice: the second of each pair answers the first's outcome.
    const outcomes = await Promise.all([...requests, ...requests].map((request) => ledger.post(() => request, ctx.clock.now())));
    const codes = outcomes.map((outcome) => outcome.code);
    expect(codes.every((code) => code === 0 || code === ApiCode.requestInProgress)).toBe(true);
    const total = [await wposOf(alice), await wposOf(bob), await wposOf(carol)].reduce<bigint>((sum, balance) => sum + (balance ?? 0n), 0n);
    expect(total).toBe(3_000_000_000n);
    const [moved] = await queryRows(ctx.db, sql`SELECT count(*)::int AS n FROM ledger_transfers WHERE asset = 'WPOS' AND type = 'transfer'`, z.object({ n: z.number() }));
    expect(moved?.n).toBe(requests.length);
    await expectBooksBalanced(ctx.db);
  });
  it('takes no system account but an issuance one below zero, alone or in a batch, set-based or one by one', async () => {
    const { alice, bob } = await threeMembers(10_000_000n);
    const fromSystem = (kind: 'fees' | 'sales' | 'pools' | 'issuance', to: number, amount: bigint): LedgerRequest => ({
      now: ctx.clock.now(),
      legs: [{ asset: 'WPOS', type: 'reward', from: { system: systemAccountId('WPOS', kind) }, to: { member: to }, amount }],
    });
    // Alone: each kept account holds nothing, so a payment from it is refused (3001) and nothing moves.
    for (const kind of ['fees', 'sales', 'pools'] as const) {
      const [refused] = await expectNoMoneyMoved(ctx.db, () => postRequests(ctx.db, [fromSystem(kind, alice, 1n)]));
      expect(refused?.code).toBe(ApiCode.insufficientBalance);
    }
    // What a request puts in, the same request may take out again (a withdrawal's fee leaves payable so).
    const [through] = await postRequests(ctx.db, [
      {
        now: ctx.clock.now(),
        legs: [
          { asset: 'WPOS', type: 'transfer', from: { member: alice }, to: { system: systemAccountId('WPOS', 'sales') }, amount: 3_000_000n },
          { asset: 'WPOS', type: 'transfer', from: { system: systemAccountId('WPOS', 'sales') }, to: { member: bob }, amount: 3_000_000n },
        ],
      },
    ]);
    expect(through?.code).toBe(ApiCode.ok);
    // In one batch, after a funding of 5: the first takes 3, the second's 3 no longer fits, the issuance's always does.
    await postRequests(ctx.db, [{ now: ctx.clock.now(), legs: [{ asset: 'WPOS', type: 'funding', from: { system: systemAccountId('WPOS', 'issuance') }, to: { system: systemAccountId('WPOS', 'pools') }, amount: 5n }] }]);
    const batch = await postRequests(ctx.db, [fromSystem('pools', alice, 3n), fromSystem('pools', bob, 3n), fromSystem('issuance', bob, 3n)]);
    expect(batch.map((outcome) => outcome.code)).toEqual([ApiCode.ok, ApiCode.insufficientBalance, ApiCode.ok]);
    const [pools] = await queryRows(ctx.db, sql`SELECT balance::text AS balance FROM ledger_accounts WHERE id = ${systemAccountId('WPOS', 'pools')}`, z.object({ balance: z.string() }));
    expect(pools?.balance).toBe('2');
    await expectBooksBalanced(ctx.db);
  });
});
