/**
 * The orders of the operators' desk, role support: the list by status and member, shipping with a
 * carrier and tracking number (the member then sees it shipped), and cancelling an unshipped order with its refund
 * through the ledger: credit and stock back, once, whatever arrives at once (cancels on every instance, a cancel
 * racing a ship). The books are checked after every money step; every act leaves one audit row.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { formatMinor, toMinor } from '../../api-schema/amount';
import { ApiCode } from '../../api-schema/codes';
import { queryRows } from '../../server/db/client';
import { expectRefused } from './support/assertions';
import { describeWithDatabases } from './support/harness';
import { expectBooksBalanced, grant } from './support/testLedger';
import { operatorWithSession, type TestOperator } from './support/financeDeskCalls';
import { accounts, authHeaders, envelope, signInBound } from './support/memberSignIn';

interface OpsOrder {
  id: string;
  address: string;
  goods: { id: string; name: { zh: string; en: string } };
  quantity: number;
  amount: string;
  status: string;
  delivery: { name: string; detail: string };
  createdAt: string;
  carrier?: string;
  trackingNumber?: string;
  shippedAt?: string;
  cancelledAt?: string;
  cancelReason?: string;
}

interface MemberOrder {
  orderId: string;
  status: string;
  amount: string;
  carrier?: string;
  trackingNumber?: string;
  shippedAt?: string;
  cancelledAt?: string;
}

const home = { name: '李雷', phone: '138 0013 8000', region: '浙江省 / 杭州市 / 西湖区', detail: '文三路 100 号', isDefault: true };

describeWithDatabases('operators: orders', (ctx) => {
  interface Setup {
    app: FastifyInstance;
    alice: string;
    bob: string;
    sam: TestOperator;
  }

  async function setup(): Promise<Setup> {
    const app = await ctx.app();
    const alice = await signInBound(app, accounts.alice, ctx.clock.now());
    const bob = await signInBound(app, accounts.bob, ctx.clock.now());
    for (const account of [accounts.alice, accounts.bob]) {
      expect(envelope(await grant(app, { address: account.address, amount: '1000', requestId: randomUUID() })).code).toBe(0);
    }
    const sam = await operatorWithSession(ctx.db, ['support'], ctx.clock.now());
    return { app, alice, bob, sam };
  }

  const memberPost = (app: FastifyInstance, token: string, url: string, payload: Record<string, unknown>) =>
    app.inject({ method: 'POST', url, headers: authHeaders(token), payload });

  /** A member's order of `quantity` units of `goodsId`, paid; its id. */
  async function bought(app: FastifyInstance, token: string, goodsId = 'longjing-tea', quantity = 1): Promise<string> {
    const address = envelope<{ deliveryId: string }>(await memberPost(app, token, '/api/member/delivery/add', home)).result?.deliveryId;
    const answer = envelope<{ orderId: string }>(await memberPost(app, token, '/api/order/settle', { goodsId, quantity, deliveryId: address, requestId: randomUUID() }));
    expect(answer.code).toBe(0);
    return answer.result?.orderId ?? '';
  }

  const list = async (s: Setup, query: Record<string, string> = {}) => {
    const body = envelope<{ list: OpsOrder[]; nextCursor: string | null; total: number }>(await s.app.inject({ method: 'GET', url: '/api/admin/orders', headers: s.sam.headers, query }));
    expect(body.code).toBe(0);
    return body.result ?? { list: [], nextCursor: null, total: -1 };
  };
  const ship = (app: FastifyInstance, operator: TestOperator, body: Record<string, unknown>) =>
    app.inject({ method: 'POST', url: '/api/admin/orders/ship', headers: operator.headers, payload: body });
  const cancel = (app: FastifyInstance, operator: TestOperator, body: Record<string, unknown>) =>
    app.inject({ method: 'POST', url: '/api/admin/orders/cancel', headers: operator.headers, payload: { reason: 'out of stock at the warehouse', requestId: randomUUID(), ...body } });

  const memberOrders = async (app: FastifyInstance, token: string) =>
    envelope<{ list: MemberOrder[] }>(await app.inject({ method: 'GET', url: '/api/order/list', headers: authHeaders(token), query: { lang: 'en' } })).result?.list ?? [];
  const credit = async (app: FastifyInstance, token: string) =>
    envelope<{ creditBalance: string }>(await app.inject({ method: 'GET', url: '/api/member/meInfo', headers: authHeaders(token) })).result?.creditBalance;
  const stock = async (app: FastifyInstance, id: string) =>
    envelope<{ stock: number }>(await app.inject({ method: 'GET', url: '/api/goods/detail', query: { id } })).result?.stock;
  const audits = async () =>
    queryRows(
      ctx.db,
      sql`SELECT action, actor_address AS actor, target, after FROM audit_log WHERE action LIKE 'opsOrder%' ORDER BY id`,
      z.object({ action: z.string(), actor: z.string().nullable(), target: z.string().nullable(), after: z.unknown() }),
    );
  const codeOf = (response: LightMyRequestResponse) => envelope(response).code;

  it('lists orders by status and member, newest first, in pages, with the member, goods, amount and address', async () => {
    const s = await setup();
    const first = await bought(s.app, s.alice, 'longjing-tea', 2);
    const second = await bought(s.app, s.bob, 'wildflower-honey');
    const third = await bought(s.app, s.alice, 'yunnan-coffee');
    const fourth = await bought(s.app, s.alice);
    expect(codeOf(await ship(s.app, s.sam, { id: second, carrier: 'SF Express', trackingNumber: 'SF1234567890' }))).toBe(0);
    expect(codeOf(await cancel(s.app, s.sam, { id: third }))).toBe(0);

    const all = await list(s);
    expect(all.list.map((order) => [order.id, order.status])).toEqual([
      [fourth, 'paid'],
      [third, 'cancelled'],
      [second, 'shipped'],
      [first, 'paid'],
    ]);
    expect(all.nextCursor).toBeNull();
    expect(all.total).toBe(4);
    expect(all.list.at(-1)).toMatchObject({
      address: accounts.alice.address,
      goods: { id: 'longjing-tea', name: { zh: '西湖龙井 250 克', en: 'West Lake Longjing tea, 250 g' } },
      quantity: 2,
      amount: '176',
      delivery: { name: home.name, detail: home.detail },
      createdAt: ctx.clock.now().toISOString(),
    });
    expect(all.list[1]).toMatchObject({ cancelReason: 'out of stock at the warehouse', cancelledAt: ctx.clock.now().toISOString() });
    expect(all.list[2]).toMatchObject({ carrier: 'SF Express', trackingNumber: 'SF1234567890', shippedAt: ctx.clock.now().toISOString() });

    expect(await list(s, { status: 'paid' })).toMatchObject({ list: [{ id: fourth }, { id: first }], total: 2 });
    expect(await list(s, { status: 'shipped' })).toMatchObject({ list: [{ id: second }], total: 1 });
    expect(await list(s, { status: 'cancelled' })).toMatchObject({ list: [{ id: third }], total: 1 });
    expect(await list(s, { address: accounts.bob.address.toLowerCase() })).toMatchObject({ list: [{ id: second }], total: 1 });
    expect(await list(s, { address: accounts.carol.address })).toEqual({ list: [], nextCursor: null, total: 0 });

    // The total counts every page's rows, whichever page is read.
    const page1 = await list(s, { limit: '3' });
    expect(page1.list.map((order) => order.id)).toEqual([fourth, third, second]);
    expect(page1.nextCursor).toBe(second);
    expect(page1.total).toBe(4);
    expect(await list(s, { limit: '3', cursor: second })).toEqual({ list: [expect.objectContaining({ id: first })], nextCursor: null, total: 4 });
    expect(await list(s, { status: 'paid', address: accounts.alice.address, limit: '1' })).toMatchObject({ list: [{ id: fourth }], nextCursor: fourth, total: 2 });
    expect(await list(s, { status: 'paid', address: accounts.alice.address, limit: '1', cursor: fourth })).toMatchObject({ list: [{ id: first }], nextCursor: null, total: 2 });

    const get = (query: Record<string, string>) => s.app.inject({ method: 'GET', url: '/api/admin/orders', headers: s.sam.headers, query });
    expectRefused(await get({ status: 'pending' }), ApiCode.invalidParameters);
    expectRefused(await get({ limit: '101' }), ApiCode.invalidParameters);
    expectRefused(await get({ address: accounts.alice.address.replace('a', 'A').replace('f', 'F') }), ApiCode.invalidParameters);
  });

  it('ships a paid order: the member sees carrier and tracking; the same shipment again answers it, another 3006', async () => {
    const s = await setup();
    const id = await bought(s.app, s.alice);
    ctx.clock.advance(60_000);
    const shipped = envelope<OpsOrder>(await ship(s.app, s.sam, { id, carrier: '  顺丰速运 ', trackingNumber: ' SF1234567890 ' }));
    expect(shipped).toMatchObject({ code: 0, result: { id, status: 'shipped', carrier: '顺丰速运', trackingNumber: 'SF1234567890', shippedAt: ctx.clock.now().toISOString() } });
    expect(await memberOrders(s.app, s.alice)).toEqual([
      expect.objectContaining({ orderId: id, status: 'shipped', carrier: '顺丰速运', trackingNumber: 'SF1234567890', shippedAt: ctx.clock.now().toISOString() }),
    ]);
    expect((await memberOrders(s.app, s.alice))[0]).not.toHaveProperty('cancelledAt');

    // Again with the same data (a retried click): the order as it is, nothing new.
    ctx.clock.advance(60_000);
    expect(envelope(await ship(s.app, s.sam, { id, carrier: '顺丰速运', trackingNumber: 'SF1234567890' }))).toEqual({ code: 0, result: shipped.result });
    expectRefused(await ship(s.app, s.sam, { id, carrier: '顺丰速运', trackingNumber: 'SF0000000000' }), ApiCode.alreadyDecided);
    expectRefused(await ship(s.app, s.sam, { id, carrier: 'EMS', trackingNumber: 'SF1234567890' }), ApiCode.alreadyDecided);
    expectRefused(await cancel(s.app, s.sam, { id }), ApiCode.alreadyDecided);

    // Validated and length-limited; unknown orders are 4004.
    const other = await bought(s.app, s.bob);
    for (const body of [
      { carrier: '', trackingNumber: 'SF1234567890' },
      { carrier: 'x'.repeat(41), trackingNumber: 'SF1234567890' },
      { carrier: 'SF\u0000Express', trackingNumber: 'SF1234567890' },
      { carrier: 'SF', trackingNumber: 'SF1' },
      { carrier: 'SF', trackingNumber: 'SF 1234 5678' },
      { carrier: 'SF', trackingNumber: '9'.repeat(41) },
    ]) {
      expectRefused(await ship(s.app, s.sam, { id: other, ...body }), ApiCode.invalidParameters);
    }
    expectRefused(await ship(s.app, s.sam, { id: '999999', carrier: 'SF', trackingNumber: 'SF1234567890' }), ApiCode.notFound);
    expect((await memberOrders(s.app, s.bob))[0]).toMatchObject({ status: 'paid' });

    expect(await audits()).toEqual([
      { action: 'opsOrderShip', actor: s.sam.address, target: id, after: expect.objectContaining({ status: 'shipped', carrier: '顺丰速运', trackingNumber: 'SF1234567890' }) },
    ]);
  });

  it('cancels an unshipped order and refunds it once: credit and stock back; the member sees it cancelled', async () => {
    const s = await setup();
    // The last unit of a limited item: once it is back, another member can buy it.
    const id = await bought(s.app, s.alice, 'jade-mug');
    expect([await credit(s.app, s.alice), await stock(s.app, 'jade-mug')]).toEqual(['934', 0]);
    ctx.clock.advance(60_000);

    const requestId = randomUUID();
    const first = envelope<OpsOrder>(await cancel(s.app, s.sam, { id, requestId, reason: '  damaged in the warehouse ' }));
    expect(first).toMatchObject({ code: 0, result: { id, status: 'cancelled', cancelReason: 'damaged in the warehouse', cancelledAt: ctx.clock.now().toISOString() } });
    expect([await credit(s.app, s.alice), await stock(s.app, 'jade-mug')]).toEqual(['1000', 1]);
    await expectBooksBalanced(ctx.db);
    expect(await memberOrders(s.app, s.alice)).toEqual([expect.objectContaining({ orderId: id, status: 'cancelled', cancelledAt: ctx.clock.now().toISOString() })]);
    const records = envelope<{ list: { type: string; amount: string }[] }>(await s.app.inject({ method: 'GET', url: '/api/member/creditRecord', headers: authHeaders(s.alice) }));
    expect(records.result?.list.slice(0, 2).map((record) => [record.type, record.amount])).toEqual([
      ['order', '66'],
      ['order', '-66'],
    ]);

    // Once: the same request again answers the same; a new one with the same reason answers the order; nothing moves.
    ctx.clock.advance(60_000);
    expect(envelope(await cancel(s.app, s.sam, { id, requestId, reason: 'damaged in the warehouse' }))).toEqual({ code: 0, result: first.result });
    expect(envelope(await cancel(s.app, s.sam, { id, reason: 'damaged in the warehouse' }))).toEqual({ code: 0, result: first.result });
    expectRefused(await cancel(s.app, s.sam, { id, reason: 'another reason' }), ApiCode.alreadyDecided);
    expectRefused(await cancel(s.app, s.sam, { id, requestId, reason: 'another reason' }), ApiCode.requestIdReused);
    expectRefused(await ship(s.app, s.sam, { id, carrier: 'SF', trackingNumber: 'SF1234567890' }), ApiCode.alreadyDecided);
    expect([await credit(s.app, s.alice), await stock(s.app, 'jade-mug')]).toEqual(['1000', 1]);
    await expectBooksBalanced(ctx.db);

    // The unit is in stock again.
    await bought(s.app, s.bob, 'jade-mug');
    expect(await stock(s.app, 'jade-mug')).toBe(0);
    expectRefused(await cancel(s.app, s.sam, { id: '999999' }), ApiCode.notFound);
    expectRefused(await cancel(s.app, s.sam, { id, reason: '   ' }), ApiCode.invalidParameters);
    expect(await audits()).toEqual([
      { action: 'opsOrderCancel', actor: s.sam.address, target: id, after: expect.objectContaining({ status: 'cancelled', cancelReason: 'damaged in the warehouse', amount: '66' }) },
    ]);
    await expectBooksBalanced(ctx.db);
  });

  it('cancels arriving at once on every instance refund the order once', async () => {
    const s = await setup();
    const instances = await ctx.instances();
    const ann = await operatorWithSession(ctx.db, ['admin'], ctx.clock.now());
    const id = await bought(s.app, s.alice, 'yunnan-coffee', 3);
    expect(await credit(s.app, s.alice)).toBe('640');
    const requestId = randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        cancel(instances[index % instances.length] ?? s.app, index % 2 ? ann : s.sam, index < 4 ? { id, requestId } : { id, reason: `reason ${index}` }),
      ),
    );
    const codes = answers.map(codeOf);
    // The same request id: its first answer (0), or 3005 while it runs; the others: 3006 once it is cancelled, or 0
    // when theirs came first.
    expect(codes.filter((code) => code === 0).length).toBeGreaterThanOrEqual(1);
    expect(codes.every((code) => [0, ApiCode.requestInProgress, ApiCode.alreadyDecided].includes(code as 0))).toBe(true);
    expect([await credit(s.app, s.alice), await stock(s.app, 'yunnan-coffee')]).toEqual(['1000', 80]);
    expect(await audits()).toHaveLength(1);
    const refunds = await queryRows(ctx.db, sql`SELECT count(*)::int AS n FROM ledger_transfers WHERE memo = ${`refund:${id}`}`, z.object({ n: z.number() }));
    expect(refunds).toEqual([{ n: 1 }]);
    await expectBooksBalanced(ctx.db);
  });

  it('a cancel racing a ship of the same order over HTTP: exactly one wins, and the books say which', async () => {
    const s = await setup();
    const instances = await ctx.instances();
    const ids = [];
    for (let index = 0; index < 4; index++) ids.push(await bought(s.app, s.alice, 'member-notebook'));
    expect(await credit(s.app, s.alice)).toBe('920.4');
    let cancelled = 0;
    for (const [index, id] of ids.entries()) {
      // Each on its own instance (on PostgreSQL), the ship sent first on even rounds, the cancel on odd ones.
      const [shipVia, cancelVia] = [instances[index % instances.length] ?? s.app, instances[(index + 1) % instances.length] ?? s.app];
      const shipping = () => ship(shipVia, s.sam, { id, carrier: 'SF', trackingNumber: `SF00000000${index}` });
      const cancelling = () => cancel(cancelVia, s.sam, { id });
      const [shipCode, cancelCode] =
        index % 2 === 0
          ? (await Promise.all([shipping(), cancelling()])).map(codeOf)
          : (await Promise.all([cancelling(), shipping()])).map(codeOf).reverse();
      expect([shipCode, cancelCode].sort()).toEqual([0, ApiCode.alreadyDecided]);
      const [order] = (await list(s, { address: accounts.alice.address })).list.filter((row) => row.id === id);
      expect(order?.status).toBe(shipCode === 0 ? 'shipped' : 'cancelled');
      if (cancelCode === 0) cancelled++;
    }
    expect(await credit(s.app, s.alice)).toBe(formatMinor(toMinor('920.4') + BigInt(cancelled) * toMinor('19.9')));
    expect(await stock(s.app, 'member-notebook')).toBe(1000 - 4 + cancelled);
    expect(await audits()).toHaveLength(4);
    await expectBooksBalanced(ctx.db);
  });
});
