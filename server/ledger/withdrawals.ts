/**
 * Credit withdrawals (API.md, "Money"): the member account goes down by the amount, which goes to withdrawals
 * payable, and the fee moves on from there to fees. A withdrawal is asked for through a batcher: whatever arrived
 * while the previous batch ran goes to the database as one call of ledger_withdraw_batch (migration 0005), which
 * checks, writes and stores each outcome in one transaction (ADR 0012). An operator later marks it done (the net
 * amount is paid out and leaves payable) or failed (fee and amount go back and the member gets a second, positive
 * `withdraw` record).
 */
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { endpoints } from '../../api-schema/endpoints';
import { queryRows, rowsOf, type Db } from '../db/client';
import { AlreadyDecidedError, NotFoundError } from '../errors';
import { systemAccountId } from './accounts';
import { createBatcher, type BatcherOptions } from './batcher';
import { answerOf, hashBody, sweepOutcomes, type StoredOutcome } from './idempotency';
import { formatMinor } from '../../api-schema/amount';
import { namedStatement } from './statements';
import { creditMember, moveBetweenSystemAccounts } from './transfers';

const PAYABLE = systemAccountId('CREDIT', 'withdrawals_payable');
const FEES = systemAccountId('CREDIT', 'fees');
const ISSUANCE = systemAccountId('CREDIT', 'issuance');

const bigintText = z.union([z.string(), z.number(), z.bigint()]).transform((value) => BigInt(value));

const batchRow = z.object({ ord: z.number().int(), code: z.number().int(), result: z.unknown(), set_based: z.boolean() });

const p = (name: string) => sql.placeholder(name);

const batchStatement = namedStatement(
  'ledger_withdraw_batch',
  sql`SELECT ord, code, result, set_based FROM ledger_withdraw_batch(${p('items')}::jsonb, ${p('payable')}::int, ${p('fees')}::int)`,
);

export type WithdrawalStatus = 'pending' | 'done' | 'failed';

export interface WithdrawalResult {
  id: string;
  amount: string;
  fee: string;
  status: WithdrawalStatus;
}

/** One member's withdrawCredit request. */
export interface WithdrawalRequest {
  memberId: number;
  /** Minor units, as the contract's amount schema let it through (> 0). */
  amount: bigint;
  requestId: string;
  now: Date;
}

/** A batch item's outcome, and whether the set-based statement answered it (migration 0008) or the per-item loop. */
export type BatchOutcome = StoredOutcome & { setBased: boolean };

/** The UTC day of an instant, as YYYY-MM-DD. */
function utcDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/**
 * Runs withdrawal requests as one batch: one statement, one transaction. Each answers its stored outcome: a
 * success, a rejection (3001, 3002), or the answer of a repeat (the first outcome, 3003, 3005).
 *
 * @param db - database handle (not a transaction: the batch commits on its own)
 * @param requests - the requests, any members, any order
 * @returns one outcome per request, in request order
 * @example
 * const [outcome] = await runWithdrawalBatch(db, [{ memberId, amount: 20_000_000n, requestId, now }]);
 */
export async function runWithdrawalBatch(db: Db, requests: readonly WithdrawalRequest[]): Promise<BatchOutcome[]> {
  const items = requests.map((request, ord) => ({
    ord,
    memberId: request.memberId,
    amount: request.amount.toString(),
    requestId: request.requestId,
    // "Same body" compares the amount's value: "20" and "20.0" are one request.
    bodyHash: hashBody({ amount: formatMinor(request.amount) }),
    now: request.now.toISOString(),
  }));
  const rows = rowsOf(await batchStatement(db).execute({ items: JSON.stringify(items), payable: PAYABLE, fees: FEES }), batchRow);
  const outcomes: (BatchOutcome | undefined)[] = new Array(requests.length);
  for (const row of rows) outcomes[row.ord] = { code: row.code, result: row.result, setBased: row.set_based };
  return outcomes.map((outcome, ord) => {
    if (!outcome) throw new Error(`ledger_withdraw_batch gave no outcome for item ${ord}`);
    return outcome;
  });
}

export interface CreditWithdrawals {
  /**
   * Withdraws credit for a member, at most once per request id.
   *
   * @throws AmountOutOfLimitsError (3002), InsufficientBalanceError (3001), RequestIdReusedError (3003),
   *   RequestInProgressError (3005); nothing moved then
   */
  withdraw(request: WithdrawalRequest): Promise<WithdrawalResult>;
}

/** A batch as large as this still commits in a few milliseconds on PGlite. */
const MAX_BATCH = 64;

