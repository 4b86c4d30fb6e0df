/**
 * The share pools (docs/API.md "WPOS"): at 00:00 UTC each pool pays its daily amount from the WPOS pools account (a
 * funded account: it pays only what finance put in, server/ledger/accounts.ts) to the
 * members holding at least its minimum, pro rata to their balances, each share rounded down (the remainder stays
 * unpaid). A pool's payout is one request of the ledger engine (server/ledger/engine.ts) with one fan leg to its holders, and
 * a day's pools are one batch in one transaction, so it is set-based and all or nothing: a crash half-way commits
 * none of it, and the rerun pays exactly the members not yet paid, which is all of them. At most once per (pool, UTC day): the engine's at-most-once key (scope the pool,
 * request id the day) makes a concurrent run on any instance answer 3005 and a later one the stored outcome; the
 * payout's business row (share_pool_payouts, keyed by pool and day) outlives the outcome's retention.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { formatMinor, toMinor } from '../../api-schema/amount';
import { ApiCode } from '../../api-schema/codes';
import { utcDay, utcDayStart } from '../clock';
import { bigintText, queryRows, type Db } from '../db/client';
import { systemAccountId } from './accounts';
import { postRequests, type LedgerRequest } from './engine';

const POOLS = systemAccountId('WPOS', 'pools');

export interface SharePool {
  id: number;
  name: string;
  /** The daily amount, minor units. */
  totalAmount: bigint;
  /** The smallest balance that earns a share, minor units. */
  minHolding: bigint;
}

const poolRow = z.object({ id: z.number().int(), name: z.string(), totalAmount: bigintText, minHolding: bigintText });

/**
 * The next payout: the coming 00:00 UTC.
 *
 * @param now - the current time
 * @returns the start of the next UTC day
 * @example
 * nextPayoutAt(new Date('2026-11-25T13:00:00Z')); // 2026-11-26T00:00:00.000Z
 */
export function nextPayoutAt(now: Date): Date {
  return new Date(utcDayStart(now).getTime() + 86_400_000);
}

/**
 * A holder's share of a pool (the rule's one statement): balance × daily amount ÷ the eligible balances' sum,
 * rounded down; 0 below the minimum holding.
 *
 * @param balance - the holder's WPOS balance, minor units
 * @param pool - the pool's daily amount and minimum
 * @param eligibleSum - the sum of every balance at or above the minimum, this one included
 * @returns the share in minor units
 * @example
 * shareOf(30_000_000n, { totalAmount: 100_000_000n, minHolding: 1_000_000n }, 90_000_000n); // 33_333_333n
 */
export function shareOf(balance: bigint, pool: Pick<SharePool, 'totalAmount' | 'minHolding'>, eligibleSum: bigint): bigint {
  if (balance <= 0n || balance < pool.minHolding || eligibleSum <= 0n) return 0n;
  return (balance * pool.totalAmount) / eligibleSum;
}

const poolViewRow = poolRow.extend({ eligibleSum: bigintText, mine: bigintText });

/**
 * getSharePools: each pool with what the member would receive if it paid now, and the next payout time.
 *
 * @param db - database handle
 * @param memberId - the caller
 * @param now - the current time
 * @returns the contract's list
 * @example
 * const { list } = await sharePoolsOf(db, memberId, now);
 */
export async function sharePoolsOf(db: Db, memberId: number, now: Date) {
  const rows = await queryRows(
    db,
    sql`SELECT p.id, p.name, p.total_amount AS "totalAmount", p.min_holding AS "minHolding",
          (SELECT coalesce(sum(a.balance), 0) FROM ledger_accounts a
            WHERE a.asset = 'WPOS' AND a.member_id IS NOT NULL AND a.balance > 0 AND a.balance >= p.min_holding) AS "eligibleSum",
          coalesce((SELECT a.balance FROM ledger_accounts a WHERE a.member_id = ${memberId}::int AND a.asset = 'WPOS'), 0) AS mine
        FROM share_pools p ORDER BY p.min_holding, p.id`,
    poolViewRow,
  );
  const nextDistributionAt = nextPayoutAt(now).toISOString();
  return {
    list: rows.map((row) => ({
      id: String(row.id),
      name: row.name,
      totalAmount: formatMinor(row.totalAmount),
      minHolding: formatMinor(row.minHolding),
      myShare: formatMinor(shareOf(row.mine, row, row.eligibleSum)),
      nextDistributionAt,
    })),
  };
}

const holdersRow = z.object({ ids: z.array(z.number().int()), balances: z.array(z.string()) });
const payoutResult = z.object({ paid: z.string(), run: z.string() });

/** What a distribution run paid: how many pools paid in it and their total, and how many the funded account could not cover. */
export interface DistributionRun {
  pools: number;
  paid: bigint;
  /** Pools left unpaid: the pools account held less than their payout (a later run the same day pays them once funded). */
  unfunded: number;
}

/**
 * Runs the share-pool payout of a day (the server's timer at 00:00 UTC and the operator's distribute): every pool
 * not yet paid that day pays its holders as they are now, all pools from one reading of the balances (a payout
 * does not lift a member into the next pool's minimum) and in one transaction, one engine request per pool. A day
 * already paid, or being paid elsewhere, pays nothing more.
 *
 * @param db - database handle (not a transaction)
 * @param day - the UTC day, YYYY-MM-DD (a missed past day pays on today's balances)
 * @param now - the current time
 * @returns the pools that paid in this run and what they paid
 * @example
 * const { pools, paid } = await distribute(db, utcDay(now), now);
 */
