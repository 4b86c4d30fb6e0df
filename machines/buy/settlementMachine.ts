/**
 * Settlement (spec: /buy/settlement/:id?; docs/API.md "Buy flow and shipping addresses"): the member sees the goods, the
 * chosen shipping address and what the order costs against the credit balance, sets the quantity, and pays. The
 * money-flow skeleton's rules hold (machines/shared/moneyFlow.ts, ADR 0011): the request id the page creates at
 * confirm is sent by every retry, so an order is paid at most once, and 1002 ends the flow. What is its own: the
 * goods, addresses and the server's balance (never the one the session stored) are loaded first; the settle body carries no price, so the goods are read again
 * before paying and a moved price (or too little stock, or a deleted address) sends the member back to confirm the
 * new figures with a new id; 3001, 3002 and 3003 do the same after reading everything again; 4004 (goods gone, or
 * an address that is not the member's) is a refusal nothing moved for, so the member starts over.
 */
import { assign, fromPromise, setup } from 'xstate';
import { notProvided, toErrorInfo } from '../shared/errorInfo';
import type { TransitionMeta } from '../shared/transitionMeta';
import { apiError, type SettleResult } from './buyContract';
import { applyLoad, blockersOf, clampQuantity, type CheckoutLoad } from './checkout';
import { loadOutcomes, type LoadTargets } from './settlementLoad';
import { payingState, requestIdDecision as decided, settleGuards } from './settlementPaying';
import type { LoadCheckoutInput, SettleAnswer, SettleInput, SettlementContext, SettlementEvent, SettlementInput } from './settlementTypes';

export type * from './settlementTypes';

const loadInput = (context: SettlementContext): LoadCheckoutInput => ({ goodsId: context.goodsId ?? '' });

/** Where each load's outcomes lead: the first load, the check before paying, the reload after a refusal. */
const loadTargets: Record<'first' | 'check' | 'refresh', LoadTargets> = {
  first: { gone: 'goodsNotFound', failed: 'loadFailed', unchanged: null, loaded: 'ready' },
  check: { gone: 'goodsNotFound', failed: 'ready', unchanged: 'paying', loaded: 'ready' },
  refresh: { gone: 'goodsNotFound', failed: 'ready', unchanged: null, loaded: 'ready' },
};

