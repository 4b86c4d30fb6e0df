/**
 * The withdrawal's lifecycle, owned in one place (docs/decisions/0019-withdrawals-paid-on-chain.md): its stages as
 * the engine's pending transfer keeps them, the status each shows a member (and the decide call), the status the
 * operators' queue shows (stuck and lost beside the stages), and the SQL that joins a withdrawal to its payments on
 * chain. The ledger (withdrawals.ts, queries.ts, autoApproval.ts), the operators' decisions and queue (server/ops/),
 * the payer (server/chain/payer/) and reconcile (server/chain/reconcile.ts, paymentWatch.ts) read stages, statuses
 * and payments only through what is here, so a stage's name, the statuses it shows and the rule of a lost payment
 * are written once.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod/mini';
import type { WithdrawalStatus } from '../../api-schema/member';
import type { queueStatusSchema } from '../../api-schema/opsFinance';
import { VOIDED } from './engine';

/** A withdrawal's stages as its pending transfer keeps them. */
export const WithdrawalStage = { held: 'held', approved: 'approved', sent: 'sent', posted: 'posted', voided: VOIDED } as const;
export type WithdrawalStageName = (typeof WithdrawalStage)[keyof typeof WithdrawalStage];

/** Every stage, for a row's schema (`z.enum(WITHDRAWAL_STAGES)`). */
export const WITHDRAWAL_STAGES = Object.values(WithdrawalStage);

export type { WithdrawalStatus };

/** The status docs/API.md names for each stage (a member's records, the decide call's answer). */
const STATUS_OF_STAGE: Record<WithdrawalStageName, WithdrawalStatus> = { held: 'pending', approved: 'approved', sent: 'sent', posted: 'done', voided: 'failed' };

/**
 * The status a stage shows a member.
 *
 * @param stage - the stage
 * @returns its status
 * @example
 * statusOfStage(WithdrawalStage.held); // 'pending'
 */
export const statusOfStage = (stage: WithdrawalStageName): WithdrawalStatus => STATUS_OF_STAGE[stage];

/** The statuses of the stages an approval leads to: approving such a withdrawal again answers it as it is. */
const APPROVED_STATUSES: ReadonlySet<WithdrawalStatus> = new Set([WithdrawalStage.approved, WithdrawalStage.sent, WithdrawalStage.posted].map(statusOfStage));

/**
 * Whether a withdrawal of this status was approved (and maybe sent or paid since).
 *
 * @param status - its status
 * @returns true for approved, sent and done
 * @example
 * isApproved('sent'); // true
 */
export const isApproved = (status: WithdrawalStatus): boolean => APPROVED_STATUSES.has(status);

/**
 * A stage as an SQL literal, not a parameter: the partial indexes on stages (ledger_pending_open_idx) stay usable.
 *
 * @param name - the stage
 * @returns the quoted literal
 * @example
 * sql`SELECT id FROM ledger_pending d WHERE d.stage = ${stageSql(WithdrawalStage.sent)}`
 */
export const stageSql = (name: WithdrawalStageName): SQL => sql.raw(`'${name}'`);

/** The SQL of a stage's status (ledger_pending `d`). */
export const withdrawalStatusSql = sql.raw(`CASE d.stage ${Object.entries(STATUS_OF_STAGE).map(([stage, status]) => `WHEN '${stage}' THEN '${status}'`).join(' ')} ELSE d.stage END`);

/**
 * The SQL of whom withdrawal `w` pays: its member (`m`, joined by payeeJoinSql), or, for the return of a held
 * top-up (server/chain/heldTopUps.ts: a withdrawal of no member), the top-up's sender.
 */
export const payeeSql = sql`coalesce(w.to_address, m.address)`;

/** The join payeeSql reads, after withdrawals `w`. */
export const payeeJoinSql = sql`LEFT JOIN members m ON m.id = w.member_id`;

/**
 * The SQL of a withdrawal's payment hash: the mined attempt, else the latest signed one (null before any).
 *
 * @param withdrawalId - the SQL expression of the withdrawal's id
 * @returns a scalar subquery
 * @example
 * sql`SELECT ${paymentHashSql(sql.raw('w.id'))} AS "txHash" FROM withdrawals w`
 */
export const paymentHashSql = (withdrawalId: SQL) =>
  sql`(SELECT p.hash FROM payments p WHERE p.withdrawal_id = ${withdrawalId} ORDER BY p.receipt_status IS NULL, p.created_at DESC LIMIT 1)`;

/**
 * The rule of a lost payment, on payments `p` of withdrawals `d` (ledger_pending): a posted withdrawal whose payment's
 * block the chain no longer has (its receipt kept, its block hash cleared) or that was mined again as reverted, and a
 * voided (refunded) withdrawal one of whose payments was mined as paid all the same.
 */
export const lostPaymentSql = sql`(
  (d.stage = ${stageSql(WithdrawalStage.posted)} AND p.receipt_status IS NOT NULL AND (p.block_hash IS NULL OR p.receipt_status = 0))
  OR (d.stage = ${stageSql(WithdrawalStage.voided)} AND p.receipt_status = 1 AND p.block_hash IS NOT NULL))`;

