/**
 * The watch of settled payments to the reorganisation horizon (`watchBlocks`).
 *
 * Checks that the posted payments of the last `watchBlocks` blocks are still on chain (a block at a time: its hash
 * unchanged, all in it stand). One a reorganisation deeper than the confirmations removed is lost: its block hash is
 * cleared and all its withdrawal's stored bytes go out again (the same nonce: at most one can be mined) until one is
 * mined again, which is then recorded. The posting is never undone: the member's debit is final, the payment comes.
 * An absent answer is never proof of absence: only another block at the payment's height shows it gone; a
 * node that answers "not found" for the block (it lags, or the chain is shorter for now) decides nothing.
 */
import { sql } from 'drizzle-orm';
import type { Address, Hex } from 'viem';
import { blockHashAt, receiptOrNull } from '../chainReads';
import type { PayerContext } from './context';
import type { PayerRound } from './types';
import { attemptsOf, forgetReceipts, keepReceipt, markLost, postedToWatch, voidedToWatch } from './payments';
import { paysMember } from './proofs';

/**
 * One pass over the posted payments still watched.
 *
 * @param context - the payer's context
 * @param round - what the round did (lost payments counted here)
 * @param head - the chain's head this round
 * @param payer - the hot wallet whose payments are watched (this payer's, or one its key was rotated from)
 * @example
 * await watchPosted(context, round, head, account.address);
 */
export async function watchPosted(context: PayerContext, round: PayerRound, head: bigint, payer: Address): Promise<void> {
  const { db, client } = context;
  const rows = await postedToWatch(db, payer, head - context.watchBlocks);
  if (rows.length === 0) return;
  const numbers = [...new Set(rows.filter((row) => row.blockHash !== null).map((row) => row.blockNumber))];
  const blocks = new Map(await Promise.all(numbers.map(async (number) => [number, await blockHashAt(client, number)] as const)));
  const rebroadcast: Hex[] = [];
  for (const row of rows) {
    // Its block: the same (it stands), another (changed), or none answered (null: doubt, the node lags or the chain is
    // shorter for now). A payment lost already (no block hash) is looked for again each round.
    const now = row.blockHash === null ? undefined : blocks.get(row.blockNumber);
    if (row.blockHash !== null && now === row.blockHash) continue;
    const doubt = row.blockHash !== null && (now === null || now === undefined);
    const attempts = await attemptsOf(db, row.id);
    const receipts = await Promise.all(attempts.map((attempt) => receiptOrNull(client, attempt.hash)));
    const index = receipts.findIndex((receipt) => receipt !== null);
    const receipt = receipts[index];
    const mined = attempts[index];
    // In doubt, only a receipt in another block than the one kept is news; anything else waits.
    if (doubt && (!receipt || receipt.blockHash === row.blockHash)) continue;
    if (receipt && mined) {
      // Mined again (or found in another block): the receipt is kept on the attempt that has it.
      const paid = paysMember(receipt, { token: context.token, from: payer, to: mined.to, amount: mined.tokenAmount });
      await db.transaction(async (tx) => {
        await forgetReceipts(tx, sql`withdrawal_id = ${row.id.toString()}::bigint AND hash <> ${mined.hash}`);
        await keepReceipt(tx, mined.hash, receipt, paid);
      });
      if (!paid) context.onLost?.({ withdrawalId: row.id, hash: mined.hash, reason: 'reverted' });
      continue;
    }
    if (row.blockHash !== null) {
      await markLost(db, row.hash);
      context.onLost?.({ withdrawalId: row.id, hash: row.hash as Hex, reason: 'reorganised' });
    }
    round.lost++;
    for (const attempt of attempts) rebroadcast.push(attempt.raw);
  }
  if (rebroadcast.length > 0) await context.broadcast(rebroadcast);
}

/**
 * Watches the stored bytes of voided withdrawals until their nonce is taken deeper than `watchBlocks`: a deeper
 * reorganisation can remove the transaction that took it and mine one of them after all. One mined is recorded on
 * its payment (its receipt kept) and, when it paid the member, reported lost (`paidAfterVoid`: the member was refunded
 * and paid; reconcile lists it for the operator). Nothing is broadcast for them.
 *
 * @param context - the payer's context
 * @param round - what the round did (payments found paid after their refund counted here)
 * @param head - the chain's head this round
 * @param payer - the hot wallet whose payments are watched
 * @example
 * await watchVoided(context, round, head, account.address);
 */
export async function watchVoided(context: PayerContext, round: PayerRound, head: bigint, payer: Address): Promise<void> {
  const { db, client } = context;
  const horizon = head > context.watchBlocks ? head - context.watchBlocks : 0n;
  // A node without that block's state (pruned, or anvil restarted from its saved state, which keeps none from before
  // it loaded) refuses the count: then every voided payment is watched. More receipts asked, never one skipped.
  const fromNonce = await client.getTransactionCount({ address: payer, blockNumber: horizon }).then(BigInt, () => 0n);
  const rows = await voidedToWatch(db, payer, fromNonce);
  const receipts = await Promise.all(rows.map((row) => receiptOrNull(client, row.hash as Hex)));
  for (const [index, row] of rows.entries()) {
    const receipt = receipts[index];
    if (!receipt || receipt.blockHash === row.blockHash) continue;
    const paid = paysMember(receipt, { token: context.token, from: payer, to: row.to as Address, amount: BigInt(row.tokenAmount) });
    await keepReceipt(db, row.hash, receipt, paid);
    if (!paid) continue;
    round.paidAfterVoid++;
    context.onLost?.({ withdrawalId: row.id, hash: row.hash as Hex, reason: 'paidAfterVoid' });
  }
}
