/**
 * Credit withdrawals (API.md, "Money"): the member account goes down by the amount, which goes to withdrawals
 * payable, and the fee moves on from there to fees; the withdrawal row and both transfers are written in one
 * statement inside the request's transaction. An operator later marks it done (the net amount is paid out and
 * leaves payable) or failed (fee and amount go back and the member gets a second, positive `withdraw` record).
 */
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AppConfig } from '../config/appConfig';
import { queryRows, type Db } from '../db/client';
import { AlreadyDecidedError, AmountOutOfLimitsError, InsufficientBalanceError, NotFoundError } from '../errors';
import { systemAccountId } from './accounts';
import { formatMinor, parseAmount } from './money';
import { creditMember, moveBetweenSystemAccounts } from './transfers';

const PAYABLE = systemAccountId('CREDIT', 'withdrawals_payable');
const FEES = systemAccountId('CREDIT', 'fees');
const ISSUANCE = systemAccountId('CREDIT', 'issuance');

const bigintText = z.union([z.string(), z.number(), z.bigint()]).transform((value) => BigInt(value));

export type WithdrawalStatus = 'pending' | 'done' | 'failed';

export interface WithdrawalResult {
  id: string;
  amount: string;
  fee: string;
  status: WithdrawalStatus;
}

/** The start of the UTC day of an instant. */
function utcDayStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/**
 * Withdraws credit for a member, inside the caller's transaction. Checks, in this order: minWithdraw ≤ amount ≤
 * maxWithdraw and the fee below the amount (3002); under the member account's row lock, the balance (3001) and
 * today's (UTC) total of withdrawals not failed plus the amount against dailyWithdrawCap (3002). The lock makes
 * the checks and the write one step for that member, whatever runs concurrently.
 *
 * @param tx - the request's transaction
 * @param input - member, amount in minor units, app config, time
 * @returns the pending withdrawal
 * @throws AmountOutOfLimitsError (3002), InsufficientBalanceError (3001); nothing is written then
 * @example
 * const withdrawal = await withdrawCredit(tx, { memberId, amount: 20_000_000n, config, now });
 */
export async function withdrawCredit(
  tx: Db,
  input: { memberId: number; amount: bigint; config: AppConfig; now: Date },
): Promise<WithdrawalResult> {
  const { memberId, amount, config, now } = input;
  const fee = parseAmount(config.withdrawFee);
  if (amount < parseAmount(config.minWithdraw) || amount > parseAmount(config.maxWithdraw) || fee >= amount) throw new AmountOutOfLimitsError();

  const [account] = await queryRows(
    tx,
    sql`SELECT balance FROM ledger_accounts WHERE member_id = ${memberId}::int AND asset = 'CREDIT' FOR UPDATE`,
    z.object({ balance: bigintText }),
  );
  if (!account || account.balance < amount) throw new InsufficientBalanceError();
  // A statement of its own, after the lock: its snapshot sees every withdrawal of this member committed before.
  const [today] = await queryRows(
    tx,
    sql`SELECT coalesce(sum(amount), 0) AS total FROM withdrawals
        WHERE member_id = ${memberId}::int AND created_at >= ${utcDayStart(now)}::timestamptz AND status <> 'failed'`,
    z.object({ total: bigintText }),
  );
  if ((today?.total ?? 0n) + amount > parseAmount(config.dailyWithdrawCap)) throw new AmountOutOfLimitsError();

  const amountText = amount.toString();
  const feeText = fee.toString();
  const [row] = await queryRows(
    tx,
    sql`WITH account AS (
          UPDATE ledger_accounts SET balance = balance - ${amountText}::bigint, version = version + 1
          WHERE member_id = ${memberId}::int AND asset = 'CREDIT' AND balance >= ${amountText}::bigint
          RETURNING id, balance, version
        ), withdrawal AS (
          INSERT INTO withdrawals (member_id, amount, fee, status, created_at)
          SELECT ${memberId}::int, ${amountText}::bigint, ${feeText}::bigint, 'pending', ${now}::timestamptz FROM account
          RETURNING id
        ), transfer AS (
          INSERT INTO ledger_transfers (asset, type, debit_account_id, credit_account_id, amount, withdrawal_id, created_at)
          SELECT 'CREDIT', 'withdraw', account.id, ${PAYABLE}::int, ${amountText}::bigint, withdrawal.id, ${now}::timestamptz
          FROM account, withdrawal
          UNION ALL
          SELECT 'CREDIT', 'fee', ${PAYABLE}::int, ${FEES}::int, ${feeText}::bigint, withdrawal.id, ${now}::timestamptz
          FROM withdrawal WHERE ${feeText}::bigint > 0
          RETURNING id, type, debit_account_id, credit_account_id, amount
        ), entries AS (
          INSERT INTO ledger_entries (transfer_id, account_id, asset, amount, previous_balance, current_balance, account_version, created_at)
          SELECT transfer.id, account.id, 'CREDIT', -transfer.amount, account.balance + transfer.amount, account.balance, account.version,
            ${now}::timestamptz
          FROM transfer JOIN account ON account.id = transfer.debit_account_id
          UNION ALL
          SELECT transfer.id, transfer.debit_account_id, 'CREDIT', -transfer.amount, NULL, NULL, NULL, ${now}::timestamptz
          FROM transfer WHERE transfer.type = 'fee'
          UNION ALL
          SELECT transfer.id, transfer.credit_account_id, 'CREDIT', transfer.amount, NULL, NULL, NULL, ${now}::timestamptz FROM transfer
        )
        SELECT withdrawal.id FROM withdrawal`,
    z.object({ id: bigintText }),
  );
  // The lock above makes this unreachable; the WHERE balance >= amount and the CHECK constraints guard it anyway.
  if (!row) throw new InsufficientBalanceError();
  return { id: row.id.toString(), amount: formatMinor(amount), fee: formatMinor(fee), status: 'pending' };
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
  }
  await tx.execute(sql`UPDATE withdrawals SET status = ${status}::text, decided_at = ${now}::timestamptz WHERE id = ${id.toString()}::bigint`);
  return viewOf({ ...row, status, decidedAt: now });
}
