/**
 * Held top-ups in the operators' hands (docs/operations.md, "Held top-ups";
 * docs/decisions/0024-held-top-ups-returned-as-withdrawals.md). A top-up from a sender that is no member waits in
 * `held_top_ups` (topUps.ts) until one decision, made once:
 * - a release to a member: the same engine request as the release at the sender's sign-in, under the same key
 *   (topUps.ts, decisionKey), so a release racing that sign-in credits once: the first wins, the other does nothing;
 * - a return to the sender: under that same key, a withdrawal of no member (to_address, the top-up it returns),
 *   reserved `approved` from `held_top_ups` to withdrawals payable. The payer pays it as any withdrawal, at most
 *   once (its nonce, its proofs, stuck and lost handling); its post moves it on to `chain`, a void (the chain failed
 *   it) gives it back to `held_top_ups`, and the top-up is undecided again.
 * Nothing here moves money but through the engine.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Address } from 'viem';
import { z } from 'zod';
import { formatMinor } from '../../api-schema/amount';
import { ApiCode, type ApiCodeValue } from '../../api-schema/codes';
import { bigintText, lockTransaction, queryRows, type Db } from '../db/client';
import { AlreadyDecidedError, ChainUnavailableError, errorOfApiCode, InvalidParametersError, NotFoundError, RequestInProgressError } from '../errors';
import { systemAccountId } from '../ledger/accounts';
import { postRequests, type LedgerRequest, type PostedOutcome } from '../ledger/engine';
import { paymentHashSql, stageSql, WithdrawalStage } from '../ledger/withdrawalLifecycle';
import type { Chain } from './chain';
import { decisionKey, failedReturnsSql, releaseRequest, type HeldTopUp } from './topUps';

const HELD = systemAccountId('CREDIT', 'held_top_ups');
const PAYABLE = systemAccountId('CREDIT', 'withdrawals_payable');

export type HeldTopUpState = 'held' | 'released' | 'returning' | 'returned';

/** A held top-up by its key. */
export interface TopUpKey {
  txHash: string;
  logPosition: number;
}

export interface HeldTopUpView {
  txHash: string;
  logPosition: number;
  from: string;
  amount: string;
  blockNumber: string;
  seenAt: string;
  senderIsContract: boolean | null;
  reorged: boolean;
  state: HeldTopUpState;
  releasedTo?: string;
  returnId?: string;
  returnTxHash?: string;
}

const viewRow = z.object({
  txHash: z.string(),
  logPosition: z.number().int(),
  from: z.string(),
  amount: bigintText,
  blockNumber: bigintText,
  seenAt: z.coerce.date(),
  reorged: z.boolean(),
  state: z.enum(['held', 'released', 'returning', 'returned']),
  releasedTo: z.string().nullable(),
  releasedToId: z.number().int().nullable(),
  returnId: bigintText.nullable(),
  returnTxHash: z.string().nullable(),
  failedReturns: z.number().int(),
});
type ViewRow = z.output<typeof viewRow>;

/** The top-ups that were held (member_id null when credited), each with its decision, filtered by `where` (on `h`). */
/** Every top-up held on a chain (a sender who was no member yet), with its state: held, released, returning, returned. */
const heldViewSql = (chainId: number) => sql`SELECT t.tx_hash AS "txHash", t.log_position AS "logPosition", t.from_address AS "from", t.amount, t.block_number AS "blockNumber",
      t.created_at AS "seenAt", t.reorged_at IS NOT NULL AS reorged, m.address AS "releasedTo", r.member_id AS "releasedToId",
      ret.id AS "returnId", ret.hash AS "returnTxHash", ${failedReturnsSql} AS "failedReturns",
      CASE WHEN r.member_id IS NOT NULL THEN 'released' WHEN ret.stage = ${stageSql(WithdrawalStage.posted)} THEN 'returned'
        WHEN ret.id IS NOT NULL THEN 'returning' ELSE 'held' END AS state
    FROM top_ups t
    LEFT JOIN top_up_releases r ON r.chain_id = t.chain_id AND r.tx_hash = t.tx_hash AND r.log_position = t.log_position
    LEFT JOIN members m ON m.id = r.member_id
    LEFT JOIN LATERAL (
      SELECT w.id, d.stage, ${paymentHashSql(sql.raw('w.id'))} AS hash FROM withdrawals w JOIN ledger_pending d ON d.id = w.id
      WHERE w.top_up_tx_hash = t.tx_hash AND w.top_up_log_position = t.log_position AND d.stage <> ${stageSql(WithdrawalStage.voided)}
      LIMIT 1) ret ON true
    WHERE t.chain_id = ${chainId}::int AND t.member_id IS NULL AND t.log_position >= 0`;