export async function distribute(db: Db, day: string, now: Date, options: DistributeOptions = {}): Promise<DistributionRun> {
  return db.transaction(async (tx) => {
    const pools = await queryRows(
      tx,
      sql`SELECT id, name, total_amount AS "totalAmount", min_holding AS "minHolding" FROM share_pools p
          WHERE NOT EXISTS (SELECT 1 FROM share_pool_payouts d WHERE d.pool_id = p.id AND d.day = ${day}::date) ORDER BY min_holding, id`,
      poolRow,
    );
    const lowest = pools[0]?.minHolding;
    if (lowest === undefined) return { pools: 0, paid: 0n, unfunded: 0 };
    // Two arrays in one row: 100,000 holders parse as two arrays, not 100,000 row objects.
    const [holders] = await queryRows(
      tx,
      sql`SELECT coalesce(array_agg(member_id ORDER BY member_id), '{}') AS ids, coalesce(array_agg(balance::text ORDER BY member_id), '{}') AS balances
          FROM ledger_accounts WHERE asset = 'WPOS' AND member_id IS NOT NULL AND balance > 0 AND balance >= ${lowest.toString()}::bigint`,
      holdersRow,
    );
    const ids = holders?.ids ?? [];
    const balances = (holders?.balances ?? []).map((balance) => BigInt(balance));
    const run = randomUUID();
    const requests: LedgerRequest[] = [];
    // The pools pay only what finance put in (a funded account): a pool the rest does not cover is left for a later
    // run, not refused (a refusal would be its day's stored outcome). The engine checks again under the lock.
    let funds = await fundedBalance(tx, POOLS);
    let unfunded = 0;
    for (const pool of pools) {
      const eligibleSum = balances.reduce((sum, balance) => (balance >= pool.minHolding ? sum + balance : sum), 0n);
      const members: number[] = [];
      const amounts: bigint[] = [];
      let paid = 0n;
      balances.forEach((balance, index) => {
        const share = shareOf(balance, pool, eligibleSum);
        if (share === 0n) return;
        paid += share;
        members.push(ids[index] ?? 0);
        amounts.push(share);
      });
      // A pool with no eligible member pays nothing that day, and records nothing: a later run the same day may pay.
      if (members.length === 0) continue;
      if (paid > funds) {
        unfunded += 1;
        continue;
      }
      funds -= paid;
      requests.push({
        key: { scope: `pool:${pool.id}`, endpoint: 'distribute', requestId: day, body: { pool: pool.id, day } },
        now,
        // One fan leg: the pool's payout to every member with a share.
        legs: [{ asset: 'WPOS', type: 'distribution', from: { system: POOLS }, to: { members }, amounts, memo: pool.name }],
        record: { table: 'share_pool_payouts', row: { pool_id: pool.id, day, paid, holders: members.length, created_at: now } },
        result: { paid: formatMinor(paid), run },
      });
    }
    const outcomes = requests.length > 0 ? await postRequests(tx, requests) : [];
    // 3005: another instance is paying that pool now; a stored outcome of another run: it was paid already.
    const ours = outcomes.filter((outcome) => outcome.code === ApiCode.ok && payoutResult.parse(outcome.result).run === run);
    const result = { pools: ours.length, paid: ours.reduce((sum, outcome) => sum + toMinor(payoutResult.parse(outcome.result).paid), 0n), unfunded };
    await options.audit?.(tx, result);
    return result;
  });
}

export interface DistributeOptions {
  /** The operator's audit row, written in the payout's transaction (an operator's distribute). */
  audit?: ((tx: Db, run: DistributionRun) => Promise<void>) | undefined;
}

const balanceRow = z.object({ balance: bigintText });

/** A funded system account's kept balance (0 when missing). */
async function fundedBalance(db: Db, accountId: number): Promise<bigint> {
  const [row] = await queryRows(db, sql`SELECT balance FROM ledger_accounts WHERE id = ${accountId}::int AND funded`, balanceRow);
  return row?.balance ?? 0n;
}

/**
 * The server's own payout timer: at each 00:00 UTC (read from the clock), today's distribution.
 *
 * @param db - database handle
 * @param clock - the server's clock
 * @param onError - where a failed run is reported (the next midnight tries again)
 * @returns stop(), for the server's close: no new run starts, and it resolves once a run under way has ended (a
 *   stopping server closes its database after it)
 * @example
 * const stop = startPayoutTimer(db, deps.now, (error) => app.log.error(error)); ...; await stop();
 */
export function startPayoutTimer(db: Db, clock: () => Date, onError: (error: unknown) => void): () => Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let running: Promise<void> | undefined;
  const schedule = () => {
    if (stopped) return;
    const now = clock();
    const midnight = nextPayoutAt(now);
    // The day is the one the timer was set for, even if the clock reads a hair before midnight when it fires.
    timer = setTimeout(() => {
      running = distribute(db, utcDay(midnight), clock())
        .then(() => undefined, onError)
        .finally(() => {
          running = undefined;
          schedule();
        });
    }, midnight.getTime() - now.getTime());
    timer.unref();
  };
  schedule();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
  };
}
