import * as z from 'zod/mini';
import { addressSchema, amountSchema, balanceSchema, checked, intAtLeast, isoDateSchema, requestIdSchema, signedAmountSchema, txHashSchema } from './primitives';
import { defineEndpoint } from './endpoint';
import { approvalSchema, assetSchema } from './opsMoney';
import { withdrawalFailureSchema } from './member';

/**
 * The finance calls of the operators' desk (docs/API.md, "Operators: finance calls"): the withdrawals' queue and
 * their approval by quorum, a member's lookup, sign-out and freeze, and grants or deductions with a reason. Above
 * APPROVAL_QUORUM_ABOVE a withdrawal's approval and an adjustment need two different operators. Not part of the SPA.
 */

/** A withdrawal's id as the API writes it. */
const idSchema = checked(z.string(), z.regex(/^[1-9]\d{0,17}$/, 'id'));

/**
 * Where a withdrawal is in the operator's queue: `pending` (waiting for approval), `approved` (for the payer),
 * `sent` (its payment signed, not yet final), `stuck` (sent, none of its payments mined after 5 minutes), `paid`,
 * `failed` (refunded), `lost` (paid, then the chain lost or reverted the payment, or paid after its refund: reconcile's
 * lostPayments).
 */
export const queueStatusSchema = z.enum(['pending', 'approved', 'sent', 'stuck', 'failed', 'lost', 'paid']);

/** A withdrawal in the operator's queue. */
export const queuedWithdrawalSchema = z.object({
  id: z.string(),
  address: addressSchema,
  amount: amountSchema,
  fee: balanceSchema,
  status: queueStatusSchema,
  createdAt: isoDateSchema,
  /** When it left `pending`, or its latest move since; null while pending. */
  decidedAt: z.nullable(isoDateSchema),
  txHash: z.optional(txHashSchema),
  reason: z.optional(withdrawalFailureSchema),
  /** What the operator who failed it wrote. */
  note: z.optional(z.string()),
  /** The operators who approved it so far. */
  approvals: z.array(approvalSchema),
  /** How many different operators must approve it: 2 above APPROVAL_QUORUM_ABOVE, else 1. */
  approvalsNeeded: intAtLeast(1),
});

/** A page's position: the last id of the page before. */
const cursorSchema = idSchema;

export const opsWithdrawals = defineEndpoint({
  method: 'GET',
  path: '/api/admin/withdrawals',
  access: 'operator:finance',
  summary:
    'Withdrawals, newest first, by queue status and member address (both optional), each with its approvals and payment hash; `awaiting=me`: only the pending ones the signed-in operator may still approve (not approved by them, not their own); `limit` 1..100 (default 50), the next page from `nextCursor`, `total` matching on all pages (added)',
  query: z.object({
    status: z.optional(queueStatusSchema),
    address: z.optional(addressSchema),
    awaiting: z.optional(z.enum(['me'])),
    cursor: z.optional(cursorSchema),
    limit: z._default(checked(z.coerce.number(), z.int(), z.minimum(1), z.maximum(100)), 50),
  }),
  body: undefined,
  result: z.object({ list: z.array(queuedWithdrawalSchema), nextCursor: z.nullable(z.string()), total: checked(z.number(), z.int(), z.nonnegative()) }),
});

/** One withdrawal's answer in a bulk approval: 0 and the withdrawal, or the code opsWithdrawalDecide would answer. */
const bulkAnswerSchema = z.object({
  id: z.string(),
  code: checked(z.number(), z.int()),
  withdrawal: z.optional(queuedWithdrawalSchema),
  /** True when it waits for a second, different operator (APPROVAL_QUORUM_ABOVE). */
  waitsForSecondApproval: z.optional(z.boolean()),
});

export const opsWithdrawalsApprove = defineEndpoint({
  method: 'POST',
  path: '/api/admin/withdrawals/approve',
  access: 'operator:finance',
  summary:
    'Approve up to 100 withdrawals, each as opsWithdrawalDecide approves one (the quorum, 3006, 3008, 4004 per withdrawal): one answer per id, in order (added)',
  query: undefined,
  body: z.strictObject({ ids: checked(z.array(idSchema), z.minLength(1), z.maxLength(100)) }),
  result: z.object({ results: z.array(bulkAnswerSchema) }),
});

const reasonSchema = checked(z.string(), z.minLength(1), z.maxLength(500));

/** A member's withdrawals freeze. */
const freezeSchema = z.object({ reason: z.string(), frozenAt: isoDateSchema, frozenBy: z.nullable(addressSchema) });

/** An address (0x and 40 hex digits) or an invite code (4-16 letters and digits). */
const memberQuerySchema = checked(z.string(), z.regex(/^(0x[0-9a-fA-F]{40}|[A-Za-z0-9]{4,16})$/, 'q'));

