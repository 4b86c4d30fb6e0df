/**
 * Follows every sent withdrawal of the hot wallet: posts or voids at depth, forgets receipts a reorganisation took,
 * broadcasts the stored bytes again or replaces a stuck payment with the same nonce and a higher fee.
 */
import { sql } from 'drizzle-orm';
import type { Address, Hex, TransactionReceipt } from 'viem';
import { ApiCode } from '../../../api-schema/codes';
import { postRequests } from '../../ledger/engine';
import { failureRequest, postingRequest } from '../../ledger/withdrawals';
import { receiptOrNull } from '../chainReads';
import type { PayerContext } from './context';
import { isStuck, replacementFees, type Fees } from './fees';
import type { PayerRound } from './index';
import { forgetReceipts, keepReceipt, sentAttempts, storePayments, type SentAttempt } from './payments';

/**
 * One pass over the sent withdrawals.
 *
 * @param context - the payer's context
 * @param round - what the round did (counted here)
 * @param head - the chain's head this round
 * @param fee - the fees now
 * @example
 * await follow(context, round, head, fee);
 */
export async function follow(context: PayerContext, round: PayerRound, head: bigint, fee: Fees): Promise<void> {
  const { db, client, account, step } = context;
  const rows = await sentAttempts(db, account.address);
  if (rows.length === 0) return;
  const byWithdrawal = new Map<bigint, SentAttempt[]>();
  for (const row of rows) byWithdrawal.set(row.id, [...(byWithdrawal.get(row.id) ?? []), row]);
  // Only "no receipt" is null: any other failure fails the round, never reads as a payment that was not mined.
  const receipts = new Map<string, TransactionReceipt | null>();
  await Promise.all(rows.map(async (row) => receipts.set(row.hash, await receiptOrNull(client, row.hash as Hex))));
  // The nonce the chain had used at depth: a payment's nonce below it was used by whatever mined there.
  const settledNonce = BigInt(await client.getTransactionCount({ address: account.address, blockNumber: head >= context.confirmations ? head - context.confirmations : 0n }));
  const now = context.now();
  const rebroadcast: Hex[] = [];
  // Posts and voids at depth, as one batch of the engine.
  const settled: { request: ReturnType<typeof postingRequest>; paid: boolean }[] = [];
  for (const [id, attempts] of byWithdrawal) {
    const mined = attempts.find((attempt) => receipts.get(attempt.hash));
    // Receipts kept that the chain no longer has (a reorganisation): forgotten.
    for (const attempt of attempts) {
      if (attempt.blockHash !== null && !receipts.get(attempt.hash)) {
        await forgetReceipts(db, sql`hash = ${attempt.hash}`);
      }
    }
    const first = attempts[0];
    if (!first) continue;
    if (mined) {
      const receipt = receipts.get(mined.hash);
      if (!receipt) continue;
      if (mined.blockHash !== receipt.blockHash) {
        await keepReceipt(db, mined.hash, receipt, receipt.status === 'success');
        step('receipt');
      }
      if (head - receipt.blockNumber < context.confirmations) continue;
      const paid = receipt.status === 'success';
      settled.push({ request: paid ? postingRequest({ id, amount: first.amount, fee: first.fee }, now) : failureRequest(id, 'reverted', now), paid });
      continue;
    }
    if (first.nonce < settledNonce) {
      // The nonce is used at depth and none of ours is mined: another transaction took it; this one never will be.
      settled.push({ request: failureRequest(id, 'nonceUsed', now), paid: false });
      continue;
    }
    const latest = attempts[attempts.length - 1] ?? first;
    if (isStuck(latest, fee, now, context.stuckAfterMs)) {
      const fees = replacementFees(latest, fee);
      const signed = await context.sign({ to: first.address as Address, tokenAmount: BigInt(first.tokenAmount), nonce: first.nonce, ...fees });
      await storePayments(db, [
        { ...signed, ...fees, withdrawalId: id, chainId: context.chainId, payer: account.address, nonce: first.nonce, tokenAmount: BigInt(first.tokenAmount), createdAt: now },
      ]);
      rebroadcast.push(signed.raw);
      round.replaced++;
      continue;
    }
    // Every stored attempt again: whichever the node kept (or dropped) is sent once more, never a new one.
    for (const attempt of attempts) rebroadcast.push(attempt.raw as Hex);
  }
  if (settled.length > 0) {
    step('beforePost');
    const outcomes = await postRequests(db, settled.map((entry) => entry.request));
    settled.forEach((entry, index) => {
      if (outcomes[index]?.code !== ApiCode.ok) return;
      if (entry.paid) round.posted++;
      else round.voided++;
    });
  }
  if (rebroadcast.length > 0) {
    await context.broadcast(rebroadcast);
    round.rebroadcast += rebroadcast.length;
  }
}
