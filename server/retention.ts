/**
 * What the server keeps and for how long (docs/deploy/retention.md): every table that grows with use has a rule.
 * The ledger, the audit log, top-ups, payments and unknown payments are kept for ever (they are the books); the rows
 * below only serve a while and are swept by the server every hour, in bounded batches per table, so a sweep
 * never holds a long transaction. Nonces, rate-limit counters and idempotency outcomes have sweeps of their own
 * (server/auth/nonces.ts, server/plugins/rateLimitStore.ts, server/ledger/idempotency.ts), as do the watcher's kept
 * blocks (server/chain/topUpWatcher.ts).
 */
import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { queryRows, type Db } from './db/client';
import { pollLoop, type PollLoop } from './chain/pollLoop';

const DAY_MS = 86_400_000;

export interface RetentionRule {
  table: string;
  /** Days a row is kept after it stopped serving. */
  keepDays: number;
  /** When a row stopped serving (the rule's clock), as SQL on the table's columns. */
  servedUntil: SQL;
  why: string;
}

/** The swept tables' rules. */
export const RETENTION_RULES: readonly RetentionRule[] = [
  { table: 'tokens', keepDays: 30, servedUntil: sql`least(expires_at, coalesce(revoked_at, expires_at))`, why: "Members' session tokens: 30 days after they expired or were revoked." },
  { table: 'operator_sessions', keepDays: 30, servedUntil: sql`least(expires_at, coalesce(revoked_at, expires_at))`, why: "Operators' sessions: 30 days after they expired or ended (the audit log keeps who acted)." },
  { table: 'ops_policy_usage', keepDays: 90, servedUntil: sql`at`, why: "The policy's totals read 24 hours back; 90 days are kept to answer questions about them." },
  {
    table: 'reconcile_runs',
    keepDays: 30,
    // The newest run is what the metrics and alerts read: it stays whatever its age (a schedule that stopped).
    servedUntil: sql`CASE WHEN id = (SELECT max(id) FROM reconcile_runs) THEN 'infinity'::timestamptz ELSE ran_at END`,
    why: "Reconcile's scheduled runs: 30 days of verdicts to look back on; the newest one is always kept.",
  },
  {
    table: 'alert_deliveries',
    keepDays: 30,
    // Only what was delivered: an event still being retried is kept until it goes out.
    servedUntil: sql`coalesce(delivered_at, 'infinity'::timestamptz)`,
    why: "The alerts' webhook calls: 30 days after they were delivered (the alerts and the audit log keep the events).",
  },
];

/** Rows one statement of a sweep removes at most: each batch is its own short transaction. */
const BATCH = 10_000;
/**
 * Batches per table and round at most: a million rows an hour, past what a million members' daily sessions expire
 * (measured in the scale bench), while a round never runs for long.
 */
const MAX_BATCHES = 100;

/**
 * One sweep of every rule, as of `now`: each table in batches until a batch finds fewer than it may remove.
 *
 * @param db - database handle
 * @param now - the server's clock
 * @param options - rows per batch (tests make it small)
 * @returns the rows removed, by table
 * @example
 * const removed = await sweepRetention(db, new Date());
 */
export async function sweepRetention(db: Db, now: Date, options: { batch?: number } = {}): Promise<Record<string, number>> {
  const batch = options.batch ?? BATCH;
  const removed: Record<string, number> = {};
  for (const rule of RETENTION_RULES) {
    const before = new Date(now.getTime() - rule.keepDays * DAY_MS).toISOString();
    let total = 0;
    for (let round = 0; round < MAX_BATCHES; round++) {
      const rows = await queryRows(
        db,
        sql`WITH gone AS (DELETE FROM ${sql.identifier(rule.table)} WHERE ctid IN (
              SELECT ctid FROM ${sql.identifier(rule.table)} WHERE ${rule.servedUntil} < ${before}::timestamptz LIMIT ${batch}::int) RETURNING 1)
            SELECT count(*)::int AS n FROM gone`,
        z.object({ n: z.number() }),
      );
      const n = rows[0]?.n ?? 0;
      total += n;
      if (n < batch) break;
    }
    removed[rule.table] = total;
  }
  return removed;
}

/**
 * The hourly sweep on a timer (several instances may each run it: a row is removed once, whoever removes it).
 *
 * @param db - database handle
 * @param now - the server's clock
 * @param onError - where a failed sweep is reported
 * @returns the loop (start, stop)
 * @example
 * const retention = retentionTimer(db, now, (error) => log.warn({ err: error }, 'retention sweep failed'));
 */
export function retentionTimer(db: Db, now: () => Date, onError: (error: unknown) => void): PollLoop {
  return pollLoop(() => sweepRetention(db, now()), 3_600_000, { onError, now });
}
