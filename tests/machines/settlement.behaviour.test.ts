/**
 * The settlement before paying, as a member meets it: the default address preselected, the stepper within stock,
 * the shortfall said before paying, an address needed and one just added chosen, goods picked when the route had
 * none.
 */
import { describe, expect, it } from 'vitest';
import { buyRequestId, checkoutOf, home, mug, office, settlementInput } from '../../scripts/machineGraph/buy.model';
import * as select from '../../machines/buy/settlementSelectors';
import { startSettlement as start } from './support/settlementHarness';

describe('settlement: the order before paying', () => {
  it('loads the goods, the addresses with the default preselected and the balance on the server', async () => {
    const flow = start();
    expect(select.selectIsBusy(flow.snapshot())).toBe(true);
    expect(select.selectBalance(flow.snapshot())).toBeNull();
    expect(flow.loads).toEqual([{ goodsId: 'mug' }]);
    await flow.load(checkoutOf());
    expect(select.selectSettlementView(flow.snapshot())).toBe('ready');
    expect(select.selectChosenAddress(flow.snapshot())).toEqual(home);
    expect(select.selectBalance(flow.snapshot())).toBe('30');
    expect(select.selectTotal(flow.snapshot())).toBe('12.5');
  });

  it('keeps the quantity within 1..min(stock, 999): the stepper asks can(), a typed number is brought within', async () => {
    const flow = start();
    await flow.load(checkoutOf());
    expect(select.selectQuantityLimit(flow.snapshot())).toBe(3);
    expect(select.selectCanDecrement(flow.snapshot())).toBe(false);
    flow.actor.send({ type: 'quantity.inc' });
    flow.actor.send({ type: 'quantity.inc' });
    expect(select.selectQuantity(flow.snapshot())).toBe(3);
    expect(select.selectCanIncrement(flow.snapshot())).toBe(false);
    flow.actor.send({ type: 'quantity.set', quantity: 500 });
    expect(select.selectQuantity(flow.snapshot())).toBe(3);
    flow.actor.send({ type: 'quantity.set', quantity: 0 });
    expect(select.selectQuantity(flow.snapshot())).toBe(1);
    flow.actor.send({ type: 'quantity.set', quantity: 2.5 });
    expect(select.selectQuantity(flow.snapshot())).toBe(1);
  });

  it('stops at 999 whatever the stock', async () => {
    const flow = start();
    await flow.load(checkoutOf({ ...mug, stock: 5000, price: '0.01' }, [home]));
    flow.actor.send({ type: 'quantity.set', quantity: 1000 });
    expect(select.selectQuantity(flow.snapshot())).toBe(999);
    expect(select.selectTotal(flow.snapshot())).toBe('9.99');
    expect(select.selectCanConfirm(flow.snapshot())).toBe(true);
  });

  it('says the balance is short before paying, by how much, and what to get (bigint minor units)', async () => {
    const flow = start();
    await flow.load(checkoutOf(mug, [home, office], '37.499999'));
    flow.actor.send({ type: 'quantity.set', quantity: 3 });
    expect(select.selectTotal(flow.snapshot())).toBe('37.5');
    expect(select.selectBlockers(flow.snapshot())).toEqual(['balanceShort']);
    expect(select.selectShortfall(flow.snapshot())).toBe('0.000001');
    expect(select.selectTopUp(flow.snapshot())).toEqual({ asset: 'CREDIT', amount: '0.000001' });
    expect(select.selectCanConfirm(flow.snapshot())).toBe(false);
    flow.actor.send({ type: 'user.confirm', requestId: buyRequestId });
    expect(select.selectSettlementView(flow.snapshot())).toBe('ready');
    flow.actor.send({ type: 'quantity.dec' });
    expect(select.selectShortfall(flow.snapshot())).toBeNull();
    expect(select.selectCanConfirm(flow.snapshot())).toBe(true);
  });

  it('needs an address when the member has none; one just added is read and chosen', async () => {
    const flow = start();
    await flow.load(checkoutOf(mug, []));
    expect(select.selectNeedsAddress(flow.snapshot())).toBe(true);
    expect(select.selectCanConfirm(flow.snapshot())).toBe(false);
    flow.actor.send({ type: 'user.chooseAddress', deliveryId: 'd9' });
    expect(select.selectSettlementView(flow.snapshot())).toBe('refreshing');
    const added = { ...home, deliveryId: 'd9' };
    await flow.load(checkoutOf(mug, [added]));
    expect(select.selectChosenAddress(flow.snapshot())).toEqual(added);
    expect(select.selectNeedsAddress(flow.snapshot())).toBe(false);
    expect(select.selectChanged(flow.snapshot())).toBe(false);
    expect(select.selectCanConfirm(flow.snapshot())).toBe(true);
  });

  it('does not pay to an address it could not read: a failed reload leaves the member needing one', async () => {
    const flow = start();
    await flow.load(checkoutOf(mug, [home]));
    flow.actor.send({ type: 'user.chooseAddress', deliveryId: 'd9' });
    await flow.load({ ...checkoutOf(), goods: { code: 5000, result: null } });
    expect(select.selectSettlementView(flow.snapshot())).toBe('ready');
    expect(select.selectSettlementError(flow.snapshot())).toEqual({ name: 'ApiError', code: 5000 });
    expect(select.selectNeedsAddress(flow.snapshot())).toBe(true);
    expect(select.selectCanConfirm(flow.snapshot())).toBe(false);
    flow.actor.send({ type: 'user.chooseAddress', deliveryId: home.deliveryId });
    expect(select.selectCanConfirm(flow.snapshot())).toBe(true);
  });

  it('preselects the address chosen in the book, or the default when it is not there', async () => {
    const chosen = start({ ...settlementInput, deliveryId: office.deliveryId });
    await chosen.load(checkoutOf());
    expect(select.selectChosenAddress(chosen.snapshot())).toEqual(office);
    const gone = start({ ...settlementInput, deliveryId: 'd404' });
    await gone.load(checkoutOf());
    expect(select.selectChosenAddress(gone.snapshot())).toEqual(home);
    expect(select.selectChanged(gone.snapshot())).toBe(false);
  });

  it('does not weigh the order against a balance it could not read: the member retries, and then may pay', async () => {
    const flow = start();
    await flow.load({ ...checkoutOf(), balance: { code: 5000, result: null } });
    expect(select.selectSettlementView(flow.snapshot())).toBe('loadFailed');
    expect(select.selectSettlementError(flow.snapshot())).toEqual({ name: 'ApiError', code: 5000 });
    flow.actor.send({ type: 'user.retry' });
    expect(flow.loads).toEqual([{ goodsId: 'mug' }, { goodsId: 'mug' }]);
    await flow.load(checkoutOf(mug, [home], '100'));
    expect(select.selectBalance(flow.snapshot())).toBe('100');
    expect(select.selectCanConfirm(flow.snapshot())).toBe(true);
  });

  it('without goods in the route, asks to pick goods first; loads the ones picked', async () => {
    const flow = start({});
    expect(select.selectSettlementView(flow.snapshot())).toBe('noGoods');
    flow.actor.send({ type: 'user.pickGoods', goodsId: 'mug' });
    expect(flow.loads).toEqual([{ goodsId: 'mug' }]);
    await flow.load(checkoutOf());
    expect(select.selectSettlementView(flow.snapshot())).toBe('ready');
  });
});
