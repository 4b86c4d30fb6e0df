/**
 * Credit withdrawals (API.md, "Money") as a flow of the ledger engine (server/ledger/engine.ts): the member account
 * goes down by the amount, which goes to withdrawals payable, and the fee moves on from there to fees, with the
 * withdrawal row and the day's total against dailyWithdrawCap. An operator later marks it done (the net amount is
 * paid out and leaves payable) or failed (fee and amount go back, the member gets a second, positive `withdraw`
 * record, and the day's total is given back).
 */
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { formatMinor, toMinor } from '../../api-schema/amount';
import { ApiCode, type ApiCodeValue } from '../../api-schema/codes';
import { endpoints } from '../../api-schema/endpoints';
import { utcDay } from '../clock';
import { getAppConfig, type AppConfig } from '../config/appConfig';
import { bigintText, queryRows, type Db } from '../db/client';
import { AlreadyDecidedError, errorOfApiCode, NotFoundError } from '../errors';
import { systemAccountId } from './accounts';
import { postRequests, type LedgerDesk, type LedgerRequest, type Leg, type PostedOutcome } from './engine';
import { answerOf } from './idempotency';

const PAYABLE = systemAccountId('CREDIT', 'withdrawals_payable');
const FEES = systemAccountId('CREDIT', 'fees');
const ISSUANCE = systemAccountId('CREDIT', 'issuance');
/** The name of the daily cap's counter in ledger_limits. */
const DAILY_LIMIT = 'withdrawCredit';


export type WithdrawalStatus = 'pending' | 'done' | 'failed';

/** One member's withdrawCredit request. */
export interface WithdrawalRequest {
  memberId: number;
  /** Minor units, as the contract's amount schema let it through (> 0). */
  amount: bigint;
  requestId: string;
  now: Date;
}

/**
 * A withdrawal as the engine's request: refused with 3002 outside minWithdraw..maxWithdraw or when the fee would
 * take it all; linked legs (the amount to payable, the fee on to fees), the day's total, the withdrawal row.
 *
 * @param request - member, amount, request id, time
 * @param config - the app config the batch read (limits and fee)
 * @returns the ledger request
 * @example
 * const ledgerRequest = withdrawalRequest({ memberId, amount: 20_000_000n, requestId, now }, config);
 */
export function withdrawalRequest(request: WithdrawalRequest, config: AppConfig): LedgerRequest {
  const { memberId, amount, requestId, now } = request;
  const fee = toMinor(config.withdrawFee);
  const outOfLimits = amount < toMinor(config.minWithdraw) || amount > toMinor(config.maxWithdraw) || fee >= amount;
  const legs: Leg[] = [{ asset: 'CREDIT', type: 'withdraw', from: { member: memberId }, to: { system: PAYABLE }, amount, withdrawal: 'record' }];
  if (fee > 0n) legs.push({ asset: 'CREDIT', type: 'fee', from: { system: PAYABLE }, to: { system: FEES }, amount: fee, withdrawal: 'record' });
  return {
    // "Same body" compares the amount's value: "20" and "20.0" are one request.
    key: { scope: `member:${memberId}`, endpoint: 'withdrawCredit', requestId, body: { amount: formatMinor(amount) } },
    now,
    reject: outOfLimits ? ApiCode.amountOutOfLimits : undefined,
    legs,
    limits: [{ memberId, name: DAILY_LIMIT, day: utcDay(now), amount, cap: toMinor(config.dailyWithdrawCap) }],
    record: { table: 'withdrawals', row: { member_id: memberId, amount, fee, status: 'pending', created_at: now, decided_at: null } },
    result: { id: '$record', amount: formatMinor(amount), fee: formatMinor(fee), status: 'pending' },
  };
}

/**
 * Runs withdrawal requests as one batch of the engine, outside the desk (the tests and the raw bench): one outcome
 * per request, in request order.
 *
 * @param db - database handle (not a transaction: the batch commits on its own)
 * @param requests - the requests, any members, any order
 * @returns one outcome per request
 * @example
 * const [outcome] = await runWithdrawalBatch(db, [{ memberId, amount: 20_000_000n, requestId, now }]);
 */
export async function runWithdrawalBatch(db: Db, requests: readonly WithdrawalRequest[]): Promise<PostedOutcome[]> {
  const config = await getAppConfig(db);
  return postRequests(db, requests.map((request) => withdrawalRequest(request, config)));
}

/**
 * Withdraws credit for a member through the desk, at most once per request id.
 *
 * @param desk - the server's ledger desk
 * @param request - member, amount, request id, time
 * @returns the withdrawal
 * @throws AmountOutOfLimitsError (3002), InsufficientBalanceError (3001), RequestIdReusedError (3003),
 *   RequestInProgressError (3005); nothing moved then
 * @example
 * const withdrawal = await withdrawCredit(deps.ledger, { memberId, amount: 20_000_000n, requestId, now });
 */
export async function withdrawCredit(desk: LedgerDesk, request: WithdrawalRequest) {
  const outcome = await desk.post((config) => withdrawalRequest(request, config), request.now);
  return answerOf(outcome, endpoints.withdrawCredit.result);
}

/** What a decision moves for a pending withdrawal. */
export interface DecidedWithdrawal {
  id: bigint;
  memberId: number;
  amount: bigint;
  fee: bigint;
  createdAt: Date;
}

/**
 * A decision on a pending withdrawal as the engine's request. done: the net amount leaves withdrawals payable
 * (paid out). failed: the fee comes back from fees, the whole amount goes back to the member, and the amount comes
 * off its own day's total (a give-back: the engine never refuses one, and never takes a total below zero).
 *
 * @param withdrawal - the withdrawal as stored
 * @param status - the decision
 * @param now - when it is decided
 * @returns the ledger request (no at-most-once key: the withdrawal row's status is the guard)
 * @example
 * await postRequests(tx, [decisionRequest(row, 'failed', now)]);
 */
export function decisionRequest(withdrawal: DecidedWithdrawal, status: 'done' | 'failed', now: Date): LedgerRequest {
  const { id, memberId, amount, fee, createdAt } = withdrawal;
  if (status === 'done') {
    return { now, legs: [{ asset: 'CREDIT', type: 'payout', from: { system: PAYABLE }, to: { system: ISSUANCE }, amount: amount - fee, withdrawal: id }] };
  }
  const legs: Leg[] = [];
  if (fee > 0n) legs.push({ asset: 'CREDIT', type: 'fee', from: { system: FEES }, to: { system: PAYABLE }, amount: fee, withdrawal: id });
  legs.push({ asset: 'CREDIT', type: 'withdraw', from: { system: PAYABLE }, to: { member: memberId }, amount, withdrawal: id });
  return { now, legs, limits: [{ memberId, name: DAILY_LIMIT, day: utcDay(createdAt), amount: -amount, cap: 0n }] };
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

  const [moved] = await postRequests(tx, [decisionRequest(row, status, now)]);
  // Not reachable by the ledger's own rules; should it happen, the operator gets the code, not an internal error.
  if (moved === undefined) throw new Error(`deciding withdrawal ${id} got no outcome`);
  if (moved.code !== ApiCode.ok) throw errorOfApiCode(moved.code as ApiCodeValue);
  await tx.execute(sql`UPDATE withdrawals SET status = ${status}::text, decided_at = ${now}::timestamptz WHERE id = ${id.toString()}::bigint`);
  return viewOf({ ...row, status, decidedAt: now });
}
