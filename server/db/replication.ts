/**
 * Whether PostgreSQL acknowledges a commit only once a standby has it (docs/deploy/backups.md, "Failover without
 * loss"): read at start, so a deployer learns from the log that a failover could lose acknowledged writes (the payer's
 * journal would then halt payouts until the recovery from the chain, ADR 0033). PGlite has no standby to ask about.
 */
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { queryRows, type Db } from './client';
import type { DatabaseDriver } from './driver';

const settingsRow = z.object({ standbys: z.string(), commit: z.string(), inRecovery: z.boolean() });

/**
 * The start's warning about synchronous replication, if there is one to give.
 *
 * @param db - database handle
 * @param driver - the database's driver
 * @returns the warning, or undefined on a primary with a synchronous standby (or on PGlite)
 * @example
 * const warning = await synchronousStandbyWarning(database.db, database.driver);
 */
export async function synchronousStandbyWarning(db: Db, driver: DatabaseDriver): Promise<string | undefined> {
  if (driver !== 'node-postgres') return undefined;
  const [row] = await queryRows(
    db,
    sql`SELECT current_setting('synchronous_standby_names') AS standbys, current_setting('synchronous_commit') AS commit, pg_is_in_recovery() AS "inRecovery"`,
    settingsRow,
  );
  if (!row || row.inRecovery) return undefined;
  if (row.standbys.trim() === '') {
    return 'PostgreSQL runs without a synchronous standby (synchronous_standby_names is empty): a failover to an asynchronous standby can lose acknowledged writes (docs/deploy/backups.md, "Failover without loss")';
  }
  if (row.commit === 'off' || row.commit === 'local') {
    return `PostgreSQL's synchronous_commit is ${row.commit}: commits are acknowledged before the synchronous standby has them (docs/deploy/backups.md)`;
  }
  return undefined;
}
