/**
 * The reset before every server test (describeWithDatabases): the tables a test wrote are emptied, their identities
 * restart (ids are predictable), and the seed goes in again, so each test starts as on a freshly migrated and seeded
 * database while the test worker keeps one database for all its suites (tests/server/support/databases.ts). The
 * test treasury goes in too (tests/support/treasury.ts): the finance operator whose key funds members (grant).
 */
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { queryRows, type Db } from '../../../server/db/client';
import { forgetAllowedRecipients } from '../../../server/members/members';
import { seed } from '../../../server/seed/seed';
import { addTestTreasury } from '../../support/treasury';
import { TEST_START } from './testClock';

/** Every table a test may write, the audit log aside (its trigger refuses a DELETE or TRUNCATE: emptyTables). */
const resetTables = [
  'tokens', 'nonces', 'members', 'tree_joins', 'notices', 'about', 'app_config', 'ledger_entries', 'ledger_transfers', 'ledger_limits',
  'withdrawals', 'ledger_accounts', 'idempotency_keys', 'bots', 'share_pool_payouts', 'share_pools', 'orders', 'delivery_addresses', 'goods',
  'ledger_counters', 'top_ups', 'top_up_releases', 'chain_blocks', 'top_up_watch_starts', 'ledger_pending', 'withdrawal_failures', 'payer_accounts', 'payments',
  'operator_api_keys', 'operator_sessions', 'operator_nonces', 'operators', 'withdrawal_approvals', 'member_freezes',
  'ops_adjustment_confirmations', 'ops_adjustments', 'rate_limits', 'ops_policy_usage', 'ops_approvals', 'operator_changes', 'unknown_payments',
  'reconcile_runs', 'instance_leases', 'alert_deliveries', 'alerts', 'payout_pauses',
] as const;

const AUDIT_LOG = 'audit_log';

/**
 * A written table of at most this many pages is emptied with DELETE, a larger one with TRUNCATE. A TRUNCATE makes
 * new files for the table and each of its indexes and makes every session read the table's catalog rows again:
 * 40-110 ms of PostgreSQL's time for the ten seeded tables against a few for their DELETEs, and on PGlite 24 against
 * 11 ms of CPU (the seed after it 17 against 11 ms). The rows a DELETE leaves dead stay within this bound: a table
 * that grew past it (dead rows or a test's bulk) is truncated at the next reset.
 */
const DELETE_AT_MOST_PAGES = 16;

interface WrittenTable {
  name: string;
  pages: number;
}

/**
 * The tables of resetTables and the audit log that are not as a migrated database has them, with their size: those
 * with a row, or with an identity or serial sequence already drawn from (an insert rolled back or deleted still moves
 * it).
 */
async function writtenTables(db: Db): Promise<WrittenTable[]> {
  const names = [...resetTables, AUDIT_LOG];
  return queryRows(
    db,
    sql.raw(`SELECT name, (pg_relation_size(name::regclass) / current_setting('block_size')::int)::int AS pages FROM (
       ${names.map((name) => `SELECT '${name}' AS name WHERE EXISTS (SELECT 1 FROM ${name})`).join(' UNION ALL ')}
       UNION SELECT tbl.relname::text FROM pg_sequences s
         JOIN pg_namespace n ON n.nspname = s.schemaname
         JOIN pg_class seq ON seq.relname = s.sequencename AND seq.relnamespace = n.oid
         JOIN pg_depend d ON d.objid = seq.oid AND d.deptype IN ('a', 'i')
         JOIN pg_class tbl ON tbl.oid = d.refobjid
       WHERE s.schemaname = 'public' AND s.last_value IS NOT NULL
     ) written`),
    z.object({ name: z.string(), pages: z.number() }),
  );
}

const deleteOrders = new WeakMap<Db, Promise<string[]>>();

/**
 * resetTables and the audit log in an order to DELETE them in: every table after the tables whose foreign keys point
 * at it (a foreign key that is not deferrable is checked at the end of each statement). Read once per database.
 */
