import * as z from 'zod/mini';
import { amountPattern, balancePattern, signedAmountPattern } from './amount';

/**
 * `schema.check(...checks)` as a function call marked free of side effects. A method call at module level would
 * keep its schema in every bundle that imports the module; through this, a client bundle drops the schemas of
 * the endpoints it never calls (the zod/mini builders are marked the same way).
 *
 * @example
 * const nonceSchema = checked(z.string(), z.minLength(8)); // z.string().check(z.minLength(8))
 */
// @__NO_SIDE_EFFECTS__
export function checked<T extends z.ZodMiniType>(schema: T, ...checks: z.core.$ZodCheck<z.output<T>>[]): T {
  return schema.check(...checks);
}

/** A 0x-prefixed 20-byte address. The server additionally requires the EIP-55 checksum where it matters. */
export const addressSchema = checked(z.string(), z.regex(/^0x[0-9a-fA-F]{40}$/, 'address'));
/**
 * An amount in a request: a decimal string > 0 with at most 12 integer digits and 6 decimals (docs/API.md, "Money"); the
 * server keeps integer minor units. "0", "0.000000", "-1", "1.0000001" and 13 integer digits are refused.
 */
export const amountSchema = checked(
  z.string(),
  z.regex(amountPattern, 'amount'),
  z.refine((value) => /[1-9]/.test(value), 'amount'),
);
/** A balance or other unsigned amount in a result, which may be 0 ("0", "12.5"). */
export const balanceSchema = checked(z.string(), z.regex(balancePattern, 'balance'));
/** Signed decimal amount, as in credit records. */
export const signedAmountSchema = checked(z.string(), z.regex(signedAmountPattern, 'signedAmount'));
/** A transaction hash: 32 bytes as 0x and 64 hex digits. */
export const txHashSchema = checked(z.string(), z.regex(/^0x[0-9a-fA-F]{64}$/, 'txHash'));
/** A record's id as lists answer it, in a query: a positive decimal integer of at most 18 digits (keyset `before`). */
export const recordIdSchema = checked(z.string(), z.regex(/^[1-9][0-9]{0,17}$/, 'before'));
export const isoDateSchema = z.iso.datetime({ offset: true });
export const requestIdSchema = z.uuid();
export const inviteCodeSchema = checked(z.string(), z.regex(/^[A-Za-z0-9]{4,16}$/, 'inviteCode'));
export const langSchema = z.enum(['zh', 'en']);

/** A whole number of at least `min` (as classic zod's `z.number().int().min(min)`). */
export const intAtLeast = /* @__NO_SIDE_EFFECTS__ */ (min: number) => checked(z.number(), z.int(), z.minimum(min));

/** Query page parameters: `page` is 1-based, `pageSize` 1..100, default 20. Query strings arrive as text. */
export const pageQuerySchema = z.object({
  page: z._default(checked(z.coerce.number(), z.int(), z.minimum(1)), 1),
  pageSize: z._default(checked(z.coerce.number(), z.int(), z.minimum(1), z.maximum(100)), 20),
});

/** A page of results. */
// @__NO_SIDE_EFFECTS__
export function pageOf<T extends z.ZodMiniType>(item: T) {
  return z.object({
    list: z.array(item),
    total: intAtLeast(0),
    page: intAtLeast(1),
    pageSize: intAtLeast(1),
  });
}

/** The response envelope: `{ code, message?, result? }` (docs/API.md "Envelope"). */
// @__NO_SIDE_EFFECTS__
export function envelopeOf<T extends z.ZodMiniType>(result: T) {
  return z.object({
    code: checked(z.number(), z.int()),
    message: z.optional(z.string()),
    result: z.optional(result),
  });
}

export const emptySchema = z.strictObject({});
