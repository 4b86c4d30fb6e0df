/**
 * Top-ups as a flow of the ledger engine (docs/API.md, "Credit on chain"; ADR 0014): a token Transfer log to the treasury
 * is a request whose at-most-once key is (chain, transaction hash, the log's position among its transaction's logs:
 * what a reorganisation that mines the transaction again cannot change, unlike the log's index in its block), whose
 * leg moves the amount from the `chain` system account to the sender's member account (or to `held_top_ups` when the
 * sender is no member yet), and whose business row is the top_ups row. A held top-up reaches its sender at a
 * sign-in: another request, keyed the same way, from `held_top_ups` to the member, with its top_up_releases row
 * (or an operator releases it to a member, or returns it to the sender on chain: heldTopUps.ts). The
 * engine does the locking, batching and balances; this module only states the requests, which logs are new, and
 * which credits the chain no longer has.
 */
import { sql } from 'drizzle-orm';
import type { Address, Hex } from 'viem';
import { z } from 'zod';
import { formatMinor } from '../../api-schema/amount';
import { ApiCode } from '../../api-schema/codes';
import { bigintText, queryRows, type Db } from '../db/client';
import { systemAccountId } from '../ledger/accounts';
import { postRequests, type LedgerRequest } from '../ledger/engine';
import { stageSql, WithdrawalStage } from '../ledger/withdrawalLifecycle';

const CHAIN = systemAccountId('CREDIT', 'chain');
const HELD = systemAccountId('CREDIT', 'held_top_ups');

/** A requests' batch this large is one ledger_post call (a round of the watcher may credit thousands). */
const POST_CHUNK = 500;

/** One Transfer log to the treasury, as the watcher read it. */
export interface TopUpLog {
  /** Lower case, as the node answers it. */
  txHash: Hex;
  /** The log's index in its transaction's receipt (server/chain/topUpReads.ts). */
  logPosition: number;
  from: Address;
  /** Ledger minor units (rounded down), > 0. */
  amount: bigint;
  blockNumber: bigint;
  blockHash: Hex;
}

/**
 * The engine's key. `/` where the keys of before migration 0018 had `:` and a block's log index: no new key can be
 * an old one (a row of before 0018 has a position below 0, and the watcher never posts its transaction again).
 */
const keyOf = (chainId: number, log: { txHash: string; logPosition: number }, endpoint: 'topUp' | 'topUpRelease') => ({
  scope: `chain:${chainId}`,
  endpoint,
  requestId: `${log.txHash}/${log.logPosition}`,
});

/**
 * The key of a held top-up's decision: its release to a member (at its sender's sign-in, or by an operator) or its
 * return to the sender (server/chain/heldTopUps.ts). One key for both, so that whichever is posted first wins and
 * the other is refused by the engine (another body) or waits (in progress). A return the chain failed (voided:
 * the amount is held again) frees the top-up for a new decision, keyed by the number of failed returns.
 *
 * @param chainId - the chain
 * @param log - the top-up
 * @param failedReturns - its voided returns
 * @returns the engine's key, without its body
 * @example
 * decisionKey(56, { txHash, logPosition: 0 }, 0); // { scope: 'chain:56', endpoint: 'topUpRelease', requestId: '0xab…/0' }
 */
export function decisionKey(chainId: number, log: { txHash: string; logPosition: number }, failedReturns: number) {
  const key = keyOf(chainId, log, 'topUpRelease');
  return failedReturns === 0 ? key : { ...key, requestId: `${key.requestId}#${failedReturns}` };
}

/** Whether top-up `t` has a return under way or paid (a withdrawal of no member that is not voided). */
export const liveReturnSql = sql`EXISTS (SELECT 1 FROM withdrawals w JOIN ledger_pending d ON d.id = w.id
  WHERE w.top_up_tx_hash = t.tx_hash AND w.top_up_log_position = t.log_position AND d.stage <> ${stageSql(WithdrawalStage.voided)})`;