const memberRecordSchema = z.object({
  id: z.string(),
  asset: assetSchema,
  type: z.string(),
  amount: signedAmountSchema,
  balanceAfter: balanceSchema,
  status: z.string(),
  txHash: z.optional(txHashSchema),
  createdAt: isoDateSchema,
});

export const opsMember = defineEndpoint({
  method: 'GET',
  path: '/api/admin/member',
  access: 'operator:finance,support',
  summary:
    'A member by address or invite code: balances, the 20 latest CREDIT and WPOS records, team counts, active sessions, the withdrawals freeze (4004 for no member) (added)',
  query: z.object({ q: memberQuerySchema }),
  body: undefined,
  result: z.object({
    address: addressSchema,
    inviteCode: z.string(),
    recommender: z.nullable(addressSchema),
    createdAt: isoDateSchema,
    balances: z.object({ CREDIT: balanceSchema, WPOS: balanceSchema }),
    team: z.object({ direct: intAtLeast(0), total: intAtLeast(0) }),
    /** Member sessions (tokens) not expired nor revoked. */
    sessions: intAtLeast(0),
    /** The withdrawals freeze, or null. */
    frozen: z.nullable(freezeSchema),
    records: z.array(memberRecordSchema),
  }),
});

export const opsMemberSignOut = defineEndpoint({
  method: 'POST',
  path: '/api/admin/member/signOut',
  access: 'operator:finance,support',
  summary: 'Sign a member out everywhere: every session token of theirs is revoked (their next call answers 1002); `revoked` counts them (added)',
  query: undefined,
  body: z.strictObject({ address: addressSchema }),
  result: z.object({ revoked: intAtLeast(0) }),
});

export const opsMemberFreeze = defineEndpoint({
  method: 'POST',
  path: '/api/admin/member/freeze',
  access: 'operator:finance,support',
  summary:
    "Freeze or unfreeze a member's withdrawals, with a reason: while frozen their withdrawCredit answers 3008 and no operator can approve their pending withdrawals (3008); approved ones are still paid (fail them to stop them) (added)",
  query: undefined,
  body: z.strictObject({ address: addressSchema, frozen: z.boolean(), reason: reasonSchema }),
  result: z.object({ address: addressSchema, frozen: z.nullable(freezeSchema) }),
});

/** A grant (> 0) or a deduction (< 0): at most 12 integer digits and 6 decimals, not zero. */
const adjustAmountSchema = checked(
  z.string(),
  z.regex(/^-?(0|[1-9]\d{0,11})(\.\d{1,6})?$/, 'amount'),
  z.refine((value) => /[1-9]/.test(value), 'amount'),
);

/** A grant or deduction: `done` once it moved, `waiting` for a second operator's confirmation. */
export const adjustmentSchema = z.object({
  id: z.string(),
  address: addressSchema,
  asset: assetSchema,
  amount: signedAmountSchema,
  reason: z.string(),
  status: z.enum(['waiting', 'done']),
  requestedBy: z.nullable(addressSchema),
  requestedAt: isoDateSchema,
  confirmedBy: z.optional(addressSchema),
  confirmedAt: z.optional(isoDateSchema),
});

export const opsAdjust = defineEndpoint({
  method: 'POST',
  path: '/api/admin/adjust',
  access: 'operator:finance',
  summary:
    "Grant (amount > 0, from issuance) or deduct (amount < 0, back to issuance; never below zero: 3001) a member's CREDIT or WPOS, with a reason; at most once per requestId. " +
    'Above APPROVAL_QUORUM_ABOVE it moves nothing yet and waits for opsAdjustConfirm by another operator (added)',
  query: undefined,
  body: z.strictObject({ address: addressSchema, asset: assetSchema, amount: adjustAmountSchema, reason: reasonSchema, requestId: requestIdSchema }),
  result: adjustmentSchema,
});

export const opsAdjustConfirm = defineEndpoint({
  method: 'POST',
  path: '/api/admin/adjust/confirm',
  access: 'operator:finance',
  summary:
    'Confirm a waiting adjustment: it moves, once. The operator who asked for it counts once (it stays waiting), a deduction the balance no longer covers 3001 (it stays waiting) (added)',
  query: undefined,
  body: z.strictObject({ id: idSchema }),
  result: adjustmentSchema,
});

export const opsAdjustmentsPending = defineEndpoint({
  method: 'GET',
  path: '/api/admin/adjust/pending',
  access: 'operator:finance',
  summary:
    'Adjustments waiting for a second operator (above APPROVAL_QUORUM_ABOVE), oldest first, each with who asked for it; `limit` 1..100 (default 50), the next page from `nextCursor` (added)',
  query: z.object({
    cursor: z.optional(idSchema),
    limit: z._default(checked(z.coerce.number(), z.int(), z.minimum(1), z.maximum(100)), 50),
  }),
  body: undefined,
  result: z.object({ list: z.array(adjustmentSchema), nextCursor: z.nullable(z.string()) }),
});
