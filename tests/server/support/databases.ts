/**
 * The databases every DB suite runs against, in the drizzle integration-tests pattern (one suite function, one
 * setup per driver): in-memory PGlite always, and PostgreSQL when DATABASE_URL is set. Each PostgreSQL suite gets
 * a database of its own, created from DATABASE_URL and dropped afterwards, so test files can run in parallel.
 */
import { randomBytes } from 'node:crypto';
import { openDatabase, type Database } from '../../../server/db/client';
import { POSTGRES_TEMPLATE_ENV, databaseUrl, onAdminConnection } from '../../support/postgresTemplate';

export interface DatabaseTarget {
  name: 'pglite' | 'postgres';
  /** Opens a fresh, empty database (not migrated). */
  open(): Promise<Database>;
  /**
   * The database of a suite (describeWithDatabases): maybe one a previous suite of this worker used, maybe migrated
   * already; the harness migrates it and empties its tables before every test.
   */
  openForSuite(): Promise<Database>;
}

/** DATABASE_URL, when the run is meant to include PostgreSQL (.ci/with-postgres.sh sets it). */
export const postgresUrl = process.env.DATABASE_URL || undefined;

/**
 * Creates a throwaway database next to the one DATABASE_URL names and opens it: empty, or with `migrated` a copy of
 * the run's migrated template when the run has one (tests/support/postgresTemplate.ts; about a third of a second of
 * migrations less per suite).
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

let workerPglite: Promise<Database> | undefined;

/**
 * The test worker's in-memory PGlite: opened once per worker and kept for every suite file it runs (the unit project
 * shares one module graph per worker), since starting PGlite (its WebAssembly and initdb) took 3.5-7 s of CPU per
 * file while the harness empties and seeds the tables before every test anyway. Its close() leaves it open for the
 * next file; the worker's exit ends it.
 */
function openWorkerPglite(): Promise<Database> {
  workerPglite ??= openDatabase({});
  return workerPglite.then((database) => ({ ...database, close: async () => undefined }));
}

/** PGlite always; PostgreSQL too when DATABASE_URL is set; DATABASE_TARGETS narrows that down. */
export const databaseTargets: DatabaseTarget[] = (
  [
    { name: 'pglite', open: () => openDatabase({}), openForSuite: openWorkerPglite },
    ...(postgresUrl
      ? [{ name: 'postgres' as const, open: () => openScratchPostgres(postgresUrl), openForSuite: () => openScratchPostgres(postgresUrl, { migrated: true }) }]
      : []),
  ] satisfies DatabaseTarget[]
).filter((target) => !onlyTargets || onlyTargets.includes(target.name));