/** How many returns of top-up `t` the chain failed (voided). */
export const failedReturnsSql = sql`(SELECT count(*)::int FROM withdrawals w JOIN ledger_pending d ON d.id = w.id
  WHERE w.top_up_tx_hash = t.tx_hash AND w.top_up_log_position = t.log_position AND d.stage = ${stageSql(WithdrawalStage.voided)})`;

/**
 * A top-up log as the engine's request.
 *
 * @param chainId - the chain
 * @param log - the log
 * @param memberId - the sender's member id, or undefined to hold it
 * @param now - when it is credited
 * @returns the request
 * @example
 * postRequests(db, [topUpRequest(56, log, memberId, now)]);
 */
export function topUpRequest(chainId: number, log: TopUpLog, memberId: number | undefined, now: Date): LedgerRequest {
  return {
    key: { ...keyOf(chainId, log, 'topUp'), body: { from: log.from, amount: formatMinor(log.amount) } },
    now,
    legs: [{ asset: 'CREDIT', type: 'topUp', from: { system: CHAIN }, to: memberId === undefined ? { system: HELD } : { member: memberId }, amount: log.amount, memo: log.txHash }],
    record: {
      table: 'top_ups',
      row: {
        chain_id: chainId,
        tx_hash: log.txHash,
        log_position: log.logPosition,
        from_address: log.from,
        member_id: memberId ?? null,
        amount: log.amount,
        block_number: log.blockNumber,
        block_hash: log.blockHash,
        reorged_at: null,
        created_at: now,
      },
    },
    result: { txHash: log.txHash, amount: formatMinor(log.amount) },
  };
}

/**
 * A held top-up's release to a member: from `held_top_ups` to the member, with its top_up_releases row.
 *
 * @param chainId - the chain
 * @param held - the top-up, its amount and its failed returns
 * @param memberId - the member credited
 * @param now - when
 * @returns the request
 * @example
 * await postRequests(db, [releaseRequest(56, held, memberId, now)]);
 */
export function releaseRequest(chainId: number, held: HeldTopUp, memberId: number, now: Date): LedgerRequest {
  return {
    key: { ...decisionKey(chainId, held, held.failedReturns), body: { memberId } },
    now,
    legs: [{ asset: 'CREDIT', type: 'topUp', from: { system: HELD }, to: { member: memberId }, amount: held.amount, memo: held.txHash }],
    record: { table: 'top_up_releases', row: { chain_id: chainId, tx_hash: held.txHash, log_position: held.logPosition, member_id: memberId, created_at: now } },
  };
}

/**
 * Posts requests in chunks; every outcome must be a success (a first one, or the stored answer of a repeat), or one
 * of `tolerated`.
 */
async function postAll(db: Db, requests: readonly LedgerRequest[], tolerated: readonly number[] = []): Promise<void> {
  for (let start = 0; start < requests.length; start += POST_CHUNK) {
    const outcomes = await postRequests(db, requests.slice(start, start + POST_CHUNK));
    // 3005: another instance is crediting the same log right now; it will have credited it when this one looks again.
    const failed = outcomes.find((outcome) => outcome.code !== ApiCode.ok && outcome.code !== ApiCode.requestInProgress && !tolerated.includes(outcome.code));
    if (failed) throw new Error(`crediting top-ups: the ledger answered ${failed.code}`);
  }
}

const keyRow = z.object({ txHash: z.string(), logPosition: z.number().int() });
const memberRow = z.object({ id: z.number().int(), address: z.string() });

/** The logs as a jsonb recordset's text, for the SQL below. */
const logsJson = (logs: readonly TopUpLog[]) =>
  JSON.stringify(logs.map((log) => ({ tx_hash: log.txHash, log_position: log.logPosition, block_number: log.blockNumber.toString(), block_hash: log.blockHash })));

