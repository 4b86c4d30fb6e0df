/**
 * The withdrawals as the operators' desk lists them (docs/API.md, "Operators: finance calls"): each with its queue
 * status, read from its stage and payments through server/ledger/withdrawalLifecycle.ts (a lost payment is reconcile's
 * rule, a stuck one reconcile's age without the chain's reason), its approvals so far and how many it needs.
 */
import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { withdrawalFailureSchema, type WithdrawalFailure } from '../../api-schema/member';
import { queueStatusSchema } from '../../api-schema/opsFinance';
import { bigintText, queryRows, type Db } from '../db/client';
import { withdrawalViewOf } from '../ledger/withdrawals';
import {
  payeeJoinSql,
  payeeSql,
  paymentHashSql,
  queueStatusFilterSql,
  queueStatusSql,
  WITHDRAWAL_STAGES,
  WithdrawalStage,
  type QueueStatus,
} from '../ledger/withdrawalLifecycle';
import { isCurrentOperatorSql } from './operators';

export type { QueueStatus };

export interface Approval {
  address: string;
  approvedAt: string;
}

export interface QueuedWithdrawal {
  id: string;
  address: string;
  amount: string;
  fee: string;
  status: QueueStatus;
  createdAt: string;
  decidedAt: string | null;
  txHash?: string;
  reason?: WithdrawalFailure;
  note?: string;
  approvals: Approval[];
  approvalsNeeded: number;
}

/**
 * How many different operators must approve a withdrawal of `amount`: two above the quorum threshold, else one.
 *
 * @param amount - minor units, as the member asked (fee included)
 * @param quorumAbove - APPROVAL_QUORUM_ABOVE in minor units
 * @returns 1 or 2
 * @example
 * approvalsNeeded(1_500_000_000n, 1_000_000_000n); // 2
 */
export function approvalsNeeded(amount: bigint, quorumAbove: bigint): 1 | 2 {
  return amount > quorumAbove ? 2 : 1;
}

const queueRow = z.object({
  id: bigintText,
  address: z.string(),
  amount: bigintText,
  fee: bigintText,
  stage: z.enum(WITHDRAWAL_STAGES),
  status: queueStatusSchema,
  createdAt: z.coerce.date(),
  updatedAt: z.coerce.date(),
  txHash: z.string().nullable(),
  reason: z.enum(withdrawalFailureSchema.options).nullable(),
  note: z.string().nullable(),
});

const approvalRow = z.object({ withdrawalId: bigintText, operator: z.string(), createdAt: z.coerce.date() });

/**
 * The operators' approvals of some withdrawals, oldest first.
 *
 * @param db - database handle
 * @param ids - the withdrawals
 * @returns approvals by withdrawal id (decimal)
 * @example
 * const approvals = await approvalsOf(db, [7n]);
 */
export async function approvalsOf(db: Db, ids: readonly bigint[]): Promise<Map<string, Approval[]>> {
  const byId = new Map<string, Approval[]>();
  if (ids.length === 0) return byId;
  const rows = await queryRows(
    db,
    // A removed operator's approval no longer counts (nor shows).
    sql`SELECT withdrawal_id AS "withdrawalId", operator, created_at AS "createdAt" FROM withdrawal_approvals a
        WHERE withdrawal_id = ANY (${`{${ids.join(',')}}`}::bigint[]) AND ${isCurrentOperatorSql(sql.raw('a.operator'))}
        ORDER BY created_at, operator`,
    approvalRow,
  );
  for (const row of rows) {
    const key = row.withdrawalId.toString();
    byId.set(key, [...(byId.get(key) ?? []), { address: row.operator, approvedAt: row.createdAt.toISOString() }]);
  }
  return byId;
}

const queueFrom = sql`ledger_pending d JOIN withdrawals w ON w.id = d.id ${payeeJoinSql}`;

