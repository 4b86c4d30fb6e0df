/**
 * The operator's reconcile call (API.md, "Credit on chain"): the token the treasury and the hot wallet hold on chain
 * beside what the ledger owes (members' credit, withdrawals payable, held top-ups), the payments on their way, and
 * why approved withdrawals wait when the hot wallet cannot pay them (the payer never pays more than it holds).
 */
import { sql } from 'drizzle-orm';
import { erc20Abi, type Address } from 'viem';
import { z } from 'zod';
import { formatMinor } from '../../api-schema/amount';
import { bigintText, queryRows, type Db } from '../db/client';
import { systemAccountId } from '../ledger/accounts';
import { LEDGER_DECIMALS, type Chain } from './chain';
import { tokenUnitsOf } from './chainReads';
import { feesOver, paymentsInFlight, type Payer } from './payer';

const figuresRow = z.object({
  members: bigintText,
  payable: bigintText,
  held: bigintText,
  sent: bigintText,
  approved: bigintText,
  firstApproved: bigintText.nullable(),
  lost: bigintText,
});

/** A system account's balance: what came in less what went out (system accounts keep no entries). */
const systemBalance = (id: number) =>
  sql`((SELECT coalesce(sum(amount), 0) FROM ledger_transfers WHERE credit_account_id = ${id}::int) - (SELECT coalesce(sum(amount), 0) FROM ledger_transfers WHERE debit_account_id = ${id}::int))`;

/**
 * Reads both sides.
 *
 * @param db - database handle
 * @param chain - the app's chain
 * @param payer - the hot wallet's payer, when this server has one
 * @returns the reconcile call's result, amounts as decimal strings (token amounts rounded down to 6 decimals)
 * @example
 * const figures = await reconcile(db, chain, payer);
 */
export async function reconcile(db: Db, chain: Chain, payer: Payer | undefined) {
  const decimals = chain.token.decimals;
  const scale = 10n ** BigInt(decimals - LEDGER_DECIMALS);
  const balanceOf = (address: Address) => chain.client.readContract({ address: chain.token.address, abi: erc20Abi, functionName: 'balanceOf', args: [address] });
  const [treasury, payerTokens, payerGas, block, [figures]] = await Promise.all([
    balanceOf(chain.settings.treasury),
    payer ? balanceOf(payer.address) : Promise.resolve(undefined),
    payer ? chain.client.getBalance({ address: payer.address }) : Promise.resolve(undefined),
    chain.client.getBlock({ blockTag: 'latest' }),
    queryRows(
      db,
      sql`SELECT (SELECT coalesce(sum(balance), 0) FROM ledger_accounts WHERE asset = 'CREDIT' AND member_id IS NOT NULL) AS members,
            ${systemBalance(systemAccountId('CREDIT', 'withdrawals_payable'))} AS payable,
            ${systemBalance(systemAccountId('CREDIT', 'held_top_ups'))} AS held,
            (SELECT coalesce(sum(w.amount - w.fee), 0) FROM withdrawals w JOIN ledger_pending d ON d.id = w.id WHERE d.stage = 'sent') AS sent,
            (SELECT coalesce(sum(w.amount - w.fee), 0) FROM withdrawals w JOIN ledger_pending d ON d.id = w.id WHERE d.stage = 'approved') AS approved,
            (SELECT w.amount - w.fee FROM withdrawals w JOIN ledger_pending d ON d.id = w.id WHERE d.stage = 'approved' ORDER BY d.id LIMIT 1) AS "firstApproved",
            (SELECT coalesce(sum(w.amount - w.fee), 0) FROM payments p JOIN withdrawals w ON w.id = p.withdrawal_id JOIN ledger_pending d ON d.id = w.id
              WHERE d.stage = 'posted' AND p.receipt_status IS NOT NULL AND (p.block_hash IS NULL OR p.receipt_status = 0)) AS lost`,
      figuresRow,
    ),
  ]);
  if (!figures) throw new Error('reconcile read no figures');
  let waiting: 'token' | 'gas' | null = null;
  if (payer && payerTokens !== undefined && payerGas !== undefined && figures.firstApproved !== null) {
    // The payer's own rule (server/chain/payer.ts): what is on its way is not there to spend, at the fees it offers.
    const { maxFeePerGas } = feesOver(block.baseFeePerGas ?? 0n);
    const inFlight = await paymentsInFlight(db, payer.address);
    if (tokenUnitsOf(figures.firstApproved, decimals) > payerTokens - inFlight.tokens) waiting = 'token';
    else if (payer.gasLimit * maxFeePerGas > payerGas) waiting = 'gas';
  }
  return {
    chain: { treasury: formatMinor(treasury / scale), payer: payerTokens === undefined ? null : formatMinor(payerTokens / scale) },
    ledger: { members: formatMinor(figures.members), payable: formatMinor(figures.payable), heldTopUps: formatMinor(figures.held) },
    pendingPayments: formatMinor(figures.sent),
    payer: { address: payer?.address ?? null, approved: formatMinor(figures.approved), waiting, lost: formatMinor(figures.lost) },
  };
}
