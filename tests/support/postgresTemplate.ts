/**
 * The migrated PostgreSQL database of a test run, when the run has PostgreSQL (DATABASE_URL): made once by the first
 * globalSetup that asks (the unit projects' or the e2e project's), and the template each test worker's database is
 * created from (tests/server/support/databases.ts) instead of applying every migration again: CREATE DATABASE copies
 * the template's files. Dropped after the run with the workers' copies. Each copy is still migrated, a no-op then.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase } from '../../server/db/client';
import { shareForRun } from './runResource';

/** Names the template database to the test workers, which inherit it. */
export const POSTGRES_TEMPLATE_ENV = 'MEMBER_DAPP_POSTGRES_TEMPLATE';

/**
 * Runs one statement on the server DATABASE_URL names, on a connection of its own.
 *
 * @example await onAdminConnection(url, 'DROP DATABASE IF EXISTS x');
 */
export async function onAdminConnection(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * The name of a test worker's copy of the run's template: the template's name and a suffix, so that the run's last
 * teardown finds and drops the copies of workers that ended without dropping theirs (a worker keeps its database
 * until it exits).
 */
export function workerDatabaseName(template: string): string {
  return `${template}_w${randomBytes(4).toString('hex')}`;
}

/** The workers' copies of `template` (workerDatabaseName), as a LIKE pattern. */
function workerDatabasePattern(template: string): string {
  return `${template}\\_w%`;
}

/** The URL of another database on DATABASE_URL's server. */
export function databaseUrl(baseUrl: string, name: string): string {
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function createTemplate(baseUrl: string): Promise<string> {
  const name = `md_template_${randomBytes(6).toString('hex')}`;
  await onAdminConnection(baseUrl, `CREATE DATABASE ${name}`);
  const database = await openDatabase({ url: databaseUrl(baseUrl, name), poolSize: 1 });
  try {
    await database.migrate();
  } finally {
    // No session may stay on a template: CREATE DATABASE ... TEMPLATE refuses one that is in use.
    await database.close();
  }
  return name;
}

/**
 * For a globalSetup: makes the run's template (once) when DATABASE_URL is set, names it in POSTGRES_TEMPLATE_ENV, and
 * returns the teardown; the last teardown drops it.
 *
 * @example export default async function setup() { return ensurePostgresTemplate(); }
 */
export async function ensurePostgresTemplate(): Promise<() => Promise<void>> {
  const baseUrl = process.env.DATABASE_URL;
  if (!baseUrl) return async () => undefined;
  return shareForRun(
    POSTGRES_TEMPLATE_ENV,
    () => createTemplate(baseUrl),
    (name) => dropTemplate(baseUrl, name),
  );
}

/** Drops the template and the test workers' copies of it. */
async function dropTemplate(baseUrl: string, template: string): Promise<void> {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    const copies = await client.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [workerDatabasePattern(template)]);
    for (const name of [...copies.rows.map((row) => row.datname), template]) await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
