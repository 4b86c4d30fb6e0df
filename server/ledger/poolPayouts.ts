/**
 * The share pools' daily payout (docs/API.md "WPOS", ADR 0035): planned once, then paid in batches.
 *
 * The plan is one transaction: every pool not yet planned that day reads the holders' balances once (a payout cannot
 * lift a member over the next pool's minimum), computes each share (shareOf) and writes its payout row and one share
 * row per holder. Then batches of `batch` holders are paid, each one engine request (one fan leg from the pools
 * account) that deletes the share rows it pays in its own transaction: a holder is paid at most once whatever
 * crashes (a killed batch commits nothing, its rows stay to be paid), and a million holders never hold their accounts'
 * locks for the whole payout. Planners take the pools account's row lock, so two runs plan a day once; batchers claim
 * rows with SKIP LOCKED, so any number of runs (the timer, the operator's distribute, a restarted server) pay each row
 * once between them.
 */
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { bigintText, queryRows, type Db } from '../db/client';
import { systemAccountId } from './accounts';
import { postRequests } from './engine';
import { utcDay } from '../clock';
import { nextPayoutAt, shareOf, type SharePool } from './sharePools';

const POOLS = systemAccountId('WPOS', 'pools');

/** Holders paid per transaction of a payout (SHARE_POOL_PAYOUT_BATCH): a batch holds its holders' locks for a fifth of a second. */
export const PAYOUT_BATCH = 10_000;

/** Batches of one payout under way at once (on two connections where the database has them). */
const BATCHES_AT_ONCE = 2;

/** What a distribution run did: the pools whose payout it finished and what it paid, and the pools it left unfunded. */
export interface DistributionRun {
  pools: number;
  paid: bigint;
  /** Pools left unplanned: the pools account held less than their payout (a later run the same day pays them once funded). */
  unfunded: number;
}

/** What a plan decided: the pools it planned and their total. */
export interface PayoutPlan {
  pools: number;
  total: bigint;
  unfunded: number;
}

/** How payouts are paid: holders per batch, and the fault tests' hook. */
export interface PayoutOptions {
  /** Holders per batch (PAYOUT_BATCH unless said). */
  batch?: number | undefined;
  /** Fault tests only (PAYOUT_FAULT_AT=afterBatch): told after each batch committed. */
  onBatch?: (() => void) | undefined;
}

export interface DistributeOptions extends PayoutOptions {
  /** The operator's audit row, written in the plan's transaction (an operator's distribute decides the plan). */
  audit?: ((tx: Db, plan: PayoutPlan) => Promise<void>) | undefined;
}

const poolRow = z.object({ id: z.number().int(), name: z.string(), totalAmount: bigintText, minHolding: bigintText });
const holdersRow = z.object({ ids: z.array(z.number().int()), balances: z.array(z.string()) });
const amountRow = z.object({ amount: bigintText });

/** An int or bigint array parameter in PostgreSQL's array text form (one parameter, whatever the driver). */
const arrayText = (values: readonly (number | bigint)[]) => `{${values.join(',')}}`;

/**
 * Plans the day's payout of every pool not yet planned that day (one transaction, one reading of the balances).
 *
 * @param db - database handle (not a transaction)
 * @param day - the UTC day, YYYY-MM-DD
 * @param now - the current time
 * @param audit - the operator's audit row, in the plan's transaction
 * @returns the pools planned and their total
 * @example
 * const plan = await planPayouts(db, '2026-11-22', now);
 */
