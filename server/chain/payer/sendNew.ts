/**
 * Signs approved withdrawals that the hot wallet can pay, stores them as sent, then broadcasts them. A nonce is
 * consumed only by the commit that stores its signed payment: a crash before it loses a signature and no nonce.
 */
import { erc20Abi, type Address } from 'viem';
import { ApiCode } from '../../../api-schema/codes';
import { postRequests } from '../../ledger/engine';
import { sendRequest } from '../../ledger/withdrawals';
import { tokenUnitsOf } from '../chainReads';
import type { PayerContext } from './context';
import type { Fees } from './fees';
import type { PayerRound } from './types';
import { lockNextNonce, setNextNonce } from './lease';
import { approvedWithdrawals, paymentsInFlight, storePayments, type ApprovedWithdrawal, type NewPayment } from './payments';

/**
 * Pays what the hot wallet can of the approved withdrawals, in id order.
 *
 * @param context - the payer's context
 * @param round - what the round did (signed and why the rest waits)
 * @param fee - the fees a new payment offers
 * @example
 * await sendNew(context, round, fee);
 */
export async function sendNew(context: PayerContext, round: PayerRound, fee: Fees): Promise<void> {
  const { db, client, account, gasLimit, chain } = context;
  const [tokenBalance, gasBalance] = await Promise.all([
    client.readContract({ address: context.token, abi: erc20Abi, functionName: 'balanceOf', args: [account.address] }),
    client.getBalance({ address: account.address }),
  ]);
  const signed = await db.transaction(async (tx) => {
    const nextNonce = await lockNextNonce(tx, context);
    if (nextNonce === undefined) return [];
    const approved = await approvedWithdrawals(tx, context.batch);
    if (approved.length === 0) return [];
    // What is already on its way (sent, not mined) is not the payer's to spend again.
    const inFlight = await paymentsInFlight(tx, account.address);
    let tokenLeft = tokenBalance - inFlight.tokens;
    let gasLeft = gasBalance - BigInt(inFlight.count) * gasLimit * fee.maxFeePerGas;
    const payable: (ApprovedWithdrawal & { tokenAmount: bigint })[] = [];
    for (const row of approved) {
      const tokenAmount = tokenUnitsOf(row.amount - row.fee, chain.token.decimals);
      // In order: a withdrawal the wallet cannot pay waits, and so do those after it.
      if (tokenAmount > tokenLeft) {
        round.waiting = 'token';
        break;
      }
      if (gasLimit * fee.maxFeePerGas > gasLeft) {
        round.waiting = 'gas';
        break;
      }
      tokenLeft -= tokenAmount;
      gasLeft -= gasLimit * fee.maxFeePerGas;
      payable.push({ ...row, tokenAmount });
    }
    if (payable.length === 0) return [];
    const now = context.now();
    const outcomes = await postRequests(tx, payable.map((row) => sendRequest(row.id, now)));
    let nonce = nextNonce;
    const stored: NewPayment[] = [];
    for (const [index, row] of payable.entries()) {
      if (outcomes[index]?.code !== ApiCode.ok) continue;
      const fees = { maxFeePerGas: fee.maxFeePerGas, maxPriorityFeePerGas: fee.maxPriorityFeePerGas };
      const transaction = await context.sign({ to: row.address as Address, tokenAmount: row.tokenAmount, withdrawalId: row.id, createdAt: row.createdAt, nonce, legacy: fee.legacy, ...fees });
      stored.push({ ...transaction, ...fees, withdrawalId: row.id, chainId: context.chainId, payer: account.address, nonce, tokenAmount: row.tokenAmount, createdAt: now });
      nonce++;
    }
    if (stored.length === 0) return [];
    context.step('signed');
    await storePayments(tx, stored);
    await setNextNonce(tx, context, nonce);
    return stored;
  });
  if (signed.length === 0) return;
  context.step('stored');
  await context.broadcast(signed.map((transaction) => transaction.raw));
  round.signed += signed.length;
  context.step('broadcast');
}
