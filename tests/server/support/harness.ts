/**
 * Runs a DB-dependent suite once per database target (PGlite always, PostgreSQL with DATABASE_URL). Each target
 * gives the describe block the test worker's migrated database, kept from suite to suite (tests/server/support/
 * databases.ts); every test starts from an emptied, freshly seeded state (rate-limit counters at zero) with the test
 * treasury, the finance operator tests fund members with (tests/support/treasury.ts), a reset clock, and apps built
 * on demand.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe } from 'vitest';
import { buildApp, type BuildAppOptions } from '../../../server/app';
import { openDatabase, type Database, type Db } from '../../../server/db/client';
import { createTestClock, TEST_START, type TestClock } from './testClock';
import { databaseTargets, type DatabaseTarget } from './databases';
import { rememberDatabase } from './testLedger';
import { resetDatabase } from './reset';
import { TEST_DOMAIN } from './memberSignIn';

/** The reset before every test; suites that reset again mid-test import it from here. */
export { resetDatabase };

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

/** Totals no test reaches by accident (10^12 in minor units), for suites that do not test the policy's totals. */
const TEST_POLICY_TOTALS = { operatorDay: 10n ** 18n, memberDay: 10n ** 18n };

/** Generous limits so that only the rate-limit tests ever meet them. */
const TEST_RATE_LIMITS = { loginNonce: { max: 1000, timeWindow: 60_000 }, memberSignLogin: { max: 1000, timeWindow: 60_000 } };

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
            // The operators' policy's 24-hour totals out of the way unless a test names them (its own suites do);
            // what one act may do alone is still APPROVAL_QUORUM_ABOVE.
            policyLimits: TEST_POLICY_TOTALS,
            ...options,
            rateLimits: { ...TEST_RATE_LIMITS, ...options.rateLimits },
          });
          apps.push(app);
          rememberDatabase(app, options.db ?? ctx.db, options.now ?? clock.now);
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
        if (!inThread) {
          database = await target.openForSuite();
          return;
        }
        database = await openDatabase({ thread: true });
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