export const settlementMachine = setup({
  types: {
    context: {} as SettlementContext,
    events: {} as SettlementEvent,
    input: {} as SettlementInput,
    output: {} as SettleResult | null,
    transitionMeta: {} as TransitionMeta,
  },
  actors: {
    /**
     * Reads goodsDetail, deliveryList and meInfo's balance at once; resolves with their envelopes. The balance is the
     * server's at every load, never one the page kept: a top-up, grant or payout since then counts.
     */
    loadCheckout: fromPromise<CheckoutLoad, LoadCheckoutInput>(async () => notProvided('settlement', 'loadCheckout')),
    /** Sends orderSettle with the request id; resolves with the envelope and never needs to throw. */
    settle: fromPromise<SettleAnswer, SettleInput>(async () => notProvided('settlement', 'settle')),
  },
  actions: {
    assignGoodsId: assign((_, params: { goodsId: string }) => ({ goodsId: params.goodsId, goods: null, quantity: 1, changed: false, error: null })),
    assignLoad: assign(({ context }, params: { load: CheckoutLoad }) => applyLoad(context, params.load)),
    assignQuantity: assign(({ context }, params: { quantity: number }) => ({
      quantity: context.goods ? clampQuantity(params.quantity, context.goods) : context.quantity,
      error: null,
    })),
    assignDeliveryId: assign((_, params: { deliveryId: string }) => ({ deliveryId: params.deliveryId, error: null })),
    assignRequestId: assign((_, params: { requestId: string }) => ({ requestId: params.requestId, changed: false, error: null })),
    assignResult: assign((_, params: { result: SettleResult | null }) => ({ result: params.result, error: null })),
    assignFailure: assign((_, params: { code: number }) => ({ error: apiError(params.code) })),
    assignThrown: assign((_, params: { error: unknown }) => ({ error: toErrorInfo(params.error) })),
    assignRefusal: assign((_, params: { code: number }) => ({ error: apiError(params.code), refusal: 'goodsOrAddressGone' as const })),
    assignGoodsGone: assign({ goods: null, requestId: null }),
    dropRequest: assign({ requestId: null }),
    clearError: assign({ error: null }),
    clearRefusal: assign({ requestId: null, error: null, refusal: null }),
    reportPaid: () => {
      // Provided by the app: credit moved, so what shows the balance is read again (auth app.refreshProfile).
    },
  },
  guards: {
    hasGoodsId: ({ context }) => context.goodsId !== null,
    ...loadOutcomes.guards,
    canIncrement: ({ context }) => context.goods !== null && context.quantity < clampQuantity(context.quantity + 1, context.goods),
    canDecrement: ({ context }) => context.goods !== null && context.quantity > 1,
    isWholeQuantity: (_, params: { quantity: number }) => Number.isInteger(params.quantity),
    isListedAddress: ({ context }, params: { deliveryId: string }) => context.addresses.some((address) => address.deliveryId === params.deliveryId),
    canConfirm: ({ context }) => blockersOf(context).length === 0,
    ...settleGuards,
    isRefused: ({ context }) => context.refusal !== null,
    isRetryable: ({ context }) => context.refusal === null,
  },
}).createMachine({
  id: 'settlement',
  context: ({ input }) => ({
    goodsId: input.goodsId ?? null,
    goods: null,
    addresses: [],
    deliveryId: input.deliveryId ?? null,
    balance: null,
    quantity: 1,
    changed: false,
    requestId: null,
    result: null,
    error: null,
    refusal: null,
  }),
  output: ({ context }) => context.result,
  initial: 'starting',
  states: {
    starting: {
      description: 'settlement.starting',
      always: [{ guard: 'hasGoodsId', target: 'loading' }, { target: 'noGoods' }],
    },
    noGoods: {
      description: 'settlement.noGoods',
      on: { 'user.pickGoods': { target: 'loading', actions: { type: 'assignGoodsId', params: ({ event }) => ({ goodsId: event.goodsId }) } } },
    },
    goodsNotFound: {
      description: 'settlement.goodsNotFound',
      on: { 'user.pickGoods': { target: 'loading', actions: { type: 'assignGoodsId', params: ({ event }) => ({ goodsId: event.goodsId }) } } },
    },
    loading: {
      description: 'settlement.loading',
      tags: 'busy',
      invoke: { id: 'loadCheckout', src: 'loadCheckout', input: ({ context }) => loadInput(context), ...loadOutcomes.transitions(loadTargets.first) },
    },
    loadFailed: {
      description: 'shared.loadFailed',
      on: { 'user.retry': { target: 'loading', actions: 'clearError' } },
    },
    ready: {
      description: 'settlement.ready',
      on: {
        'quantity.inc': { guard: 'canIncrement', actions: { type: 'assignQuantity', params: ({ context }) => ({ quantity: context.quantity + 1 }) } },
        'quantity.dec': { guard: 'canDecrement', actions: { type: 'assignQuantity', params: ({ context }) => ({ quantity: context.quantity - 1 }) } },
        'quantity.set': {
          guard: { type: 'isWholeQuantity', params: ({ event }) => ({ quantity: event.quantity }) },
          actions: { type: 'assignQuantity', params: ({ event }) => ({ quantity: event.quantity }) },
          description: 'settlement.ready:quantity.set[isWholeQuantity]',
        },
        'user.chooseAddress': [
          {
            guard: { type: 'isListedAddress', params: ({ event }) => ({ deliveryId: event.deliveryId }) },
            actions: { type: 'assignDeliveryId', params: ({ event }) => ({ deliveryId: event.deliveryId }) },
          },
          {
            target: 'refreshing',
            actions: { type: 'assignDeliveryId', params: ({ event }) => ({ deliveryId: event.deliveryId }) },
            description: 'settlement.ready:user.chooseAddress',
          },
        ],
        'user.confirm': {
          guard: 'canConfirm',
          target: 'checking',
          actions: { type: 'assignRequestId', params: ({ event }) => ({ requestId: event.requestId }) },
          meta: decided,
          description: 'settlement.ready:user.confirm[canConfirm]',
        },
      },
    },
    checking: {
      description: 'settlement.checking',
      tags: 'busy',
      invoke: { id: 'checkBeforePaying', src: 'loadCheckout', input: ({ context }) => loadInput(context), ...loadOutcomes.transitions(loadTargets.check) },
      on: { 'user.cancel': { target: 'ready', actions: 'dropRequest', description: 'settlement.checking:user.cancel' } },
    },
    paying: payingState,
    refreshing: {
      description: 'settlement.refreshing',
      tags: 'busy',
      invoke: { id: 'refreshCheckout', src: 'loadCheckout', input: ({ context }) => loadInput(context), ...loadOutcomes.transitions(loadTargets.refresh) },
    },
    interrupted: {
      description: 'settlement.interrupted',
      on: { 'user.retry': { target: 'paying', actions: 'clearError', meta: decided } },
    },
    failed: {
      description: 'settlement.failed',
      on: {
        'user.retry': { guard: 'isRetryable', target: 'paying', actions: 'clearError', meta: decided },
        'user.restart': {
          guard: 'isRefused',
          target: 'loading',
          actions: 'clearRefusal',
          description: 'settlement.failed:user.restart[isRefused]',
        },
      },
    },
    paid: { type: 'final', entry: 'reportPaid', description: 'settlement.paid' },
    sessionEnded: { type: 'final', description: 'shared.sessionEnded' },
  },
});

export type SettlementMachine = typeof settlementMachine;
