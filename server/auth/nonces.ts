/**
 * Sign-in nonces: at least 128 random bits, single use, valid 5 minutes, tied to the address they were issued for,
 * and kept in the database so that any server instance can check a nonce another one issued. Sign-in uses a
 * nonce inside its own statement (startSession in signIn.ts).
 */
import { randomBytes } from 'node:crypto';
import { lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { nonces } from '../db/schema';
import { createBatcher } from '../ledger/batcher';
import { namedStatement } from '../ledger/statements';

export const NONCE_TTL_MS = 5 * 60 * 1000;

export interface IssuedNonce {
  nonce: string;
  issuedAt: string;
  expirationTime: string;
}

interface NonceRow {
  value: string;
  address: string;
  createdAt: string;
  expiresAt: string;
}

function newNonce(address: string, now: Date): NonceRow {
  return {
    value: randomBytes(16).toString('hex'),
    address,
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + NONCE_TTL_MS).toISOString(),
  };
}

function issuedOf(row: NonceRow): IssuedNonce {
  return { nonce: row.value, issuedAt: row.createdAt, expirationTime: row.expiresAt };
}

/** loginNonce's one statement, for every nonce of a batch; prepared once per database handle. */
const insertNonces = namedStatement(
  'issue_nonces',
  sql`INSERT INTO nonces (value, address, created_at, expires_at)
      SELECT x.value, x.address, x."createdAt", x."expiresAt"
      FROM jsonb_to_recordset(${sql.placeholder('rows')}::jsonb) AS x(value text, address text, "createdAt" timestamptz, "expiresAt" timestamptz)`,
);

/**
 * Stores nonces in one statement (one commit), sweeping the expired ones every SWEEP_EVERY nonces first, as of the
 * newest nonce's issue time.
 */
async function storeNonces(db: Db, rows: readonly NonceRow[]): Promise<void[]> {
  issuedSinceSweep += rows.length;
  const newest = rows[rows.length - 1];
  if (issuedSinceSweep >= SWEEP_EVERY && newest) {
    issuedSinceSweep = 0;
    await sweepExpiredNonces(db, new Date(newest.createdAt));
  }
  await insertNonces(db).execute({ rows: JSON.stringify(rows) });
  return rows.map(() => undefined);
}

/**
 * Issues a nonce for an address, alone (the route batches through createNonceIssuer).
 *
 * @param db - database handle
 * @param address - EIP-55 address the nonce is for
 * @param now - the current instant
 * @returns the nonce (32 hex digits: 128 bits, alphanumeric as EIP-4361 requires) and its validity
 * @example
 * const { nonce } = await issueNonce(db, '0x8ba1f109551bD432803012645Ac136ddd64DBA72', new Date());
 */
export async function issueNonce(db: Db, address: string, now: Date): Promise<IssuedNonce> {
  const row = newNonce(address, now);
  await storeNonces(db, [row]);
  return issuedOf(row);
}

export interface NonceIssuer {
  /** Issues a nonce for an address; resolves once it is committed. */
  issue(address: string, now: Date): Promise<IssuedNonce>;
}

/**
 * loginNonce's nonces, batched (ADR 0012's group commit): the nonces asked for in one turn of the event loop are
 * inserted by one statement and one commit. On PGlite a commit's WAL write through the file system and the
 * statement's fixed cost were most of a nonce's.
 *
 * @param db - database handle
 * @param maxInFlight - batches at once (BATCHES_IN_FLIGHT of the driver)
 * @returns the issuer
 * @example
 * const { nonce } = await createNonceIssuer(db, 1).issue(address, new Date());
 */
export function createNonceIssuer(db: Db, maxInFlight: number): NonceIssuer {
  const batcher = createBatcher((rows: NonceRow[]) => storeNonces(db, rows), { maxBatch: 128, maxInFlight });
  return {
    async issue(address, now) {
      const row = newNonce(address, now);
      await batcher.submit(row);
      return issuedOf(row);
    },
  };
}

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