function deleteOrder(db: Db): Promise<string[]> {
  let order = deleteOrders.get(db);
  if (!order) {
    order = readDeleteOrder(db);
    deleteOrders.set(db, order);
  }
  return order;
}

async function readDeleteOrder(db: Db): Promise<string[]> {
  const keys = await queryRows(
    db,
    sql`SELECT conrelid::regclass::text AS child, confrelid::regclass::text AS parent FROM pg_constraint
        WHERE contype = 'f' AND conrelid <> confrelid`,
    z.object({ child: z.string(), parent: z.string() }),
  );
  const order: string[] = [];
  const visiting = new Set<string>();
  const visit = (table: string): void => {
    if (order.includes(table)) return;
    if (visiting.has(table)) throw new Error(`foreign keys in a cycle through ${table}: no order to DELETE in`);
    visiting.add(table);
    for (const key of keys) if (key.parent === table) visit(key.child);
    order.push(table);
  };
  for (const table of [...resetTables, AUDIT_LOG]) visit(table);
  return order.filter((table) => (resetTables as readonly string[]).includes(table) || table === AUDIT_LOG);
}

/**
 * One statement that empties the written tables: the large ones with TRUNCATE ... CASCADE, the rest with DELETE
 * (children first) and their sequences set back to their start, as RESTART IDENTITY does. A DO block, so that it is
 * one round trip and one transaction on either driver (PGlite's query() takes a single statement). The audit log is
 * append-only (migration 0019): its owner may switch the trigger off, which only the tests do, inside this
 * transaction so that no other statement ever sees it off.
 */
function emptyTables(written: readonly WrittenTable[], order: readonly string[]): string {
  const large = written.filter((table) => table.pages > DELETE_AT_MOST_PAGES).map((table) => table.name);
  const small = written.filter((table) => table.pages <= DELETE_AT_MOST_PAGES).map((table) => table.name);
  const statements: string[] = [];
  const hasAuditLog = large.includes(AUDIT_LOG) || small.includes(AUDIT_LOG);
  if (hasAuditLog) statements.push(`ALTER TABLE ${AUDIT_LOG} DISABLE TRIGGER audit_log_append_only`);
  if (large.length > 0) statements.push(`TRUNCATE ${large.join(', ')} RESTART IDENTITY CASCADE`);
  for (const table of order) if (small.includes(table)) statements.push(`DELETE FROM ${table}`);
  if (small.length > 0) {
    statements.push(`PERFORM setval(s.seqrelid, s.seqstart, false) FROM pg_sequence s
      JOIN pg_depend d ON d.classid = 'pg_class'::regclass AND d.objid = s.seqrelid AND d.deptype IN ('a', 'i')
      WHERE d.refobjid = ANY (ARRAY[${small.map((table) => `'${table}'`).join(', ')}]::regclass[])`);
  }
  if (hasAuditLog) statements.push(`ALTER TABLE ${AUDIT_LOG} ENABLE TRIGGER audit_log_append_only`);
  return `DO $reset$ BEGIN ${statements.map((statement) => `${statement};`).join('\n')} END $reset$`;
}

/**
 * Empties the tables that were written (identities restart, so ids are predictable), seeds again and adds the test
 * treasury. Only those: a
 * TRUNCATE of all 37 took most of a reset's time, on PGlite above all (new files for each table and index), and a
 * test writes a handful besides the seeded ones (40-50 -> 27 ms a reset on PGlite, 40 -> 28 ms on PostgreSQL).
 */
export async function resetDatabase(db: Db): Promise<void> {
  const [written, order] = await Promise.all([writtenTables(db), deleteOrder(db)]);
  if (written.length > 0) await db.execute(sql.raw(emptyTables(written, order)));
  forgetAllowedRecipients();
  await seed(db);
  await addTestTreasury(db, TREASURY_ADDED_AT);
}

/** Before the operators a test adds (addOperator's a day before the test clock), so the treasury is listed first. */
const TREASURY_ADDED_AT = new Date(TEST_START.getTime() - 2 * 24 * 60 * 60 * 1000);
