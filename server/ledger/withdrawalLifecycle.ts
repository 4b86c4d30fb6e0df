/**
 * The withdrawal's lifecycle, owned in one place (docs/decisions/0019-withdrawals-paid-on-chain.md): its stages as
 * the engine's pending transfer keeps them, the status each shows a member, and the SQL that joins a withdrawal to
 * its payments on chain. The ledger (withdrawals.ts, queries.ts), the payer (server/chain/payer/) and reconcile
 * (server/chain/reconcile.ts, paymentWatch.ts) read stages and payments only through what is here, so a stage's
 * name, the status it shows and the rule of a lost payment are written once.
 */
import { sql, type SQL } from 'drizzle-orm';
import { VOIDED } from './engine';

/** A withdrawal's stages as its pending transfer keeps them. */
export const WithdrawalStage = { held: 'held', approved: 'approved', sent: 'sent', posted: 'posted', voided: VOIDED } as const;
export type WithdrawalStageName = (typeof WithdrawalStage)[keyof typeof WithdrawalStage];

/** The status docs/API.md names for each stage. */
export type WithdrawalStatus = 'pending' | 'approved' | 'sent' | 'done' | 'failed';

const STATUS_OF_STAGE: Record<WithdrawalStageName, WithdrawalStatus> = { held: 'pending', approved: 'approved', sent: 'sent', posted: 'done', voided: 'failed' };

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
