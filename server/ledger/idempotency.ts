/**
 * At most once per request id (docs/API.md, "Money: one ledger, at most once per request id"): the ledger engine
 * (engine.sql's ledger_post) keeps it for every money flow; runOnce below keeps it, with the same key lock
 * (ledger_key_lock) and the same stored outcomes, for work that moves no money.
 *
 * In one transaction a request takes its key's transaction-scoped advisory lock (held elsewhere: the first request
 * is still running → 3005), reads the stored outcome (another body hash → 3003; the same → that outcome, nothing
 * moves again), and otherwise runs its work and stores the outcome in the same transaction as the money, so both
 * commit or neither does, on PGlite and on any number of PostgreSQL clients alike. A rejection (a coded error
 * such as 3001) is an outcome too: the work is rolled back to a savepoint and the rejection stored. A process that
 * dies mid-request leaves nothing behind, so a retry runs afresh. Outcomes are kept at least 24 hours (swept after
 * 48).
 */
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import * as zm from 'zod/mini';
import { ApiCode, type ApiCodeValue } from '../../api-schema/codes';
import { rowsOf, type Db } from '../db/client';
import { apiCodeOf, errorOfApiCode } from '../errors';
import { namedStatement } from './statements';

/** Outcomes are kept this long at least (docs/API.md says 24 hours). */
export const OUTCOME_RETENTION_MS = 48 * 60 * 60 * 1000;
/** One request in this many sweeps the expired outcomes. */
const SWEEP_EVERY = 256;