/**
 * The SQL of what the withdrawals at a stage come to, net of fees (what their payments pay).
 *
 * @param name - the stage
 * @returns a scalar subquery, minor units
 * @example
 * sql`SELECT ${netAtStageSql(WithdrawalStage.sent)} AS sent`
 */
export const netAtStageSql = (name: WithdrawalStageName): SQL =>
  sql`(SELECT coalesce(sum(w.amount - w.fee), 0) FROM withdrawals w JOIN ledger_pending d ON d.id = w.id WHERE d.stage = ${stageSql(name)})`;

/** How long a sent payment may stay unmined before reconcile and the queue call it stuck (the payer replaces after 30 s). */
export const STUCK_REPORT_AFTER_MS = 5 * 60_000;

/** The operators' queue status (docs/API.md, "Operators: finance calls"). */
export type QueueStatus = z.infer<typeof queueStatusSchema>;

/** The queue status of each stage while none of its payments is lost and, sent, it is not stuck. */
const QUEUE_STATUS_OF_STAGE: Record<WithdrawalStageName, QueueStatus> = { held: 'pending', approved: 'approved', sent: 'sent', posted: 'paid', voided: 'failed' };

const queueStatusOf = (stage: WithdrawalStageName): SQL => sql.raw(`'${QUEUE_STATUS_OF_STAGE[stage]}'`);

/** A sent withdrawal `w` (at `d`) none of whose payments is mined, the first signed at least STUCK_REPORT_AFTER_MS before `now`. */
const stuckSql = (now: Date) => sql`(d.stage = ${stageSql(WithdrawalStage.sent)}
  AND NOT EXISTS (SELECT 1 FROM payments r WHERE r.withdrawal_id = w.id AND r.block_hash IS NOT NULL)
  AND (SELECT min(f.created_at) FROM payments f WHERE f.withdrawal_id = w.id) <= ${new Date(now.getTime() - STUCK_REPORT_AFTER_MS).toISOString()}::timestamptz)`;

const lostSql = sql`EXISTS (SELECT 1 FROM payments p WHERE p.withdrawal_id = w.id AND ${lostPaymentSql})`;

/**
 * The SQL of withdrawal `w`'s queue status at its pending transfer `d`: lost (reconcile's rule) before its stage,
 * stuck (reconcile's age, without the chain's reason) before sent.
 *
 * @param now - the time the age is measured at
 * @returns a CASE expression
 * @example
 * sql`SELECT ${queueStatusSql(now)} AS status FROM ledger_pending d JOIN withdrawals w ON w.id = d.id`
 */
export const queueStatusSql = (now: Date): SQL => sql`CASE
  WHEN d.stage IN (${stageSql(WithdrawalStage.posted)}, ${stageSql(WithdrawalStage.voided)}) AND ${lostSql} THEN 'lost'
  WHEN d.stage = ${stageSql(WithdrawalStage.held)} THEN ${queueStatusOf(WithdrawalStage.held)}
  WHEN d.stage = ${stageSql(WithdrawalStage.approved)} THEN ${queueStatusOf(WithdrawalStage.approved)}
  WHEN ${stuckSql(now)} THEN 'stuck'
  WHEN d.stage = ${stageSql(WithdrawalStage.sent)} THEN ${queueStatusOf(WithdrawalStage.sent)}
  WHEN d.stage = ${stageSql(WithdrawalStage.posted)} THEN ${queueStatusOf(WithdrawalStage.posted)}
  ELSE ${queueStatusOf(WithdrawalStage.voided)} END`;

/**
 * A queue status as a filter: stage predicates first, so the open stages' partial index serves pending, approved,
 * sent and stuck. Matches exactly the rows queueStatusSql gives that status.
 *
 * @param status - the status asked for
 * @param now - the time the age is measured at
 * @returns a WHERE predicate on `d` and `w`
 * @example
 * sql`... WHERE ${queueStatusFilterSql('stuck', now)}`
 */
export function queueStatusFilterSql(status: QueueStatus, now: Date): SQL {
  switch (status) {
    case 'pending':
      return sql`d.stage = ${stageSql(WithdrawalStage.held)}`;
    case 'approved':
      return sql`d.stage = ${stageSql(WithdrawalStage.approved)}`;
    case 'sent':
      return sql`d.stage = ${stageSql(WithdrawalStage.sent)} AND NOT ${stuckSql(now)}`;
    case 'stuck':
      return stuckSql(now);
    case 'paid':
      return sql`d.stage = ${stageSql(WithdrawalStage.posted)} AND NOT ${lostSql}`;
    case 'failed':
      return sql`d.stage = ${stageSql(WithdrawalStage.voided)} AND NOT ${lostSql}`;
    case 'lost':
      return sql`d.stage IN (${stageSql(WithdrawalStage.posted)}, ${stageSql(WithdrawalStage.voided)}) AND ${lostSql}`;
  }
}
