/**
 * The settlement machine's generated paths through the rendered /buy/settlement/:id? page (tests/support/
 * routeUiPaths.ts): the goods, quantity, address and figures the member decides on, the check before paying, the
 * payment and its outcomes as the member sees them. Each load is answered call by call as the real actor makes them
 * (goodsDetail, deliveryList and meInfo for the balance, every time), and every orderSettle must carry the order and
 * the confirmation's request id. The session stores a balance of 0 throughout: the page must never weigh the order
 * against it.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatMinor, parseAmount } from '../../api-schema/amount';
import { buyRequestId, home, mug, settlementModel, settlementModelWithoutGoods } from '../../scripts/machineGraph/buy.model';
import type { CheckoutLoad } from '../../machines/buy/checkout';
import type { SettleAnswer, SettlementContext, SettlementInput } from '../../machines/buy/settlementMachine';
import type { ErrorInfo } from '../../machines/shared/errorInfo';
import type { MachineModel } from '../../scripts/machineGraph/modelPaths';
import { paths } from '../../src/app/paths';
import { formatAmount } from '../../src/components/amountFormat';
import { STORAGE_KEYS } from '../../src/storage/keys';
import { testMeInfo } from '../support/fakeApi';
import { renderApp, type RenderedApp } from './support/renderApp';
import { answerWith, describeRouteUiPaths } from './support/routeUiPaths';
import { expectAlert, expectAlerts, translated } from './support/screenQueries';
import type { StepMapper } from './support/uiPathPlan';

type Translate = ReturnType<typeof translated>;
type SettlementUiAction =
  | { kind: 'click'; button: string }
  | { kind: 'typeQuantity'; quantity: number }
  | { kind: 'load'; load: CheckoutLoad }
  | { kind: 'settle'; answer: SettleAnswer };

/** Why the page never sends an event: the choice is made on another page, and coming back starts a new machine. */
const notSent = {
  pickGoods: 'the page never sends it: goods are picked in the shop (/buy-list), whose Buy opens /buy/settlement/:id, a new visit whose machine starts with the goods as input',
  chooseAddress:
    'the page never sends it: the address is chosen (or added) in the address book, a page of its own, which comes back to /buy/settlement/:id?deliveryId=, a new visit whose machine starts with that address as input',
};
const neverRejects = 'the API client never rejects: every failure is an answer with a code';

const mapStep: StepMapper<SettlementUiAction> = (step, { previous, initial }) => {
  const event = step.event as { type: string } & Record<string, unknown>;
  const click = (button: string) => ({ kind: 'action' as const, action: { kind: 'click' as const, button } });
  switch (event.type) {
    case 'quantity.inc':
      return click('buy:settlement.more');
    case 'quantity.dec':
      return click('buy:settlement.fewer');
    case 'quantity.set':
      return Number.isInteger(event.quantity)
        ? { kind: 'action', action: { kind: 'typeQuantity', quantity: Number(event.quantity) } }
        : { kind: 'unmapped', reason: `the quantity field keeps only the digits typed (QuantityStepper), so ${String(event.quantity)} cannot be sent` };
    case 'user.confirm':
      return click('buy:settlement.pay');
    case 'user.retry':
      return click('common:actions.retry');
    case 'user.cancel':
      return click((previous ?? initial).value === 'paying' ? 'buy:settlement.stopWaiting' : 'common:actions.cancel');
    case 'user.restart':
      return click('buy:settlement.restart');
    case 'user.chooseAddress':
      return { kind: 'unmapped', reason: notSent.chooseAddress };
    case 'user.pickGoods':
      return { kind: 'unmapped', reason: notSent.pickGoods };
    case 'xstate.done.actor.loadCheckout':
    case 'xstate.done.actor.checkBeforePaying':
    case 'xstate.done.actor.refreshCheckout':
      return { kind: 'action', action: { kind: 'load', load: event.output as CheckoutLoad } };
    case 'xstate.done.actor.settle':
      return { kind: 'action', action: { kind: 'settle', answer: event.output as SettleAnswer } };
    default:
      return event.type.startsWith('xstate.error.actor.')
        ? { kind: 'unmapped', reason: neverRejects }
        : { kind: 'unmapped', reason: `no UI for ${event.type}` };
  }
};

const inputOf = (model: MachineModel) => model.input as SettlementInput;
const memberWith = (balance: string) => ({ ...testMeInfo(), creditBalance: balance });
const money = (amount: string) => `${formatAmount(amount, { locale: 'en' })} CREDIT`;
/** The value beside a summary label ("Total", "Your credit", "Order"). */
const figure = (label: string) => screen.getByText(label, { selector: 'dt' }).nextSibling?.textContent;
const statuses = () => screen.queryAllByRole('status').map((element) => element.textContent);
const errorText = (t: Translate, error: ErrorInfo | null) => t(error?.code === undefined ? 'common:Common.unknown' : `common:Common.${error.code}`);
const button = (t: Translate, key: string) => screen.getByRole('button', { name: t(key) });

