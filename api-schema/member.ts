import * as z from 'zod/mini';
import {
  addressSchema,
  checked,
  amountSchema,
  balanceSchema,
  intAtLeast,
  inviteCodeSchema,
  isoDateSchema,
  pageOf,
  pageQuerySchema,
  recordIdSchema,
  requestIdSchema,
  signedAmountSchema,
  txHashSchema,
} from './primitives';
import { defineEndpoint } from './endpoint';

export const meInfoSchema = z.object({
  address: addressSchema,
  inviteCode: inviteCodeSchema,
  recommender: z.nullable(addressSchema),
  level: intAtLeast(0),
  creditBalance: balanceSchema,
  wposBalance: balanceSchema,
  teamSize: intAtLeast(0),
  directCount: intAtLeast(0),
  createdAt: isoDateSchema,
});
export type MeInfo = z.infer<typeof meInfoSchema>;

export const meInfo = defineEndpoint({
  method: 'GET',
  path: '/api/member/meInfo',
  access: 'token',
  summary: 'The signed-in member',
  query: undefined,
  body: undefined,
  result: meInfoSchema,
});

/**
 * A withdrawal's status (docs/API.md, "Credit on chain"): pending (waiting for an operator) → approved → sent (its payment
 * signed and broadcast) → done (at depth) | failed (refunded; `reason` says why). Every other record is done.
 */
export const withdrawalStatusSchema = z.enum(['pending', 'approved', 'sent', 'done', 'failed']);
export type WithdrawalStatus = z.infer<typeof withdrawalStatusSchema>;

/** Why a withdrawal failed: failed by an operator, its payment reverted, or its nonce went to another transaction. */
export const withdrawalFailureSchema = z.enum(['rejected', 'reverted', 'nonceUsed']);
export type WithdrawalFailure = z.infer<typeof withdrawalFailureSchema>;

export const creditRecordTypeSchema = z.enum(['withdraw', 'exchange', 'order', 'reward', 'transfer', 'topUp']);
export const creditRecordSchema = z.object({
  id: z.string(),
  type: creditRecordTypeSchema,
  amount: signedAmountSchema,
  balanceAfter: balanceSchema,
  status: withdrawalStatusSchema,
  /** A top-up's transaction, or a withdrawal's payment, on the app's chain. */
  txHash: z.optional(txHashSchema),
  /** Why a failed withdrawal failed. */
  reason: z.optional(withdrawalFailureSchema),
  createdAt: isoDateSchema,
});

export const creditRecord = defineEndpoint({
  method: 'GET',
  path: '/api/member/creditRecord',
  access: 'member',
  summary: 'Credit records, newest first',
  query: z.extend(pageQuerySchema, { type: z.optional(creditRecordTypeSchema), before: z.optional(recordIdSchema) }),
  body: undefined,
  result: pageOf(creditRecordSchema),
});

export const withdrawCredit = defineEndpoint({
  method: 'POST',
  path: '/api/member/withdrawCredit',
  access: 'member',
  summary: 'Withdraw credit; at most once per requestId',
  query: undefined,
  body: z.strictObject({ amount: amountSchema, requestId: requestIdSchema }),
  result: z.object({ id: z.string(), amount: amountSchema, fee: balanceSchema, status: withdrawalStatusSchema }),
});

export const teamMemberSchema = z.object({
  address: addressSchema,
  /** Depth below the caller: 1 for a direct member. */
  level: intAtLeast(1),
  teamSize: intAtLeast(0),
  /** Members bound directly to this one: the team page opens its own list when above 0. */
  directCount: intAtLeast(0),
  joinedAt: isoDateSchema,
});

export type TeamMember = z.infer<typeof teamMemberSchema>;

export const team = defineEndpoint({
  method: 'GET',
  path: '/api/member/team',
  access: 'member',
  summary:
    'The team one level at a time (added): the direct members of the caller, or of `of` (a member of the caller\'s downline), ' +
    'in the order they joined; total is that member\'s direct count',
  query: z.extend(pageQuerySchema, { of: z.optional(addressSchema) }),
  body: undefined,
  result: pageOf(teamMemberSchema),
});

export const teamSearch = defineEndpoint({
  method: 'GET',
  path: '/api/member/team/search',
  access: 'member',
  summary:
    'Search the whole downline by address fragment (added): at least 4 hex digits, any case; with 0x the address starts with them, ' +
    'without it they appear anywhere in it. At most 100 matches, nearest level first',
  query: z.object({ keyword: checked(z.string(), z.regex(/^(0[xX])?[0-9a-fA-F]{4,40}$/, 'keyword')) }),
  body: undefined,
  result: z.object({ list: z.array(teamMemberSchema) }),
});

export const topUpStatusSchema = z.enum(['pending', 'confirming', 'credited', 'invalid']);
export type TopUpStatus = z.infer<typeof topUpStatusSchema>;

export const topUp = defineEndpoint({
  method: 'POST',
  path: '/api/member/topUp',
  access: 'member',
  summary:
    'Credit on chain (added): ask the server to look at one top-up transaction now. pending: not mined or not seen yet; confirming: ' +
    'mined, `confirmations` of `required` blocks on top; credited; invalid: no top-up of the caller in it (or only one below 0.000001), or reverted. ' +
    'Moves nothing itself. The hash in any letter case; limited per member (4290); 3007 when the chain cannot be read now',
  query: undefined,
  body: z.strictObject({ txHash: txHashSchema }),
  result: z.object({
    txHash: txHashSchema,
    status: topUpStatusSchema,
    confirmations: intAtLeast(0),
    required: intAtLeast(0),
    amount: z.optional(amountSchema),
  }),
});
