/**
 * The ledger's per-request statements as named prepared statements (ADR 0004's pattern, as the sign-in statement):
 * node-postgres prepares each once per connection and PostgreSQL keeps its plan, instead of parsing and planning
 * the text on every request; PGlite (server/db/pglite.ts) prepares by text anyway.
 */
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { preparedPerDb, type Db } from '../db/client';

const dialect = new PgDialect();

/** A prepared statement per handle: execute(values) answers `{ rows }` for either driver. */
export interface NamedStatement {
  execute(values: Record<string, unknown>): Promise<unknown>;
}

/**
 * Prepares a statement written with `sql.placeholder(...)` under a name unique in this app.
 *
 * @param name - the prepared statement's name
 * @param query - the statement; values come in as placeholders
 * @returns the statement of a handle (a transaction handle too), built on first use
 * @example
 * const lockStatement = namedStatement('ledger_lock', sql`SELECT ... WHERE member_id = ${sql.placeholder('memberId')}::int`);
 * rowsOf(await lockStatement(tx).execute({ memberId }), row);
 */
export function namedStatement(name: string, query: SQL): (db: Db) => NamedStatement {
  const built = dialect.sqlToQuery(query);
  return preparedPerDb((db) => db._.session.prepareQuery(built, undefined, name, false));
}