export async function planPayouts(db: Db, day: string, now: Date, audit?: DistributeOptions['audit']): Promise<PayoutPlan> {
  return db.transaction(async (tx) => {
    // The pools account's row lock orders the planners (and the batches, whose engine takes it too): a second run reads
    // the first one's plan once it committed.
    const [account] = await queryRows(tx, sql`SELECT balance AS amount FROM ledger_accounts WHERE id = ${POOLS}::int AND funded FOR UPDATE`, amountRow);
    const pools = await queryRows(
      tx,
      sql`SELECT id, name, total_amount AS "totalAmount", min_holding AS "minHolding" FROM share_pools p
          WHERE NOT EXISTS (SELECT 1 FROM share_pool_payouts d WHERE d.pool_id = p.id AND d.day = ${day}::date) ORDER BY min_holding, id`,
      poolRow,
    );
    const lowest = pools[0]?.minHolding;
    if (lowest === undefined) return { pools: 0, total: 0n, unfunded: 0 };
    // Two arrays in one row: a million holders parse as two arrays, not a million row objects.
    const [holders] = await queryRows(
      tx,
      sql`SELECT coalesce(array_agg(member_id ORDER BY member_id), '{}') AS ids, coalesce(array_agg(balance::text ORDER BY member_id), '{}') AS balances
          FROM ledger_accounts WHERE asset = 'WPOS' AND member_id IS NOT NULL AND balance > 0 AND balance >= ${lowest.toString()}::bigint`,
      holdersRow,
    );
    const ids = holders?.ids ?? [];
    const balances = (holders?.balances ?? []).map((balance) => BigInt(balance));
    // The pools pay only what finance put in, less what earlier plans still owe: a pool the rest does not cover is left
    // for a later run, not refused.
    const [owed] = await queryRows(tx, sql`SELECT coalesce(sum(amount), 0) AS amount FROM share_pool_shares`, amountRow);
    let funds = (account?.amount ?? 0n) - (owed?.amount ?? 0n);
    const plan: PayoutPlan = { pools: 0, total: 0n, unfunded: 0 };
    for (const pool of pools) {
      const shares = sharesOf(pool, ids, balances);
      // A pool with no eligible member pays nothing that day, and records nothing: a later run the same day may pay.
      if (shares.members.length === 0) continue;
      if (shares.total > funds) {
        plan.unfunded += 1;
        continue;
      }
      funds -= shares.total;
      await tx.execute(
        sql`INSERT INTO share_pool_payouts (pool_id, day, paid, holders, remaining, created_at)
            VALUES (${pool.id}::int, ${day}::date, ${shares.total.toString()}::bigint, ${shares.members.length}::int, ${shares.members.length}::int, ${now.toISOString()}::timestamptz)`,
      );
      await tx.execute(
        sql`INSERT INTO share_pool_shares (pool_id, day, member_id, amount)
            SELECT ${pool.id}::int, ${day}::date, member_id, amount FROM unnest(${arrayText(shares.members)}::int[], ${arrayText(shares.amounts)}::bigint[]) AS s (member_id, amount)`,
      );
      plan.pools += 1;
      plan.total += shares.total;
    }
    if (plan.pools > 0) await audit?.(tx, plan);
    return plan;
  });
}

/** Each eligible holder's share of one pool (shareOf), in member order. */
function sharesOf(pool: SharePool, ids: readonly number[], balances: readonly bigint[]) {
  const eligibleSum = balances.reduce((sum, balance) => (balance >= pool.minHolding ? sum + balance : sum), 0n);
  const members: number[] = [];
  const amounts: bigint[] = [];
  let total = 0n;
  balances.forEach((balance, index) => {
    const share = shareOf(balance, pool, eligibleSum);
    if (share === 0n) return;
    total += share;
    members.push(ids[index] ?? 0);
    amounts.push(share);
  });
  return { members, amounts, total };
}

const openPayoutRow = z.object({ poolId: z.number().int(), day: z.string(), name: z.string() });
const claimRow = z.object({ ids: z.array(z.number().int()).nullable(), amounts: z.array(z.string()).nullable(), total: bigintText });
const remainingRow = z.object({ remaining: z.number().int() });

/**
 * Pays the planned shares not paid yet, in batches: of one day, or of every day (a restarted server finishing what a
 * crash left).
 *
 * @param db - database handle (not a transaction)
 * @param day - the UTC day, or undefined for every unfinished payout
 * @param now - the current time (the transfers' time)
 * @param options - batch size and the fault tests' hook
 * @returns the payouts this run finished and what it paid
 * @example
 * const { pools, paid } = await payPlanned(db, undefined, now);
 */
export async function payPlanned(db: Db, day: string | undefined, now: Date, options: PayoutOptions = {}): Promise<Omit<DistributionRun, 'unfunded'>> {
  const batch = options.batch ?? PAYOUT_BATCH;
  const open = await queryRows(
    db,
    sql`SELECT d.pool_id AS "poolId", d.day::text AS day, p.name FROM share_pool_payouts d JOIN share_pools p ON p.id = d.pool_id
        WHERE d.remaining > 0 ${day === undefined ? sql`` : sql`AND d.day = ${day}::date`} ORDER BY d.day, p.min_holding, d.pool_id`,
    openPayoutRow,
  );
  const run = { pools: 0, paid: 0n };
  for (const payout of open) {
    // Two batches at a time: one claims its shares and commits while the other pays (every batch debits the pools
    // account, so the paying itself goes one batch at a time).
    // A failed batch stops the other at its next batch, and the run answers only once both have ended: nothing of
    // the payout goes on paying behind a run that has already failed.
    let failed = false;
    const settled = await Promise.allSettled(
      Array.from({ length: BATCHES_AT_ONCE }, async () => {
        try {
          while (!failed) {
            const paid = await payBatch(db, payout, batch, now);
            if (!paid) return;
            options.onBatch?.();
            run.paid += paid.total;
            if (paid.finished) run.pools += 1;
          }
        } catch (error) {
          failed = true;
          throw error;
        }
      }),
    );
    const failure = settled.find((result) => result.status === 'rejected');
    if (failure) throw failure.reason;
  }
  return run;
}

