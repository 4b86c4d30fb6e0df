/**
 * Ledger transfers: each moves a positive amount of one asset from one account to another and writes its two
 * entries, inside the caller's transaction (the one that writes the business row it belongs to). The movements are
 * SQL functions (migration 0005: ledger_debit_member, ledger_credit_member, ledger_move_system), so the batched
 * money functions in the database and these calls share one implementation (ADR 0012). A member account changes
 * only through `INSERT ... ON CONFLICT DO UPDATE` or `UPDATE ... WHERE balance >= amount`, both of which take the
 * row's lock, so two transfers on one account queue and each entry records the balance before and after it
 * (pgledger's entries); the CHECK constraints on ledger_accounts and ledger_entries refuse anything negative even
 * if this code were wrong. System accounts keep no running balance (ADR 0010).
 */
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { rowsOf, type Db } from '../db/client';
import type { Asset } from './accounts';
import { namedStatement } from './statements';

/**
 * The record types a member sees, plus two that only move between system accounts: `fee` (a withdrawal's fee, and
 * its return when the withdrawal fails) and `payout` (a done withdrawal leaving withdrawals payable).
 */
export type TransferType = 'withdraw' | 'exchange' | 'order' | 'reward' | 'transfer' | 'distribution' | 'fee' | 'payout';

const bigintText = z.union([z.string(), z.number(), z.bigint()]).transform((value) => BigInt(value));

const memberLegRow = z.object({ transferId: bigintText.nullable(), entryId: bigintText.nullable(), balanceAfter: bigintText.nullable() });
export interface MemberLeg {
  transferId: bigint;
  entryId: bigint;
  balanceAfter: bigint;
}
const transferIdRow = z.object({ transferId: bigintText });

const p = (name: string) => sql.placeholder(name);

const memberLegArgs = sql`${p('asset')}::text, ${p('type')}::text, ${p('memberId')}::int, ${p('systemAccountId')}::int, ${p('amount')}::bigint,
  ${p('withdrawalId')}::bigint, ${p('memo')}::text, ${p('now')}::timestamptz`;

const creditStatement = namedStatement(
  'ledger_credit_member',
  sql`SELECT transfer AS "transferId", entry AS "entryId", balance_after AS "balanceAfter" FROM ledger_credit_member(${memberLegArgs})`,
);

const debitStatement = namedStatement(
  'ledger_debit_member',
  sql`SELECT transfer AS "transferId", entry AS "entryId", balance_after AS "balanceAfter" FROM ledger_debit_member(${memberLegArgs})`,
);

const moveStatement = namedStatement(
  'ledger_move_system',
  sql`SELECT transfer AS "transferId" FROM ledger_move_system(${p('asset')}::text, ${p('type')}::text, ${p('fromAccountId')}::int,
        ${p('toAccountId')}::int, ${p('amount')}::bigint, ${p('withdrawalId')}::bigint, ${p('now')}::timestamptz)`,
);

export interface MemberTransfer {
  asset: Asset;
  type: TransferType;
  memberId: number;
  /** The system account on the other side. */
  systemAccountId: number;
  /** Minor units, > 0. */
  amount: bigint;
  memo?: string | undefined;
  withdrawalId?: bigint | undefined;
  now: Date;
}

function memberLegValues(transfer: MemberTransfer): Record<string, unknown> {
  const { asset, type, memberId, systemAccountId, now } = transfer;
  return {
    asset,
    type,
    memberId,
    systemAccountId,
    amount: transfer.amount.toString(),
    withdrawalId: transfer.withdrawalId?.toString() ?? null,
    memo: transfer.memo ?? null,
    now,
  };
}

async function memberLeg(statement: typeof creditStatement, tx: Db, transfer: MemberTransfer): Promise<MemberLeg | undefined> {
  const [row] = rowsOf(await statement(tx).execute(memberLegValues(transfer)), memberLegRow);
  if (!row || row.transferId === null || row.entryId === null || row.balanceAfter === null) return undefined;
  return { transferId: row.transferId, entryId: row.entryId, balanceAfter: row.balanceAfter };
}

/**
 * Moves `amount` from a system account to a member's account (created on first use), with both entries.
 *
 * @param tx - the caller's transaction
 * @param transfer - asset, type, member, system account, amount, optional memo and withdrawal, time
 * @returns the transfer, the member's entry and the member's balance after it
 * @example
 * const leg = await creditMember(tx, { asset: 'CREDIT', type: 'reward', memberId, systemAccountId: 1, amount: 5_000_000n, now });
 */
export async function creditMember(tx: Db, transfer: MemberTransfer): Promise<MemberLeg> {
  const leg = await memberLeg(creditStatement, tx, transfer);
  if (!leg) throw new Error('credit transfer wrote nothing');
  return leg;
}

/**
 * Moves `amount` from a member's account to a system account, only if the balance covers it (`UPDATE ... WHERE
 * balance >= amount`, under the row's lock).
 *
 * @param tx - the caller's transaction
 * @param transfer - asset, type, member, system account, amount, optional memo and withdrawal, time
 * @returns the transfer, the member's entry and the balance after it; undefined when the balance is short (or
 *   the member has no account yet), and then nothing was written
 * @example
 * const leg = await debitMember(tx, { asset: 'WPOS', type: 'transfer', memberId, systemAccountId: 14, amount, now });
 */
export async function debitMember(tx: Db, transfer: MemberTransfer): Promise<MemberLeg | undefined> {
  return memberLeg(debitStatement, tx, transfer);
}

export interface SystemTransfer {
  asset: Asset;
  type: TransferType;
  fromAccountId: number;
  toAccountId: number;
  amount: bigint;
  withdrawalId?: bigint | undefined;
  now: Date;
}

/**
 * Moves `amount` between two system accounts (e.g. a withdrawal's fee from withdrawals payable to fees).
 *
 * @param tx - the caller's transaction
 * @param transfer - asset, type, the two accounts, amount, optional withdrawal, time
 * @returns the transfer id
 * @example
 * await moveBetweenSystemAccounts(tx, { asset: 'CREDIT', type: 'fee', fromAccountId: 3, toAccountId: 2, amount: fee, withdrawalId, now });
 */
export async function moveBetweenSystemAccounts(tx: Db, transfer: SystemTransfer): Promise<bigint> {
  const { asset, type, fromAccountId, toAccountId, now } = transfer;
  const values = { asset, type, fromAccountId, toAccountId, amount: transfer.amount.toString(), withdrawalId: transfer.withdrawalId?.toString() ?? null, now };
  const [row] = rowsOf(await moveStatement(tx).execute(values), transferIdRow);
  if (!row) throw new Error('system transfer wrote nothing');
  return row.transferId;
}
