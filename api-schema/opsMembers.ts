import * as z from 'zod/mini';
import { addressSchema, balanceSchema, checked, isoDateSchema } from './primitives';
import { defineEndpoint } from './endpoint';

/**
 * The members as the operators' desk lists them (docs/API.md, "Operators: finance calls"): newest first, a page at a
 * time, by the start of an address or an invite code, frozen ones alone when asked. One member in full is opsMember.
 */

/** The start of an address (0x and 1..40 hex digits) or of an invite code (1..16 letters or digits). */
export const memberPrefixSchema = checked(z.string(), z.regex(/^(0x[0-9a-fA-F]{1,40}|[A-Za-z0-9]{1,16})$/, 'q'));

export const listedMemberSchema = z.object({
  address: addressSchema,
  inviteCode: z.string(),
  recommender: z.nullable(addressSchema),
  createdAt: isoDateSchema,
  credit: balanceSchema,
  /** Whether an operator froze the member's withdrawals. */
  frozen: z.boolean(),
});

export const opsMembers = defineEndpoint({
  method: 'GET',
  path: '/api/admin/members',
  access: 'operator:finance,support',
  summary:
    'Members, newest first: `q` the start of an address (0x…, any case) or of an invite code, `frozen=true` only those whose withdrawals are frozen; `limit` 1..100 (default 50), the next page from `nextCursor`, `total` matching on all pages (added)',
  query: z.object({
    q: z.optional(memberPrefixSchema),
    frozen: z.optional(z.enum(['true'])),
    cursor: z.optional(checked(z.string(), z.regex(/^[1-9]\d{0,9}$/, 'cursor'))),
    limit: z._default(checked(z.coerce.number(), z.int(), z.minimum(1), z.maximum(100)), 50),
  }),
  body: undefined,
  result: z.object({ list: z.array(listedMemberSchema), nextCursor: z.nullable(z.string()), total: checked(z.number(), z.int(), z.nonnegative()) }),
});
