/**
 * Credit withdrawals (docs/API.md, "Money" and "Credit on chain") as two-phase transfers of the ledger engine
 * (server/ledger/engine.ts; docs/decisions/0019-withdrawals-paid-on-chain.md). A request reserves: the amount
 * leaves the member for withdrawals payable and the fee moves on to fees, against the day's total, held as a pending
 * transfer. Its stage gives the withdrawal's status (server/ledger/withdrawalLifecycle.ts): `held` (waiting for an
 * operator) or `approved` (by an operator: server/ops/withdrawalDecisions.ts, or on request within the auto-approval
 * budgets: server/ledger/autoApproval.ts), then `sent` by the payer (server/chain/payer/), then `posted` (paid: the
 * net amount leaves payable for the chain) or `voided` (failed by an operator or the chain: the engine gives back
 * the legs and the day's total it holds).
 * Each move is an engine request with its own at-most-once key; none is a lock or UPDATE of this flow's own.
 */
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { formatMinor, toMinor } from '../../api-schema/amount';
import { ApiCode } from '../../api-schema/codes';
import { endpoints } from '../../api-schema/endpoints';
import { withdrawalFailureSchema, withdrawalStatusSchema, type WithdrawalFailure } from '../../api-schema/member';
import { utcDay } from '../clock';
import { getAppConfig, type AppConfig } from '../config/appConfig';
import { bigintText, queryRows, type Db } from '../db/client';
import { systemAccountId } from './accounts';
import { postRequests, type LedgerBatcher, type LedgerRequest, type Leg, type PostedOutcome } from './engine';
import type { AutoApproval } from './autoApprovalTypes';
import { answerOf } from './idempotency';
import {
  paymentHashSql,
  statusOfStage,
  WITHDRAWAL_STAGES,
  WithdrawalStage,
  withdrawalStatusSql,
  type WithdrawalStageName,
  type WithdrawalStatus,
} from './withdrawalLifecycle';

const PAYABLE = systemAccountId('CREDIT', 'withdrawals_payable');
const FEES = systemAccountId('CREDIT', 'fees');
const CHAIN = systemAccountId('CREDIT', 'chain');
/** The name of the daily cap's counter in ledger_limits. */
const DAILY_LIMIT = 'withdrawCredit';

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
 * take it all; linked legs (the amount to payable, the fee on to fees), the day's total, the withdrawal row, held as
 * a pending transfer that starts held (its auto-approval is a request of its own: server/ledger/autoApproval.ts).
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
  const legs: Leg[] = [{ asset: 'CREDIT', type: 'withdraw', from: { member: memberId }, to: { system: PAYABLE }, amount }];
  if (fee > 0n) legs.push({ asset: 'CREDIT', type: 'fee', from: { system: PAYABLE }, to: { system: FEES }, amount: fee });
  return {
    // "Same body" compares the amount's value: "20" and "20.0" are one request.
    key: { scope: `member:${memberId}`, endpoint: 'withdrawCredit', requestId, body: { amount: formatMinor(amount) } },
    now,
    reject: outOfLimits ? ApiCode.amountOutOfLimits : undefined,
    legs,
    limits: [{ memberId, name: DAILY_LIMIT, day: utcDay(now), amount, cap: toMinor(config.dailyWithdrawCap) }],
    pending: { reserve: WithdrawalStage.held },
    record: { table: 'withdrawals', row: { member_id: memberId, amount, fee, created_at: now } },
    result: { id: '$record', amount: formatMinor(amount), fee: formatMinor(fee), status: statusOfStage(WithdrawalStage.held) },
  };
}

