import * as z from 'zod/mini';
import { addressSchema, amountSchema, checked, intAtLeast, isoDateSchema, requestIdSchema } from './primitives';
import { deliveryAddressSchema, orderStatusSchema } from './buy';
import { defineEndpoint } from './endpoint';

/**
 * The orders of the operators' desk (docs/API.md, "Operators: orders"), role support: the orders by status, shipping
 * one with its carrier and tracking number, and cancelling an unshipped one, refunded through the ledger (credit and
 * stock back, once). Not part of the SPA.
 */

/** An order's id as the API writes it. */
const idSchema = checked(z.string(), z.regex(/^[1-9]\d{0,17}$/, 'id'));

/** The statuses the desk lists: `paid` is the queue to ship. */
export const opsOrderStatusSchema = z.enum(['paid', 'shipped', 'cancelled']);

/** A carrier's name as written (顺丰速运, SF Express, ...): 1-40 characters, trimmed, no control characters. */
const carrierSchema = checked(z.string(), z.trim(), z.minLength(1), z.maxLength(40), z.regex(/^[^\p{Cc}\p{Cf}]+$/u, 'carrier'));

/** A tracking number: 4-40 letters, digits and hyphens, trimmed. */
const trackingNumberSchema = checked(z.string(), z.trim(), z.regex(/^[A-Za-z0-9-]{4,40}$/, 'trackingNumber'));

/** Why an operator cancels: 1-500 characters, trimmed. */
const cancelReasonSchema = checked(z.string(), z.trim(), z.minLength(1), z.maxLength(500));

/** An order as the desk shows it: the member, the goods in both languages, the address it goes to, its times. */
export const opsOrderSchema = z.object({
  id: z.string(),
  /** The member who bought it. */
  address: addressSchema,
  goods: z.object({ id: z.string(), name: z.object({ zh: z.string(), en: z.string() }), image: z.string() }),
  quantity: intAtLeast(1),
  amount: amountSchema,
  status: orderStatusSchema,
  /** The shipping address as it was at settlement. */
  delivery: deliveryAddressSchema,
  createdAt: isoDateSchema,
  carrier: z.optional(z.string()),
  trackingNumber: z.optional(z.string()),
  shippedAt: z.optional(isoDateSchema),
  /** When it was cancelled and refunded. */
  cancelledAt: z.optional(isoDateSchema),
  cancelReason: z.optional(z.string()),
});

export const opsOrders = defineEndpoint({
  method: 'GET',
  path: '/api/admin/orders',
  access: 'operator:support',
  summary:
    'Orders, newest first, by status (paid: to ship; shipped; cancelled) and member address (both optional); `limit` 1..100 (default 50), the next page from `nextCursor`, `total` matching on all pages (added)',
  query: z.object({
    status: z.optional(opsOrderStatusSchema),
    address: z.optional(addressSchema),
    cursor: z.optional(idSchema),
    limit: z._default(checked(z.coerce.number(), z.int(), z.minimum(1), z.maximum(100)), 50),
  }),
  body: undefined,
  result: z.object({ list: z.array(opsOrderSchema), nextCursor: z.nullable(z.string()), total: checked(z.number(), z.int(), z.nonnegative()) }),
});

export const opsOrderShip = defineEndpoint({
  method: 'POST',
  path: '/api/admin/orders/ship',
  access: 'operator:support',
  summary:
    'Ship a paid order with its carrier and tracking number; the member then sees it shipped with them. The same shipment again answers the order; another one, or a cancelled order, 3006 (added)',
  query: undefined,
  body: z.strictObject({ id: idSchema, carrier: carrierSchema, trackingNumber: trackingNumberSchema }),
  result: opsOrderSchema,
});

export const opsOrderCancel = defineEndpoint({
  method: 'POST',
  path: '/api/admin/orders/cancel',
  access: 'operator:support',
  summary:
    "Cancel a paid (unshipped) order with a reason: its amount goes back to the member's credit and its units to stock through the ledger, once; at most once per requestId. " +
    'A shipped order is 3006; a cancelled one answers the order for the same reason, else 3006. ' +
    "Under the operators' policy (act orderRefund): above what one refunds alone it waits (waitsForSecondApproval) for a second operator's cancel; never one's own order (1007) (added)",
  query: undefined,
  body: z.strictObject({ id: idSchema, reason: cancelReasonSchema, requestId: requestIdSchema }),
  result: z.extend(opsOrderSchema, {
    /** Above what one operator refunds alone: still paid, waiting for a second operator's cancel. */
    waitsForSecondApproval: z.optional(z.boolean()),
    approvals: z.optional(z.array(addressSchema)),
  }),
});
