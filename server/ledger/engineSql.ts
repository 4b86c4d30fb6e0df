/**
 * The ledger engine's SQL as its migration installs it (docs/decisions/0021-generic-records-and-engine-migrations.md):
 * engine.sql beside this file with its record template repeated for each table of recordTables.ts, after a block
 * that drops every function the engine defines or once defined, so the migration replaces the engine whole.
 * `npm run engine` (scripts/engine.ts) writes it as the next migration when it differs from the latest one.
 */
import { readFileSync } from 'node:fs';
import { recordTables } from './recordTables';
import { serverPath } from '../serverFiles';

const BEGIN = '-- BEGIN RECORD TABLE';
const END = '-- END RECORD TABLE';
const TABLE = /__table__/g;
const SQL_NAME = /^[a-z_][a-z0-9_]*$/;
const FUNCTION = /CREATE OR REPLACE FUNCTION (\w+)\(/g;

/**
 * engine.sql with its record template repeated for each record table, the markers left out.
 *
 * @param text - engine.sql's text (default: the file beside this module)
 * @param tables - the record tables' names
 * @returns the engine's definitions
 * @example
 * const definitions = expandRecordTables();
 */
export function expandRecordTables(text = readFileSync(serverPath('ledger', 'engine.sql'), 'utf8'), tables = Object.keys(recordTables)): string {
  const lines = text.split('\n');
  const begin = lines.findIndex((line) => line.trim() === BEGIN);
  const end = lines.findIndex((line) => line.trim() === END);
  if (begin < 0 || end < begin || lines.filter((line) => line.trim() === BEGIN).length !== 1) {
    throw new Error(`engine.sql needs one "${BEGIN}" ... "${END}" block`);
  }
  const template = lines.slice(begin + 1, end).join('\n');
  const repeated = tables.map((table) => {
    if (!SQL_NAME.test(table)) throw new Error(`not a plain table name: ${table}`);
    return template.replace(TABLE, table);
  });
  return [...lines.slice(0, begin), ...repeated, ...lines.slice(end + 1)].join('\n');
}

/**
 * The functions a text of engine SQL creates, in order of first appearance.
 *
 * @param text - engine SQL (engine.sql or an engine migration)
 * @returns the function names
 * @example
 * engineFunctions(expandRecordTables()); // ['money_text', 'ledger_key_lock', ...]
 */
export function engineFunctions(text: string): string[] {
  return [...new Set([...text.matchAll(FUNCTION)].map((match) => match[1] ?? ''))];
}

/**
 * The engine's migration: every function the engine defines now or defined in an earlier engine migration is
 * dropped, whatever its signature (so a changed signature or return type, or a function the engine no longer has,
 * leaves nothing behind), then the engine is created as engine.sql says.
 *
 * @param earlier - the SQL of the earlier engine migrations
 * @returns the migration's text, statements split by drizzle's breakpoints
 * @example
 * writeFileSync(file, engineMigration(earlierEngineMigrations));
 */
export function engineMigration(earlier: readonly string[]): string {
  const definitions = expandRecordTables();
  const names = [...new Set([...engineFunctions(definitions), ...earlier.flatMap(engineFunctions)])];
  const list = names.map((name) => `'${name}'`).join(', ');
  return `-- The ledger engine, written by \`npm run engine\` from server/ledger/engine.sql and server/ledger/recordTables.ts:
-- do not edit; change those and run it again (docs/decisions/0021-generic-records-and-engine-migrations.md).
-- Every function of the engine, of any signature, goes first; then the engine is created whole.
DO $$
DECLARE
  v_function regprocedure;
BEGIN
  FOR v_function IN
    SELECT p.oid::regprocedure FROM pg_proc p
    WHERE p.pronamespace = current_schema()::regnamespace AND p.proname = ANY (ARRAY[${list}])
  LOOP
    EXECUTE 'DROP FUNCTION ' || v_function;
  END LOOP;
END $$;--> statement-breakpoint

${definitions.trim()}
`;
}
