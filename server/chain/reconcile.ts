/**
 * The operator's reconcile call (docs/API.md, "Credit on chain"): the token the treasury and the hot wallet hold on chain
 * beside what the ledger owes (members' credit, withdrawals payable, held top-ups), the difference computed, and the
 * lists an operator must act on: lost payments, credits a reorganisation removed, stuck payments, payments the chain
 * shows that the database never knew (the payer's journal, server/chain/payer/journal.ts). `ok` is false when the
 * tokens are short, any list is not empty or payouts are halted (docs/operations.md, "What reconcile says").
 */
import { sql } from 'drizzle-orm';
import { erc20Abi, type Address, type Hex } from 'viem';
import { z } from 'zod';
import { formatMinor } from '../../api-schema/amount';
import { bigintText, queryRows, type Db } from '../db/client';
import { systemAccountId } from '../ledger/accounts';
import { netAtStageSql, stageSql, WithdrawalStage } from '../ledger/withdrawalLifecycle';
import type { Chain } from './chain';
import { receiptOrNull, toLedgerUnits, tokenUnitsOf } from './chainReads';
import type { Payer } from './payer';
import { feesOver } from './payer/fees';
import { missedTopUps } from './inflowCheck';
import { haltReason, readJournal } from './payer/journal';
import { openPauseView } from './payer/pause';
import { paymentsInFlight } from './payer/payments';
import { openUnknownPayments } from './unknownPayments';
import { lostPayments, stuckPayments } from './paymentWatch';
import { reorgedAwayTopUps } from './topUps';

const figuresRow = z.object({
  members: bigintText,
  payable: bigintText,
  held: bigintText,
  sent: bigintText,
  approved: bigintText,
  firstApproved: bigintText.nullable(),
});

/**
 * A funded system account's balance as the engine keeps it (every system account but the issuance ones): one row,
 * not a sum over every transfer it ever had, so reconcile costs the same at 50,000,000 entries. The books check
 * (tests/server/support/testLedger.ts) holds the kept balance to the sum of its transfers after every money test.
 */
const systemBalance = (id: number) => sql`(SELECT balance FROM ledger_accounts WHERE id = ${id}::int AND funded)`;

const candidateRow = z.object({ withdrawalId: bigintText, hash: z.string(), net: bigintText });

/**
 * What sent withdrawals come to whose payment the chain has mined as paid, not yet deep enough to post: it has left the
 * hot wallet while payable still holds it. Read from the chain now, not from the receipts the payer kept (it keeps
 * one only at its next round).
 */
async function minedNotPosted(db: Db, chain: Chain): Promise<bigint> {
  const candidates = await queryRows(
    db,
    sql`SELECT p.withdrawal_id AS "withdrawalId", p.hash, w.amount - w.fee AS net FROM payments p JOIN ledger_pending d ON d.id = p.withdrawal_id
        JOIN withdrawals w ON w.id = d.id WHERE d.stage = ${stageSql(WithdrawalStage.sent)}`,
    candidateRow,
  );
  const receipts = await Promise.all(candidates.map((candidate) => receiptOrNull(chain.client, candidate.hash as Hex)));
  const paid = new Map<bigint, bigint>();
  candidates.forEach((candidate, index) => {
    if (receipts[index]?.status === 'success') paid.set(candidate.withdrawalId, candidate.net);
  });
  return [...paid.values()].reduce((sum, net) => sum + net, 0n);
}

/** A signed ledger amount as a decimal string. */
const formatSigned = (minor: bigint) => (minor < 0n ? `-${formatMinor(-minor)}` : formatMinor(minor));

/**
 * Reads both sides and computes what is off.
 *
 * @param db - database handle
 * @param chain - the app's chain
 * @param payer - the hot wallet's payer, when this server has one
 * @param now - the server's clock (stuck payments' age)
 * @returns the reconcile call's result, amounts as decimal strings (token amounts rounded down to 6 decimals)
 * @example
 * const figures = await reconcile(db, chain, payer, new Date());
 */
