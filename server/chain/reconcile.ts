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
import { tokenUnitsOf, type Payer } from './payer';

const figuresRow = z.object({
  members: bigintText,
  payable: bigintText,
  held: bigintText,
  sent: bigintText,
  approved: bigintText,
  firstApproved: bigintText.nullable(),
  inFlight: bigintText,
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
            (SELECT coalesce(sum(x.token_amount::numeric), 0)::text FROM (
              SELECT DISTINCT ON (p.withdrawal_id) p.token_amount FROM payments p JOIN ledger_pending d ON d.id = p.withdrawal_id
              WHERE d.stage = 'sent' ${payer ? sql`AND p.payer = ${payer.address}` : sql``}) x) AS "inFlight"`,
      figuresRow,
    ),
  ]);
  if (!figures) throw new Error('reconcile read no figures');
  let waiting: 'token' | 'gas' | null = null;
  if (payer && payerTokens !== undefined && payerGas !== undefined && figures.firstApproved !== null) {
    const maxFeePerGas = (block.baseFeePerGas ?? 0n) * 2n + 1_000_000_000n;
    if (tokenUnitsOf(figures.firstApproved, decimals) > payerTokens - figures.inFlight) waiting = 'token';
    else if (payer.gasLimit * maxFeePerGas > payerGas) waiting = 'gas';
  }
  return {
    chain: { treasury: formatMinor(treasury / scale), payer: payerTokens === undefined ? null : formatMinor(payerTokens / scale) },
    ledger: { members: formatMinor(figures.members), payable: formatMinor(figures.payable), heldTopUps: formatMinor(figures.held) },
    pendingPayments: formatMinor(figures.sent),
    payer: { address: payer?.address ?? null, approved: formatMinor(figures.approved), waiting },
  };
}
