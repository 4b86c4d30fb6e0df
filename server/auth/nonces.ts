/**
 * Sign-in nonces: at least 128 random bits, single use, valid 5 minutes, tied to the address they were issued for,
 * and kept in the database so that any server instance can check a nonce another one issued.
 */
import { randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import type { Db } from '../db/client';
import { nonces } from '../db/schema';

export const NONCE_TTL_MS = 5 * 60 * 1000;

export interface IssuedNonce {
  nonce: string;
  issuedAt: string;
  expirationTime: string;
}

/**
 * Issues a nonce for an address.
 *
 * @param db - database handle
 * @param address - EIP-55 address the nonce is for
 * @param now - the current instant
 * @returns the nonce (32 hex digits: 128 bits, alphanumeric as EIP-4361 requires) and its validity
 * @example
 * const { nonce } = await issueNonce(db, '0x8ba1f109551bD432803012645Ac136ddd64DBA72', new Date());
 */
export async function issueNonce(db: Db, address: string, now: Date): Promise<IssuedNonce> {
  const nonce = randomBytes(16).toString('hex');
  const expiresAt = new Date(now.getTime() + NONCE_TTL_MS);
  // Expired nonces of this address are useless; dropping them here keeps the table small without a sweeper.
  await db.delete(nonces).where(and(eq(nonces.address, address), lt(nonces.expiresAt, now)));
  await db.insert(nonces).values({ value: nonce, address, createdAt: now, expiresAt });
  return { nonce, issuedAt: now.toISOString(), expirationTime: expiresAt.toISOString() };
}

/**
 * Marks a nonce used, atomically: one UPDATE that only matches an unused, unexpired nonce of this address, so of
 * two requests racing with the same message exactly one wins (the other waits for the row lock, then no longer
 * matches). Call it inside the sign-in transaction so a later failure gives the nonce back.
 *
 * @param tx - transaction handle
 * @param nonce - the message's nonce
 * @param address - the message's address (EIP-55)
 * @param now - the current instant
 * @returns true when the nonce was valid and is now used
 * @example
 * if (!(await consumeNonce(tx, fields.nonce, fields.address, now))) throw new NonceInvalidError();
 */
export async function consumeNonce(tx: Db, nonce: string, address: string, now: Date): Promise<boolean> {
  const used = await tx
    .update(nonces)
    .set({ usedAt: now })
    .where(and(eq(nonces.value, nonce), eq(nonces.address, address), isNull(nonces.usedAt), gt(nonces.expiresAt, now)))
    .returning({ value: nonces.value });
  return used.length === 1;
}