async function queueRows(db: Db, where: SQL, now: Date, limit: number): Promise<z.infer<typeof queueRow>[]> {
  return queryRows(
    db,
    sql`SELECT w.id, ${payeeSql} AS address, w.amount, w.fee, d.stage, ${queueStatusSql(now)} AS status, w.created_at AS "createdAt", d.updated_at AS "updatedAt",
          ${paymentHashSql(sql.raw('w.id'))} AS "txHash", f.reason, f.note
        FROM ${queueFrom}
          LEFT JOIN withdrawal_failures f ON f.withdrawal_id = w.id
        WHERE ${where}
        ORDER BY d.id DESC LIMIT ${limit}::int`,
    queueRow,
  );
}

const countRow = z.object({ total: bigintText });

async function viewsOf(db: Db, rows: z.infer<typeof queueRow>[], quorumAbove: bigint): Promise<QueuedWithdrawal[]> {
  const approvals = await approvalsOf(db, rows.map((row) => row.id));
  return rows.map((row) => ({
    ...withdrawalViewOf(row),
    approvals: approvals.get(row.id.toString()) ?? [],
    // One waiting approval means the policy asked for a second operator, whatever the amount.
    approvalsNeeded: (approvals.get(row.id.toString())?.length ?? 0) > 0 && row.stage === WithdrawalStage.held ? 2 : approvalsNeeded(row.amount, quorumAbove),
  }));
}

export interface QueueQuery {
  status?: QueueStatus | undefined;
  /** The member's EIP-55 address. */
  address?: string | undefined;
  /** The last id of the page before: this page starts below it. */
  cursor?: bigint | undefined;
  /**
   * Only the pending withdrawals this operator (EIP-55) may still approve: not approved by them yet, not their own.
   */
  awaitingApprovalBy?: string | undefined;
  limit: number;
  now: Date;
  quorumAbove: bigint;
}

/**
 * A page of the queue, newest first.
 *
 * @param db - database handle
 * @param query - filters, cursor, page size, the clock and the quorum threshold
 * @returns the page, the cursor of the next one (null when this is the last) and how many match the filters on all pages
 * @example
 * const page = await listQueue(db, { status: 'pending', limit: 50, now, quorumAbove });
 */
export async function listQueue(db: Db, query: QueueQuery): Promise<{ list: QueuedWithdrawal[]; nextCursor: string | null; total: number }> {
  const where: SQL[] = [sql`true`];
  if (query.status) where.push(queueStatusFilterSql(query.status, query.now));
  if (query.address !== undefined) where.push(sql`${payeeSql} = ${query.address}::text`);
  if (query.awaitingApprovalBy !== undefined) {
    const operator = query.awaitingApprovalBy.toLowerCase();
    where.push(queueStatusFilterSql('pending', query.now));
    where.push(sql`lower(${payeeSql}) <> ${operator}::text`);
    where.push(sql`NOT EXISTS (SELECT 1 FROM withdrawal_approvals a WHERE a.withdrawal_id = d.id AND lower(a.operator) = ${operator}::text)`);
  }
  const filters = sql.join(where, sql` AND `);
  const paged = query.cursor === undefined ? filters : sql`${filters} AND d.id < ${query.cursor.toString()}::bigint`;
  // One more than the page: whether a next page exists.
  const rows = await queueRows(db, paged, query.now, query.limit + 1);
  const [counted] = await queryRows(db, sql`SELECT count(*) AS total FROM ${queueFrom} WHERE ${filters}`, countRow);
  const page = rows.slice(0, query.limit);
  const list = await viewsOf(db, page, query.quorumAbove);
  return { list, nextCursor: rows.length > query.limit ? (list.at(-1)?.id ?? null) : null, total: Number(counted?.total ?? 0n) };
}

/**
 * One withdrawal as the queue shows it.
 *
 * @param db - database handle
 * @param id - the withdrawal
 * @param now - the clock (stuck)
 * @param quorumAbove - the quorum threshold
 * @returns the view, or undefined for an unknown id
 * @example
 * const view = await queuedWithdrawal(db, 7n, now, quorumAbove);
 */
export async function queuedWithdrawal(db: Db, id: bigint, now: Date, quorumAbove: bigint): Promise<QueuedWithdrawal | undefined> {
  const rows = await queueRows(db, sql`d.id = ${id.toString()}::bigint`, now, 1);
  const [view] = await viewsOf(db, rows, quorumAbove);
  return view;
}
