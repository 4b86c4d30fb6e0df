/**
 * One payer per hot wallet, whatever the number of server instances: a lease in payer_accounts (holder and expiry,
 * renewed each round, taken over only once expired) and the row's next nonce, handed out under the row's lock.
 */
import { sql } from 'drizzle-orm';
import type { Address } from 'viem';
import { z } from 'zod';
import { bigintText, queryRows, type Db } from '../../db/client';
import type { PayerContext } from './context';

const leaseRow = z.object({ nextNonce: bigintText });

/**
 * Takes or renews the lease; the database's clock decides expiry, so instances need not agree on time.
 *
 * @param context - the payer's context
 * @returns true when this instance holds the lease now
 * @example
 * if (!(await takeLease(context))) return;
 */
export async function takeLease(context: PayerContext): Promise<boolean> {
  const { db, account } = context;
  // A key's first lease accounts for no nonce: whatever the chain shows it did before is for the recovery from the
  // chain to record (journal.ts), never adopted unseen (a backup from before the first payment would pay again).
  const rows = await queryRows(
    db,
    sql`INSERT INTO payer_accounts (address, chain_id, next_nonce, lease_holder, lease_until)
        VALUES (${account.address}, ${context.chainId}, 0, ${context.holder}, clock_timestamp() + ${`${context.leaseMs} milliseconds`}::interval)
        ON CONFLICT (address) DO UPDATE SET lease_holder = excluded.lease_holder, lease_until = excluded.lease_until
        WHERE payer_accounts.lease_holder = excluded.lease_holder OR payer_accounts.lease_until IS NULL OR payer_accounts.lease_until < clock_timestamp()
        RETURNING next_nonce AS "nextNonce"`,
    leaseRow,
  );
  return rows.length > 0;
}

/**
 * Gives the lease up, so another instance takes over at once.
 *
 * @param context - the payer's context
 * @example
 * await releaseLease(context);
 */
export async function releaseLease(context: PayerContext): Promise<void> {
  await context.db.execute(sql`UPDATE payer_accounts SET lease_until = NULL, lease_holder = NULL WHERE address = ${context.account.address} AND lease_holder = ${context.holder}`);
}

/**
 * The next nonce, the account's row locked until the transaction ends; undefined when this instance does not hold
 * the lease.
 *
 * @param tx - a transaction
 * @param context - the payer's context
 * @returns the next nonce to sign with
 * @example
 * const nonce = await lockNextNonce(tx, context);
 */
export async function lockNextNonce(tx: Db, context: PayerContext): Promise<bigint | undefined> {
  const [row] = await queryRows(
    tx,
    sql`SELECT next_nonce AS "nextNonce" FROM payer_accounts WHERE address = ${context.account.address} AND lease_holder = ${context.holder} FOR UPDATE`,
    leaseRow,
  );
  return row?.nextNonce;
}

/**
 * Records the next nonce after the ones just handed out (in the transaction that stored their payments).
 *
 * @param tx - the transaction that locked the row
 * @param context - the payer's context
 * @param nextNonce - the first nonce not handed out
 * @example
 * await setNextNonce(tx, context, nonce);
 */
export async function setNextNonce(tx: Db, context: PayerContext, nextNonce: bigint): Promise<void> {
  await tx.execute(sql`UPDATE payer_accounts SET next_nonce = ${nextNonce.toString()}::bigint WHERE address = ${context.account.address}`);
}

/**
 * Every hot wallet that paid on this chain: this payer's and those PAYER_KEY was rotated from (each took a lease
 * once), so their payments in flight are followed to the end.
 *
 * @param context - the payer's context
 * @returns the addresses, this payer's first
 * @example
 * for (const payer of await knownPayers(context)) await follow(context, round, head, fee, payer);
 */
export async function knownPayers(context: PayerContext): Promise<Address[]> {
  const rows = await queryRows(
    context.db,
    sql`SELECT address FROM payer_accounts WHERE chain_id = ${context.chainId} ORDER BY address = ${context.account.address} DESC, address`,
    z.object({ address: z.string() }),
  );
  return rows.map((row) => row.address as Address);
}
