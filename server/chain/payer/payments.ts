/**
 * The payer's SQL: its payments (the signed attempts of each withdrawal, with their receipts once mined), the
 * withdrawals at the stages it reads, and its account row's next nonce. Stage names are the ledger's
 * (`WithdrawalStage`, server/ledger/withdrawalLifecycle.ts); the payer moves a withdrawal only through the engine.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Address, Hex, TransactionReceipt } from 'viem';
import { z } from 'zod';
import { bigintText, queryRows, type Db } from '../../db/client';
import { payeeJoinSql, payeeSql, stageSql as stage, WithdrawalStage } from '../../ledger/withdrawalLifecycle';


/**
 * What the hot wallet has on its way: the token of its sent, not yet final payments (one per withdrawal, whichever
 * attempt) and how many they are. The payer does not spend it again; reconcile shows it.
 *
 * @param db - database handle or transaction
 * @param payer - the hot wallet
 * @returns token units and the number of payments
 * @example
 * const { tokens, count } = await paymentsInFlight(tx, payer.address);
 */
export async function paymentsInFlight(db: Db, payer: Address): Promise<{ tokens: bigint; count: number }> {
  const [row] = await queryRows(
    db,
    sql`SELECT coalesce(sum(x.token_amount::numeric), 0)::text AS amount, count(*)::int AS count FROM (
          SELECT DISTINCT ON (p.withdrawal_id) p.token_amount FROM payments p JOIN ledger_pending d ON d.id = p.withdrawal_id
          WHERE d.stage = ${stage(WithdrawalStage.sent)} AND p.payer = ${payer}) x`,
    z.object({ amount: z.string(), count: z.number() }),
  );
  return { tokens: BigInt(row?.amount ?? '0'), count: row?.count ?? 0 };
}

/** A stored attempt: one signed payment of a withdrawal, to whom and for how much (token units). */
export interface Attempt {
  hash: Hex;
  raw: Hex;
  to: Address;
  tokenAmount: bigint;
}

const attemptRow = z.object({ hash: z.string(), raw: z.string(), to: z.string(), tokenAmount: z.string() });

/**
 * A withdrawal's attempts, oldest first.
 *
 * @param db - database handle
 * @param withdrawalId - the withdrawal
 * @returns its signed payments
 * @example
 * const attempts = await attemptsOf(db, 7n);
 */
export async function attemptsOf(db: Db, withdrawalId: bigint): Promise<Attempt[]> {
  const rows = await queryRows(
    db,
    sql`SELECT p.hash, p.raw, ${payeeSql} AS "to", p.token_amount AS "tokenAmount"
        FROM payments p JOIN withdrawals w ON w.id = p.withdrawal_id ${payeeJoinSql}
        WHERE p.withdrawal_id = ${withdrawalId.toString()}::bigint ORDER BY p.created_at`,
    attemptRow,
  );
  return rows.map((row) => ({ hash: row.hash as Hex, raw: row.raw as Hex, to: row.to as Address, tokenAmount: BigInt(row.tokenAmount) }));
}

const voidedRow = z.object({ id: bigintText, hash: z.string(), to: z.string(), tokenAmount: z.string(), blockHash: z.string().nullable() });
export type VoidedAttempt = z.output<typeof voidedRow>;

/**
 * The attempts of voided withdrawals whose nonce the chain may still give them: from `fromNonce` on (the hot
 * wallet's count at the oldest block watched; below it the nonce was taken deeper than any reorganisation watched).
 *
 * @param db - database handle
 * @param payer - the hot wallet
 * @param fromNonce - the lowest nonce still watched
 * @returns the attempts with the member, the amount and the receipt's block kept, if any
 * @example
 * const rows = await voidedToWatch(db, account.address, 12n);
 */
