/**
 * Paying a settlement at most once: the figures read again before paying, every retry with the same request id and
 * body, a moved price or too little stock confirmed again with a new id, the refusals, and 1002.
 */
import { describe, expect, it } from 'vitest';
import { buyRequestId, checkoutOf, home, mug, office, settlementInput } from '../../scripts/machineGraph/buy.model';
import * as select from '../../machines/buy/settlementSelectors';
import { payingTwo, startSettlement as start } from './support/settlementHarness';

describe('settlement: paying at most once', () => {
  it('reads the figures again, then pays with the body and id of the confirmation; every retry sends the same', async () => {
    const flow = start();
    await payingTwo(flow);
    expect(flow.loads.at(-1)).toEqual({ goodsId: 'mug' });
    for (const code of [-1, 4290, 5000, 3005]) {
      await flow.settle(code);
      expect(select.selectSettlementView(flow.snapshot())).toBe('failed');
      expect(select.selectSettlementError(flow.snapshot())).toEqual({ name: 'ApiError', code });
      expect(select.selectCanRetry(flow.snapshot())).toBe(true);
      flow.actor.send({ type: 'user.retry' });
    }
    flow.actor.send({ type: 'user.cancel' });
    expect(select.selectSettlementView(flow.snapshot())).toBe('interrupted');
    flow.actor.send({ type: 'user.retry' });
    await flow.settle(0);
    const body = { goodsId: 'mug', quantity: 2, deliveryId: home.deliveryId };
    expect(flow.settles).toEqual(Array.from({ length: 6 }, () => ({ body, requestId: buyRequestId })));
    expect(select.selectSettlementView(flow.snapshot())).toBe('paid');
    expect(select.selectOrder(flow.snapshot())).toEqual({ orderId: 'o7', amount: '25', status: 'paid' });
    expect(flow.actor.getSnapshot().output).toEqual({ orderId: 'o7', amount: '25', status: 'paid' });
    expect(flow.paidReports()).toBe(1);
  });

  it('shows a moved price instead of paying it: confirm again, with a new id', async () => {
    const flow = start();
    await flow.load(checkoutOf());
    flow.actor.send({ type: 'user.confirm', requestId: 'id-1' });
    await flow.load(checkoutOf({ ...mug, price: '13' }));
    expect(select.selectSettlementView(flow.snapshot())).toBe('ready');
    expect(select.selectChanged(flow.snapshot())).toBe(true);
    expect(select.selectTotal(flow.snapshot())).toBe('13');
    expect(flow.snapshot().context.requestId).toBeNull();
    expect(flow.settles).toEqual([]);
    flow.actor.send({ type: 'user.confirm', requestId: 'id-2' });
    expect(select.selectChanged(flow.snapshot())).toBe(false);
    await flow.load(checkoutOf({ ...mug, price: '13' }));
    expect(flow.settles.map((sent) => sent.requestId)).toEqual(['id-2']);
  });

  it('pays when only the stock moved and still covers the quantity', async () => {
    const flow = start();
    await flow.load(checkoutOf());
    flow.actor.send({ type: 'user.confirm', requestId: 'id-1' });
    await flow.load(checkoutOf({ ...mug, stock: 2 }));
    expect(select.selectSettlementView(flow.snapshot())).toBe('paying');
  });

  it('goes back when the chosen address was deleted meanwhile: the default is chosen and shown as changed', async () => {
    const flow = start({ ...settlementInput, deliveryId: office.deliveryId });
    await flow.load(checkoutOf());
    flow.actor.send({ type: 'user.confirm', requestId: 'id-1' });
    await flow.load(checkoutOf(mug, [home]));
    expect(select.selectSettlementView(flow.snapshot())).toBe('ready');
    expect(select.selectChosenAddress(flow.snapshot())).toEqual(home);
    expect(select.selectChanged(flow.snapshot())).toBe(true);
  });

  it('on 3002 reads the stock again, lowers the quantity, and the next confirm sends a new id', async () => {
    const flow = start();
    await payingTwo(flow, 'id-1');
    await flow.settle(3002);
    expect(select.selectSettlementView(flow.snapshot())).toBe('refreshing');
    await flow.load(checkoutOf({ ...mug, stock: 1 }));
    expect(select.selectSettlementView(flow.snapshot())).toBe('ready');
    expect(select.selectQuantity(flow.snapshot())).toBe(1);
    expect(select.selectChanged(flow.snapshot())).toBe(true);
    expect(select.selectSettlementError(flow.snapshot())).toEqual({ name: 'ApiError', code: 3002 });
    flow.actor.send({ type: 'user.confirm', requestId: 'id-2' });
    await flow.load(checkoutOf({ ...mug, stock: 1 }));
    expect(flow.settles.map((sent) => [sent.requestId, sent.body.quantity])).toEqual([['id-1', 2], ['id-2', 1]]);
  });

  it('on 3001 reads the balance again and says what is missing', async () => {
    const flow = start();
    await payingTwo(flow);
    await flow.settle(3001);
    await flow.load(checkoutOf(mug, [home, office], '20'));
    expect(select.selectShortfall(flow.snapshot())).toBe('5');
    expect(select.selectCanConfirm(flow.snapshot())).toBe(false);
    expect(select.selectSettlementError(flow.snapshot())).toEqual({ name: 'ApiError', code: 3001 });
  });

  it('on 4004 fails with its reason, offers no retry (it would answer the same) but a fresh start', async () => {
    const flow = start();
    await payingTwo(flow);
    await flow.settle(4004);
    expect(select.selectSettlementView(flow.snapshot())).toBe('failed');
    expect(select.selectRefusal(flow.snapshot())).toBe('goodsOrAddressGone');
    expect(select.selectCanRetry(flow.snapshot())).toBe(false);
    expect(select.selectCanRestart(flow.snapshot())).toBe(true);
    flow.actor.send({ type: 'user.restart' });
    expect(flow.snapshot().context).toMatchObject({ requestId: null, refusal: null, error: null });
    await flow.load({ goods: { code: 4004, result: null }, addresses: { code: 0, result: { list: [] } }, balance: { code: 0, result: '30' } });
    expect(select.selectSettlementView(flow.snapshot())).toBe('goodsNotFound');
  });

  it('ends on 1002 without an order', async () => {
    const flow = start();
    await payingTwo(flow);
    await flow.settle(1002);
    expect(flow.actor.getSnapshot().status).toBe('done');
    expect(select.selectSettlementView(flow.snapshot())).toBe('sessionEnded');
    expect(flow.actor.getSnapshot().output).toBeNull();
    expect(flow.paidReports()).toBe(0);
  });
});