function heldRows(db: Db, chainId: number, where: SQL, limit: number): Promise<ViewRow[]> {
  return queryRows(
    db,
    sql`SELECT h.* FROM (${heldViewSql(chainId)}) h
        WHERE ${where}
        ORDER BY h."blockNumber", h."txHash", h."logPosition" LIMIT ${limit}::int`,
    viewRow,
  );
}

/**
 * How many top-ups are held now (neither released, nor returning, nor returned), and what they come to.
 *
 * @param db - database handle
 * @param chainId - the chain
 * @returns the count and the amount in minor units
 * @example
 * const { count, amount } = await heldTopUpTotals(db, chain.settings.chainId);
 */
export async function heldTopUpTotals(db: Db, chainId: number): Promise<{ count: number; amount: bigint }> {
  const [row] = await queryRows(
    db,
    sql`SELECT count(*)::int AS count, coalesce(sum(h.amount), 0) AS amount FROM (${heldViewSql(chainId)}) h WHERE h.state = 'held' AND NOT h.reorged`,
    z.object({ count: z.number(), amount: bigintText }),
  );
  return row ?? { count: 0, amount: 0n };
}

const countRow = z.object({ total: bigintText });

/** Whether each address has code on chain now; null for those the chain did not answer. */
async function contractsAmong(chain: Chain | undefined, addresses: readonly string[]): Promise<Map<string, boolean | null>> {
  const unique = [...new Set(addresses)];
  const codes = await Promise.all(
    unique.map(async (address) => {
      if (!chain) return null;
      const code = await chain.client.getCode({ address: address as Address }).catch(() => null);
      return code === null ? null : code !== undefined && code !== '0x';
    }),
  );
  return new Map(unique.map((address, index) => [address, codes[index] ?? null]));
}

function viewOf(row: ViewRow, isContract: boolean | null): HeldTopUpView {
  return {
    txHash: row.txHash,
    logPosition: row.logPosition,
    from: row.from,
    amount: formatMinor(row.amount),
    blockNumber: row.blockNumber.toString(),
    seenAt: row.seenAt.toISOString(),
    senderIsContract: isContract,
    reorged: row.reorged,
    state: row.state,
    ...(row.releasedTo ? { releasedTo: row.releasedTo } : {}),
    ...(row.returnId !== null ? { returnId: row.returnId.toString() } : {}),
    ...(row.returnTxHash ? { returnTxHash: row.returnTxHash } : {}),
  };
}

/**
 * A page of held top-ups in one state, oldest first.
 *
 * @param db - database handle
 * @param chain - the app's chain (for whether senders are contracts)
 * @param query - the state, the cursor answered for the page before, how many
 * @returns the page, the next page's cursor (null after the last) and how many are in that state on all pages
 * @example
 * const { list, nextCursor, total } = await listHeldTopUps(db, chain, { state: 'held', limit: 50 });
 */
export async function listHeldTopUps(
  db: Db,
  chain: Chain,
  query: { state: HeldTopUpState; cursor?: string | undefined; limit: number },
): Promise<{ list: HeldTopUpView[]; nextCursor: string | null; total: number }> {
  const [block, txHash, position] = query.cursor?.split(':') ?? [];
  const after =
    block !== undefined && txHash !== undefined && position !== undefined
      ? sql`(h."blockNumber", h."txHash", h."logPosition") > (${block}::bigint, ${txHash}::text, ${Number(position)}::int)`
      : sql`true`;
  const filters = sql`h.state = ${query.state}`;
  const rows = await heldRows(db, chain.settings.chainId, sql`${filters} AND ${after}`, query.limit + 1);
  const [counted] = await queryRows(db, sql`SELECT count(*) AS total FROM (${heldViewSql(chain.settings.chainId)}) h WHERE ${filters}`, countRow);
  const page = rows.slice(0, query.limit);
  const contracts = await contractsAmong(chain, page.map((row) => row.from));
  const last = page[page.length - 1];
  return {
    list: page.map((row) => viewOf(row, contracts.get(row.from) ?? null)),
    nextCursor: rows.length > query.limit && last ? `${last.blockNumber}:${last.txHash}:${last.logPosition}` : null,
    total: Number(counted?.total ?? 0n),
  };
}

/**
 * One held top-up as the operator sees it.
 *
 * @param db - database handle
 * @param chain - the app's chain
 * @param key - the top-up
 * @returns its view, or undefined when no held top-up has that key
 * @example
 * const view = await readHeldTopUp(db, chain, { txHash, logPosition: 0 });
 */