/** One batch of a payout in one transaction: claims up to `batch` shares, pays them, deletes them. Undefined: none left to claim. */
async function payBatch(db: Db, payout: z.infer<typeof openPayoutRow>, batch: number, now: Date): Promise<{ total: bigint; finished: boolean } | undefined> {
  return db.transaction(async (tx) => {
    // SKIP LOCKED: rows another run is paying now are its own; a row is deleted by the batch that pays it. The batch
    // is picked once (MATERIALIZED) and deleted by its rows' ctids (a TID scan): as `(pool_id, day, member_id) IN
    // (SELECT … FOR UPDATE SKIP LOCKED)` the planner could, on a table not yet analysed, run the locking subquery
    // again for each row of the table, and a payout of 100,000 holders ran for minutes without paying a batch.
    const [claim] = await queryRows(
      tx,
      sql`WITH picked AS MATERIALIZED (
            SELECT ctid FROM share_pool_shares WHERE pool_id = ${payout.poolId}::int AND day = ${payout.day}::date
            ORDER BY member_id LIMIT ${batch}::int FOR UPDATE SKIP LOCKED
          ), claimed AS (
            DELETE FROM share_pool_shares WHERE ctid = ANY (ARRAY(SELECT ctid FROM picked))
            RETURNING member_id, amount)
          SELECT array_agg(member_id ORDER BY member_id) AS ids, array_agg(amount::text ORDER BY member_id) AS amounts, coalesce(sum(amount), 0) AS total FROM claimed`,
      claimRow,
    );
    const ids = claim?.ids ?? [];
    if (ids.length === 0) return undefined;
    const amounts = (claim?.amounts ?? []).map((amount) => BigInt(amount));
    const [outcome] = await postRequests(tx, [
      { now, legs: [{ asset: 'WPOS', type: 'distribution', from: { system: POOLS }, to: { members: ids }, amounts, memo: payout.name }] },
    ]);
    // The plan reserved these funds; a refusal means the books changed under it, and nothing of the batch commits.
    if (outcome?.code !== 0) throw new Error(`the payout of pool ${payout.poolId} on ${payout.day} was refused: ${outcome?.code}`);
    const [left] = await queryRows(
      tx,
      sql`UPDATE share_pool_payouts SET remaining = remaining - ${ids.length}::int,
            completed_at = CASE WHEN remaining = ${ids.length}::int THEN ${now.toISOString()}::timestamptz END
          WHERE pool_id = ${payout.poolId}::int AND day = ${payout.day}::date RETURNING remaining`,
      remainingRow,
    );
    return { total: claim?.total ?? 0n, finished: left?.remaining === 0 };
  });
}

/**
 * Runs the share-pool payout of a day (the server's timer at 00:00 UTC and the operator's distribute): plans every pool
 * not yet planned that day, then pays that day's shares not paid yet (this run's plan, or one a crash left).
 *
 * @param db - database handle (not a transaction)
 * @param day - the UTC day, YYYY-MM-DD (a missed past day pays on today's balances)
 * @param now - the current time
 * @param options - the operator's audit, batch size, the fault tests' hook
 * @returns the payouts this run finished, what it paid, and the pools left unfunded
 * @example
 * const { pools, paid } = await distribute(db, utcDay(now), now);
 */
export async function distribute(db: Db, day: string, now: Date, options: DistributeOptions = {}): Promise<DistributionRun> {
  const plan = await planPayouts(db, day, now, options.audit);
  const paid = await payPlanned(db, day, now, options);
  return { ...paid, unfunded: plan.unfunded };
}

/**
 * The server's own payout timer: at start, what a crash left of any day's payout; then at each 00:00 UTC (read from
 * the clock), today's distribution.
 *
 * @param db - database handle
 * @param clock - the server's clock
 * @param onError - where a failed run is reported (the next midnight, or the next start, tries again)
 * @param options - batch size and the fault tests' hook
 * @returns stop(), for the server's close: no new run starts, and it resolves once a run under way has ended (a
 *   stopping server closes its database after it)
 * @example
 * const stop = startPayoutTimer(db, deps.now, (error) => app.log.error(error)); ...; await stop();
 */
export function startPayoutTimer(
  db: Db,
  clock: () => Date,
  onError: (error: unknown) => void,
  options: PayoutOptions = {},
): () => Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let running: Promise<void> | undefined;
  const schedule = () => {
    if (stopped) return;
    const now = clock();
    const midnight = nextPayoutAt(now);
    // The day is the one the timer was set for, even if the clock reads a hair before midnight when it fires.
    timer = setTimeout(() => {
      running = distribute(db, utcDay(midnight), clock(), options)
        .then(() => undefined, onError)
        .finally(() => {
          running = undefined;
          schedule();
        });
    }, midnight.getTime() - now.getTime());
    timer.unref();
  };
  running = payPlanned(db, undefined, clock(), options)
    .then(() => undefined, onError)
    .finally(() => {
      running = undefined;
      schedule();
    });
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
  };
}
