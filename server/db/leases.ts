/**
 * Leases of the jobs that one instance runs for all of them (instance_leases): taken when free or expired, renewed by
 * the holder at each round, given up when it stops. The payer has a lease of its own per hot wallet
 * (server/chain/payer/lease.ts), kept with the wallet's nonce.
 */
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { queryRows, type Db } from './client';

/** A job's lease: its name, this instance's name for it, and how long it lasts unless renewed. */
export interface JobLease {
  name: string;
  holder: string;
  leaseMs: number;
}

/**
 * Takes or renews the lease; the database's clock decides expiry.
 *
 * @param db - database handle
 * @param lease - the job, this instance, the lease's length
 * @returns true when this instance holds the lease now
 * @example
 * if (await takeJobLease(db, { name: 'reconcile', holder: instanceId, leaseMs: 180_000 })) await runReconcile();
 */
export async function takeJobLease(db: Db, lease: JobLease): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`INSERT INTO instance_leases (name, holder, lease_until)
        VALUES (${lease.name}, ${lease.holder}, clock_timestamp() + ${`${lease.leaseMs} milliseconds`}::interval)
        ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, lease_until = excluded.lease_until
        WHERE instance_leases.holder = excluded.holder OR instance_leases.lease_until < clock_timestamp()
        RETURNING holder`,
    z.object({ holder: z.string() }),
  );
  return rows.length > 0;
}

/**
 * Gives the lease up (a stopping instance), so another takes the job over at its next round.
 *
 * @param db - database handle
 * @param lease - the job and this instance
 * @example
 * await releaseJobLease(db, { name: 'reconcile', holder: instanceId, leaseMs: 180_000 });
 */
export async function releaseJobLease(db: Db, lease: JobLease): Promise<void> {
  await db.execute(sql`DELETE FROM instance_leases WHERE name = ${lease.name} AND holder = ${lease.holder}`);
}
