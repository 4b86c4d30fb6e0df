/**
 * A support operator's act on one order (issue 43; docs/API.md, "Operators: orders"): ship a paid order with its
 * carrier and tracking number (the member then sees them), or cancel it with a reason, refunded through the ledger
 * (credit and stock back, once). Shipping the same shipment again is answered with the order, so its retry needs no
 * request id; a cancellation's request id is made when the operator confirms and kept for every retry, so a retry
 * refunds at most once. A refusal (3006 shipped or cancelled meanwhile, 4004, 1006 no support role, ...) or a
 * dropped call stays on the screen with a retry.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { Answer } from '../shared/answer';
import type { ErrorInfo } from '../shared/errorInfo';
import { notProvided, toErrorInfo } from '../shared/errorInfo';

/** The part of an order (opsOrders) the act reads and shows. */
export interface ShippableOrder {
  id: string;
  status: string;
  carrier?: string | undefined;
  trackingNumber?: string | undefined;
  shippedAt?: string | undefined;
  cancelledAt?: string | undefined;
  cancelReason?: string | undefined;
}

export interface OrderShippingInput {
  order: ShippableOrder;
}

export interface ShipInput {
  id: string;
  carrier: string;
  trackingNumber: string;
}

export interface RefundInput {
  id: string;
  reason: string;
  requestId: string;
}

export interface OrderShippingContext extends OrderShippingInput {
  carrier: string;
  trackingNumber: string;
  /** Why the operator cancels it (the member's record keeps it). */
  reason: string;
  /** The cancellation's request id, made once per confirmation. */
  requestId: string | null;
  attempt: 'ship' | 'refund' | null;
  error: ErrorInfo | null;
}

export type OrderShippingEvent =
  | { type: 'user.ship' }
  | { type: 'user.refund' }
  | { type: 'carrier.change'; carrier: string }
  | { type: 'tracking.change'; trackingNumber: string }
  | { type: 'reason.change'; reason: string }
  | { type: 'user.confirm'; requestId: string }
  | { type: 'user.retry' }
  | { type: 'user.cancel' };

/** The longest carrier name and reason the server keeps (opsOrderShip, opsOrderCancel). */
export const maxCarrierLength = 40;
export const maxCancelReasonLength = 500;

/** What is wrong with a typed carrier, or null: as the server checks it (1-40 characters, no control characters). */
export function carrierProblem(carrier: string): 'empty' | 'long' | 'format' | null {
  const text = carrier.trim();
  if (text === '') return 'empty';
  if (text.length > maxCarrierLength) return 'long';
  return /^[^\p{Cc}\p{Cf}]+$/u.test(text) ? null : 'format';
}

/** What is wrong with a typed tracking number, or null: 4-40 letters, digits and hyphens. */
export function trackingProblem(trackingNumber: string): 'empty' | 'format' | null {
  const text = trackingNumber.trim();
  if (text === '') return 'empty';
  return /^[A-Za-z0-9-]{4,40}$/.test(text) ? null : 'format';
}

export const orderShippingSetup = setup({
  types: {
    context: {} as OrderShippingContext,
    events: {} as OrderShippingEvent,
    input: {} as OrderShippingInput,
    tags: {} as 'busy',
  },
  actors: {
    ship: fromPromise<Answer<ShippableOrder>, ShipInput>(async () => notProvided('orderShipping', 'ship')),
    refund: fromPromise<Answer<ShippableOrder>, RefundInput>(async () => notProvided('orderShipping', 'refund')),
  },
  actions: {
    assignCarrier: assign((_, params: { carrier: string }) => ({ carrier: params.carrier })),
    assignTracking: assign((_, params: { trackingNumber: string }) => ({ trackingNumber: params.trackingNumber })),
    assignReason: assign((_, params: { reason: string }) => ({ reason: params.reason })),
    assignShipAttempt: assign({ attempt: 'ship' as const, error: null }),
    assignRefundAttempt: assign((_, params: { requestId: string }) => ({ attempt: 'refund' as const, requestId: params.requestId, error: null })),
    assignOrder: assign(({ context }, params: { order: ShippableOrder | null }) => ({
      order: params.order ? { ...context.order, ...params.order } : context.order,
      requestId: null,
      attempt: null,
      error: null,
    })),
    assignError: assign((_, params: { error: ErrorInfo }) => ({ error: params.error })),
    assignThrownError: assign((_, params: { error: unknown }) => ({ error: toErrorInfo(params.error) })),
    clearForm: assign({ carrier: '', trackingNumber: '', reason: '', requestId: null, attempt: null, error: null }),
  },
  guards: {
    isPaid: ({ context }) => context.order.status === 'paid',
    isShipped: ({ context }) => context.order.status === 'shipped',
    isShipmentValid: ({ context }) => carrierProblem(context.carrier) === null && trackingProblem(context.trackingNumber) === null,
    hasReason: ({ context }) => context.reason.trim().length > 0 && context.reason.trim().length <= maxCancelReasonLength,
    isApiOk: (_, params: { code: number }) => params.code === 0,
    isAttemptShip: ({ context }) => context.attempt === 'ship',
  },
});

