/**
 * A support operator's act on one order (docs/API.md, "Operators: orders"), an instance of the desk's decision
 * skeleton (machines/shared/deskDecision.ts): ship a paid order with its carrier and tracking number (the member
 * then sees them), or cancel it with a reason, refunded through the ledger (credit and stock back, once). Shipping
 * the same shipment again is answered with the order; a cancellation's request id is made when the operator
 * confirms and kept for every retry, so a retry refunds at most once. Shipped, cancelled or never paid: closed.
 */
import { createDeskDecisionMachine, hasReason } from '../shared/deskDecision';
import type { DecisionSpec } from '../shared/deskDecision';

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

export type OrderAct = 'ship' | 'refund';

export const orderShippingSpec: DecisionSpec<ShippableOrder, OrderAct, ShippableOrder> = {
  id: 'orderShipping',
  acts: { ship: { carrier: '', trackingNumber: '' }, refund: { reason: '' } },
  openActs: (order) => (order.status === 'paid' ? ['ship', 'refund'] : []),
  isFormValid: (act, form) =>
    act === 'ship'
      ? carrierProblem(form.carrier ?? '') === null && trackingProblem(form.trackingNumber ?? '') === null
      : hasReason(form, maxCancelReasonLength),
  merge: (order, answer) => (answer ? { ...order, ...answer } : order),
  describe: { ready: 'orderShipping.ready', closed: 'orderShipping.closed' },
};

/** A machine of its own for one screen's item (provideBuilt changes the machine it is given). */
// @__NO_SIDE_EFFECTS__
export const createOrderShippingMachine = () => createDeskDecisionMachine(orderShippingSpec);
export const orderShippingMachine = createOrderShippingMachine();
export type OrderShippingMachine = typeof orderShippingMachine;
