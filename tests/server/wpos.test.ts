/**
 * The WPOS area through the HTTP API on every database target: transfers to the team, the flash exchange, the share
 * pools and their payout (distribute, the rule's rounding, at most once per pool and day, a crash half-way, the
 * timer at 00:00 UTC), the profit and the records; bad input refused with its code and no money moved, the books
 * checked after each step.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { formatMinor, toMinor } from '../../api-schema/amount';
import { ApiCode } from '../../api-schema/codes';
import { queryRows } from '../../server/db/client';
import { startPayoutTimer } from '../../server/ledger/poolPayouts';
import { expectRefused } from './support/assertions';
import { describeWithDatabases } from './support/harness';
import { expectBooksBalanced, expectNoMoneyMoved, fundSystemAccount, grant, treasuryHeaders } from './support/testLedger';
import { accounts, authHeaders, envelope, signInBound } from './support/memberSignIn';

interface WposRecordItem {
  id: string;
  type: string;
  amount: string;
  balanceAfter: string;
  counterparty?: string;
}

describeWithDatabases('wpos', (ctx) => {
  /** Alice under the seeded inviter, Bob under Alice, Carol beside Alice (a stranger to her team). */
  async function setup(): Promise<{ app: FastifyInstance; alice: string; bob: string; carol: string }> {
    const app = await ctx.app();
    const now = ctx.clock.now();
    const alice = await signInBound(app, accounts.alice, now);
    const me = envelope<{ inviteCode: string }>(await app.inject({ method: 'GET', url: '/api/member/meInfo', headers: authHeaders(alice) }));
    const bob = await signInBound(app, accounts.bob, now, me.result?.inviteCode);
    const carol = await signInBound(app, accounts.carol, now);
    // The pools pay only what finance put in: enough for every payout of these tests.
    await fundSystemAccount(ctx.db, 'sharePools', '1000000');
    return { app, alice, bob, carol };
  }

  const post = (app: FastifyInstance, token: string, url: string, payload: Record<string, unknown>) =>
    app.inject({ method: 'POST', url, headers: authHeaders(token), payload });
  const get = <T>(app: FastifyInstance, token: string, url: string, query: Record<string, string> = {}) =>
    app.inject({ method: 'GET', url, headers: authHeaders(token), query }).then((response) => envelope<T>(response));
  const transfer = (app: FastifyInstance, token: string, body: Record<string, unknown>) => post(app, token, '/api/member/transferWpos', body);
  const exchange = (app: FastifyInstance, token: string, body: Record<string, unknown>) => post(app, token, '/api/member/flashExchange', body);
  const distribute = (app: FastifyInstance, body: Record<string, unknown> = {}) =>
    app.inject({ method: 'POST', url: '/api/admin/distribute', headers: treasuryHeaders(), payload: body }).then((response) => envelope<{ pools: number; paid: string }>(response));

  async function grantWpos(app: FastifyInstance, address: string, amount: string): Promise<void> {
    expect(envelope(await grant(app, { address, asset: 'WPOS', amount, requestId: randomUUID() })).code).toBe(0);
  }

  async function balances(app: FastifyInstance, token: string): Promise<{ wposBalance: string; creditBalance: string }> {
    const me = await get<{ wposBalance: string; creditBalance: string }>(app, token, '/api/member/meInfo');
    return { wposBalance: me.result?.wposBalance ?? '', creditBalance: me.result?.creditBalance ?? '' };
  }

  const records = (app: FastifyInstance, token: string, query: Record<string, string> = {}) =>
    get<{ list: WposRecordItem[]; total: number }>(app, token, '/api/member/wposRecord', query);

  it('transfers WPOS to a member of the team, at most once per request id, each side seeing the other', async () => {
    const { app, alice, bob } = await setup();
    await grantWpos(app, accounts.alice.address, '100');
    const recipients = await get<{ list: string[] }>(app, alice, '/api/member/getRentValidBindMemberAddress');
    expect(recipients.result?.list).toEqual([accounts.bob.address]);

    const requestId = randomUUID();
    // An all-lowercase address is the same address.
    const body = { toAddress: accounts.bob.address.toLowerCase(), amount: '10.5', requestId };
    const first = envelope<{ id: string; amount: string; status: string }>(await transfer(app, alice, body));
    expect(first).toMatchObject({ code: 0, result: { amount: '10.5', status: 'done' } });
    expect(envelope(await expectNoMoneyMoved(ctx.db, () => transfer(app, alice, { ...body, amount: '10.500' })))).toEqual(first);
    expectRefused(await expectNoMoneyMoved(ctx.db, () => transfer(app, alice, { ...body, amount: '11' })), ApiCode.requestIdReused);

    expect(await balances(app, alice)).toMatchObject({ wposBalance: '89.5' });
    expect(await balances(app, bob)).toMatchObject({ wposBalance: '10.5' });
    expect((await records(app, alice)).result?.list[0]).toMatchObject({ type: 'transfer', amount: '-10.5', balanceAfter: '89.5', counterparty: accounts.bob.address });
    expect((await records(app, bob)).result?.list).toEqual([
      expect.objectContaining({ type: 'transfer', amount: '10.5', balanceAfter: '10.5', counterparty: accounts.alice.address }),
    ]);
    // Records of other types name no counterparty.
    expect((await records(app, alice, { type: 'reward' })).result?.list).toEqual([expect.not.objectContaining({ counterparty: expect.anything() })]);
    await expectBooksBalanced(ctx.db);
  });

  it('refuses a transfer to itself, an upline, a stranger or a non-member, a wrong checksum, a bad amount, below the minimum or above the balance, moving nothing', async () => {
    const { app, alice, bob } = await setup();
    await grantWpos(app, accounts.alice.address, '20');
    await grantWpos(app, accounts.bob.address, '5');
    const refused = async (token: string, body: Record<string, unknown>, code: Parameters<typeof expectRefused>[1], message?: string) =>
      expectRefused(await expectNoMoneyMoved(ctx.db, () => transfer(app, token, { requestId: randomUUID(), amount: '2', ...body })), code, message);

    await refused(alice, { toAddress: accounts.alice.address }, ApiCode.recipientInvalid);
    await refused(bob, { toAddress: accounts.alice.address }, ApiCode.recipientInvalid);
    await refused(alice, { toAddress: accounts.carol.address }, ApiCode.recipientInvalid);
    await refused(alice, { toAddress: accounts.dave.address }, ApiCode.recipientInvalid);
    const wrongChecksum = accounts.bob.address.replace(/[a-f]/, (letter) => letter.toUpperCase());
    await refused(alice, { toAddress: wrongChecksum }, ApiCode.invalidParameters, 'toAddress');
    await refused(alice, { toAddress: '0x1234' }, ApiCode.invalidParameters);
    await refused(alice, { toAddress: accounts.bob.address, amount: '1.0000001' }, ApiCode.invalidParameters, 'amount');
    await refused(alice, { toAddress: accounts.bob.address, amount: '0.5' }, ApiCode.amountOutOfLimits);
    await refused(alice, { toAddress: accounts.bob.address, amount: '20.000001' }, ApiCode.insufficientBalance);
    // A refusal is the request id's answer too: the same id and body gets it again.
    const requestId = randomUUID();
    await refused(alice, { toAddress: accounts.carol.address, requestId }, ApiCode.recipientInvalid);
    await refused(alice, { toAddress: accounts.carol.address, requestId }, ApiCode.recipientInvalid);
    expect(await balances(app, alice)).toMatchObject({ wposBalance: '20' });
  });

  it('exchanges WPOS and credit at the configured rate, rounded down, both legs or neither', async () => {
    const { app, alice } = await setup();
    await grantWpos(app, accounts.alice.address, '10');
    // WPOS exchanges back to CREDIT only as far as CREDIT came in or finance funded it: never new credit.
    // (The refusal opens her empty CREDIT account, as any request naming it does; nothing moves.)
    expectRefused(await exchange(app, alice, { from: 'WPOS', amount: '3.000001', requestId: randomUUID() }), ApiCode.insufficientBalance);
    expect(await balances(app, alice)).toEqual({ wposBalance: '10', creditBalance: '0' });
    await fundSystemAccount(ctx.db, 'exchangeCredit', '1.5');
    const requestId = randomUUID();
    const first = envelope(await exchange(app, alice, { from: 'WPOS', amount: '3.000001', requestId }));
    // 3.000001 × 0.5 = 1.5000005, rounded down to 6 decimals.
    expect(first).toMatchObject({ code: 0, result: { paid: '3.000001', received: '1.5', rate: '0.5' } });
    expect(envelope(await expectNoMoneyMoved(ctx.db, () => exchange(app, alice, { from: 'WPOS', amount: '3.000001', requestId })))).toEqual(first);
    expectRefused(await expectNoMoneyMoved(ctx.db, () => exchange(app, alice, { from: 'CREDIT', amount: '3.000001', requestId })), ApiCode.requestIdReused);
    expect(await balances(app, alice)).toEqual({ wposBalance: '6.999999', creditBalance: '1.5' });

    expect(envelope(await exchange(app, alice, { from: 'CREDIT', amount: '1', requestId: randomUUID() }))).toMatchObject({
      code: 0,
      result: { paid: '1', received: '2', rate: '0.5' },
    });
    expect(await balances(app, alice)).toEqual({ wposBalance: '8.999999', creditBalance: '0.5' });
    expect((await records(app, alice, { type: 'exchange' })).result?.list.map((record) => record.amount)).toEqual(['2', '-3.000001']);

    const refused = async (body: Record<string, unknown>, code: Parameters<typeof expectRefused>[1]) =>
      expectRefused(await expectNoMoneyMoved(ctx.db, () => exchange(app, alice, { requestId: randomUUID(), ...body })), code);
    await refused({ from: 'WPOS', amount: '0.000001' }, ApiCode.amountOutOfLimits);
    await refused({ from: 'CREDIT', amount: '0.500001' }, ApiCode.insufficientBalance);
    await refused({ from: 'WPOS', amount: '9' }, ApiCode.insufficientBalance);
    await refused({ from: 'BTC', amount: '1' }, ApiCode.invalidParameters);
    await refused({ from: 'WPOS', amount: '-1' }, ApiCode.invalidParameters);
  });

  it('lists the seeded pools with the caller share, then pays each pool once per day pro rata, rounded down', async () => {
    const { app, alice, bob, carol } = await setup();
    const pools = await get<{ list: { name: string; totalAmount: string; minHolding: string; myShare: string; nextDistributionAt: string }[] }>(
      app,
      alice,
      '/api/member/getSharePools',
    );
    expect(pools.result?.list.map((pool) => [pool.name, pool.totalAmount, pool.minHolding, pool.myShare])).toEqual([
      ['Starter', '100', '1', '0'],
      ['Silver', '500', '100', '0'],
      ['Gold', '2000', '1000', '0'],
    ]);
    expect(pools.result?.list[0]?.nextDistributionAt).toBe('2026-11-23T00:00:00.000Z');

    // Nobody holds enough: nothing paid, nothing recorded, so a later run the same day may pay.
    expect(await expectNoMoneyMoved(ctx.db, () => distribute(app))).toEqual({ code: 0, result: { pools: 0, paid: '0', unfunded: 0 } });

    await grantWpos(app, accounts.alice.address, '150');
    await grantWpos(app, accounts.bob.address, '50');
    await grantWpos(app, accounts.carol.address, '0.5');
    const shares = await get<{ list: { myShare: string }[] }>(app, alice, '/api/member/getSharePools');
    // Starter: 150/200 of 100; Silver: Alice alone; Gold: nobody.
    expect(shares.result?.list.map((pool) => pool.myShare)).toEqual(['75', '500', '0']);

    expect(await distribute(app)).toEqual({ code: 0, result: { pools: 2, paid: '600', unfunded: 0 } });
    expect(await expectNoMoneyMoved(ctx.db, () => distribute(app, { day: '2026-11-22' }))).toEqual({ code: 0, result: { pools: 0, paid: '0', unfunded: 0 } });
    expect(await balances(app, alice)).toMatchObject({ wposBalance: '725' });
    expect(await balances(app, bob)).toMatchObject({ wposBalance: '75' });
    expect(await balances(app, carol)).toMatchObject({ wposBalance: '0.5' });

    const profit = await get<{ list: { amount: string; source: string }[]; totalProfit: string; todayProfit: string; total: number }>(
      app,
      alice,
      '/api/member/wposProfit',
    );
    expect(profit.result).toMatchObject({ totalProfit: '575', todayProfit: '575', total: 2 });
    expect(profit.result?.list.map((item) => [item.source, item.amount]).sort()).toEqual([
      ['Silver', '500'],
      ['Starter', '75'],
    ]);
    // Keyset pages (before = the last id shown) give what the offset page gave; a bad before is 1001.
    type ProfitPage = { list: { id: string }[] };
    const firstProfit = await get<ProfitPage>(app, alice, '/api/member/wposProfit', { pageSize: '1' });
    const nextProfit = await get<ProfitPage>(app, alice, '/api/member/wposProfit', { pageSize: '1', page: '2', before: firstProfit.result?.list[0]?.id ?? '' });
    expect([...(firstProfit.result?.list ?? []), ...(nextProfit.result?.list ?? [])]).toEqual(profit.result?.list);
    expectRefused(await app.inject({ method: 'GET', url: '/api/member/wposProfit', headers: authHeaders(alice), query: { before: 'x' } }), ApiCode.invalidParameters, 'before');
    expect((await records(app, bob, { type: 'distribution' })).result?.list).toEqual([
      expect.objectContaining({ type: 'distribution', amount: '25', balanceAfter: '75' }),
    ]);

    // The next day: today's profit starts again from 0, the total keeps it; a missed past day pays on today's balances.
    ctx.clock.advance(24 * 60 * 60 * 1000);
    expect((await get<{ todayProfit: string; totalProfit: string }>(app, alice, '/api/member/wposProfit')).result).toMatchObject({
      todayProfit: '0',
      totalProfit: '575',
    });
    expect(await distribute(app, { day: '2026-11-21' })).toEqual({ code: 0, result: { pools: 2, paid: '600', unfunded: 0 } });
    expectRefused(await expectNoMoneyMoved(ctx.db, () => app.inject({ method: 'POST', url: '/api/admin/distribute', headers: treasuryHeaders(), payload: { day: '2026-11-24' } })), ApiCode.invalidParameters, 'day');
    expectRefused(await expectNoMoneyMoved(ctx.db, () => app.inject({ method: 'POST', url: '/api/admin/distribute', headers: treasuryHeaders(), payload: { day: '23.11.2026' } })), ApiCode.invalidParameters);
    await expectBooksBalanced(ctx.db);
  });

  it('rounds each share down and leaves the remainder unpaid', async () => {
    const { app } = await setup();
    for (const account of [accounts.alice, accounts.bob, accounts.carol]) await grantWpos(app, account.address, '1');
    // Starter's 100 in three equal shares of 33.333333; Silver and Gold have no holder.
    expect(await distribute(app)).toEqual({ code: 0, result: { pools: 1, paid: '99.999999', unfunded: 0 } });
    await expectBooksBalanced(ctx.db);
  });

  it('pays a day once when two runs start at the same moment', async () => {
    const { app } = await setup();
    const other = await ctx.app();
    await grantWpos(app, accounts.alice.address, '1000');
    await grantWpos(app, accounts.bob.address, '100');
    const runs = await Promise.all([distribute(app), distribute(other), distribute(app), distribute(other)]);
    expect(runs.map((run) => run.code)).toEqual([0, 0, 0, 0]);
    // Starter 90.909090 + 9.090909, Silver 454.545454 + 45.454545, Gold 2000 to Alice alone.
    expect(formatMinor(runs.reduce((sum, run) => sum + toMinor(run.result?.paid ?? '0'), 0n))).toBe('2599.999998');
    expect(runs.reduce((sum, run) => sum + (run.result?.pools ?? 0), 0)).toBe(3);
    const payouts = await queryRows(ctx.db, sql`SELECT pool_id AS "poolId", day::text AS day FROM share_pool_payouts ORDER BY pool_id`, z.object({ poolId: z.number(), day: z.string() }));
    expect(payouts).toEqual([1, 2, 3].map((poolId) => ({ poolId, day: '2026-11-22' })));
    await expectBooksBalanced(ctx.db);
  });

  /** Each member's distribution transfers, by member id. */
  const payoutsPerMember = () =>
    queryRows(
      ctx.db,
      sql`SELECT a.member_id AS "memberId", count(*)::int AS payouts FROM ledger_entries e JOIN ledger_transfers t ON t.id = e.transfer_id
          JOIN ledger_accounts a ON a.id = e.account_id WHERE t.type = 'distribution' GROUP BY 1 ORDER BY 1`,
      z.object({ memberId: z.number(), payouts: z.number() }),
    ).then((rows) => rows.map((row) => row.payouts));

  it('pays in batches: a crash in one keeps the batches before it, and a restarted server pays the rest, each holder once', async () => {
    await setup();
    // Two holders per transaction: Alice and Bob in the first batch, Carol alone in the second.
    const app = await ctx.app({ payouts: { batch: 2 } });
    for (const [account, amount] of [[accounts.alice, '10'], [accounts.bob, '20'], [accounts.carol, '30']] as const) await grantWpos(app, account.address, amount);
    // The database fails on Carol's entry, as a process killed mid-write would leave her batch.
    await ctx.db.execute(sql.raw(`
      CREATE FUNCTION crash_on_carol() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.account_id = (SELECT a.id FROM ledger_accounts a JOIN members m ON m.id = a.member_id
            WHERE lower(m.address) = lower('${accounts.carol.address}') AND a.asset = 'WPOS') THEN RAISE EXCEPTION 'crash half-way'; END IF;
        RETURN NEW;
      END $$`));
    await ctx.db.execute(sql.raw(`CREATE TRIGGER crash_on_carol BEFORE INSERT ON ledger_entries FOR EACH ROW EXECUTE FUNCTION crash_on_carol()`));
    try {
      const crashed = await app.inject({ method: 'POST', url: '/api/admin/distribute', headers: treasuryHeaders(), payload: {} });
      expect(envelope(crashed).code).toBe(ApiCode.internal);
    } finally {
      await ctx.db.execute(sql.raw('DROP TRIGGER crash_on_carol ON ledger_entries'));
      await ctx.db.execute(sql.raw('DROP FUNCTION crash_on_carol()'));
    }
    // Starter's 100 pro rata: Alice 16.666666 and Bob 33.333333 were paid by the first batch; Carol's 50 waits.
    expect(await payoutsPerMember()).toEqual([1, 1]);
    await expectBooksBalanced(ctx.db);
    const remaining = () => queryRows(ctx.db, sql`SELECT remaining, completed_at IS NOT NULL AS done FROM share_pool_payouts`, z.object({ remaining: z.number(), done: z.boolean() }));
    expect(await remaining()).toEqual([{ remaining: 1, done: false }]);

    // A restarted server's payout timer pays what the crash left, far from midnight, with no operator call.
    const stop = startPayoutTimer(ctx.db, () => ctx.clock.now(), (error) => {
      throw error;
    }, { batch: 2 });
    try {
      await expect.poll(remaining, { timeout: 10_000 }).toEqual([{ remaining: 0, done: true }]);
    } finally {
      await stop();
    }
    expect(await payoutsPerMember()).toEqual([1, 1, 1]);
    // The day is paid: the operator's distribute pays nothing more.
    expect(await expectNoMoneyMoved(ctx.db, () => distribute(app))).toEqual({ code: 0, result: { pools: 0, paid: '0', unfunded: 0 } });
    await expectBooksBalanced(ctx.db);
  });

  it('shares the batches of a payout between concurrent runs, each holder paid once and the payout finished once', async () => {
    await setup();
    const apps = [await ctx.app({ payouts: { batch: 1 } }), await ctx.app({ payouts: { batch: 1 } })];
    for (const [account, amount] of [[accounts.alice, '10'], [accounts.bob, '20'], [accounts.carol, '30']] as const) await grantWpos(apps[0] as FastifyInstance, account.address, amount);
    const runs = await Promise.all([0, 1, 0, 1].map((index) => distribute(apps[index] as FastifyInstance)));
    expect(runs.map((run) => run.code)).toEqual([0, 0, 0, 0]);
    expect(formatMinor(runs.reduce((sum, run) => sum + toMinor(run.result?.paid ?? '0'), 0n))).toBe('99.999999');
    expect(runs.reduce((sum, run) => sum + (run.result?.pools ?? 0), 0)).toBe(1);
    expect(await payoutsPerMember()).toEqual([1, 1, 1]);
    await expectBooksBalanced(ctx.db);
  });

  it("runs the day's payout by itself at 00:00 UTC", async () => {
    const { app } = await setup();
    await grantWpos(app, accounts.alice.address, '10');
    // A clock 150 ms before midnight: the server's timer fires on its own, with no operator call.
    const offset = new Date('2026-11-22T23:59:59.850Z').getTime() - Date.now();
    const stop = startPayoutTimer(ctx.db, () => new Date(Date.now() + offset), (error) => {
      throw error;
    });
    try {
      await expect
        .poll(async () => queryRows(ctx.db, sql`SELECT day::text AS day, paid::text AS paid FROM share_pool_payouts`, z.object({ day: z.string(), paid: z.string() })), {
          timeout: 10_000,
        })
        .toEqual([{ day: '2026-11-23', paid: '100000000' }]);
    } finally {
      await stop();
    }
    await expectBooksBalanced(ctx.db);
  });

  it('stops its timer only once the payout under way has ended, as a stopping server closes its database after it', async () => {
    const { app } = await setup();
    await grantWpos(app, accounts.alice.address, '10');
    // The payout's transaction waits at its start until the test lets it go: stop() is asked while it is under way.
    let started!: () => void;
    const underWay = new Promise<void>((resolve) => (started = resolve));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const gated = new Proxy(ctx.db, {
      get: (target, property, receiver) =>
        property === 'transaction'
          ? async (...args: Parameters<typeof target.transaction>) => {
              started();
              await gate;
              return target.transaction(...args);
            }
          : Reflect.get(target, property, receiver),
    });
    const offset = new Date('2026-11-22T23:59:59.990Z').getTime() - Date.now();
    const stop = startPayoutTimer(gated, () => new Date(Date.now() + offset), (error) => {
      throw error;
    });
    await underWay;
    let stopped = false;
    const stopping = stop().then(() => (stopped = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(stopped).toBe(false);
    release();
    await stopping;
    // Ended, not cut: the day's payout is there the moment stop() returns.
    expect(await queryRows(ctx.db, sql`SELECT day::text AS day FROM share_pool_payouts`, z.object({ day: z.string() }))).toEqual([{ day: '2026-11-23' }]);
    await expectBooksBalanced(ctx.db);
  });
});

