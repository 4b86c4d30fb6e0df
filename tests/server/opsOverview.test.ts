/**
 * The desk's overview (docs/API.md, "Operators: the overview") after a scripted day against the ledger and a real
 * node: a member's top-up the day before and a held one today (money in), withdrawals in every open stage and one
 * paid (money out), an approval waiting for a second operator, a paid order to ship; each role gets its part only.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { expect, it } from 'vitest';
import { formatMinor, toMinor } from '../../api-schema/amount';
import { OVERVIEW_DAYS } from '../../api-schema/opsOverview';
import { systemAccountId } from '../../server/ledger/accounts';
import { chainDeskSuite, withdrawn } from './support/chainDesk';
import { describeWithDatabases } from './support/harness';
import { expectBooksBalanced, grant } from './support/testLedger';
import { approve, operatorWithSession, type TestOperator } from './support/financeDeskCalls';
import { accounts, authHeaders, envelope, signInBound } from './support/memberSignIn';

const CONFIRMATIONS = 2;
const DAY_MS = 86_400_000;

interface Waiting {
  count: number;
  oldestAgeSeconds: number;
}

interface Overview {
  at: string;
  money: { days: { day: string; in: string; out: string }[]; total: { in: string; out: string } } | null;
  withdrawals: { pending: Waiting; approved: Waiting; sent: Waiting; approvalsWaiting: Waiting; heldTopUps: { count: number; amount: string } } | null;
  orders: { toShip: Waiting } | null;
  runway: { token: string; gasWei: string; tokenDays: number | null; gasDays: number | null } | null;
  lags: { payerSeconds: number | null; watcherSeconds: number | null; watcherBehindBlocks: number | null; chainUnreachable: boolean };
  reconcile: { ok: boolean; ranAt: string; difference: string } | null;
  payoutsPaused: boolean;
  alerts: { rule: string }[];
}

const home = { name: '李雷', phone: '138 0013 8000', region: '浙江省 / 杭州市 / 西湖区', detail: '文三路 100 号', isDefault: true };

describeWithDatabases('operators: the overview', (ctx) => {
  const setup = chainDeskSuite(ctx, CONFIRMATIONS);

  const overview = async (app: FastifyInstance, operator: TestOperator): Promise<Overview> => {
    const body = envelope<Overview>(await app.inject({ method: 'GET', url: '/api/admin/overview', headers: operator.headers }));
    expect(body.code).toBe(0);
    if (!body.result) throw new Error('no overview');
    return body.result;
  };

  it('adds up a day as the ledger and the chain have it, each role seeing its part', async () => {
    expect(systemAccountId('CREDIT', 'chain')).toBe(7); // the literal of migration 0038's partial indexes
    const s = await setup();
    const alice = await signInBound(s.app, accounts.alice, ctx.clock.now());
    // Yesterday: alice tops up 50 from her wallet.
    await s.testChain.fund(accounts.alice.address, '50');
    await s.testChain.transfer(accounts.alice, '50', { to: s.chain.settings.treasury });
    await s.testChain.mine(CONFIRMATIONS);
    expect(await s.watcher.runOnce()).toMatchObject({ credited: 1 });
    const yesterday = ctx.clock.now().toISOString().slice(0, 10);
    ctx.clock.advance(DAY_MS);
    const today = ctx.clock.now().toISOString().slice(0, 10);

    // Today: a grant (no chain money), withdrawals in every stage, one waiting for a second approver, a held top-up.
    expect(envelope(await grant(s.app, { address: accounts.alice.address, amount: '200', requestId: randomUUID() })).code).toBe(0);
    const small = await withdrawn(s.app, alice, '12');
    expect(small.status).toBe('approved');
    const big = await withdrawn(s.app, alice, '40');
    await withdrawn(s.app, alice, '20');
    ctx.clock.advance(60_000);
    const ann = await operatorWithSession(ctx.db, ['finance'], ctx.clock.now());
    expect(envelope(await approve(s.app, ann, big.id))).toMatchObject({ code: 0, result: { waitsForSecondApproval: true } });
    await s.testChain.fund(accounts.carol.address, '20');
    await s.testChain.transfer(accounts.carol, '12', { to: s.chain.settings.treasury });
    await s.testChain.mine(CONFIRMATIONS);
    expect(await s.watcher.runOnce()).toMatchObject({ held: 1 });
    // The small one is paid and posted: money out today.
    await s.payer.round();
    await s.testChain.mine(CONFIRMATIONS + 1);
    await s.payer.round();
    // Bob's own day: approved on request, not sent yet.
    const bob = await signInBound(s.app, accounts.bob, ctx.clock.now());
    expect(envelope(await grant(s.app, { address: accounts.bob.address, amount: '20', requestId: randomUUID() })).code).toBe(0);
    expect((await withdrawn(s.app, bob, '14')).status).toBe('approved');
    // A paid order to ship.
    const delivery = envelope<{ deliveryId: string }>(await s.app.inject({ method: 'POST', url: '/api/member/delivery/add', headers: authHeaders(alice), payload: home })).result?.deliveryId;
    const order = await s.app.inject({ method: 'POST', url: '/api/order/settle', headers: authHeaders(alice), payload: { goodsId: 'longjing-tea', quantity: 1, deliveryId: delivery, requestId: randomUUID() } });
    expect(envelope(order).code).toBe(0);
    ctx.clock.advance(30_000);
    expect(await s.app.reconcileRound()).toMatchObject({ ok: true });

    const seen = await overview(s.app, ann);
    expect(seen.money?.days).toHaveLength(OVERVIEW_DAYS);
    expect(seen.money?.days.at(-1)).toEqual({ day: today, in: '12', out: formatMinor(toMinor('12') - toMinor(small.fee)) });
    expect(seen.money?.days.at(-2)).toEqual({ day: yesterday, in: '50', out: '0' });
    expect(seen.money?.days.slice(0, -2).every((day) => day.in === '0' && day.out === '0')).toBe(true);
    expect(seen.money?.total).toEqual({ in: '62', out: formatMinor(toMinor('12') - toMinor(small.fee)) });
    expect(seen.withdrawals).toEqual({
      pending: { count: 2, oldestAgeSeconds: 90 },
      approved: { count: 1, oldestAgeSeconds: 30 },
      sent: { count: 0, oldestAgeSeconds: 0 },
      approvalsWaiting: { count: 1, oldestAgeSeconds: 30 },
      heldTopUps: { count: 1, amount: '12' },
    });
    // Finance does not ship orders: that part is support's.
    expect(seen.orders).toBeNull();
    expect(seen.runway?.token).toBe(formatMinor(toMinor('100') - (toMinor('12') - toMinor(small.fee))));
    expect(seen.runway?.tokenDays).toBeGreaterThan(0);
    expect(seen.reconcile).toMatchObject({ ok: true, ranAt: ctx.clock.now().toISOString() });
    expect(seen.payoutsPaused).toBe(false);
    expect(seen.alerts).toEqual([]);

    const sam = await overview(s.app, await operatorWithSession(ctx.db, ['support'], ctx.clock.now()));
    expect(sam.orders).toEqual({ toShip: { count: 1, oldestAgeSeconds: 30 } });
    expect([sam.money, sam.withdrawals, sam.runway]).toEqual([null, null, null]);
    expect(sam.reconcile).toEqual(seen.reconcile);
    const admin = await overview(s.app, await operatorWithSession(ctx.db, ['admin'], ctx.clock.now()));
    expect(admin.money).toEqual(seen.money);
    expect(admin.orders).toEqual(sam.orders);
    await expectBooksBalanced(ctx.db);
  });

  it('refuses a caller who is no operator', async () => {
    const s = await setup();
    const alice = await signInBound(s.app, accounts.alice, ctx.clock.now());
    expect(envelope(await s.app.inject({ method: 'GET', url: '/api/admin/overview', headers: authHeaders(alice) })).code).not.toBe(0);
    expect(envelope(await s.app.inject({ method: 'GET', url: '/api/admin/overview' })).code).not.toBe(0);
  });
});
