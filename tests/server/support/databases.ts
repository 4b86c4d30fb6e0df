/**
 * The databases every DB suite runs against, in the drizzle integration-tests pattern (one suite function, one
 * setup per driver): in-memory PGlite always, and PostgreSQL when DATABASE_URL is set. Each test worker has one
 * database of each kind that its suites share, one file after another (the harness empties the tables before every
 * test); on PostgreSQL it is a database of the worker's own, so test files can run in parallel.
 */
import { randomBytes } from 'node:crypto';
import { openDatabase, type Database } from '../../../server/db/client';
import { POSTGRES_TEMPLATE_ENV, databaseUrl, onAdminConnection, workerDatabaseName } from '../../support/postgresTemplate';

export interface DatabaseTarget {
  name: 'pglite' | 'postgres';
  /** Opens a fresh, empty database (not migrated). */
  open(): Promise<Database>;
  /**
   * The migrated database of a suite (describeWithDatabases): the test worker's, which the suites before it used
   * too; the harness empties its tables before every test. Its close() leaves it open for the next suite.
   */
  openForSuite(): Promise<Database & { url?: string }>;
}

/** DATABASE_URL, when the run is meant to include PostgreSQL (.ci/with-postgres.sh sets it). */
export const postgresUrl = process.env.DATABASE_URL || undefined;

/**
 * Creates a throwaway database next to the one DATABASE_URL names and opens it: empty, or with `migrated` a copy of
 * the run's migrated template when the run has one (tests/support/postgresTemplate.ts; about a third of a second of
 * migrations less).
 *
 * @param baseUrl - DATABASE_URL
 * @returns the database; close() also drops it
 */
export async function openScratchPostgres(baseUrl: string, { migrated = false }: { migrated?: boolean } = {}): Promise<Database & { url: string }> {
  const name = `md_test_${randomBytes(6).toString('hex')}`;
  const template = migrated ? process.env[POSTGRES_TEMPLATE_ENV] : undefined;
  await onAdminConnection(baseUrl, template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
  const url = databaseUrl(baseUrl, name);
  const database = await openDatabase({ url, poolSize: 5 });
  return {
    ...database,
    url,
    close: async () => {
      await database.close();
      await onAdminConnection(baseUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

/** DATABASE_TARGETS=postgres limits a run to PostgreSQL (`npm run test:server:pg`); `npm test` runs both. */
const onlyTargets = process.env.DATABASE_TARGETS?.split(',').map((name) => name.trim());

/** A database opened once for the worker and migrated once; close() leaves it open for the next suite. */
function keptForWorker<T extends Database>(opening: Promise<T>): () => Promise<T> {
  const migrated = opening.then(async (database) => {
    await database.migrate();
    return { ...database, close: async () => undefined };
  });
  // Each suite awaits it; a failed open fails those suites, not the worker.
  migrated.catch(() => undefined);
  return () => migrated;
}

let workerPglite: (() => Promise<Database>) | undefined;

/**
 * The test worker's in-memory PGlite: opened once per worker and kept for every suite file it runs (the unit project
 * shares one module graph per worker), since starting PGlite (its WebAssembly and initdb) took 3.5-7 s of CPU per
 * file while the harness empties and seeds the tables before every test anyway. The worker's exit ends it.
 */
function openWorkerPglite(): Promise<Database> {
  workerPglite ??= keptForWorker(openDatabase({}));
  return workerPglite();
}

let workerPostgres: (() => Promise<Database & { url: string }>) | undefined;

/**
 * The test worker's PostgreSQL database, kept for every suite it runs as PGlite's is: a copy of the run's template
 * made once, and one pool whose sessions stay warm. A database and pool per suite cost about a quarter of a second
 * each to create, open and drop, and every new session read the catalogs and compiled the ledger engine's PL/pgSQL
 * again. The run's last teardown drops it (tests/support/postgresTemplate.ts); without a template (no globalSetup),
 * each suite has a scratch database of its own as before.
 */
function openWorkerPostgres(baseUrl: string): Promise<Database & { url: string }> {
  const template = process.env[POSTGRES_TEMPLATE_ENV];
  if (!template) return openScratchMigrated(baseUrl);
  workerPostgres ??= keptForWorker(
    (async () => {
      const name = workerDatabaseName(template);
      await onAdminConnection(baseUrl, `CREATE DATABASE ${name} TEMPLATE ${template}`);
      const url = databaseUrl(baseUrl, name);
      return { ...(await openDatabase({ url, poolSize: 5 })), url };
    })(),
  );
  return workerPostgres();
}

async function openScratchMigrated(baseUrl: string): Promise<Database & { url: string }> {
  const database = await openScratchPostgres(baseUrl);
  await database.migrate();
  return database;
}

/** PGlite always; PostgreSQL too when DATABASE_URL is set; DATABASE_TARGETS narrows that down. */
export const databaseTargets: DatabaseTarget[] = (
  [
    { name: 'pglite', open: () => openDatabase({}), openForSuite: openWorkerPglite },
    ...(postgresUrl
      ? [{ name: 'postgres' as const, open: () => openScratchPostgres(postgresUrl), openForSuite: () => openWorkerPostgres(postgresUrl) }]
      : []),
  ] satisfies DatabaseTarget[]
).filter((target) => !onlyTargets || onlyTargets.includes(target.name));
