import { z } from 'zod';

/** A 0x-prefixed 20-byte address. The server additionally requires the EIP-55 checksum where it matters. */
export const addressSchema = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'address');
/** Unsigned decimal amount with at most 6 decimals (the server keeps integer minor units, API.md "Envelope"). */
export const amountSchema = z.string().regex(/^(0|[1-9]\d{0,17})(\.\d{1,6})?$/, 'amount');
/** Signed decimal amount, as in credit records. */
export const signedAmountSchema = z.string().regex(/^-?(0|[1-9]\d{0,17})(\.\d{1,6})?$/, 'signedAmount');
export const isoDateSchema = z.iso.datetime({ offset: true });
export const requestIdSchema = z.uuid();
export const inviteCodeSchema = z.string().regex(/^[A-Za-z0-9]{4,16}$/, 'inviteCode');
export const langSchema = z.enum(['zh', 'en']);

/** Query page parameters: `page` is 1-based, `pageSize` 1..100, default 20. Query strings arrive as text. */
export const pageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});

/** A page of results. */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    list: z.array(item),
    total: z.number().int().min(0),
    page: z.number().int().min(1),
    pageSize: z.number().int().min(1),
  });
}

/** The response envelope: `{ code, message?, result? }` (API.md "Envelope"). */
export function envelopeOf<T extends z.ZodType>(result: T) {
  return z.object({
    code: z.number().int(),
    message: z.string().optional(),
    result: result.optional(),
  });
}

export const emptySchema = z.object({}).strict();