export function voidedToWatch(db: Db, payer: Address, fromNonce: bigint): Promise<VoidedAttempt[]> {
  return queryRows(
    db,
    // On payments_payer_nonce_idx: the hot wallet's latest nonces only.
    sql`SELECT p.withdrawal_id AS id, p.hash, ${payeeSql} AS "to", p.token_amount AS "tokenAmount", p.block_hash AS "blockHash"
        FROM payments p JOIN ledger_pending d ON d.id = p.withdrawal_id JOIN withdrawals w ON w.id = p.withdrawal_id ${payeeJoinSql}
        WHERE p.payer = ${payer} AND p.nonce >= ${fromNonce.toString()}::bigint AND d.stage = ${stage(WithdrawalStage.voided)}
        ORDER BY p.nonce, p.created_at`,
    voidedRow,
  );
}

const sentRow = z.object({
  id: bigintText,
  amount: bigintText,
  fee: bigintText,
  hash: z.string(),
  nonce: bigintText,
  raw: z.string(),
  maxFeePerGas: z.string(),
  maxPriorityFeePerGas: z.string(),
  address: z.string(),
  tokenAmount: z.string(),
  createdAt: z.coerce.date(),
  /** The withdrawal's creation time (its payments' tag names it: paymentTag.ts). */
  withdrawalCreatedAt: z.coerce.date(),
  blockNumber: bigintText.nullable(),
  blockHash: z.string().nullable(),
});
export type SentAttempt = z.output<typeof sentRow>;

/**
 * Every attempt of the sent withdrawals paid from this hot wallet, in nonce order, oldest attempt first.
 *
 * @param db - database handle
 * @param payer - the hot wallet
 * @returns the attempts with their withdrawal's amount, fee and member address
 * @example
 * const rows = await sentAttempts(db, account.address);
 */
export function sentAttempts(db: Db, payer: Address): Promise<SentAttempt[]> {
  return queryRows(
    db,
    sql`SELECT w.id, w.amount, w.fee, p.hash, p.nonce, p.raw, p.max_fee_per_gas AS "maxFeePerGas", p.max_priority_fee_per_gas AS "maxPriorityFeePerGas",
          ${payeeSql} AS address, p.token_amount AS "tokenAmount", p.created_at AS "createdAt", w.created_at AS "withdrawalCreatedAt",
          p.block_number AS "blockNumber", p.block_hash AS "blockHash"
        FROM ledger_pending d JOIN withdrawals w ON w.id = d.id ${payeeJoinSql} JOIN payments p ON p.withdrawal_id = w.id
        WHERE d.stage = ${stage(WithdrawalStage.sent)} AND p.payer = ${payer}
        ORDER BY p.nonce, p.created_at`,
    sentRow,
  );
}

const postedRow = z.object({ id: bigintText, hash: z.string(), blockNumber: bigintText, blockHash: z.string().nullable() });
export type PostedPayment = z.output<typeof postedRow>;

/**
 * The posted payments to watch: those with a receipt in a block from `fromBlock` on, and those lost (receipt kept,
 * block hash cleared).
 *
 * @param db - database handle
 * @param payer - the hot wallet
 * @param fromBlock - the oldest block still watched
 * @returns the payments with their block
 * @example
 * const rows = await postedToWatch(db, account.address, head - 64n);
 */
export function postedToWatch(db: Db, payer: Address, fromBlock: bigint): Promise<PostedPayment[]> {
  return queryRows(
    db,
    // Two disjoint halves, each on its index (payments_payer_block_idx, payments_lost_idx).
    sql`SELECT p.withdrawal_id AS id, p.hash, p.block_number AS "blockNumber", p.block_hash AS "blockHash"
        FROM payments p JOIN ledger_pending d ON d.id = p.withdrawal_id
        WHERE d.stage = ${stage(WithdrawalStage.posted)} AND p.payer = ${payer} AND p.block_hash IS NOT NULL AND p.block_number >= ${fromBlock.toString()}::bigint
        UNION ALL
        SELECT p.withdrawal_id, p.hash, p.block_number, p.block_hash
        FROM payments p JOIN ledger_pending d ON d.id = p.withdrawal_id
        WHERE d.stage = ${stage(WithdrawalStage.posted)} AND p.payer = ${payer} AND p.receipt_status IS NOT NULL AND p.block_hash IS NULL`,
    postedRow,
  );
}

