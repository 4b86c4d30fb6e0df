/**
 * Runs a DB-dependent suite once per database target (PGlite always, PostgreSQL with DATABASE_URL). Each target
 * gets one migrated database for the whole describe block (PGlite's is the test worker's, kept from suite to suite); every test starts from a truncated, freshly seeded
 * state (rate-limit counters at zero), a reset clock, and apps built on demand.
 */
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe } from 'vitest';
import { z } from 'zod';
import { buildApp, type BuildAppOptions } from '../../../server/app';
import { openDatabase, queryRows, type Database, type Db } from '../../../server/db/client';
import { forgetAllowedRecipients } from '../../../server/members/members';
import { seed } from '../../../server/seed/seed';
import { createTestClock, TEST_START, type TestClock } from './clock';
import { databaseTargets, type DatabaseTarget } from './databases';
import { TEST_DOMAIN } from './siwe';

export interface ServerTestContext {
  readonly target: DatabaseTarget['name'];
  readonly database: Database;
  readonly db: Db;
  readonly clock: TestClock;
  /** Builds an app on this test's database with test defaults; it is closed after the test. */
  app(options?: Partial<BuildAppOptions>): Promise<FastifyInstance>;
  /**
   * The app instances of a test that runs as behind a load balancer: one on PGlite (one process), two on PostgreSQL,
   * the second on a pool of its own with four batches in flight. All are closed after the test.
   */
  instances(options?: Partial<BuildAppOptions>): Promise<FastifyInstance[]>;
}

/** Generous limits so that only the rate-limit tests ever meet them. */
const TEST_RATE_LIMITS = { loginNonce: { max: 1000, timeWindow: 60_000 }, memberSignLogin: { max: 1000, timeWindow: 60_000 } };

/** Every table a test may write, the audit log aside (clearAuditLog). */
const resetTables = [
  'tokens', 'nonces', 'members', 'notices', 'about', 'app_config', 'ledger_entries', 'ledger_transfers', 'ledger_limits', 'withdrawals',
  'ledger_accounts', 'idempotency_keys', 'bots', 'share_pool_payouts', 'share_pools', 'orders', 'delivery_addresses', 'goods', 'ledger_counters',
  'top_ups', 'top_up_releases', 'chain_blocks', 'ledger_pending', 'withdrawal_failures', 'payer_accounts', 'payments', 'operator_api_keys',
  'operator_sessions', 'operator_nonces', 'operators', 'withdrawal_approvals', 'member_freezes', 'ops_adjustment_confirmations', 'ops_adjustments',
  'rate_limits',
] as const;

/**
 * The tables of resetTables and the audit log that are not as a migrated database has them: with a row, or with an
 * identity or serial sequence already drawn from (an insert rolled back or deleted still moves it).
 */
async function writtenTables(db: Db): Promise<string[]> {
  const names = [...resetTables, 'audit_log'];
  const rows = await queryRows(
    db,
    sql.raw(`${names.map((name) => `SELECT '${name}' AS name WHERE EXISTS (SELECT 1 FROM ${name})`).join(' UNION ALL ')}
     UNION SELECT tbl.relname FROM pg_sequences s
       JOIN pg_namespace n ON n.nspname = s.schemaname
       JOIN pg_class seq ON seq.relname = s.sequencename AND seq.relnamespace = n.oid
       JOIN pg_depend d ON d.objid = seq.oid AND d.deptype IN ('a', 'i')
       JOIN pg_class tbl ON tbl.oid = d.refobjid
     WHERE s.schemaname = 'public' AND s.last_value IS NOT NULL`),
    z.object({ name: z.string() }),
  );
  const written = new Set(rows.map((row) => row.name));
  return names.filter((name) => written.has(name));
}

/**
 * Empties the tables that were written (identities restart, so ids are predictable) and seeds again. Only those: a
 * TRUNCATE of all 37 took most of a reset's time, on PGlite above all (new files for each table and index), and a
 * test writes a handful besides the seeded ones (40-50 -> 27 ms a reset on PGlite, 40 -> 28 ms on PostgreSQL).
 */
export async function resetDatabase(db: Db): Promise<void> {
  const written = await writtenTables(db);
  const tables = written.filter((name) => name !== 'audit_log');
  if (tables.length > 0) await db.execute(sql.raw(`TRUNCATE ${tables.join(', ')} RESTART IDENTITY CASCADE`));
  if (written.includes('audit_log')) await clearAuditLog(db);
  forgetAllowedRecipients();
  await seed(db);
}

/**
 * Empties the append-only audit log between tests: the table's owner may switch its trigger off (migration 0019),
 * which only the tests do, inside one transaction so no other statement ever sees it off.
 */
async function clearAuditLog(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`ALTER TABLE audit_log DISABLE TRIGGER audit_log_append_only`);
    await tx.execute(sql`TRUNCATE audit_log RESTART IDENTITY`);
    await tx.execute(sql`ALTER TABLE audit_log ENABLE TRIGGER audit_log_append_only`);
  });
}

export interface DescribeOptions {
  /**
   * PGlite in a worker thread, as the server runs it (server/db/pgliteThread.ts), on a database of the suite's own,
   * instead of the test worker's shared PGlite in its own thread.
   */
  pgliteInThread?: boolean;
}

export function describeWithDatabases(title: string, suite: (ctx: ServerTestContext) => void, options: DescribeOptions = {}): void {
  for (const target of databaseTargets) {
    const inThread = options.pgliteInThread === true && target.name === 'pglite';
    // Generous timeouts: PGlite is WebAssembly and CI may run every project's workers at once.
    describe(`${title} [${inThread ? 'pglite in a worker thread' : target.name}]`, { timeout: 30_000 }, () => {
      let database: Database | undefined;
      const clock = createTestClock();
      const apps: FastifyInstance[] = [];
      const pools: Database[] = [];

      const ctx: ServerTestContext = {
        target: target.name,
        get database() {
          if (!database) throw new Error('database not open yet');
          return database;
        },
        get db() {
          return ctx.database.db;
        },
        clock,
        app: async (options = {}) => {
          const app = await buildApp({
            db: ctx.db,
            now: clock.now,
            siweDomain: TEST_DOMAIN,
            spaDir: null,
            // As main.ts: on PostgreSQL the rate limits count in the database, for every instance of the test.
            rateLimitStore: target.name === 'postgres' ? 'database' : 'memory',
            ...options,
            rateLimits: { ...TEST_RATE_LIMITS, ...options.rateLimits },
          });
          apps.push(app);
          return app;
        },
        instances: async (options = {}) => {
          const first = await ctx.app(options);
          const url = (ctx.database as Partial<{ url: string }>).url;
          if (target.name !== 'postgres' || !url) return [first];
          const pool = await openDatabase({ url, poolSize: 5 });
          pools.push(pool);
          return [first, await ctx.app({ ...options, db: pool.db, batchesInFlight: 4 })];
        },
      };

      beforeAll(async () => {
        database = inThread ? await openDatabase({ thread: true }) : await target.openForSuite();
        await database.migrate();
      }, 120_000);

      afterAll(async () => {
        await database?.close();
      });

      beforeEach(async () => {
        clock.set(TEST_START);
        await resetDatabase(ctx.db);
      }, 60_000);

      afterEach(async () => {
        await Promise.all(apps.splice(0).map((app) => app.close()));
        await Promise.all(pools.splice(0).map((pool) => pool.close()));
      });

      suite(ctx);
    });
  }
}
