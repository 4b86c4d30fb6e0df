import * as z from 'zod/mini';
import { addressSchema, amountSchema, checked, intAtLeast, isoDateSchema, requestIdSchema, txHashSchema } from './primitives';
import { defineEndpoint } from './endpoint';

/**
 * Held top-ups in the operators' desk (docs/API.md, "Held top-ups"; docs/operations.md, "Held top-ups"): top-ups
 * from senders that are no member (contracts, exchanges, addresses that never sign in) wait in `held_top_ups` until
 * their sender signs in, an operator releases one to a member, or an operator has the payer return it on chain to
 * the sender. Each is decided once: released or returned, never both. Not part of the SPA.
 */

/**
 * A held top-up's state: `held` (undecided), `released` (to a member: its sender at a sign-in, or whom an operator
 * named), `returning` (the payer pays it back to the sender), `returned` (paid back, at depth).
 */
export const heldTopUpStateSchema = z.enum(['held', 'released', 'returning', 'returned']);

/** A top-up's log position among its transaction's logs. */
const logPositionSchema = intAtLeast(0);

export const heldTopUpSchema = z.object({
  txHash: txHashSchema,
  logPosition: logPositionSchema,
  from: addressSchema,
  amount: amountSchema,
  blockNumber: z.string(),
  /** When the watcher credited it (to `held_top_ups`). */
  seenAt: isoDateSchema,
  /** Whether the sender has code on chain now (a contract, or an account that delegates to one); null: the chain did not answer. */
  senderIsContract: z.nullable(z.boolean()),
  /** A reorganisation removed its transaction (reconcile lists it): it can be neither released nor returned. */
  reorged: z.boolean(),
  state: heldTopUpStateSchema,
  /** The member it was released to. */
  releasedTo: z.optional(addressSchema),
  /** The return: its withdrawal id and payment hash (once signed), as the payer pays withdrawals. */
  returnId: z.optional(z.string()),
  returnTxHash: z.optional(txHashSchema),
});

/** A page's position: the last item's block, transaction hash and log position, as opsHeldTopUps answered it. */
const cursorSchema = checked(z.string(), z.regex(/^(0|[1-9]\d{0,17}):0x[0-9a-f]{64}:(0|[1-9]\d{0,5})$/, 'cursor'));

export const opsHeldTopUps = defineEndpoint({
  method: 'GET',
  path: '/api/admin/topUps/held',
  access: 'operator:finance',
  summary:
    'Top-ups held for senders that are no member, oldest first, by state (default held); `limit` 1..100 (default 50), the next page from `nextCursor`, `total` matching on all pages (added)',
  query: z.object({
    state: z._default(heldTopUpStateSchema, 'held'),
    cursor: z.optional(cursorSchema),
    limit: z._default(checked(z.coerce.number(), z.int(), z.minimum(1), z.maximum(100)), 50),
  }),
  body: undefined,
  result: z.object({ list: z.array(heldTopUpSchema), nextCursor: z.nullable(z.string()), total: checked(z.number(), z.int(), z.nonnegative()) }),
});

const heldTopUpKey = { txHash: txHashSchema, logPosition: logPositionSchema, requestId: requestIdSchema };

export const opsHeldTopUpRelease = defineEndpoint({
  method: 'POST',
  path: '/api/admin/topUps/release',
  access: 'operator:finance',
  summary:
    'Credit a held top-up to a member (4004 when the address is no member): once; racing its sender\'s first sign-in, one of the two credits it. ' +
    'The same release again returns it; one released elsewhere or returned is 3006; a reorganised one 1001; 3005 while a failed return of it may still be mined. ' +
    "Under the operators' policy (act topUpRelease): above what one releases alone it waits (waitsForSecondApproval) for a second operator's release to the same member; never to oneself (1007) (added)",
  query: undefined,
  body: z.strictObject({ ...heldTopUpKey, address: addressSchema }),
  result: z.extend(heldTopUpSchema, {
    /** Above what one operator releases alone: it waits for a second operator's release to the same member. */
    waitsForSecondApproval: z.optional(z.boolean()),
    approvals: z.optional(z.array(addressSchema)),
  }),
});

export const opsHeldTopUpReturn = defineEndpoint({
  method: 'POST',
  path: '/api/admin/topUps/return',
  access: 'operator:finance',
  summary:
    'Have the payer pay a held top-up back to its sender on chain, at most once, as it pays withdrawals (a withdrawal of no member, approved). ' +
    'The same return again returns it; one released is 3006; a reorganised one 1001; 3005 while a failed return of it may still be mined (added)',
  query: undefined,
  body: z.strictObject(heldTopUpKey),
  result: heldTopUpSchema,
});