/**
 * Credits the logs not credited yet: each once, to its sender when a member, else held. The top_ups rows are the
 * record of what was credited, kept for good (the engine's stored outcomes expire after a day), so a log read
 * again, after a reorganisation or a restart, is left alone. A transaction with a row of before migration 0018 (keyed
 * by the block's log index, position below 0) was credited whole then, and is left alone whatever its logs' indexes
 * are now. A log already credited that is now in another block moves its row there (and off reconcile's list).
 *
 * @param db - database handle (not a transaction: each chunk commits on its own)
 * @param chainId - the chain
 * @param logs - top-up logs, in chain order
 * @param now - when they are credited
 * @returns how many were credited to members and how many held
 * @example
 * const { credited, held } = await creditTopUps(db, 56, logs, new Date());
 */
export async function creditTopUps(db: Db, chainId: number, logs: readonly TopUpLog[], now: Date): Promise<{ credited: number; held: number }> {
  if (logs.length === 0) return { credited: 0, held: 0 };
  const keys = sql`jsonb_to_recordset(${logsJson(logs)}::jsonb) AS k(tx_hash text, log_position integer, block_number bigint, block_hash text)`;
  const known = await queryRows(
    db,
    sql`SELECT k.tx_hash AS "txHash", k.log_position AS "logPosition" FROM ${keys}
        WHERE EXISTS (SELECT 1 FROM top_ups t WHERE t.chain_id = ${chainId}::int AND t.tx_hash = k.tx_hash AND (t.log_position = k.log_position OR t.log_position < 0))`,
    keyRow,
  );
  // All logs of a transaction are in its one block: its rows move there, when they were recorded elsewhere.
  await db.execute(sql`UPDATE top_ups t SET block_number = k.block_number, block_hash = k.block_hash, reorged_at = NULL
    FROM (SELECT DISTINCT ON (k.tx_hash) k.tx_hash, k.block_number, k.block_hash FROM ${keys}) k
    WHERE t.chain_id = ${chainId}::int AND t.tx_hash = k.tx_hash
      AND (t.block_hash IS DISTINCT FROM k.block_hash OR t.block_number <> k.block_number OR t.reorged_at IS NOT NULL)`);
  const seen = new Set(known.map((row) => `${row.txHash}/${row.logPosition}`));
  const fresh = logs.filter((log) => !seen.has(`${log.txHash}/${log.logPosition}`));
  if (fresh.length === 0) return { credited: 0, held: 0 };
  const senders = [...new Set(fresh.map((log) => log.from))];
  const members = await queryRows(db, sql`SELECT id, address FROM members WHERE address IN (SELECT jsonb_array_elements_text(${JSON.stringify(senders)}::jsonb))`, memberRow);
  const memberOf = new Map(members.map((row) => [row.address, row.id]));
  await postAll(
    db,
    fresh.map((log) => topUpRequest(chainId, log, memberOf.get(log.from), now)),
  );
  const held = fresh.filter((log) => !memberOf.has(log.from)).length;
  return { credited: fresh.length - held, held };
}

/**
 * After a settled read of blocks `from`..`to` (every block and its logs read): the credits recorded in those blocks
 * whose transaction the read did not find are flagged as reorganised away (when not already). Nothing is debited:
 * what to do is the operator's (reconcile lists them); a transaction mined again later is found, and its row moves
 * and loses the flag (creditTopUps).
 *
 * @param db - database handle
 * @param chainId - the chain
 * @param range - the blocks read
 * @param logs - the top-ups read in them
 * @param now - when
 * @returns how many were flagged now
 * @example
 * await flagReorgedAway(db, 56, { from: 100n, to: 120n }, logs, now);
 */
