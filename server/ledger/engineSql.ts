/**
 * The ledger engine's SQL (engine.sql beside this file), as the statements `database.migrate()` applies after the
 * migrations on every start: each replaces its function as a whole, so the database runs what the file says.
 */
import { readFileSync } from 'node:fs';

/**
 * The engine's statements, in file order.
 *
 * @returns one CREATE OR REPLACE per function
 * @example
 * for (const statement of engineStatements()) await db.execute(sql.raw(statement));
 */
export function engineStatements(): string[] {
  const text = readFileSync(new URL('./engine.sql', import.meta.url), 'utf8');
  return text
    .split('--> statement-breakpoint')
    .map((statement) => statement.trim())
    .filter(Boolean);
}
