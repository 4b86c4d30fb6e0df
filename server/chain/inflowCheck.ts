/**
 * Reconcile's check of the treasury's inflows (docs/API.md, "Credit on chain: what reconcile says"): the token's
 * Transfer logs to the treasury over the newest INFLOW_CHECK_BLOCKS blocks the top-up watcher has read (after its
 * first cursor, top_up_watch_starts, up to its cursor), beside what it
 * credited or held for each transaction. A transaction the chain shows paying the treasury more than the ledger knows
 * is a missed top-up, listed (the operator re-reads its range: POST /api/admin/topUps/reread), never a silent surplus.
 * A second reading of the same chain, by range this time, so that one node's empty answer cannot hide it twice.
 */
import { sql } from 'drizzle-orm';
import { getAddress, type Hex } from 'viem';
import { z } from 'zod';
import { bigintText, queryRows, type Db } from '../db/client';
import type { Chain } from './chain';
import { toLedgerUnits } from './chainReads';
import { transferEvent } from './transferEvent';

/** How far back from the watcher's cursor reconcile looks, and the range of one eth_getLogs call. */
export const INFLOW_CHECK_BLOCKS = 10_000n;
const LOGS_RANGE = 2_000n;

export interface MissedTopUp {
  txHash: Hex;
  from: string;
  /** What the chain shows beyond what the ledger credited or holds for the transaction, in ledger units. */
  amount: bigint;
  blockNumber: bigint;
}

const cursorRow = z.object({ cursor: bigintText.nullable(), start: bigintText.nullable() });
const knownRow = z.object({ txHash: z.string(), amount: bigintText });

/**
 * The treasury's inflows the ledger does not know of, in the blocks the watcher has read.
 *
 * @param db - database handle
 * @param chain - the app's chain
 * @returns the missed top-ups, oldest first
 * @example
 * const missed = await missedTopUps(db, chain);
 */
export async function missedTopUps(db: Db, chain: Chain): Promise<MissedTopUp[]> {
  const { settings, client } = chain;
  const [row] = await queryRows(
    db,
    sql`SELECT (SELECT max(number) FROM chain_blocks WHERE chain_id = ${settings.chainId}::int) AS cursor,
          (SELECT first_cursor FROM top_up_watch_starts WHERE chain_id = ${settings.chainId}::int) AS start`,
    cursorRow,
  );
  const cursor = row?.cursor ?? null;
  if (cursor === null) return [];
  // The watcher reads the blocks after its first cursor: before it, the treasury's inflows are no top-ups of its.
  const windowStart = cursor >= INFLOW_CHECK_BLOCKS ? cursor - INFLOW_CHECK_BLOCKS + 1n : 0n;
  const afterStart = (row?.start ?? cursor) + 1n;
  const from = windowStart > afterStart ? windowStart : afterStart;
  const inflow = new Map<Hex, { from: string; amount: bigint; blockNumber: bigint }>();
  for (let start = from; start <= cursor; start += LOGS_RANGE) {
    const end = start + LOGS_RANGE - 1n < cursor ? start + LOGS_RANGE - 1n : cursor;
    const logs = await client.getLogs({ address: settings.token, event: transferEvent, args: { to: settings.treasury }, fromBlock: start, toBlock: end, strict: true });
    for (const log of logs) {
      const seen = inflow.get(log.transactionHash);
      const amount = toLedgerUnits(log.args.value, chain.token.decimals);
      inflow.set(log.transactionHash, { from: getAddress(log.args.from), amount: (seen?.amount ?? 0n) + amount, blockNumber: log.blockNumber });
    }
  }
  if (inflow.size === 0) return [];
  const known = await queryRows(
    db,
    sql`SELECT tx_hash AS "txHash", sum(amount)::bigint AS amount FROM top_ups
        WHERE chain_id = ${settings.chainId}::int AND lower(tx_hash) IN (SELECT lower(jsonb_array_elements_text(${JSON.stringify([...inflow.keys()])}::jsonb)))
        GROUP BY tx_hash`,
    knownRow,
  );
  const credited = new Map(known.map((entry) => [entry.txHash.toLowerCase(), entry.amount]));
  return [...inflow]
    .map(([txHash, entry]) => ({ txHash, from: entry.from, amount: entry.amount - (credited.get(txHash.toLowerCase()) ?? 0n), blockNumber: entry.blockNumber }))
    .filter((entry) => entry.amount > 0n)
    .sort((a, b) => (a.blockNumber < b.blockNumber ? -1 : a.blockNumber > b.blockNumber ? 1 : 0));
}