async function answerLoad(app: RenderedApp, load: CheckoutLoad, context: SettlementContext): Promise<void> {
  const goods = await app.api.next('goodsDetail');
  expect(goods.query.get('id')).toBe(context.goodsId);
  const addresses = await app.api.next('deliveryList');
  // The balance is read with the goods every time, whatever the session stored.
  const member = await app.api.next('meInfo');
  await act(async () => {
    answerWith(goods, load.goods);
    answerWith(addresses, load.addresses);
    const balance = load.balance.result;
    answerWith(member, { code: load.balance.code, result: balance === null ? null : memberWith(balance) });
    await Promise.resolve();
  });
}

async function perform(app: RenderedApp, action: SettlementUiAction, before: { context: unknown }): Promise<void> {
  const t = translated(app);
  const context = before.context as SettlementContext;
  switch (action.kind) {
    case 'click':
      return app.user.click(button(t, action.button));
    case 'typeQuantity': {
      const field = screen.getByLabelText<HTMLInputElement>(t('buy:settlement.quantity'));
      await app.user.clear(field);
      return app.user.type(field, String(action.quantity));
    }
    case 'load':
      return answerLoad(app, action.load, context);
    case 'settle': {
      const call = await app.api.next('orderSettle');
      expect(call.body).toEqual({ goodsId: context.goodsId, quantity: context.quantity, deliveryId: context.deliveryId, requestId: context.requestId });
      await act(async () => {
        answerWith(call, action.answer);
        await Promise.resolve();
      });
      return;
    }
  }
}

/** The order as the member decides on it: goods, quantity, address, figures, and Pay only when it can be paid. */
function expectReady(t: Translate, context: SettlementContext): void {
  const { goods, quantity } = context;
  if (!goods) throw new Error('ready without goods');
  const limit = Math.min(goods.stock, 999);
  const soldOut = quantity > limit;
  const section = screen.getByRole('region', { name: goods.name });
  expect(within(section).getByRole('heading', { name: goods.name })).toBeTruthy();
  expect(within(section).getByText(soldOut ? t('buy:goods.soldOut') : t('buy:goods.stock', { count: goods.stock }))).toBeTruthy();
  expect(statuses().includes(t('buy:settlement.changed'))).toBe(context.changed);
  if (!soldOut) {
    expect(screen.getByLabelText<HTMLInputElement>(t('buy:settlement.quantity')).value).toBe(String(quantity));
    expect(button(t, 'buy:settlement.more').hasAttribute('disabled')).toBe(quantity >= limit);
    expect(button(t, 'buy:settlement.fewer').hasAttribute('disabled')).toBe(quantity <= 1);
  }
  const address = context.addresses.find((candidate) => candidate.deliveryId === context.deliveryId);
  if (address) expect(screen.getByTestId('settlement-address').textContent).toBe(`${address.name} ${address.phone}${address.region} ${address.detail}`);
  else expect(screen.getByText(t('buy:settlement.noAddress'))).toBeTruthy();
  const total = (parseAmount(goods.price) ?? 0n) * BigInt(quantity);
  const balance = context.balance === null ? null : parseAmount(context.balance);
  const short = balance !== null && total > balance ? total - balance : null;
  expect(figure(t('buy:settlement.total'))).toBe(money(formatMinor(total)));
  expect(figure(t('buy:settlement.balance'))).toBe(context.balance === null ? '—' : money(context.balance));
  expectAlerts([
    ...(short === null ? [] : [t('buy:settlement.short', { amount: formatMinor(short) })]),
    ...(context.error ? [errorText(t, context.error)] : []),
  ]);
  const payable = address !== undefined && !soldOut && balance !== null && short === null;
  expect(button(t, 'buy:settlement.pay').hasAttribute('disabled')).toBe(!payable);
}