/**
 * Runs withdrawal requests as one batch of the engine, outside the ledger batcher (the tests and the raw bench): one
 * outcome per request, in request order.
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
 * Withdraws credit for a member through the ledger batcher, at most once per request id, and approves it on request
 * when the auto-approval budgets hold it (the status answered is what it is then, the same on a repeat).
 *
 * @param ledger - the server's ledger batcher
 * @param request - member, amount, request id, time
 * @param autoApproval - the server's auto-approval (none: the withdrawal waits for an operator)
 * @returns the withdrawal
 * @throws AmountOutOfLimitsError (3002), InsufficientBalanceError (3001), RequestIdReusedError (3003),
 *   RequestInProgressError (3005); nothing moved then
 * @example
 * const withdrawal = await withdrawCredit(deps.ledger, { memberId, amount: 20_000_000n, requestId, now });
 */
export async function withdrawCredit(ledger: LedgerBatcher, request: WithdrawalRequest, autoApproval?: AutoApproval) {
  const outcome = await ledger.post((config) => withdrawalRequest(request, config), request.now);
  const withdrawal = answerOf(outcome, endpoints.withdrawCredit.result);
  if (!autoApproval) return withdrawal;
  const held = { id: BigInt(withdrawal.id), memberId: request.memberId, amount: request.amount };
  return { ...withdrawal, status: await autoApproval.decide(held, request.now) };
}

/** A move of a withdrawal's pending transfer, keyed once per withdrawal and kind of move. */
const moveKey = (id: bigint, move: string, body: Record<string, unknown> = {}) => ({ scope: 'withdrawal', endpoint: move, requestId: id.toString(), body });

/**
 * The operator's approval: held → approved. No money moves.
 *
 * @param id - the withdrawal
 * @param now - when
 * @returns the ledger request (3006 when the withdrawal is not held)
 * @example
 * await postRequests(db, [approvalRequest(7n, now)]);
 */
export function approvalRequest(id: bigint, now: Date): LedgerRequest {
  return { key: moveKey(id, 'approve'), now, legs: [], pending: { id, from: [WithdrawalStage.held], to: WithdrawalStage.approved } };
}

/**
 * A failure: the engine voids the pending transfer (the amount back to the member, the fee back from fees, the day's
 * total given back) and the reason is kept. The operator fails a held or approved withdrawal (`rejected`); the
 * chain fails a sent one (`reverted`, `nonceUsed`): a sent payment is resolved by the chain alone.
 *
 * @param id - the withdrawal
 * @param reason - why
 * @param now - when
 * @param note - what the operator wrote, when failing it
 * @returns the ledger request (3006 from any other stage)
 * @example
 * await postRequests(db, [failureRequest(7n, 'rejected', now)]);
 */
export function failureRequest(id: bigint, reason: WithdrawalFailure, now: Date, note?: string): LedgerRequest {
  const byOperator = reason === 'rejected';
  return {
    key: moveKey(id, byOperator ? 'fail' : 'void'),
    now,
    legs: [],
    pending: { id, from: byOperator ? [WithdrawalStage.held, WithdrawalStage.approved] : [WithdrawalStage.sent], to: WithdrawalStage.voided },
    // The operator's note is what they wrote, not part of the move: a repeat with another note is the same failure.
    record: { table: 'withdrawal_failures', row: { withdrawal_id: id, reason, created_at: now, ...(note === undefined ? {} : { note }) } },
  };
}

/**
 * The payer's move when it stores a signed payment: approved → sent (in the transaction that stores it).
 *
 * @param id - the withdrawal
 * @param now - when
 * @returns the ledger request (3006 unless approved)
 * @example
 * await postRequests(tx, [sendRequest(7n, now)]);
 */
export function sendRequest(id: bigint, now: Date): LedgerRequest {
  return { key: moveKey(id, 'send'), now, legs: [], pending: { id, from: [WithdrawalStage.approved], to: WithdrawalStage.sent } };
}

/**
 * The post, once the payment has its confirmations: sent → posted, and the net amount leaves payable for the
 * chain account (the token left the hot wallet).
 *
 * @param withdrawal - id, amount and fee
 * @param now - when
 * @returns the ledger request (3006 unless sent)
 * @example
 * await postRequests(db, [postingRequest({ id: 7n, amount, fee }, now)]);
 */
