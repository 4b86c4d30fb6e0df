/**
 * Credit withdrawals (API.md, "Money"): the member account goes down by the amount, which goes to withdrawals
 * payable, and the fee moves on from there to fees; the withdrawal row and both transfers are written in one
 * statement inside the request's transaction. An operator later marks it done (the net amount is paid out and
 * leaves payable) or failed (fee and amount go back and the member gets a second, positive `withdraw` record).
 */
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { appConfigSchema } from '../config/appConfig';
import { queryRows, rowsOf, type Db } from '../db/client';
import { AlreadyDecidedError, AmountOutOfLimitsError, InsufficientBalanceError, NotFoundError } from '../errors';
import { systemAccountId } from './accounts';
import { namedStatement } from './statements';
import { formatMinor, parseAmount } from './money';
import { creditMember, moveBetweenSystemAccounts } from './transfers';

const PAYABLE = systemAccountId('CREDIT', 'withdrawals_payable');
const FEES = systemAccountId('CREDIT', 'fees');
const ISSUANCE = systemAccountId('CREDIT', 'issuance');

const bigintText = z.union([z.string(), z.number(), z.bigint()]).transform((value) => BigInt(value));

const lockedRow = z.object({ config: z.unknown(), balance: bigintText.nullable() });
const idRow = z.object({ id: bigintText });

const p = (name: string) => sql.placeholder(name);

/** Locks the member's CREDIT account (if any) and reads the app config with it. */
const lockStatement = namedStatement(
  'ledger_withdraw_lock',
  sql`SELECT c.value AS config, a.balance
      FROM app_config c
      LEFT JOIN (SELECT balance FROM ledger_accounts WHERE member_id = ${p('memberId')}::int AND asset = 'CREDIT' FOR UPDATE) a ON true
      WHERE c.id = 1`,
);

/** The day total (refusing to pass the cap), the debit, the withdrawal, its two transfers and their entries. */
const writeStatement = namedStatement(
  'ledger_withdraw_write',
  sql`WITH today AS (
        INSERT INTO withdrawal_days (member_id, day, total) VALUES (${p('memberId')}::int, ${p('day')}::date, ${p('amount')}::bigint)
        ON CONFLICT (member_id, day) DO UPDATE SET total = withdrawal_days.total + excluded.total
          WHERE withdrawal_days.total + excluded.total <= ${p('cap')}::bigint
        RETURNING total
      ), account AS (
        UPDATE ledger_accounts SET balance = balance - ${p('amount')}::bigint, version = version + 1
        WHERE member_id = ${p('memberId')}::int AND asset = 'CREDIT' AND balance >= ${p('amount')}::bigint AND EXISTS (SELECT 1 FROM today)
        RETURNING id, balance, version
      ), withdrawal AS (
        INSERT INTO withdrawals (member_id, amount, fee, status, created_at)
        SELECT ${p('memberId')}::int, ${p('amount')}::bigint, ${p('fee')}::bigint, 'pending', ${p('now')}::timestamptz FROM account
        RETURNING id
      ), transfer AS (
        INSERT INTO ledger_transfers (asset, type, debit_account_id, credit_account_id, amount, withdrawal_id, created_at)
        SELECT 'CREDIT', 'withdraw', account.id, ${sql.raw(String(PAYABLE))}, ${p('amount')}::bigint, withdrawal.id, ${p('now')}::timestamptz
        FROM account, withdrawal
        UNION ALL
        SELECT 'CREDIT', 'fee', ${sql.raw(String(PAYABLE))}, ${sql.raw(String(FEES))}, ${p('fee')}::bigint, withdrawal.id, ${p('now')}::timestamptz
        FROM withdrawal WHERE ${p('fee')}::bigint > 0
        RETURNING id, type, debit_account_id, credit_account_id, amount
      ), entries AS (
        INSERT INTO ledger_entries (transfer_id, account_id, asset, amount, previous_balance, current_balance, account_version, created_at)
        SELECT transfer.id, account.id, 'CREDIT', -transfer.amount, account.balance + transfer.amount, account.balance, account.version,
          ${p('now')}::timestamptz
        FROM transfer JOIN account ON account.id = transfer.debit_account_id
        UNION ALL
        SELECT transfer.id, transfer.debit_account_id, 'CREDIT', -transfer.amount, NULL, NULL, NULL, ${p('now')}::timestamptz
        FROM transfer WHERE transfer.type = 'fee'
        UNION ALL
        SELECT transfer.id, transfer.credit_account_id, 'CREDIT', transfer.amount, NULL, NULL, NULL, ${p('now')}::timestamptz FROM transfer
      )
      SELECT withdrawal.id FROM withdrawal`,
);

export type WithdrawalStatus = 'pending' | 'done' | 'failed';

export interface WithdrawalResult {
  id: string;
  amount: string;
  fee: string;
  status: WithdrawalStatus;
}

/** The UTC day of an instant, as YYYY-MM-DD. */
function utcDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/**
 * Withdraws credit for a member, inside the caller's transaction, in two statements. The first takes the member
 * account's row lock and reads the app config and the balance; then minWithdraw ≤ amount ≤ maxWithdraw and a fee
 * below the amount (3002) and the balance (3001) are checked. The second adds the amount to the member's total of
 * the UTC day (withdrawal_days, an upsert that refuses to pass dailyWithdrawCap: 3002) and, only then, writes the
 * withdrawal row, the member's debit to withdrawals payable, the fee from payable to fees, and their entries.
 *
 * @param tx - the request's transaction
 * @param input - member, amount in minor units, time
 * @returns the pending withdrawal
 * @throws AmountOutOfLimitsError (3002), InsufficientBalanceError (3001); nothing is written then
 * @example
 * const withdrawal = await withdrawCredit(tx, { memberId, amount: 20_000_000n, now });
 */
export async function withdrawCredit(tx: Db, input: { memberId: number; amount: bigint; now: Date }): Promise<WithdrawalResult> {
  const { memberId, amount, now } = input;
  const [locked] = rowsOf(await lockStatement(tx).execute({ memberId }), lockedRow);
  if (!locked) throw new Error('app_config is empty: run the seed');
  const config = appConfigSchema.parse(locked.config);
  const fee = parseAmount(config.withdrawFee);
  if (amount < parseAmount(config.minWithdraw) || amount > parseAmount(config.maxWithdraw) || fee >= amount) throw new AmountOutOfLimitsError();
  if (locked.balance === null || locked.balance < amount) throw new InsufficientBalanceError();

  const amountText = amount.toString();
  const feeText = fee.toString();
  const cap = parseAmount(config.dailyWithdrawCap);
  if (amount > cap) throw new AmountOutOfLimitsError();
  const [row] = rowsOf(
    await writeStatement(tx).execute({ memberId, amount: amountText, fee: feeText, cap: cap.toString(), day: utcDay(now), now }),
    idRow,
  );
  // The balance was checked under the lock, which this transaction still holds: no row means the daily cap.
  if (!row) throw new AmountOutOfLimitsError();
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
    // A failed withdrawal no longer counts against its day's cap.
    await tx.execute(
      sql`UPDATE withdrawal_days SET total = total - ${row.amount.toString()}::bigint
          WHERE member_id = ${row.memberId}::int AND day = ${utcDay(row.createdAt)}::date`,
    );
  }
  await tx.execute(sql`UPDATE withdrawals SET status = ${status}::text, decided_at = ${now}::timestamptz WHERE id = ${id.toString()}::bigint`);
  return viewOf({ ...row, status, decidedAt: now });
}