export async function readHeldTopUp(db: Db, chain: Chain, key: TopUpKey): Promise<HeldTopUpView | undefined> {
  const [row] = await heldRows(db, chain.settings.chainId, sql`h."txHash" = ${key.txHash} AND h."logPosition" = ${key.logPosition}::int`, 1);
  if (!row) return undefined;
  const contracts = await contractsAmong(chain, [row.from]);
  return viewOf(row, contracts.get(row.from) ?? null);
}

/** The top-up to decide, or why not: unknown (4004), a reorganisation removed it (1001). */
async function decidable(db: Db, chainId: number, key: TopUpKey): Promise<ViewRow> {
  const [row] = await heldRows(db, chainId, sql`h."txHash" = ${key.txHash} AND h."logPosition" = ${key.logPosition}::int`, 1);
  if (!row) throw new NotFoundError();
  return row;
}

/** How deep the payer watches a voided payment's nonce (its default `watchBlocks`, ADR 0023). */
const VOIDED_WATCH_BLOCKS = 64n;

const watchedRow = z.object({ payer: z.string(), nonce: bigintText });

/**
 * Refuses a new decision while a voided return of the top-up may still be mined after all: one of its payments has a
 * nonce the payer's watch of voided payments still follows (watchPosted.ts, watchVoided: the hot wallet's count at
 * `VOIDED_WATCH_BLOCKS` below the head is not past it). Deciding then could pay the sender twice.
 *
 * @param db - database handle
 * @param chain - the app's chain
 * @param key - the top-up
 * @throws RequestInProgressError (3005: ask again later), ChainUnavailableError (3007: the chain did not answer)
 * @example
 * await refuseWhileReturnWatched(db, chain, { txHash, logPosition: 0 });
 */
export async function refuseWhileReturnWatched(db: Db, chain: Chain, key: TopUpKey): Promise<void> {
  const rows = await queryRows(
    db,
    sql`SELECT p.payer, max(p.nonce) AS nonce FROM withdrawals w JOIN ledger_pending d ON d.id = w.id JOIN payments p ON p.withdrawal_id = w.id
        WHERE w.top_up_tx_hash = ${key.txHash} AND w.top_up_log_position = ${key.logPosition}::int AND d.stage = ${stageSql(WithdrawalStage.voided)}
        GROUP BY p.payer`,
    watchedRow,
  );
  if (rows.length === 0) return;
  const watched = await (async () => {
    const head = await chain.client.getBlockNumber({ cacheTime: 0 });
    const horizon = head > VOIDED_WATCH_BLOCKS ? head - VOIDED_WATCH_BLOCKS : 0n;
    const counts = await Promise.all(rows.map((row) => chain.client.getTransactionCount({ address: row.payer as Address, blockNumber: horizon })));
    return rows.some((row, index) => row.nonce >= BigInt(counts[index] ?? 0));
  })().catch(() => {
    throw new ChainUnavailableError();
  });
  if (watched) throw new RequestInProgressError();
}

/** A decision's outcome: done (first, or the stored answer of the same decision), else why not. */
function settle(outcome: PostedOutcome | undefined): void {
  if (outcome?.code === ApiCode.ok) return;
  // Another decision of the same top-up came first (another body under its key).
  if (outcome?.code === ApiCode.requestIdReused) throw new AlreadyDecidedError();
  if (outcome?.code === ApiCode.requestInProgress) throw new RequestInProgressError();
  throw errorOfApiCode((outcome?.code ?? ApiCode.internal) as ApiCodeValue);
}

/** The advisory lock operators' decisions of held top-ups take, one at a time (they are rare). */
const HELD_DECISIONS_LOCK = 4_361_000_045;

/**
 * Makes an operator's decision wait for any other one under way, on any instance, so that it reads the top-up as the
 * other left it: two operators returning the same top-up at once then audit one return and one repeat, not two
 * returns from "held". Taken first in the decision's transaction, before the ledger's locks, so it waits holding
 * nothing and can deadlock with nothing. The ledger's key alone already moves the money once.
 *
 * @param tx - the decision's transaction
 * @returns when the lock is held
 * @example
 * await db.transaction(async (tx) => { await lockHeldDecisions(tx); await returnHeldTopUp(tx, 56, key, now); });
 */
export function lockHeldDecisions(tx: Db): Promise<void> {
  return lockTransaction(tx, HELD_DECISIONS_LOCK);
}

/** A held top-up's decision as the audit log keeps it, before and after an act. */
export interface DecisionState {
  state: HeldTopUpState;
  amount: string;
  from: string;
  releasedTo: string | null;
  returnId: string | null;
}

const decisionOf = (row: ViewRow): DecisionState => ({
  state: row.state,
  amount: formatMinor(row.amount),
  from: row.from,
  releasedTo: row.releasedTo,
  returnId: row.returnId === null ? null : row.returnId.toString(),
});

