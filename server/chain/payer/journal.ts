/**
 * The chain is the payer's journal (docs/decisions/0033-the-chain-is-the-payers-journal.md): before it signs anything
 * the payer compares the nonce the chain shows for its key (the larger of the latest block's and the pending count)
 * with the first nonce its database accounts for (payer_accounts.next_nonce: every nonce below it is a payment or a
 * filler the payer stored, or one the recovery from the chain recorded). When the chain shows more, the database
 * lost something (a restored backup, a lossy failover) or the key signed elsewhere: payouts stop, and nothing is
 * signed until the recovery (recovery.ts) has accounted for every nonce and operators have settled what it found.
 */
import { sql } from 'drizzle-orm';
import type { Address, PublicClient } from 'viem';
import { z } from 'zod';
import { bigintText, queryRows, type Db } from '../../db/client';
import { openPause } from './pause';
import type { PayerJournal } from './types';

const storedRow = z.object({ knownNonce: bigintText.nullable(), unsettled: z.coerce.number() });

/**
 * Reads both sides of the journal.
 *
 * @param db - database handle
 * @param client - the chain's client
 * @param address - the hot wallet
 * @returns the nonces on both sides and whether payouts stop
 * @throws whatever the chain's reads throw: a round that cannot compare signs nothing
 * @example
 * if ((await readJournal(db, client, account.address)).halted) return;
 */
export async function readJournal(db: Db, client: PublicClient, address: Address): Promise<PayerJournal> {
  const [latest, pending, [stored], pause] = await Promise.all([
    client.getTransactionCount({ address, blockTag: 'latest' }),
    client.getTransactionCount({ address, blockTag: 'pending' }),
    queryRows(
      db,
      sql`SELECT (SELECT next_nonce FROM payer_accounts WHERE address = ${address}) AS "knownNonce",
            (SELECT count(*) FROM unknown_payments WHERE settled_at IS NULL) AS unsettled`,
      storedRow,
    ),
    openPause(db),
  ]);
  // A node that lags may answer pending below latest: the larger is what the chain has seen.
  const chainNonce = BigInt(Math.max(latest, pending));
  const knownNonce = stored?.knownNonce ?? 0n;
  const unsettled = stored?.unsettled ?? 0;
  return { chainNonce, knownNonce, unsettled, halted: chainNonce > knownNonce || unsettled > 0, pause };
}

/**
 * Why payouts stop, in a few words for the log, readiness and the desk.
 *
 * @param journal - the journal read
 * @returns the reason, or null when payouts go on
 * @example
 * const problem = haltReason(journal);
 */
export function haltReason(journal: PayerJournal): string | null {
  if (journal.chainNonce > journal.knownNonce) {
    const count = journal.chainNonce - journal.knownNonce;
    return `payouts halted: the chain shows ${count} transaction(s) of the hot wallet from nonce ${journal.knownNonce} that the database does not know; run the recovery from the chain`;
  }
  if (journal.unsettled > 0) return `payouts halted: ${journal.unsettled} payment(s) found on chain wait for an operator to settle them`;
  return null;
}
