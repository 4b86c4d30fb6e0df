import * as z from 'zod/mini';
import {
  addressSchema,
  checked,
  amountSchema,
  intAtLeast,
  inviteCodeSchema,
  isoDateSchema,
  pageOf,
  pageQuerySchema,
  requestIdSchema,
  signedAmountSchema,
} from './primitives';
import { defineEndpoint } from './endpoint';

export const meInfoSchema = z.object({
  address: addressSchema,
  inviteCode: inviteCodeSchema,
  recommender: z.nullable(addressSchema),
  level: intAtLeast(0),
  creditBalance: amountSchema,
  wposBalance: amountSchema,
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

export const creditRecordTypeSchema = z.enum(['withdraw', 'exchange', 'order', 'reward', 'transfer']);
export const creditRecordSchema = z.object({
  id: z.string(),
  type: creditRecordTypeSchema,
  amount: signedAmountSchema,
  balanceAfter: amountSchema,
  status: z.enum(['pending', 'done', 'failed']),
  createdAt: isoDateSchema,
});

export const creditRecord = defineEndpoint({
  method: 'GET',
  path: '/api/member/creditRecord',
  access: 'member',
  summary: 'Credit records, newest first',
  query: z.extend(pageQuerySchema, { type: z.optional(creditRecordTypeSchema) }),
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
  result: z.object({ id: z.string(), amount: amountSchema, fee: amountSchema, status: z.enum(['pending', 'done', 'failed']) }),
});

export const teamMemberSchema = z.object({
  address: addressSchema,
  level: intAtLeast(0),
  teamSize: intAtLeast(0),
  joinedAt: isoDateSchema,
});

export const team = defineEndpoint({
  method: 'GET',
  path: '/api/member/team',
  access: 'member',
  summary: 'The downline, direct members first (added)',
  query: pageQuerySchema,
  body: undefined,
  result: pageOf(teamMemberSchema),
});

export const teamSearch = defineEndpoint({
  method: 'GET',
  path: '/api/member/team/search',
  access: 'member',
  summary: 'Search the whole downline by address fragment (added)',
  query: z.object({ keyword: checked(z.string(), z.regex(/^(0x)?[0-9a-fA-F]{1,40}$/, 'keyword')) }),
  body: undefined,
  result: z.object({ list: z.array(teamMemberSchema) }),
});
