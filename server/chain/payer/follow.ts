/**
 * Follows every sent withdrawal of the hot wallet: posts or voids at depth, forgets receipts a reorganisation took,
 * broadcasts the stored bytes again or replaces a stuck payment with the same nonce and a higher fee. It decides
 * from proof, never from absence: a receipt answered "none" with the nonce used at depth is looked up in
 * the block that took the nonce (proofs.ts); one of the payment's own attempts there is mined (posted once its
 * receipt is read), another transaction voids it (`nonceUsed`), and anything missing waits for a later round.
 */
import { sql } from 'drizzle-orm';
import { isAddressEqual, type Address, type Hex, type TransactionReceipt } from 'viem';
import { ApiCode } from '../../../api-schema/codes';
import { postRequests } from '../../ledger/engine';
import { failureRequest, postingRequest } from '../../ledger/withdrawals';
import { blockHashAt, receiptOrNull } from '../chainReads';
import type { PayerContext } from './context';
import { isStuck, replacementFees, type Fees } from './fees';
import type { PayerRound } from './types';
import { forgetReceipts, keepReceipt, sentAttempts, storePayments, type SentAttempt } from './payments';
import { nonceTaker, paysMember } from './proofs';

/**
 * One pass over the sent withdrawals of one hot wallet: this payer's, or one its key was rotated from (PAYER_KEY
 * changed), whose payments are followed to the end all the same (stored bytes sent again, posted or voided on the
 * same proof) but, without its key, never replaced nor their nonce holes filled.
 *
 * @param context - the payer's context
 * @param round - what the round did (counted here)
 * @param head - the chain's head this round
 * @param fee - the fees now
 * @param payer - the hot wallet whose payments are followed
 * @param rule - `sign`: whether it may sign replacements and fillers (false while payouts are halted)
 * @example
 * await follow(context, round, head, fee, account.address, { sign: true });
 */