export function postingRequest(withdrawal: { id: bigint; amount: bigint; fee: bigint }, now: Date): LedgerRequest {
  const { id, amount, fee } = withdrawal;
  return {
    key: moveKey(id, 'post'),
    now,
    legs: [{ asset: 'CREDIT', type: 'payout', from: { system: PAYABLE }, to: { system: CHAIN }, amount: amount - fee }],
    pending: { id, from: [WithdrawalStage.sent], to: WithdrawalStage.posted },
  };
}

const withdrawalRow = z.object({
  id: bigintText,
  address: z.string(),
  amount: bigintText,
  fee: bigintText,
  stage: z.enum(WITHDRAWAL_STAGES),
  status: z.enum(withdrawalStatusSchema.options),
  createdAt: z.coerce.date(),
  updatedAt: z.coerce.date(),
  txHash: z.string().nullable(),
  reason: z.enum(withdrawalFailureSchema.options).nullable(),
  note: z.string().nullable(),
});

export interface WithdrawalView {
  id: string;
  address: string;
  amount: string;
  fee: string;
  status: WithdrawalStatus;
  createdAt: string;
  decidedAt: string | null;
  txHash?: string;
  reason?: WithdrawalFailure;
  /** What the operator who failed it wrote. */
  note?: string;
}

/**
 * A withdrawal as the operator sees it: its status from its pending transfer's stage, the hash of its payment (the
 * mined one, else the latest signed) and why it failed.
 *
 * @param db - database handle
 * @param id - the withdrawal
 * @returns the view, or undefined for an unknown id
 * @example
 * const view = await readWithdrawal(db, 7n);
 */
export async function readWithdrawal(db: Db, id: bigint): Promise<WithdrawalView | undefined> {
  const [row] = await queryRows(
    db,
    sql`SELECT w.id, m.address, w.amount, w.fee, d.stage, ${withdrawalStatusSql} AS status, w.created_at AS "createdAt", d.updated_at AS "updatedAt",
          ${paymentHashSql(sql.raw('w.id'))} AS "txHash",
          f.reason, f.note
        FROM withdrawals w JOIN members m ON m.id = w.member_id JOIN ledger_pending d ON d.id = w.id
          LEFT JOIN withdrawal_failures f ON f.withdrawal_id = w.id
        WHERE w.id = ${id.toString()}::bigint`,
    withdrawalRow,
  );
  return row ? withdrawalViewOf(row) : undefined;
}

/** A withdrawal's row as the operators' reads select it; `status` is the read's own set. */
export interface WithdrawalViewRow<S extends string> {
  id: bigint;
  address: string;
  amount: bigint;
  fee: bigint;
  stage: WithdrawalStageName;
  status: S;
  createdAt: Date;
  updatedAt: Date;
  txHash: string | null;
  reason: WithdrawalFailure | null;
  note: string | null;
}

/**
 * What every operator's view of a withdrawal shows (readWithdrawal here, the queue in server/ops/withdrawalQueue.ts).
 *
 * @param row - the selected row
 * @returns amounts as decimal strings, times as ISO text, absent fields left out
 * @example
 * withdrawalViewOf(row); // { id: '7', status: 'pending', decidedAt: null, ... }
 */
export function withdrawalViewOf<S extends string>(row: WithdrawalViewRow<S>): Omit<WithdrawalView, 'status'> & { status: S } {
  return {
    id: row.id.toString(),
    address: row.address,
    amount: formatMinor(row.amount),
    fee: formatMinor(row.fee),
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    decidedAt: row.stage === WithdrawalStage.held ? null : row.updatedAt.toISOString(),
    ...(row.txHash ? { txHash: row.txHash } : {}),
    ...(row.reason ? { reason: row.reason } : {}),
    ...(row.note ? { note: row.note } : {}),
  };
}
