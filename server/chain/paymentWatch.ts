/**
 * What the operator must act on among the payer's payments (reconcile; docs/operations.md, "What reconcile says"):
 * the lost payments, by the rule in server/ledger/withdrawalLifecycle.ts, and the stuck ones with their age
 * and why they are stuck. Read from the payments table and the withdrawals' stages; nothing here moves money.
 */
import { sql } from 'drizzle-orm';
import type { Address, Hex } from 'viem';
import { z } from 'zod';
import { bigintText, queryRows, type Db } from '../db/client';
import { lostPaymentSql, payeeJoinSql, payeeSql, stageSql, STUCK_REPORT_AFTER_MS, WithdrawalStage } from '../ledger/withdrawalLifecycle';
import type { Chain } from './chain';
import { pricedOut } from './payer/fees';

/** Why a payment is lost: see api-schema/opsMoney.ts, reconcile's lostPayments. */
export type LostReason = 'reorganised' | 'reverted' | 'paidAfterVoid';

export interface LostPayment {
  withdrawalId: bigint;
  address: Address;
  /** Ledger minor units the member was (or is) to receive. */
  amount: bigint;
  hash: Hex;
  reason: LostReason;
}

const lostRow = z.object({ withdrawalId: bigintText, address: z.string(), amount: bigintText, hash: z.string(), reason: z.enum(['reorganised', 'reverted', 'paidAfterVoid']) });

/**
 * Every lost payment, oldest first.
 *
 * @param db - database handle
 * @returns the payments with member, amount and reason
 * @example
 * const lost = await lostPayments(db);
 */
export async function lostPayments(db: Db): Promise<LostPayment[]> {
  const rows = await queryRows(
    db,
    sql`SELECT w.id AS "withdrawalId", ${payeeSql} AS address, w.amount - w.fee AS amount, p.hash,
          CASE WHEN d.stage = ${stageSql(WithdrawalStage.voided)} THEN 'paidAfterVoid' WHEN p.receipt_status = 0 AND p.block_hash IS NOT NULL THEN 'reverted' ELSE 'reorganised' END AS reason
        FROM payments p JOIN ledger_pending d ON d.id = p.withdrawal_id JOIN withdrawals w ON w.id = d.id ${payeeJoinSql}
        WHERE ${lostPaymentSql}
        ORDER BY w.id, p.created_at`,
    lostRow,
  );
  return rows.map((row) => ({ ...row, address: row.address as Address, hash: row.hash as Hex }));
}


export type StuckReason = 'fee' | 'nonceGap' | 'rotatedKey' | 'unmined';

export interface StuckPayment {
  withdrawalId: bigint;
  hash: Hex;
  nonce: bigint;
  payer: Address;
  ageSeconds: number;
  reason: StuckReason;
}

const sentRow = z.object({
  withdrawalId: bigintText,
  hash: z.string(),
  nonce: bigintText,
  payer: z.string(),
  maxFeePerGas: z.string(),
  maxPriorityFeePerGas: z.string(),
  firstSignedAt: z.coerce.date(),
});

/**
 * Sent payments none of whose attempts is mined, the first signed longer ago than `after`: the latest attempt of
 * each, with why it is stuck, read from the chain now.
 *
 * @param db - database handle
 * @param chain - the app's chain
 * @param currentPayer - the hot wallet the server pays from now (undefined: none)
 * @param now - the server's clock
 * @param after - how old a payment must be to count (STUCK_REPORT_AFTER_MS)
 * @returns the stuck payments, oldest first
 * @example
 * const stuck = await stuckPayments(db, chain, payer?.address, new Date());
 */
export async function stuckPayments(db: Db, chain: Chain, currentPayer: Address | undefined, now: Date, after = STUCK_REPORT_AFTER_MS): Promise<StuckPayment[]> {
  const rows = await queryRows(
    db,
    sql`SELECT DISTINCT ON (p.withdrawal_id) p.withdrawal_id AS "withdrawalId", p.hash, p.nonce, p.payer,
          p.max_fee_per_gas AS "maxFeePerGas", p.max_priority_fee_per_gas AS "maxPriorityFeePerGas",
          (SELECT min(f.created_at) FROM payments f WHERE f.withdrawal_id = p.withdrawal_id) AS "firstSignedAt"
        FROM payments p JOIN ledger_pending d ON d.id = p.withdrawal_id
        WHERE d.stage = ${stageSql(WithdrawalStage.sent)}
          AND NOT EXISTS (SELECT 1 FROM payments r WHERE r.withdrawal_id = p.withdrawal_id AND r.block_hash IS NOT NULL)
        ORDER BY p.withdrawal_id, p.created_at DESC`,
    sentRow,
  );
  const old = rows.filter((row) => now.getTime() - row.firstSignedAt.getTime() >= after);
  if (old.length === 0) return [];
  const payers = [...new Set(old.map((row) => row.payer as Address))];
  const [block, minedNonces, ours] = await Promise.all([
    chain.client.getBlock({ blockTag: 'latest' }),
    Promise.all(payers.map(async (address) => [address, BigInt(await chain.client.getTransactionCount({ address, blockTag: 'latest' }))] as const)).then((pairs) => new Map(pairs)),
    queryRows(db, sql`SELECT DISTINCT payer, nonce FROM payments WHERE payer IN (SELECT jsonb_array_elements_text(${JSON.stringify(payers)}::jsonb))`, z.object({ payer: z.string(), nonce: bigintText })),
  ]);
  const stored = new Set(ours.map((row) => `${row.payer}:${row.nonce}`));
  const baseFee = block.baseFeePerGas ?? 0n;
  return old.map((row) => {
    const next = minedNonces.get(row.payer as Address) ?? 0n;
    let reason: StuckReason = 'unmined';
    if (row.payer !== currentPayer) reason = 'rotatedKey';
    // The chain waits for a nonce below this one that no payment of ours holds: nothing of ours can fill it.
    else if (next < row.nonce && !stored.has(`${row.payer}:${next}`)) reason = 'nonceGap';
    else if (pricedOut(row, baseFee)) reason = 'fee';
    return {
      withdrawalId: row.withdrawalId,
      hash: row.hash as Hex,
      nonce: row.nonce,
      payer: row.payer as Address,
      ageSeconds: Math.floor((now.getTime() - row.firstSignedAt.getTime()) / 1000),
      reason,
    };
  });
}
