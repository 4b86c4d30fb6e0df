/**
 * Reads of the ledger: a member's records (creditRecord, wposRecord) and the operator's totals. Writes are in
 * the ledger engine (engine.ts) and its flows.
 */
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { utcDayStart } from '../clock';
import { bigintText, queryRows, type Db } from '../db/client';
import type { Asset } from './accounts';
import { formatMinor } from '../../api-schema/amount';
import { withdrawalFailureSchema as failureContract, withdrawalStatusSchema as statusContract, type WithdrawalFailure, type WithdrawalStatus } from '../../api-schema/member';
import { paymentHashSql, stageSql, WithdrawalStage, withdrawalStatusSql } from './withdrawalLifecycle';

// The contract's enums (zod mini) as the zod rows here read them.
const withdrawalStatusSchema = z.enum(statusContract.options);
const withdrawalFailureSchema = z.enum(failureContract.options);


const recordRow = z.object({
  id: bigintText,
  type: z.string(),
  amount: bigintText,
  balanceAfter: bigintText,
  status: withdrawalStatusSchema,
  counterparty: z.string().nullable(),
  txHash: z.string().nullable(),
  reason: withdrawalFailureSchema.nullable(),
  createdAt: z.coerce.date(),
});

const countRow = z.object({ total: z.number().int() });
const summaryRow = z.object({ asset: z.enum(['CREDIT', 'WPOS']), members: bigintText, system: bigintText, negative: z.number().int() });
const idRow = z.object({ id: z.number().int() });

const CREDIT_TYPES = ['withdraw', 'exchange', 'order', 'reward', 'transfer', 'topUp'] as const;
const WPOS_TYPES = ['transfer', 'exchange', 'reward', 'distribution'] as const;
export type CreditRecordType = (typeof CREDIT_TYPES)[number];
export type WposRecordType = (typeof WPOS_TYPES)[number];

export interface CreditRecord {
  id: string;
  type: CreditRecordType;
  amount: string;
  balanceAfter: string;
  status: WithdrawalStatus;
  /** A top-up's transaction hash, or a withdrawal's payment's. */
  txHash?: string;
  /** Why a failed withdrawal failed. */
  reason?: WithdrawalFailure;
  createdAt: string;
}

export interface WposRecord {
  id: string;
  type: WposRecordType;
  amount: string;
  balanceAfter: string;
  /** A transfer's other member: the recipient on the sender's record, the sender on the recipient's. */
  counterparty?: string;
  createdAt: string;
}

export interface RecordPage<T> {
  list: T[];
  total: number;
  page: number;
  pageSize: number;
}

interface RecordQuery {
  memberId: number;
  page: number;
  pageSize: number;
  type?: string | undefined;
  /** Keyset: only records older than this one (its id); the page then starts there instead of at an offset. */
  before?: string | undefined;
}

/** A page of the entries on a member's account of one asset, newest first, with the transfer's type. */
async function listRecords(db: Db, asset: Asset, query: RecordQuery): Promise<RecordPage<z.output<typeof recordRow>>> {
  const { memberId, page, pageSize } = query;
  const type = query.type ?? null;
  const before = query.before ?? null;
  const where = sql`e.account_id = (SELECT id FROM ledger_accounts WHERE member_id = ${memberId}::int AND asset = ${asset}::text)
    AND (${type}::text IS NULL OR t.type = ${type}::text OR (${type}::text = 'withdraw' AND t.type = 'unknownPayment'))`;
  // Unfiltered, the total is the account's version (its number of entries, which the books check holds to the count):
  // one row, however long the member's history. A filter counts the member's own entries of that type.
  const [count] = await queryRows(
    db,
    type === null
      ? sql`SELECT coalesce((SELECT version::int FROM ledger_accounts WHERE member_id = ${memberId}::int AND asset = ${asset}::text), 0) AS total`
      : sql`SELECT count(*)::int AS total FROM ledger_entries e JOIN ledger_transfers t ON t.id = e.transfer_id WHERE ${where}`,
    countRow,
  );
  const rows = await queryRows(
    db,
    sql`SELECT e.id, CASE WHEN t.type = 'unknownPayment' THEN 'withdraw' ELSE t.type END AS type, e.amount, e.current_balance AS "balanceAfter",
          CASE WHEN t.type = 'withdraw' AND e.amount < 0 THEN ${withdrawalStatusSql} ELSE 'done' END AS status,
          CASE WHEN t.type = 'transfer' THEN (SELECT m.address FROM ledger_accounts oa JOIN members m ON m.id = oa.member_id
            WHERE oa.id = CASE WHEN e.amount < 0 THEN t.credit_account_id ELSE t.debit_account_id END) END AS counterparty,
          CASE WHEN t.type IN ('topUp', 'unknownPayment') THEN t.memo
            WHEN t.type = 'withdraw' AND e.amount < 0 THEN ${paymentHashSql(sql.raw('t.pending_id'))} END AS "txHash",
          CASE WHEN d.stage = ${stageSql(WithdrawalStage.voided)} AND e.amount < 0 THEN (SELECT f.reason FROM withdrawal_failures f WHERE f.withdrawal_id = t.pending_id) END AS reason,
          e.created_at AS "createdAt"
        FROM ledger_entries e JOIN ledger_transfers t ON t.id = e.transfer_id
          LEFT JOIN ledger_pending d ON d.id = t.pending_id AND t.type = 'withdraw'
        WHERE ${where} AND (${before}::bigint IS NULL OR e.id < ${before}::bigint)
        ORDER BY e.id DESC LIMIT ${pageSize}::int OFFSET ${before === null ? (page - 1) * pageSize : 0}::int`,
    recordRow,
  );
  return { list: rows, total: count?.total ?? 0, page, pageSize };
}

