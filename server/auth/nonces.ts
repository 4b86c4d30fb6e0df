/**
 * Sign-in nonces: at least 128 random bits, single use, valid 5 minutes, tied to the address they were issued for,
 * and kept in the database so that any server instance can check a nonce another one issued. Sign-in uses a
 * nonce inside its own statement (startSession in signIn.ts).
 */
import { randomBytes } from 'node:crypto';
import { lt, sql } from 'drizzle-orm';
import { preparedPerDb, type Db } from '../db/client';
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
  issuedSinceSweep++;
  if (issuedSinceSweep >= SWEEP_EVERY) {
    issuedSinceSweep = 0;
    await sweepExpiredNonces(db, now);
  }
  await insertNonceOf(db).execute({ value: nonce, address, createdAt: now, expiresAt });
  return { nonce, issuedAt: now.toISOString(), expirationTime: expiresAt.toISOString() };
}

/** loginNonce's one statement, built once per database handle. */
const insertNonceOf = preparedPerDb((db) =>
  db
    .insert(nonces)
    .values({
      value: sql.placeholder('value'),
      address: sql.placeholder('address'),
      createdAt: sql.placeholder('createdAt'),
      expiresAt: sql.placeholder('expiresAt'),
    })
    .prepare('issue_nonce'),
);

/**
 * Every this many nonces an instance issues, it also deletes every expired nonce (one statement on the
 * expires_at index). Expired nonces are refused whether they are still there or not, so the sweep only keeps the
 * table small; doing it now and then keeps it off the statement count of a sign-in.
 */
export const SWEEP_EVERY = 64;
let issuedSinceSweep = 0;

/**
 * Deletes the nonces that have expired, used or not, of every address.
 *
 * @param db - database handle
 * @param now - the current instant
 * @returns how many were deleted
 * @example
 * await sweepExpiredNonces(db, new Date());
 */
export async function sweepExpiredNonces(db: Db, now: Date): Promise<number> {
  const swept = await db.delete(nonces).where(lt(nonces.expiresAt, now)).returning({ value: nonces.value });
  return swept.length;
}