export async function flagReorgedAway(db: Db, chainId: number, range: { from: bigint; to: bigint }, logs: readonly TopUpLog[], now: Date): Promise<number> {
  const flagged = await queryRows(
    db,
    sql`UPDATE top_ups SET reorged_at = ${now.toISOString()}::timestamptz
        WHERE chain_id = ${chainId}::int AND block_number BETWEEN ${range.from.toString()}::bigint AND ${range.to.toString()}::bigint AND reorged_at IS NULL
          AND tx_hash NOT IN (SELECT jsonb_array_elements_text(${JSON.stringify([...new Set(logs.map((log) => log.txHash))])}::jsonb))
        RETURNING tx_hash AS "txHash"`,
    z.object({ txHash: z.string() }),
  );
  return flagged.length;
}

const reorgedRow = z.object({ txHash: z.string(), address: z.string(), amount: bigintText, credited: z.boolean() });

/**
 * The credits whose transaction a reorganisation removed (the watcher read their block again and did not find it),
 * for reconcile: the sender, the amount, and whether it went to a member (else it is held). Ordered by block.
 *
 * @param db - database handle
 * @param chainId - the chain
 * @returns the flagged credits
 * @example
 * const reorged = await reorgedAwayTopUps(db, 56); // [{ txHash, address, amount: 7_000_000n, credited: true }]
 */
export async function reorgedAwayTopUps(db: Db, chainId: number): Promise<{ txHash: string; address: string; amount: bigint; credited: boolean }[]> {
  return queryRows(
    db,
    sql`SELECT tx_hash AS "txHash", from_address AS address, amount, member_id IS NOT NULL AS credited FROM top_ups
        WHERE chain_id = ${chainId}::int AND reorged_at IS NOT NULL ORDER BY block_number, tx_hash, log_position`,
    reorgedRow,
  );
}

/** A held top-up as a decision needs it. */
export interface HeldTopUp {
  txHash: string;
  logPosition: number;
  amount: bigint;
  /** Its returns the chain failed (voided), for its decision's key. */
  failedReturns: number;
}

const heldRow = z.object({ txHash: z.string(), logPosition: z.number().int(), amount: bigintText, failedReturns: z.number().int(), memberId: z.number().int() });

/**
 * Credits held top-ups to their senders who are members now: at a sign-in (`address` given) or in the watcher's
 * round (every sender). Each at most once (its key, and the top_up_releases row); none an operator has decided
 * (released to another member, or returned: server/chain/heldTopUps.ts), nor one whose return the chain failed: a
 * voided payment may still be mined after all, and only an operator's decision checks it no longer can.
 *
 * @param db - database handle
 * @param chainId - the chain
 * @param now - when
 * @param address - only this sender's (checksummed), or every member's when omitted
 * @returns how many were released
 * @example
 * await releaseHeldTopUps(db, 56, now, member.address);
 */
export async function releaseHeldTopUps(db: Db, chainId: number, now: Date, address?: string): Promise<number> {
  const held = await queryRows(
    db,
    sql`SELECT t.tx_hash AS "txHash", t.log_position AS "logPosition", t.amount, ${failedReturnsSql} AS "failedReturns", m.id AS "memberId"
        FROM top_ups t JOIN members m ON m.address = t.from_address
        WHERE t.member_id IS NULL AND t.chain_id = ${chainId}::int AND (${address ?? null}::text IS NULL OR t.from_address = ${address ?? null}::text)
          AND NOT EXISTS (SELECT 1 FROM top_up_releases r WHERE r.chain_id = t.chain_id AND r.tx_hash = t.tx_hash AND r.log_position = t.log_position)
          AND NOT ${liveReturnSql} AND ${failedReturnsSql} = 0
        ORDER BY t.block_number, t.tx_hash, t.log_position`,
    heldRow,
  );
  // 3003: an operator decided it meanwhile (released it to another member, or returned it): it is theirs.
  await postAll(
    db,
    held.map((row) => releaseRequest(chainId, row, row.memberId, now)),
    [ApiCode.requestIdReused],
  );
  return held.length;
}