function expectStep(app: RenderedApp, step: { value: unknown; context: unknown }): void {
  const t = translated(app);
  const context = step.context as SettlementContext;
  const present = (key: string, shown: boolean) => expect(screen.queryByRole('button', { name: t(key) }) !== null, key).toBe(shown);
  switch (step.value) {
    case 'loading':
      expect(statuses()).toContain(t('common:status.loading'));
      return;
    case 'noGoods':
      expect(screen.getByText(t('buy:settlement.noGoods'))).toBeTruthy();
      present('buy:settlement.toShop', true);
      return;
    case 'goodsNotFound':
      expect(screen.getByText(t('buy:settlement.goodsNotFound'))).toBeTruthy();
      present('buy:settlement.toShop', true);
      return;
    case 'loadFailed':
      expectAlerts([errorText(t, context.error)]);
      present('common:actions.retry', true);
      return;
    case 'ready':
      return expectReady(t, context);
    case 'checking':
    case 'refreshing':
      expect(statuses()).toContain(t('buy:settlement.checking'));
      // Nothing was sent yet while checking: the member may still cancel.
      present('common:actions.cancel', step.value === 'checking');
      present('buy:settlement.pay', false);
      return;
    case 'paying':
      expect(statuses()).toContain(t('buy:settlement.paying'));
      present('buy:settlement.stopWaiting', true);
      return;
    case 'interrupted':
      expectAlerts([t('buy:settlement.interrupted') + t('common:actions.retry')]);
      return;
    case 'failed':
      expectAlert(context.refusal ? t(`buy:settlement.refusal.${context.refusal}`) : errorText(t, context.error));
      // A retry sends the same request id; after a refusal only a fresh start makes sense.
      present('common:actions.retry', context.refusal === null);
      present('buy:settlement.restart', context.refusal !== null);
      return;
    case 'paid':
      if (!context.result) throw new Error('paid without a result');
      expect(statuses()).toContain(t('buy:settlement.paid'));
      expect(figure(t('buy:settlement.orderId'))).toBe(context.result.orderId);
      expect(figure(t('buy:settlement.total'))).toBe(money(context.result.amount));
      present('buy:settlement.toOrders', true);
      return;
    case 'sessionEnded':
      // The API client turned 1002 into server.tokenExpired: the member area goes to sign-in.
      expect(app.router.state.location.pathname).toBe('/login');
      return;
    default:
      throw new Error(`no expectation for ${JSON.stringify(step.value)}`);
  }
}

beforeEach(() => {
  vi.spyOn(crypto, 'randomUUID').mockReturnValue(buyRequestId as ReturnType<typeof crypto.randomUUID>);
});
afterEach(() => {
  vi.restoreAllMocks();
});

await describeRouteUiPaths<SettlementUiAction>({
  route: '/buy/settlement/:id?',
  models: [settlementModel, settlementModelWithoutGoods],
  mapStep,
  render: (model) => {
    const { goodsId } = inputOf(model);
    return renderApp({
      path: paths.settlement.href(goodsId ?? undefined),
      // A session restored with a stale balance of 0: the session's own profile read sees 0 as well.
      stored: { [STORAGE_KEYS.token]: '"token-bound"', [STORAGE_KEYS.userInfo]: JSON.stringify(memberWith('0')) },
      api: (api) => {
        api.answer('meInfo', { code: 0, result: memberWith('0') }, { once: true });
        for (const endpoint of ['meInfo', 'goodsDetail', 'deliveryList', 'orderSettle'] as const) api.hold(endpoint);
      },
    });
  },
  perform,
  expectStep,
  notDrivable: [
    { key: 'settlement.noGoods|user.pickGoods|0', reason: `user.pickGoods: ${notSent.pickGoods}` },
    { key: 'settlement.goodsNotFound|user.pickGoods|0', reason: `user.pickGoods: ${notSent.pickGoods}` },
    { key: 'settlement.loading|xstate.error.actor.loadCheckout|0', reason: `xstate.error.actor.loadCheckout: ${neverRejects}` },
    { key: 'settlement.ready|user.chooseAddress|0', reason: `user.chooseAddress: ${notSent.chooseAddress}` },
    { key: 'settlement.ready|user.chooseAddress|1', reason: `user.chooseAddress: ${notSent.chooseAddress}` },
    { key: 'settlement.checking|xstate.error.actor.checkBeforePaying|0', reason: `xstate.error.actor.checkBeforePaying: ${neverRejects}` },
    { key: 'settlement.paying|xstate.error.actor.settle|0', reason: `xstate.error.actor.settle: ${neverRejects}` },
    { key: 'settlement.refreshing|xstate.error.actor.refreshCheckout|0', reason: `xstate.error.actor.refreshCheckout: ${neverRejects}` },
  ],
});

describe('the balance the order is weighed against', () => {
  it("is the server's: with 0 stored from before a top-up and 100 on the server, Pay enables", async () => {
    const app = await renderApp({
      path: paths.settlement.href(mug.id),
      stored: { [STORAGE_KEYS.token]: '"token-bound"', [STORAGE_KEYS.userInfo]: JSON.stringify(memberWith('0')) },
      api: (api) => {
        // The session's own read of the profile is still under way (held), as on a slow network.
        api.hold('meInfo', { once: true });
        api.answer('meInfo', { code: 0, result: memberWith('100') });
        api.answer('goodsDetail', { code: 0, result: mug });
        api.answer('deliveryList', { code: 0, result: { list: [home] } });
      },
    });
    const t = translated(app);
    await waitFor(() => expect(button(t, 'buy:settlement.pay').hasAttribute('disabled')).toBe(false));
    expect(figure(t('buy:settlement.balance'))).toBe(money('100'));
    expectAlerts([]);
  });
});