function typeIn<T extends string>(types: readonly T[], type: string): T {
  if (!(types as readonly string[]).includes(type)) throw new Error(`ledger transfer type ${type} on a member account`);
  return type as T;
}

/**
 * A page of a member's CREDIT records, newest first: one per ledger entry on the member's account, with its signed
 * amount and the balance after it. A withdrawal's debit shows the withdrawal's status; every other record, the
 * refund of a failed withdrawal included, is done.
 *
 * @param db - database handle
 * @param query - member, page, page size, optional type
 * @returns the page
 * @example
 * const page = await listCreditRecords(db, { memberId, page: 1, pageSize: 20 });
 */
export async function listCreditRecords(db: Db, query: RecordQuery & { type?: CreditRecordType | undefined }): Promise<RecordPage<CreditRecord>> {
  const page = await listRecords(db, 'CREDIT', query);
  return {
    ...page,
    list: page.list.map((row) => ({
      id: row.id.toString(),
      type: typeIn(CREDIT_TYPES, row.type),
      amount: formatMinor(row.amount),
      balanceAfter: formatMinor(row.balanceAfter),
      status: row.status,
      ...(row.txHash === null ? {} : { txHash: row.txHash }),
      ...(row.reason === null ? {} : { reason: row.reason }),
      createdAt: row.createdAt.toISOString(),
    })),
  };
}

/**
 * A page of a member's WPOS records, newest first, as listCreditRecords (no status: WPOS movements are immediate).
 *
 * @param db - database handle
 * @param query - member, page, page size, optional type
 * @returns the page
 * @example
 * const page = await listWposRecords(db, { memberId, page: 1, pageSize: 20 });
 */
export async function listWposRecords(db: Db, query: RecordQuery & { type?: WposRecordType | undefined }): Promise<RecordPage<WposRecord>> {
  const page = await listRecords(db, 'WPOS', query);
  return {
    ...page,
    list: page.list.map((row) => ({
      id: row.id.toString(),
      type: typeIn(WPOS_TYPES, row.type),
      amount: formatMinor(row.amount),
      balanceAfter: formatMinor(row.balanceAfter),
      ...(row.counterparty ? { counterparty: row.counterparty } : {}),
      createdAt: row.createdAt.toISOString(),
    })),
  };
}

const profitRow = z.object({ id: bigintText, amount: bigintText, source: z.string().nullable(), createdAt: z.coerce.date() });
const profitTotalsRow = z.object({ total: z.number().int(), totalProfit: bigintText, todayProfit: bigintText });

export interface ProfitPage extends RecordPage<{ id: string; amount: string; source: string; createdAt: string }> {
  totalProfit: string;
  todayProfit: string;
}

/**
 * wposProfit: a page of the member's share-pool payouts, newest first, each with its pool's name, and the totals
 * of all of them and of the current UTC day.
 *
 * @param db - database handle
 * @param query - member, page, page size, and the current time (for "today")
 * @returns the page with the totals
 * @example
 * const page = await listWposProfit(db, { memberId, page: 1, pageSize: 20, now });
 */