const callAnswers = {
  onDone: [
    {
      guard: { type: 'isApiOk' as const, params: ({ event }: { event: { output: Answer<ShippableOrder> } }) => ({ code: event.output.code }) },
      target: 'sorting',
      actions: { type: 'assignOrder' as const, params: ({ event }: { event: { output: Answer<ShippableOrder> } }) => ({ order: event.output.result }) },
    },
    {
      target: 'refused',
      actions: { type: 'assignError' as const, params: ({ event }: { event: { output: Answer<ShippableOrder> } }) => ({ error: { name: 'ApiError', code: event.output.code } }) },
    },
  ],
  onError: { target: 'refused', actions: { type: 'assignThrownError' as const, params: ({ event }: { event: { error: unknown } }) => ({ error: event.error }) } },
};

// @__NO_SIDE_EFFECTS__
export function createOrderShippingMachine() {
  return orderShippingSetup.createMachine({
    id: 'orderShipping',
    context: ({ input }) => ({ order: input.order, carrier: '', trackingNumber: '', reason: '', requestId: null, attempt: null, error: null }),
    initial: 'sorting',
    states: {
      /** Where the order stands decides what the operator may do. */
      sorting: {
        description: 'orderShipping.sorting',
        always: [
          { guard: 'isPaid', target: 'ready' },
          { guard: 'isShipped', target: 'shipped' },
          { target: 'closed' },
        ],
      },
      /** Paid, to ship: ship it, or cancel it with a refund. */
      ready: {
        description: 'orderShipping.ready',
        on: {
          'user.ship': { target: 'shipForm', actions: 'clearForm' },
          'user.refund': { target: 'refundForm', actions: 'clearForm' },
        },
      },
      /** The carrier and tracking number as the parcel's label has them. */
      shipForm: {
        description: 'orderShipping.shipForm',
        on: {
          'carrier.change': { actions: { type: 'assignCarrier', params: ({ event }) => ({ carrier: event.carrier }) } },
          'tracking.change': { actions: { type: 'assignTracking', params: ({ event }) => ({ trackingNumber: event.trackingNumber }) } },
          'user.confirm': { guard: 'isShipmentValid', target: 'shipping', actions: 'assignShipAttempt' },
          'user.cancel': { target: 'ready', actions: 'clearForm' },
        },
      },
      /** Why it is cancelled; the member gets the amount back in credit and the units go back to stock. */
      refundForm: {
        description: 'orderShipping.refundForm',
        on: {
          'reason.change': { actions: { type: 'assignReason', params: ({ event }) => ({ reason: event.reason }) } },
          'user.confirm': { guard: 'hasReason', target: 'refunding', actions: { type: 'assignRefundAttempt', params: ({ event }) => ({ requestId: event.requestId }) } },
          'user.cancel': { target: 'ready', actions: 'clearForm' },
        },
      },
      shipping: {
        description: 'orderShipping.shipping',
        tags: 'busy',
        invoke: {
          src: 'ship',
          id: 'ship',
          input: ({ context }) => ({ id: context.order.id, carrier: context.carrier.trim(), trackingNumber: context.trackingNumber.trim() }),
          ...callAnswers,
        },
      },
      refunding: {
        description: 'orderShipping.refunding',
        tags: 'busy',
        invoke: {
          src: 'refund',
          id: 'refund',
          input: ({ context }) => ({ id: context.order.id, reason: context.reason.trim(), requestId: context.requestId ?? '' }),
          ...callAnswers,
        },
      },
      /** Refused or dropped: the same request again (the same request id), or back to the order. */
      refused: {
        description: 'orderShipping.refused',
        on: {
          'user.retry': [{ guard: 'isAttemptShip', target: 'shipping' }, { target: 'refunding' }],
          'user.cancel': { target: 'sorting', actions: 'clearForm' },
        },
      },
      /** Shipped: the member sees the carrier and tracking number. */
      shipped: { description: 'orderShipping.shipped' },
      /** Cancelled and refunded (once), or never paid: nothing more for an operator to do. */
      closed: { description: 'orderShipping.closed' },
    },
  });
}

export const orderShippingMachine = createOrderShippingMachine();
export type OrderShippingMachine = typeof orderShippingMachine;
