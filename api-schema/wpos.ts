import * as z from 'zod/mini';
import { addressSchema, amountSchema, balanceSchema, isoDateSchema, pageOf, pageQuerySchema, recordIdSchema, requestIdSchema, signedAmountSchema } from './primitives';
import { defineEndpoint } from './endpoint';

export const wposProfit = defineEndpoint({
  method: 'GET',
  path: '/api/member/wposProfit',
  access: 'member',
  summary: 'WPOS profit records and totals (added)',
  query: z.extend(pageQuerySchema, { before: z.optional(recordIdSchema) }),
  body: undefined,
  result: z.extend(pageOf(z.object({ id: z.string(), amount: amountSchema, source: z.string(), createdAt: isoDateSchema })), {
    totalProfit: balanceSchema,
    todayProfit: balanceSchema,
  }),
});

export const wposRecordTypeSchema = z.enum(['transfer', 'exchange', 'reward', 'distribution']);
export const wposRecordSchema = z.object({
  id: z.string(),
  type: wposRecordTypeSchema,
  amount: signedAmountSchema,
  balanceAfter: balanceSchema,
  counterparty: z.optional(addressSchema),
  createdAt: isoDateSchema,
});

export const wposRecord = defineEndpoint({
  method: 'GET',
  path: '/api/member/wposRecord',
  access: 'member',
  summary: 'WPOS records, newest first (added)',
  query: z.extend(pageQuerySchema, { type: z.optional(wposRecordTypeSchema), before: z.optional(recordIdSchema) }),
  body: undefined,
  result: pageOf(wposRecordSchema),
});

export const getRentValidBindMemberAddress = defineEndpoint({
  method: 'GET',
  path: '/api/member/getRentValidBindMemberAddress',
  access: 'member',
  summary: 'Members the caller may transfer WPOS to',
  query: undefined,
  body: undefined,
  result: z.object({ list: z.array(addressSchema) }),
});

export const transferWpos = defineEndpoint({
  method: 'POST',
  path: '/api/member/transferWpos',
  access: 'member',
  summary: 'Transfer WPOS to a bound team member; at most once per requestId',
  query: undefined,
  body: z.strictObject({ toAddress: addressSchema, amount: amountSchema, requestId: requestIdSchema }),
  result: z.object({ id: z.string(), amount: amountSchema, status: z.enum(['pending', 'done', 'failed']) }),
});

export const flashExchange = defineEndpoint({
  method: 'POST',
  path: '/api/member/flashExchange',
  access: 'member',
  summary: 'Exchange WPOS and credit at the configured rate; at most once per requestId',
  query: undefined,
  body: z.strictObject({ from: z.enum(['WPOS', 'CREDIT']), amount: amountSchema, requestId: requestIdSchema }),
  result: z.object({ id: z.string(), paid: amountSchema, received: amountSchema, rate: amountSchema }),
});

export const getSharePools = defineEndpoint({
  method: 'GET',
  path: '/api/member/getSharePools',
  access: 'member',
  summary: 'Share pools and the caller share',
  query: undefined,
  body: undefined,
  result: z.object({
    list: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        totalAmount: balanceSchema,
        minHolding: balanceSchema,
        myShare: balanceSchema,
        nextDistributionAt: isoDateSchema,
      }),
    ),
  }),
});
