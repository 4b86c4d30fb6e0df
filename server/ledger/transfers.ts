/**
 * Ledger transfers: each moves a positive amount of one asset from one account to another and writes its two
 * entries, in one statement, inside the caller's transaction (the one that writes the business row it belongs to).
 * A member account changes only through `INSERT ... ON CONFLICT DO UPDATE` or `UPDATE ... WHERE balance >= amount`,
 * both of which take the row's lock, so two transfers on one account queue and each entry records the balance
 * before and after it (pgledger's entries); the CHECK constraints on ledger_accounts and ledger_entries refuse
 * anything negative even if this code were wrong. System accounts keep no running balance (ADR 0010).
 */
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { queryRows, rowsOf, type Db } from '../db/client';
import type { Asset } from './accounts';
import { namedStatement } from './statements';

/**
 * The record types a member sees, plus two that only move between system accounts: `fee` (a withdrawal's fee, and
 * its return when the withdrawal fails) and `payout` (a done withdrawal leaving withdrawals payable).
 */
export type TransferType = 'withdraw' | 'exchange' | 'order' | 'reward' | 'transfer' | 'distribution' | 'fee' | 'payout';

const bigintText = z.union([z.string(), z.number(), z.bigint()]).transform((value) => BigInt(value));

const memberLegRow = z.object({ transferId: bigintText, entryId: bigintText, balanceAfter: bigintText });
export type MemberLeg = z.output<typeof memberLegRow>;
const transferIdRow = z.object({ transferId: bigintText });

const p = (name: string) => sql.placeholder(name);

/** creditMember's statement: the member account upserted under its row lock, the transfer and both entries. */
const creditStatement = namedStatement(
  'ledger_credit_member',
  sql`WITH account AS (
        INSERT INTO ledger_accounts (asset, kind, member_id, balance, version)
        VALUES (${p('asset')}::text, 'member', ${p('memberId')}::int, ${p('amount')}::bigint, 1)
        ON CONFLICT (member_id, asset) DO UPDATE
          SET balance = ledger_accounts.balance + excluded.balance, version = ledger_accounts.version + 1
        RETURNING id, balance, version
      ), transfer AS (
        INSERT INTO ledger_transfers (asset, type, debit_account_id, credit_account_id, amount, withdrawal_id, memo, created_at)
        SELECT ${p('asset')}::text, ${p('type')}::text, ${p('systemAccountId')}::int, account.id, ${p('amount')}::bigint,
          ${p('withdrawalId')}::bigint, ${p('memo')}::text, ${p('now')}::timestamptz
        FROM account
        RETURNING id
      ), entries AS (
        INSERT INTO ledger_entries (transfer_id, account_id, asset, amount, previous_balance, current_balance, account_version, created_at)
        SELECT transfer.id, ${p('systemAccountId')}::int, ${p('asset')}::text, -${p('amount')}::bigint, NULL, NULL, NULL, ${p('now')}::timestamptz
        FROM transfer
        UNION ALL
        SELECT transfer.id, account.id, ${p('asset')}::text, ${p('amount')}::bigint, account.balance - ${p('amount')}::bigint, account.balance,
          account.version, ${p('now')}::timestamptz
        FROM transfer, account
        RETURNING id, account_id
      )
      SELECT transfer.id AS "transferId", entries.id AS "entryId", account.balance AS "balanceAfter"
      FROM transfer, account JOIN entries ON entries.account_id = account.id`,
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
  const { asset, type, memberId, systemAccountId, now } = transfer;
  const values = {
    asset,
    type,
    memberId,
    systemAccountId,
    amount: transfer.amount.toString(),
    withdrawalId: transfer.withdrawalId?.toString() ?? null,
    memo: transfer.memo ?? null,
    now,
  };
  const [row] = rowsOf(await creditStatement(tx).execute(values), memberLegRow);
  if (!row) throw new Error('credit transfer wrote nothing');
  return row;
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
 * const leg = await debitMember(tx, { asset: 'CREDIT', type: 'withdraw', memberId, systemAccountId: 3, amount, withdrawalId, now });
 */
export async function debitMember(tx: Db, transfer: MemberTransfer): Promise<MemberLeg | undefined> {
  const { asset, type, memberId, systemAccountId, now } = transfer;
  const amount = transfer.amount.toString();
  const withdrawalId = transfer.withdrawalId?.toString() ?? null;
  const [row] = await queryRows(
    tx,
    sql`WITH account AS (
          UPDATE ledger_accounts SET balance = balance - ${amount}::bigint, version = version + 1
          WHERE member_id = ${memberId}::int AND asset = ${asset}::text AND balance >= ${amount}::bigint
          RETURNING id, balance, version
        ), transfer AS (
          INSERT INTO ledger_transfers (asset, type, debit_account_id, credit_account_id, amount, withdrawal_id, memo, created_at)
          SELECT ${asset}::text, ${type}::text, account.id, ${systemAccountId}::int, ${amount}::bigint, ${withdrawalId}::bigint,
            ${transfer.memo ?? null}::text, ${now}::timestamptz
          FROM account
          RETURNING id
        ), entries AS (
          INSERT INTO ledger_entries (transfer_id, account_id, asset, amount, previous_balance, current_balance, account_version, created_at)
          SELECT transfer.id, account.id, ${asset}::text, -${amount}::bigint, account.balance + ${amount}::bigint, account.balance, account.version,
            ${now}::timestamptz
          FROM transfer, account
          UNION ALL
          SELECT transfer.id, ${systemAccountId}::int, ${asset}::text, ${amount}::bigint, NULL, NULL, NULL, ${now}::timestamptz FROM transfer
          RETURNING id, account_id
        )
        SELECT transfer.id AS "transferId", entries.id AS "entryId", account.balance AS "balanceAfter"
        FROM transfer, account JOIN entries ON entries.account_id = account.id`,
    memberLegRow,
  );
  return row;
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
  const amount = transfer.amount.toString();
  const [row] = await queryRows(
    tx,
    sql`WITH transfer AS (
          INSERT INTO ledger_transfers (asset, type, debit_account_id, credit_account_id, amount, withdrawal_id, created_at)
          VALUES (${asset}::text, ${type}::text, ${fromAccountId}::int, ${toAccountId}::int, ${amount}::bigint,
            ${transfer.withdrawalId?.toString() ?? null}::bigint, ${now}::timestamptz)
          RETURNING id
        ), entries AS (
          INSERT INTO ledger_entries (transfer_id, account_id, asset, amount, created_at)
          SELECT id, ${fromAccountId}::int, ${asset}::text, -${amount}::bigint, ${now}::timestamptz FROM transfer
          UNION ALL
          SELECT id, ${toAccountId}::int, ${asset}::text, ${amount}::bigint, ${now}::timestamptz FROM transfer
        )
        SELECT id AS "transferId" FROM transfer`,
    transferIdRow,
  );
  if (!row) throw new Error('system transfer wrote nothing');
  return row.transferId;
}
