/**
 * The share pools (docs/API.md "WPOS"): at 00:00 UTC each pool pays its daily amount from the WPOS pools account (a
 * funded account: it pays only what finance put in, server/ledger/accounts.ts) to the members holding at least its
 * minimum, pro rata to their balances, each share rounded down (the remainder stays unpaid). The rule and the
 * member's view are here; the payout itself (planned once, paid in batches at most once per holder) is
 * server/ledger/poolPayouts.ts.
 */
import { sql } from 'drizzle-orm';
import { formatMinor } from '../../api-schema/amount';
import { z } from 'zod';
import { utcDayStart } from '../clock';
import { bigintText, queryRows, type Db } from '../db/client';

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