export async function listWposProfit(db: Db, query: RecordQuery & { now: Date }): Promise<ProfitPage> {
  const { memberId, page, pageSize, now } = query;
  const before = query.before ?? null;
  const dayStart = utcDayStart(now);
  const where = sql`e.account_id = (SELECT id FROM ledger_accounts WHERE member_id = ${memberId}::int AND asset = 'WPOS') AND t.type = 'distribution'`;
  const [totals] = await queryRows(
    db,
    sql`SELECT count(*)::int AS total, coalesce(sum(e.amount), 0) AS "totalProfit",
          coalesce(sum(e.amount) FILTER (WHERE e.created_at >= ${dayStart}::timestamptz), 0) AS "todayProfit"
        FROM ledger_entries e JOIN ledger_transfers t ON t.id = e.transfer_id WHERE ${where}`,
    profitTotalsRow,
  );
  const rows = await queryRows(
    db,
    sql`SELECT e.id, e.amount, t.memo AS source, e.created_at AS "createdAt"
        FROM ledger_entries e JOIN ledger_transfers t ON t.id = e.transfer_id WHERE ${where} AND (${before}::bigint IS NULL OR e.id < ${before}::bigint)
        ORDER BY e.id DESC LIMIT ${pageSize}::int OFFSET ${before === null ? (page - 1) * pageSize : 0}::int`,
    profitRow,
  );
  return {
    list: rows.map((row) => ({ id: row.id.toString(), amount: formatMinor(row.amount), source: row.source ?? '', createdAt: row.createdAt.toISOString() })),
    total: totals?.total ?? 0,
    page,
    pageSize,
    totalProfit: formatMinor(totals?.totalProfit ?? 0n),
    todayProfit: formatMinor(totals?.todayProfit ?? 0n),
  };
}

export interface AssetTotals {
  /** Sum of the member accounts. */
  members: bigint;
  /** Sum of the system accounts (the transfers into them less those out of them). */
  system: bigint;
  /** members + system: 0 in a sound ledger. */
  total: bigint;
}

export interface LedgerSummary {
  assets: Record<Asset, AssetTotals>;
  /** Member accounts below zero: 0 in a sound ledger (the CHECK constraint forbids them). */
  negativeAccounts: number;
}

/**
 * The operator's totals per asset: member accounts, system accounts (sums of their transfers) and both together,
 * which must be 0, and the number of negative member accounts, which must be 0.
 *
 * @param db - database handle
 * @returns the totals
 * @example
 * const { assets } = await ledgerSummary(db); assets.CREDIT.total === 0n;
 */
export async function ledgerSummary(db: Db): Promise<LedgerSummary> {
  const rows = await queryRows(
    db,
    sql`SELECT asset.name AS asset,
          (SELECT coalesce(sum(balance), 0) FROM ledger_accounts WHERE asset = asset.name AND member_id IS NOT NULL) AS members,
          (SELECT coalesce(sum(CASE WHEN credit_account_id < 1000 THEN amount ELSE 0 END)
             - sum(CASE WHEN debit_account_id < 1000 THEN amount ELSE 0 END), 0)
           FROM ledger_transfers WHERE asset = asset.name) AS system,
          (SELECT count(*)::int FROM ledger_accounts WHERE asset = asset.name AND member_id IS NOT NULL AND balance < 0) AS negative
        FROM (VALUES ('CREDIT'), ('WPOS')) AS asset(name)`,
    summaryRow,
  );
  const zero: AssetTotals = { members: 0n, system: 0n, total: 0n };
  const assets: Record<Asset, AssetTotals> = { CREDIT: zero, WPOS: zero };
  let negativeAccounts = 0;
  for (const row of rows) {
    assets[row.asset] = { members: row.members, system: row.system, total: row.members + row.system };
    negativeAccounts += row.negative;
  }
  return { assets, negativeAccounts };
}

/**
 * The member of an address.
 *
 * @param db - database handle
 * @param address - EIP-55 address
 * @returns the member id, or undefined
 * @example
 * const memberId = await memberIdByAddress(tx, '0xAb…');
 */
export async function memberIdByAddress(db: Db, address: string): Promise<number | undefined> {
  const [row] = await queryRows(db, sql`SELECT id FROM members WHERE address = ${address}::text`, idRow);
  return row?.id;
}
