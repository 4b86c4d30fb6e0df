/**
 * Reconcile on a schedule (docs/operations.md, "Metrics and alerts"): every RECONCILE_EVERY_MS one instance, the holder
 * of the `reconcile` lease, runs the reconcile call's work and stores what it found in reconcile_runs, which every
 * instance's metrics, alerts and desk read. The operator's own GET /api/admin/reconcile still reads both sides at the
 * moment it is asked.
 */
import { desc } from 'drizzle-orm';
import type { z } from 'zod';
import { opsReconcile } from '../../api-schema/opsMoney';
import { toMinor } from '../../api-schema/amount';
import type { Clock } from '../clock';
import type { Db } from '../db/client';
import { releaseJobLease, takeJobLease } from '../db/leases';
import { reconcileRuns } from '../db/schema';
import type { Chain } from './chain';
import type { Payer } from './payer';
import { pollLoop, type PollLoop } from './pollLoop';
import { reconcile } from './reconcile';

/** RECONCILE_EVERY_MS unless set: a minute. */
export const DEFAULT_RECONCILE_EVERY_MS = 60_000;

/** What reconcile answers (the operator's call and each stored run). */
export type ReconcileResult = z.infer<typeof opsReconcile.result>;

export interface ReconcileRun {
  id: bigint;
  ranAt: Date;
  ok: boolean;
  /** backing − owed, minor units. */
  difference: bigint;
  result: ReconcileResult;
}

export interface ReconcileScheduleOptions {
  db: Db;
  chain: Chain;
  payer: Payer | undefined;
  now: Clock;
  /** This instance's name for the lease. */
  holder: string;
  everyMs: number;
  onError?: ((error: unknown) => void) | undefined;
  /**
   * Told after each round of the lease holder, in the round: the run stored, or undefined when reconcile failed (a
   * node that does not answer). The alerts judge the figures then (server/alerts/alerts.ts), the chain's failure too.
   */
  afterRun?: ((run: ReconcileRun | undefined) => Promise<void>) | undefined;
}

/** The schedule: its rounds on a timer, and one round on demand (tests, and the first run at start). */
export interface ReconcileSchedule extends PollLoop {
  /** Runs reconcile if this instance holds the lease; the stored run, or undefined when another instance holds it. */
  round(): Promise<ReconcileRun | undefined>;
}

/** A signed decimal string of reconcile's (`-12.5`) in minor units. */
const signedMinor = (text: string): bigint => (text.startsWith('-') ? -toMinor(text.slice(1)) : toMinor(text));

/**
 * Creates the schedule (stopped until start()).
 *
 * @param options - database, chain, payer, clock, this instance, how often
 * @returns the schedule
 * @example
 * const schedule = reconcileSchedule({ db, chain, payer, now, holder: 'host:8787', everyMs: 60_000 });
 * schedule.start();
 */
export function reconcileSchedule(options: ReconcileScheduleOptions): ReconcileSchedule {
  // Three rounds' length: a holder that stops renewing (a crash) hands the job over within three minutes.
  const lease = { name: 'reconcile', holder: options.holder, leaseMs: options.everyMs * 3 };
  async function round(): Promise<ReconcileRun | undefined> {
    if (!(await takeJobLease(options.db, lease))) return undefined;
    const ranAt = options.now();
    let run: ReconcileRun | undefined;
    try {
      run = await storeReconcileRun(options.db, await reconcile(options.db, options.chain, options.payer, ranAt), ranAt);
    } finally {
      await options.afterRun?.(run);
    }
    return run;
  }
  const loop = pollLoop(round, options.everyMs, { onError: options.onError, now: options.now });
  let first: Promise<unknown> | undefined;
  return {
    ...loop,
    round,
    start: () => {
      loop.start();
      // The first run at once, not a round's length after start: metrics and alerts have a verdict from the start.
      first = round().catch((error: unknown) => options.onError?.(error));
    },
    stop: async () => {
      await Promise.all([loop.stop(), first]);
      await releaseJobLease(options.db, lease).catch(() => undefined);
    },
  };
}

/**
 * Stores what a reconcile found (the schedule's round; the resume of paused payouts, whose fresh reconcile is the
 * newest verdict).
 *
 * @param db - database handle
 * @param result - reconcile's answer
 * @param ranAt - when it ran
 * @returns the stored run
 * @example
 * const run = await storeReconcileRun(db, await reconcile(db, chain, payer, now), now);
 */
export async function storeReconcileRun(db: Db, result: ReconcileResult, ranAt: Date): Promise<ReconcileRun> {
  const difference = signedMinor(result.difference);
  const [stored] = await db.insert(reconcileRuns).values({ ranAt, ok: result.ok, difference, result }).returning({ id: reconcileRuns.id });
  if (!stored) throw new Error('reconcile run not stored');
  return { id: stored.id, ranAt, ok: result.ok, difference, result };
}

/**
 * The newest stored run, or undefined before the first.
 *
 * @param db - database handle
 * @returns the run
 * @example
 * const run = await latestReconcileRun(db);
 */
export async function latestReconcileRun(db: Db): Promise<ReconcileRun | undefined> {
  const [row] = await db.select().from(reconcileRuns).orderBy(desc(reconcileRuns.id)).limit(1);
  // Runs stored before payout pauses existed (migration 0037) have no `pause`.
  return row ? { ...row, result: opsReconcile.result.parse({ pause: null, ...(row.result as object) }) } : undefined;
}