/**
 * Keeps a payment's receipt: its block, status (1 paid, 0 reverted) and gas.
 *
 * @param db - database handle or transaction
 * @param hash - the payment
 * @param receipt - its receipt
 * @param paid - whether the receipt pays the member (status 1 and the token's Transfer log)
 * @example
 * await keepReceipt(db, hash, receipt, paid);
 */
export async function keepReceipt(db: Db, hash: string, receipt: TransactionReceipt, paid: boolean): Promise<void> {
  await db.execute(
    sql`UPDATE payments SET block_number = ${receipt.blockNumber.toString()}::bigint, block_hash = ${receipt.blockHash}, receipt_status = ${paid ? 1 : 0}::int, gas_used = ${receipt.gasUsed.toString()}::bigint WHERE hash = ${hash}`,
  );
}

/**
 * Forgets the receipts kept for these payments (the chain no longer has them, or another attempt has the one).
 *
 * @param db - database handle or transaction
 * @param where - which payments
 * @example
 * await forgetReceipts(db, sql`hash = ${hash}`);
 */
export async function forgetReceipts(db: Db, where: SQL): Promise<void> {
  await db.execute(sql`UPDATE payments SET block_number = NULL, block_hash = NULL, receipt_status = NULL, gas_used = NULL WHERE ${where}`);
}

/**
 * Clears a posted payment's block hash: the chain no longer has its block (it is lost until mined again).
 *
 * @param db - database handle
 * @param hash - the payment
 * @example
 * await markLost(db, hash);
 */
export async function markLost(db: Db, hash: string): Promise<void> {
  await db.execute(sql`UPDATE payments SET block_hash = NULL WHERE hash = ${hash}`);
}

/** A payment to store as signed, before it is broadcast. */
export interface NewPayment {
  hash: Hex;
  raw: Hex;
  withdrawalId: bigint;
  chainId: number;
  payer: Address;
  nonce: bigint;
  tokenAmount: bigint;
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
  createdAt: Date;
}

/**
 * Stores signed payments (a hash stored already stays as it is).
 *
 * @param db - database handle or transaction
 * @param payments - the signed payments
 * @example
 * await storePayments(tx, [{ hash, raw, withdrawalId, chainId, payer, nonce, tokenAmount, maxFeePerGas, maxPriorityFeePerGas, createdAt: now }]);
 */
export async function storePayments(db: Db, payments: readonly NewPayment[]): Promise<void> {
  if (payments.length === 0) return;
  const values = payments.map(
    (p) =>
      sql`(${p.hash}, ${p.withdrawalId.toString()}::bigint, ${p.chainId}, ${p.payer}, ${p.nonce.toString()}::bigint, ${p.tokenAmount.toString()},
        ${p.maxFeePerGas.toString()}, ${p.maxPriorityFeePerGas.toString()}, ${p.raw}, ${p.createdAt}::timestamptz)`,
  );
  await db.execute(
    sql`INSERT INTO payments (hash, withdrawal_id, chain_id, payer, nonce, token_amount, max_fee_per_gas, max_priority_fee_per_gas, raw, created_at)
        VALUES ${sql.join(values, sql`, `)}
        ON CONFLICT (hash) DO NOTHING`,
  );
}

const approvedRow = z.object({ id: bigintText, amount: bigintText, fee: bigintText, address: z.string(), createdAt: z.coerce.date() });
export type ApprovedWithdrawal = z.output<typeof approvedRow>;

/**
 * Approved withdrawals in id order, at most `limit`.
 *
 * @param db - database handle or transaction
 * @param limit - how many at most
 * @returns id, amount, fee, the member's address and when it was made (the payment's tag names it: paymentTag.ts)
 * @example
 * const approved = await approvedWithdrawals(tx, 500);
 */
export function approvedWithdrawals(db: Db, limit: number): Promise<ApprovedWithdrawal[]> {
  return queryRows(
    db,
    sql`SELECT w.id, w.amount, w.fee, ${payeeSql} AS address, w.created_at AS "createdAt" FROM ledger_pending d JOIN withdrawals w ON w.id = d.id ${payeeJoinSql}
        WHERE d.stage = ${stage(WithdrawalStage.approved)} ORDER BY d.id LIMIT ${limit}::int`,
    approvedRow,
  );
}