export interface IdempotentRequest {
  /** Whose request id it is: `member:<id>`, `operator:<key>`, or the flow's own (`withdrawal`, `chain:<id>`, `ops`). */
  scope: string;
  /** The contract name of the endpoint. */
  endpoint: string;
  /**
   * The endpoint's name before a rename, for OUTCOME_RETENTION_MS after it: an outcome stored under it still answers
   * a retry, and its lock is taken too, so the previous release and this one never run one request at once.
   */
  formerEndpoint?: string;
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

/**
 * The stored hash of a canonical body.
 *
 * @param body - the body as it counts for "same body"
 * @returns hex sha256 of its canonical JSON
 * @example
 * hashBody({ amount: '20' });
 */
export function hashBody(body: Record<string, unknown>): string {
  return createHash('sha256').update(canonicalJson(body), 'utf8').digest('hex');
}

// Row schemas at module level: zod compiles an object schema on first use, so one built per call costs a compile
// per request (server/db/client.ts, rowsOf).
const storedRejection = z.object({ message: z.string() });

/** A stored or fresh outcome: the code (0 for success) and the result (`{ message }` or NULL for a rejection). */
export interface StoredOutcome {
  code: number;
  result: unknown;
}

/**
 * The answer an outcome stands for: the result of a success, the error of a rejection.
 *
 * @param outcome - code and result as the ledger engine or runOnce answered them
 * @param resultSchema - the endpoint's result schema
 * @returns the result when the code is 0
 * @throws the rejection's error (its stored message, else the code's own)
 * @example
 * return answerOf({ code: 0, result: { id: '1' } }, endpoints.withdrawCredit.result);
 */
export function answerOf<S extends zm.ZodMiniType>(outcome: StoredOutcome, resultSchema: S): zm.output<S> {
  if (outcome.code === ApiCode.ok) return zm.parse(resultSchema, outcome.result);
  const stored = storedRejection.safeParse(outcome.result);
  throw errorOfApiCode(outcome.code as ApiCodeValue, stored.success ? stored.data.message : undefined);
}

const p = (name: string) => sql.placeholder(name);

const lockStatement = namedStatement(
  'idempotency_lock',
  sql`SELECT pg_try_advisory_xact_lock(ledger_key_lock(${p('scope')}::text, ${p('endpoint')}::text, ${p('requestId')}::text)) AS locked`,
);

// A statement of its own, after the lock: its snapshot then sees an outcome the previous holder committed.
const readStatement = namedStatement(
  'idempotency_read',
  sql`SELECT body_hash AS "bodyHash", code, result FROM idempotency_keys
      WHERE scope = ${p('scope')}::text AND endpoint = ${p('endpoint')}::text AND request_id = ${p('requestId')}::text`,
);

const storeStatement = namedStatement(
  'idempotency_store',
  sql`INSERT INTO idempotency_keys (scope, endpoint, request_id, body_hash, code, result, created_at)
      VALUES (${p('scope')}::text, ${p('endpoint')}::text, ${p('requestId')}::text, ${p('bodyHash')}::text, ${p('code')}::int,
        ${p('result')}::jsonb, ${p('now')}::timestamptz)`,
);

const lockRow = z.object({ locked: z.boolean() });
const storedRow = z.object({ bodyHash: z.string(), code: z.number().int(), result: z.unknown() });

let requests = 0;

/**
 * Every SWEEP_EVERY-th call deletes the outcomes older than OUTCOME_RETENTION_MS (the batched paths call it too).
 *
 * @param db - database handle
 * @param now - the current instant
 * @returns when swept (or not due)
 * @example
 * await sweepOutcomes(db, now);
 */
export async function sweepOutcomes(db: Db, now: Date): Promise<void> {
  if (++requests % SWEEP_EVERY !== 0) return;
  await db.execute(sql`DELETE FROM idempotency_keys WHERE created_at < ${new Date(now.getTime() - OUTCOME_RETENTION_MS)}::timestamptz`);
}

/**
 * Runs a money request at most once per (scope, endpoint, requestId): the work runs in the transaction that
 * opened the key and stores its outcome; any repeat gets the stored outcome.
 *
 * @param db - database handle (not a transaction: the request commits on its own)
 * @param request - scope, endpoint, request id, canonical body, time
 * @param resultSchema - the endpoint's result schema, to read a stored result back
 * @param work - the request's reads and writes, on the transaction handle; throws a coded error to reject
 * @returns the result of the first (successful) run
 * @throws the stored rejection, RequestIdReusedError (3003), RequestInProgressError (3005), or the work's error
 * @example
 * return runOnce(db, { scope: `operator:${operator}`, endpoint: 'opsAdjust', requestId, body, now }, resultSchema, (tx) => adjust(tx, ...));
 */
export async function runOnce<S extends zm.ZodMiniType>(
  db: Db,
  request: IdempotentRequest,
  resultSchema: S,
  work: (tx: Db) => Promise<zm.output<S>>,
): Promise<zm.output<S>> {
  const { scope, endpoint, requestId, now } = request;
  const bodyHash = hashBody(request.body);
  const names = request.formerEndpoint ? [endpoint, request.formerEndpoint] : [endpoint];
  await sweepOutcomes(db, now);
  const outcome = await db.transaction(async (tx): Promise<StoredOutcome> => {
    // Both locks are tried, never waited for: two instances can take them in any order without a deadlock.
    for (const name of names) {
      const [lock] = rowsOf(await lockStatement(tx).execute({ scope, endpoint: name, requestId }), lockRow);
      if (!lock?.locked) return { code: ApiCode.requestInProgress, result: null };
    }
    let stored: z.infer<typeof storedRow> | undefined;
    for (const name of names) {
      [stored] = rowsOf(await readStatement(tx).execute({ scope, endpoint: name, requestId }), storedRow);
      if (stored) break;
    }
    if (stored) return stored.bodyHash === bodyHash ? { code: stored.code, result: stored.result } : { code: ApiCode.requestIdReused, result: null };
    let fresh: StoredOutcome;
    try {
      // A savepoint: a rejection rolls the work back, and its outcome is stored in this same transaction.
      fresh = { code: ApiCode.ok, result: await tx.transaction((savepoint) => work(savepoint)) };
    } catch (error) {
      const code = apiCodeOf(error);
      if (code === undefined || !(error instanceof Error)) throw error;
      fresh = { code, result: { message: error.message } };
    }
    await storeStatement(tx).execute({ scope, endpoint, requestId, bodyHash, code: fresh.code, result: JSON.stringify(fresh.result ?? null), now });
    return fresh;
  });
  return answerOf(outcome, resultSchema);
}