export async function reconcile(db: Db, chain: Chain, payer: Payer | undefined, now: Date) {
  const decimals = chain.token.decimals;
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
            ${netAtStageSql(WithdrawalStage.sent)} AS sent,
            ${netAtStageSql(WithdrawalStage.approved)} AS approved,
            (SELECT w.amount - w.fee FROM withdrawals w JOIN ledger_pending d ON d.id = w.id WHERE d.stage = ${stageSql(WithdrawalStage.approved)} ORDER BY d.id LIMIT 1) AS "firstApproved"`,
      figuresRow,
    ),
  ]);
  if (!figures) throw new Error('reconcile read no figures');
  let waiting: 'token' | 'gas' | null = null;
  if (payer && payerTokens !== undefined && payerGas !== undefined && figures.firstApproved !== null) {
    // The payer's own rule (server/chain/payer): what is on its way is not there to spend, at the fees it offers.
    const { maxFeePerGas } = feesOver(block.baseFeePerGas ?? 0n);
    const inFlight = await paymentsInFlight(db, payer.address);
    if (tokenUnitsOf(figures.firstApproved, decimals) > payerTokens - inFlight.tokens) waiting = 'token';
    else if (payer.gasLimit * maxFeePerGas > payerGas) waiting = 'gas';
  }
  const [lost, reorged, stuck, minedUnposted, journal, unknown, missed, pause] = await Promise.all([
    lostPayments(db),
    reorgedAwayTopUps(db, chain.settings.chainId),
    stuckPayments(db, chain, payer?.address, now),
    minedNotPosted(db, chain),
    payer ? readJournal(db, chain.client, payer.address) : Promise.resolve(undefined),
    openUnknownPayments(db),
    missedTopUps(db, chain),
    openPauseView(db),
  ]);

  const treasuryUnits = toLedgerUnits(treasury, decimals);
  // A hot wallet that is the treasury (PAYER_KEY may hold the treasury's key) is counted once.
  const payerUnits = payerTokens === undefined ? undefined : toLedgerUnits(payerTokens, decimals);
  const hotWallet = payer && payer.address !== chain.settings.treasury ? (payerUnits ?? 0n) : 0n;
  const owed = figures.members + figures.payable + figures.held;
  // A payment mined but not yet at depth has left the hot wallet while payable still holds it: it backs what it pays.
  const backing = treasuryUnits + hotWallet + minedUnposted;
  const difference = backing - owed;
  const lostTotal = lost.reduce((sum, entry) => sum + entry.amount, 0n);
  return {
    ok: difference >= 0n && lost.length === 0 && reorged.length === 0 && stuck.length === 0 && journal?.halted !== true && unknown.length === 0 && missed.length === 0,
    chain: { treasury: formatMinor(treasuryUnits), payer: payerUnits === undefined ? null : formatMinor(payerUnits) },
    ledger: { members: formatMinor(figures.members), payable: formatMinor(figures.payable), heldTopUps: formatMinor(figures.held) },
    owed: formatMinor(owed),
    backing: formatMinor(backing),
    difference: formatSigned(difference),
    pendingPayments: formatMinor(figures.sent),
    payer: { address: payer?.address ?? null, approved: formatMinor(figures.approved), waiting, lost: formatMinor(lostTotal), gasWei: payerGas?.toString() ?? null },
    lostPayments: lost.map((entry) => ({ ...entry, withdrawalId: entry.withdrawalId.toString(), amount: formatMinor(entry.amount) })),
    reorgedCredits: reorged.map((entry) => ({ ...entry, amount: formatMinor(entry.amount) })),
    stuckPayments: stuck.map((entry) => ({ ...entry, withdrawalId: entry.withdrawalId.toString(), nonce: entry.nonce.toString() })),
    journal: journal
      ? { chainNonce: journal.chainNonce.toString(), knownNonce: journal.knownNonce.toString(), halted: journal.halted, problem: haltReason(journal) }
      : null,
    unknownPayments: unknown,
    pause,
    missedTopUps: missed.map((entry) => ({ txHash: entry.txHash, from: entry.from, amount: formatMinor(entry.amount), blockNumber: entry.blockNumber.toString() })),
  };
}