export async function follow(context: PayerContext, round: PayerRound, head: bigint, fee: Fees, payer: Address, rule: { sign: boolean }): Promise<void> {
  const { db, client, account, step } = context;
  // Only this payer's own key signs (replacements, fillers), and only while the journal lets it (journal.ts).
  const ownKey = isAddressEqual(payer, account.address) && rule.sign;
  const rows = await sentAttempts(db, payer);
  if (rows.length === 0) return;
  const byWithdrawal = new Map<bigint, SentAttempt[]>();
  for (const row of rows) byWithdrawal.set(row.id, [...(byWithdrawal.get(row.id) ?? []), row]);
  // Only "no receipt" is null: any other failure fails the round, never reads as a payment that was not mined.
  const receipts = new Map<string, TransactionReceipt | null>();
  await Promise.all(rows.map(async (row) => receipts.set(row.hash, await receiptOrNull(client, row.hash as Hex))));
  // The nonce the chain had used at depth: a payment's nonce below it was used by whatever mined there.
  const depthBlock = head >= context.confirmations ? head - context.confirmations : 0n;
  const [settledNonce, nextNonce] = await Promise.all([
    client.getTransactionCount({ address: payer, blockNumber: depthBlock }).then(BigInt),
    // The nonce the chain waits for now: only a payment there can be stuck on its own fee.
    client.getTransactionCount({ address: payer, blockTag: 'latest' }).then(BigInt),
  ]);
  const now = context.now();
  const rebroadcast: Hex[] = [];
  // Posts and voids at depth, as one batch of the engine.
  const settled: { request: ReturnType<typeof postingRequest>; paid: boolean }[] = [];
  for (const [id, attempts] of byWithdrawal) {
    // A receipt kept whose block the chain replaced (a reorganisation) is forgotten; one a node merely did not answer
    // (it lags, or has no such block yet) is kept: absence is doubt.
    for (const attempt of attempts) {
      if (attempt.blockHash === null || attempt.blockNumber === null || receipts.get(attempt.hash)) continue;
      const hashNow = await blockHashAt(client, attempt.blockNumber);
      if (hashNow !== null && hashNow !== attempt.blockHash) await forgetReceipts(db, sql`hash = ${attempt.hash}`);
    }
    const first = attempts[0];
    if (!first) continue;
    let mined = attempts.find((attempt) => receipts.get(attempt.hash));
    if (!mined && first.nonce < settledNonce) {
      // The nonce is used at depth and no receipt was answered: the block that took it says by what.
      const taker = await nonceTaker(client, payer, first.nonce, depthBlock);
      if (!taker) continue;
      const ours = attempts.find((attempt) => attempt.hash.toLowerCase() === taker.hash.toLowerCase());
      if (!ours) {
        // Another transaction took it at depth; no attempt of this payment can be mined now.
        settled.push({ request: failureRequest(id, 'nonceUsed', now), paid: false });
        continue;
      }
      // One of its own: mined. Its receipt is needed to post; until a node answers it, wait.
      const receipt = await receiptOrNull(client, ours.hash as Hex);
      if (!receipt) continue;
      receipts.set(ours.hash, receipt);
      mined = ours;
    }
    if (mined) {
      const receipt = receipts.get(mined.hash);
      if (!receipt) continue;
      const paid = paysMember(receipt, { token: context.token, from: payer, to: first.address as Address, amount: BigInt(first.tokenAmount) });
      if (mined.blockHash !== receipt.blockHash) {
        await keepReceipt(db, mined.hash, receipt, paid);
        step('receipt');
      }
      if (head - receipt.blockNumber < context.confirmations) continue;
      // Status 1 without the token's Transfer log moved nothing: it fails as a reverted payment does.
      settled.push({ request: paid ? postingRequest({ id, amount: first.amount, fee: first.fee }, now) : failureRequest(id, 'reverted', now), paid });
      continue;
    }
    const latest = attempts[attempts.length - 1] ?? first;
    if (ownKey && isStuck(latest, fee, now, { stuckAfterMs: context.stuckAfterMs, isNext: first.nonce === nextNonce })) {
      const fees = replacementFees(latest, fee);
      const signed = await context.sign({ to: first.address as Address, tokenAmount: BigInt(first.tokenAmount), withdrawalId: id, createdAt: first.withdrawalCreatedAt, nonce: first.nonce, legacy: fee.legacy, ...fees });
      await storePayments(db, [
        { ...signed, ...fees, withdrawalId: id, chainId: context.chainId, payer, nonce: first.nonce, tokenAmount: BigInt(first.tokenAmount), createdAt: now },
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
  const fillers = ownKey ? await holeFillers(context, round, rows, nextNonce, fee) : [];
  if (rebroadcast.length + fillers.length > 0) await context.broadcast([...rebroadcast, ...fillers]);
  round.rebroadcast += rebroadcast.length;
}

/**
 * Fills the nonce holes below this payer's sent payments: a nonce the chain waits for that no payment of ours holds
 * (another user of the key took it, and its transaction was dropped) blocks every payment above it for ever. Once
 * the oldest payment above it has waited `stuckAfterMs`, a zero-value transfer to the hot wallet itself is signed at
 * the missing nonce (not stored: signed again each round while the hole is there; whichever is mined fills it).
 *
 * @param context - the payer's context
 * @param round - what the round did (holes filled counted here)
 * @param rows - this payer's sent attempts
 * @param nextNonce - the nonce the chain waits for
 * @param fee - the fees now
 * @returns the fillers' signed bytes, to broadcast
 * @example
 * const fillers = await holeFillers(context, round, rows, nextNonce, fee);
 */
async function holeFillers(context: PayerContext, round: PayerRound, rows: readonly SentAttempt[], nextNonce: bigint, fee: Fees): Promise<Hex[]> {
  const held = new Set(rows.map((row) => row.nonce));
  const above = rows.filter((row) => row.nonce > nextNonce);
  if (above.length === 0) return [];
  const highest = above.reduce((a, b) => (a.nonce > b.nonce ? a : b)).nonce;
  const oldest = Math.min(...above.map((row) => row.createdAt.getTime()));
  if (context.now().getTime() - oldest < context.stuckAfterMs) return [];
  const fillers: Hex[] = [];
  for (let nonce = nextNonce; nonce < highest; nonce++) {
    if (held.has(nonce)) continue;
    fillers.push(await context.signFiller({ nonce, legacy: fee.legacy, maxFeePerGas: fee.maxFeePerGas, maxPriorityFeePerGas: fee.maxPriorityFeePerGas }));
    round.filled++;
  }
  return fillers;
}
