/**
 * At most once per request id (API.md, "Money: one ledger, at most once per request id"): the one mechanism every
 * money endpoint goes through. A request first claims its key (scope, endpoint, requestId) in a statement of its
 * own; the unique primary key makes exactly one of several racing requests the owner, on PGlite and on any number
 * of PostgreSQL clients alike. The owner then runs its work and stores the outcome in the same transaction as the
 * money, so either both commit or neither does. A rejection (a coded error such as 3001) rolls the work back and is
 * stored on its own; an unexpected error releases the claim, so a retry runs afresh.
 *
 * Repeats: same body and an outcome stored → that outcome (code and result), nothing moves again; another body →
 * 3003; same body while the owner still runs → 3005. A process that dies mid-request leaves a claim without an
 * outcome and without money (they commit together); once its lease has run out, a retry with the same body takes
 * the claim over. Outcomes are kept at least 24 hours (swept after 48).
 */
import { createHash, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import * as zm from 'zod/mini';
import { ApiCode, type ApiCodeValue } from '../../api-schema/codes';
import { queryRows, rowsOf, type Db } from '../db/client';
import { apiCodeOf, errorOfApiCode, RequestIdReusedError, RequestInProgressError } from '../errors';
import { namedStatement } from './statements';

/** How long a claim stays its owner's: longer than any request may run (buildApp's requestTimeout is 30 s). */
export const CLAIM_LEASE_MS = 60_000;
/** Outcomes are kept this long at least (API.md says 24 hours). */
export const OUTCOME_RETENTION_MS = 48 * 60 * 60 * 1000;
/** One claim in this many sweeps the expired outcomes. */
const SWEEP_EVERY = 256;

export interface IdempotentRequest {
  /** Whose request id it is: `member:<id>` or `admin`. */
  scope: string;
  /** The contract name of the endpoint. */
  endpoint: string;
  requestId: string;
  /** The body as it counts for "same body": canonical values (amounts normalised), requestId left out. */
  body: Record<string, unknown>;
  now: Date;
}

/**
 * JSON with object keys sorted, so equal bodies hash equally whatever the key order.
 *
 * @param value - a JSON value
 * @returns its canonical text
 * @example
 * canonicalJson({ b: 1, a: '2' }); // '{"a":"2","b":1}'
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

function hashBody(body: Record<string, unknown>): string {
  return createHash('sha256').update(canonicalJson(body), 'utf8').digest('hex');
}

const keyRow = z.object({
  bodyHash: z.string(),
  status: z.string(),
  code: z.number().int().nullable(),
  result: z.unknown(),
});

// Row schemas at module level: zod compiles an object schema on first use, so one built per call costs a compile
// per request (server/db/client.ts, rowsOf).
const tokenRow = z.object({ token: z.string() });
const oneRow = z.object({ one: z.number() });
const storedRejection = z.object({ message: z.string() });

let claims = 0;

const p = (name: string) => sql.placeholder(name);

const claimStatement = namedStatement(
  'idempotency_claim',
  sql`INSERT INTO idempotency_keys (scope, endpoint, request_id, body_hash, claim_token, status, lease_until, created_at)
      VALUES (${p('scope')}::text, ${p('endpoint')}::text, ${p('requestId')}::text, ${p('bodyHash')}::text, ${p('token')}::text,
        'running', ${p('leaseUntil')}::timestamptz, ${p('now')}::timestamptz)
      ON CONFLICT (scope, endpoint, request_id) DO UPDATE
        SET claim_token = excluded.claim_token, lease_until = excluded.lease_until
        WHERE idempotency_keys.status = 'running' AND idempotency_keys.lease_until < excluded.created_at
          AND idempotency_keys.body_hash = excluded.body_hash
      RETURNING claim_token AS "token"`,
);

const completeStatement = namedStatement(
  'idempotency_complete',
  sql`UPDATE idempotency_keys
      SET status = 'done', code = ${p('code')}::int, result = ${p('result')}::jsonb, completed_at = ${p('now')}::timestamptz
      WHERE scope = ${p('scope')}::text AND endpoint = ${p('endpoint')}::text AND request_id = ${p('requestId')}::text
        AND claim_token = ${p('token')}::text AND status = 'running'
      RETURNING 1 AS "one"`,
);

/** Claims the key, or takes over a claim whose lease ran out; true when this attempt owns it. */
async function claim(db: Db, request: IdempotentRequest, bodyHash: string, token: string): Promise<boolean> {
  const { scope, endpoint, requestId, now } = request;
  const leaseUntil = new Date(now.getTime() + CLAIM_LEASE_MS);
  const rows = rowsOf(await claimStatement(db).execute({ scope, endpoint, requestId, bodyHash, token, leaseUntil, now }), tokenRow);
  return rows[0]?.token === token;
}

/** Stores the outcome if this attempt still owns the claim; false when it lost it (lease taken over). */
async function complete(db: Db, request: IdempotentRequest, token: string, code: number, result: unknown): Promise<boolean> {
  const { scope, endpoint, requestId, now } = request;
  const values = { scope, endpoint, requestId, token, code, result: JSON.stringify(result ?? null), now };
  return rowsOf(await completeStatement(db).execute(values), oneRow).length === 1;
}

async function release(db: Db, request: IdempotentRequest, token: string): Promise<void> {
  await db.execute(
    sql`DELETE FROM idempotency_keys
        WHERE scope = ${request.scope}::text AND endpoint = ${request.endpoint}::text AND request_id = ${request.requestId}::text
          AND claim_token = ${token}::text AND status = 'running'`,
  );
}

async function sweep(db: Db, now: Date): Promise<void> {
  await db.execute(sql`DELETE FROM idempotency_keys WHERE created_at < ${new Date(now.getTime() - OUTCOME_RETENTION_MS)}::timestamptz`);
}

class LostClaimError extends Error {
  constructor() {
    super('idempotency claim lost before the outcome was stored');
  }
}

/**
 * Runs a money request at most once per (scope, endpoint, requestId): the work runs in a transaction that also
 * stores its outcome; any repeat gets the stored outcome.
 *
 * @param db - database handle (not a transaction: the claim commits on its own)
 * @param request - scope, endpoint, request id, canonical body, time
 * @param resultSchema - the endpoint's result schema, to read a stored result back
 * @param work - the request's reads and writes, on the transaction handle; throws a coded error to reject
 * @returns the result of the first (successful) run
 * @throws the stored rejection, RequestIdReusedError (3003), RequestInProgressError (3005), or the work's error
 * @example
 * return runOnce(db, { scope: `member:${memberId}`, endpoint: 'withdrawCredit', requestId, body, now }, resultSchema,
 *   (tx) => withdraw(tx, ...));
 */
export async function runOnce<S extends zm.ZodMiniType>(
  db: Db,
  request: IdempotentRequest,
  resultSchema: S,
  work: (tx: Db) => Promise<zm.output<S>>,
): Promise<zm.output<S>> {
  const bodyHash = hashBody(request.body);
  if (++claims % SWEEP_EVERY === 0) await sweep(db, request.now);
  for (let attempt = 0; attempt < 3; attempt++) {
    const token = randomUUID();
    if (await claim(db, request, bodyHash, token)) return runClaimed(db, request, token, work);
    const [row] = await queryRows(
      db,
      sql`SELECT body_hash AS "bodyHash", status, code, result FROM idempotency_keys
          WHERE scope = ${request.scope}::text AND endpoint = ${request.endpoint}::text AND request_id = ${request.requestId}::text`,
      keyRow,
    );
    // Released between the two statements (the owner failed unexpectedly): claim again.
    if (!row) continue;
    if (row.bodyHash !== bodyHash) throw new RequestIdReusedError();
    if (row.status !== 'done' || row.code === null) throw new RequestInProgressError();
    if (row.code === ApiCode.ok) return zm.parse(resultSchema, row.result);
    const stored = storedRejection.safeParse(row.result);
    throw errorOfApiCode(row.code as ApiCodeValue, stored.success ? stored.data.message : '');
  }
  throw new RequestInProgressError();
}

async function runClaimed<T>(db: Db, request: IdempotentRequest, token: string, work: (tx: Db) => Promise<T>): Promise<T> {
  try {
    return await db.transaction(async (tx) => {
      const result = await work(tx);
      if (!(await complete(tx, request, token, ApiCode.ok, result))) throw new LostClaimError();
      return result;
    });
  } catch (error) {
    const code = apiCodeOf(error);
    // A rejection is an outcome too: stored, and the answer to every repeat. The work's writes were rolled back.
    if (code !== undefined && error instanceof Error && !(error instanceof LostClaimError)) {
      await complete(db, request, token, code, { message: error.message });
    } else {
      await release(db, request, token).catch(() => undefined);
    }
    throw error;
  }
}