/** The top-up's decision after an act, read in the act's transaction. */
async function decidedNow(db: Db, chainId: number, key: TopUpKey): Promise<DecisionState> {
  return decisionOf(await decidable(db, chainId, key));
}

/**
 * A held top-up as an operator's decision sees it, in the decision's transaction: its state and amount.
 *
 * @param db - the decision's transaction (after lockHeldDecisions)
 * @param chainId - the chain
 * @param key - the top-up
 * @returns its decision state and amount in minor units
 * @throws NotFoundError (4004), InvalidParametersError (1001: a reorganisation removed it)
 * @example
 * const { amount } = await heldForDecision(tx, 56, key);
 */
export async function heldForDecision(db: Db, chainId: number, key: TopUpKey): Promise<{ decision: DecisionState; amount: bigint; releasedToId: number | null }> {
  const row = await decidable(db, chainId, key);
  return { decision: decisionOf(row), amount: row.amount, releasedToId: row.releasedToId };
}

const heldOf = (row: ViewRow): HeldTopUp => ({ txHash: row.txHash, logPosition: row.logPosition, amount: row.amount, failedReturns: row.failedReturns });

/**
 * An operator's release of a held top-up to a member. The same release again does nothing more.
 *
 * @param db - database handle or transaction (the audit row's)
 * @param chainId - the chain
 * @param key - the top-up
 * @param memberId - the member credited
 * @param now - when
 * @returns the decision before and after
 * @throws NotFoundError (4004), AlreadyDecidedError (3006: released to another member, or returned),
 *   InvalidParametersError (1001: a reorganisation removed it), RequestInProgressError (3005: decided right now)
 * @example
 * await releaseHeldTopUpTo(db, 56, { txHash, logPosition: 0 }, memberId, now);
 */
export async function releaseHeldTopUpTo(db: Db, chainId: number, key: TopUpKey, memberId: number, now: Date): Promise<{ before: DecisionState; after: DecisionState }> {
  const row = await decidable(db, chainId, key);
  const before = decisionOf(row);
  if (row.state === 'released' && row.releasedToId === memberId) return { before, after: before };
  if (row.state !== 'held') throw new AlreadyDecidedError();
  if (row.reorged) throw new InvalidParametersError('txHash');
  const [outcome] = await postRequests(db, [releaseRequest(chainId, heldOf(row), memberId, now)]);
  settle(outcome);
  return { before, after: await decidedNow(db, chainId, key) };
}

/**
 * The return of a held top-up as the engine's request: a withdrawal of no member to the sender, reserved approved
 * (the operator's call is the approval), from `held_top_ups` to withdrawals payable, no fee.
 *
 * @param chainId - the chain
 * @param held - the top-up
 * @param from - its sender, whom the payer pays
 * @param now - when
 * @returns the request
 * @example
 * await postRequests(db, [returnRequest(56, held, sender, now)]);
 */
export function returnRequest(chainId: number, held: HeldTopUp, from: string, now: Date): LedgerRequest {
  return {
    key: { ...decisionKey(chainId, held, held.failedReturns), body: { returnTo: from } },
    now,
    legs: [{ asset: 'CREDIT', type: 'withdraw', from: { system: HELD }, to: { system: PAYABLE }, amount: held.amount, memo: held.txHash }],
    pending: { reserve: WithdrawalStage.approved },
    record: {
      table: 'withdrawals',
      row: { member_id: null, amount: held.amount, fee: 0n, created_at: now, to_address: from, top_up_tx_hash: held.txHash, top_up_log_position: held.logPosition },
    },
    result: { id: '$record' },
  };
}

/**
 * An operator's return of a held top-up to its sender, paid on chain by the payer. The same return again does
 * nothing more.
 *
 * @param db - database handle or transaction (the audit row's)
 * @param chainId - the chain
 * @param key - the top-up
 * @param now - when
 * @returns the decision before and after
 * @throws NotFoundError (4004), AlreadyDecidedError (3006: released), InvalidParametersError (1001: reorganised),
 *   RequestInProgressError (3005: decided right now)
 * @example
 * await returnHeldTopUp(db, 56, { txHash, logPosition: 0 }, now);
 */
export async function returnHeldTopUp(db: Db, chainId: number, key: TopUpKey, now: Date): Promise<{ before: DecisionState; after: DecisionState }> {
  const row = await decidable(db, chainId, key);
  const before = decisionOf(row);
  if (row.state === 'returning' || row.state === 'returned') return { before, after: before };
  if (row.state !== 'held') throw new AlreadyDecidedError();
  if (row.reorged) throw new InvalidParametersError('txHash');
  const [outcome] = await postRequests(db, [returnRequest(chainId, heldOf(row), row.from, now)]);
  settle(outcome);
  return { before, after: await decidedNow(db, chainId, key) };
}