/**
 * The withdrawal desk of one server: a batcher in front of ledger_withdraw_batch.
 *
 * @param db - database handle
 * @param maxInFlight - batches at once: 1 on PGlite (one connection), a few on a PostgreSQL pool
 * @returns withdraw()
 * @example
 * const withdrawals = createCreditWithdrawals(db, 1);
 * const withdrawal = await withdrawals.withdraw({ memberId, amount: 20_000_000n, requestId, now });
 */
export function createCreditWithdrawals(db: Db, maxInFlight: BatcherOptions['maxInFlight']): CreditWithdrawals {
  const batcher = createBatcher((requests: WithdrawalRequest[]) => runWithdrawalBatch(db, requests), { maxBatch: MAX_BATCH, maxInFlight });
  return {
    async withdraw(request) {
      await sweepOutcomes(db, request.now);
      return answerOf(await batcher.submit(request), endpoints.withdrawCredit.result);
    },
  };
}

const withdrawalRow = z.object({
  id: bigintText,
  memberId: z.number().int(),
  address: z.string(),
  amount: bigintText,
  fee: bigintText,
  status: z.enum(['pending', 'done', 'failed']),
  createdAt: z.coerce.date(),
  decidedAt: z.coerce.date().nullable(),
});

export interface WithdrawalView {
  id: string;
  address: string;
  amount: string;
  fee: string;
  status: WithdrawalStatus;
  createdAt: string;
  decidedAt: string | null;
}

function viewOf(row: z.output<typeof withdrawalRow>): WithdrawalView {
  return {
    id: row.id.toString(),
    address: row.address,
    amount: formatMinor(row.amount),
    fee: formatMinor(row.fee),
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    decidedAt: row.decidedAt ? row.decidedAt.toISOString() : null,
  };
}

/**
 * Marks a pending withdrawal done or failed, inside the caller's transaction, under the withdrawal's row lock.
 * done: the net amount leaves withdrawals payable (paid out). failed: the fee comes back from fees and the whole
 * amount goes back to the member (a positive `withdraw` record). Deciding again the same way returns it
 * unchanged; the other way is 3006.
 *
 * @param tx - the request's transaction
 * @param input - withdrawal id, the decision, time
 * @returns the withdrawal as it is now
 * @throws NotFoundError (4004) for an unknown id, AlreadyDecidedError (3006)
 * @example
 * const withdrawal = await decideWithdrawal(tx, { id: 7n, status: 'failed', now });
 */
export async function decideWithdrawal(tx: Db, input: { id: bigint; status: 'done' | 'failed'; now: Date }): Promise<WithdrawalView> {
  const { id, status, now } = input;
  const [row] = await queryRows(
    tx,
    sql`SELECT w.id, w.member_id AS "memberId", m.address, w.amount, w.fee, w.status, w.created_at AS "createdAt", w.decided_at AS "decidedAt"
        FROM withdrawals w JOIN members m ON m.id = w.member_id
        WHERE w.id = ${id.toString()}::bigint FOR UPDATE OF w`,
    withdrawalRow,
  );
  if (!row) throw new NotFoundError();
  if (row.status === status) return viewOf(row);
  if (row.status !== 'pending') throw new AlreadyDecidedError();

  const net = row.amount - row.fee;
  if (status === 'done') {
    await moveBetweenSystemAccounts(tx, { asset: 'CREDIT', type: 'payout', fromAccountId: PAYABLE, toAccountId: ISSUANCE, amount: net, withdrawalId: id, now });
  } else {
    if (row.fee > 0n) {
      await moveBetweenSystemAccounts(tx, { asset: 'CREDIT', type: 'fee', fromAccountId: FEES, toAccountId: PAYABLE, amount: row.fee, withdrawalId: id, now });
    }
    await creditMember(tx, { asset: 'CREDIT', type: 'withdraw', memberId: row.memberId, systemAccountId: PAYABLE, amount: row.amount, withdrawalId: id, now });
    // A failed withdrawal no longer counts against its day's cap.
    await tx.execute(
      sql`UPDATE withdrawal_days SET total = total - ${row.amount.toString()}::bigint
          WHERE member_id = ${row.memberId}::int AND day = ${utcDay(row.createdAt)}::date`,
    );
  }
  await tx.execute(sql`UPDATE withdrawals SET status = ${status}::text, decided_at = ${now}::timestamptz WHERE id = ${id.toString()}::bigint`);
  return viewOf({ ...row, status, decidedAt: now });
}
