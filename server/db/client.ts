/**
 * Opens the database: embedded PGlite by default, node-postgres when a URL is given. Both are wrapped by the same
 * Drizzle `PgDatabase` type, so every query in server/ is written once (docs/decisions/0001-query-layer.md).
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { sql, type SQL } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { z } from 'zod';
import type { DatabaseDriver } from './driver';
import type { BatchedPGlite } from './pglite';
import { dumpPglite, newPglite } from './pgliteStart';
import { PgliteThread, type WorkerLossOutcome } from './pgliteThread';
import { grantAppRole, refuseUnsafeAppRole } from './roles';
import * as schema from './schema';
import { serverPath } from '../serverFiles';

/** The query layer every server module uses; a transaction handle has the same type. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  driver: DatabaseDriver;
  /**
   * Applies the committed drizzle-kit migrations that are not applied yet; with a migrationUrl, as the owner, and
   * then grants the app's role its privileges (server/db/roles.ts).
   */
  migrate(): Promise<void>;
  close(): Promise<void>;
  /** PGlite: a consistent snapshot while it runs (server/db/backup.ts); PostgreSQL is backed up with its own tools. */
  dump?: (() => Promise<Uint8Array>) | undefined;
}

export interface OpenDatabaseOptions {
  /** postgres:// URL; when set, node-postgres is used. */
  url?: string | undefined;
  /**
   * With url: the tables' owner (DATABASE_MIGRATION_URL), over which migrate() runs the migrations and then grants
   * url's role what the app needs, and on audit_log only SELECT and INSERT (server/db/roles.ts). Unset, url's role
   * migrates and owns the tables.
   */
  migrationUrl?: string | undefined;
  /** PGlite data folder; when neither url nor dataDir is set, PGlite runs in memory (tests). */
  dataDir?: string | undefined;
  /**
   * PGlite in a worker thread of its own (server/db/pgliteThread.ts); default: when it has a data folder, as the
   * server runs it. A database in memory is a test's: its suites run one short statement after another, and the
   * hop to the worker and back (about 0.13 ms) made them a third slower, so they run PGlite in their own thread.
   */
  thread?: boolean | undefined;
  /** PGlite: a snapshot (Database.dump) to load into a folder, or memory, that holds no database yet. */
  restoreFrom?: Uint8Array | undefined;
  /** Pool size for node-postgres. */
  poolSize?: number | undefined;
  /**
   * PGlite in its thread: told when the worker died, and whether a new one is starting or the database is gone
   * (server/db/pgliteThread.ts). node-postgres replaces a lost connection by itself.
   */
  onLost?: ((error: Error, next: WorkerLossOutcome) => void) | undefined;
  /**
   * PGlite's worker already opening on dataDir's folder (server/db/earlyPglite.ts, the compiled server's launcher),
   * used by beginOpenDatabase instead of a new one; its losses are told to its own onLost.
   */
  opening?: Promise<PgliteThread> | undefined;
}

/** The committed migrations, found next to this file whether run by tsx, vitest or drizzle-kit. */
export const migrationsFolder = serverPath('db', 'migrations');

// Several server instances may start at once on one PostgreSQL database; drizzle's migrator takes no lock, so
// they serialise on this advisory lock key (any constant unique to this app).
const MIGRATION_LOCK_KEY = 4_361_000_001;

/**
 * Opens PGlite (in memory or under dataDir) or a node-postgres pool.
 *
 * @param options - url for PostgreSQL, else dataDir for PGlite on disk, else in-memory PGlite
 * @returns the Drizzle handle with its driver name, a migrate function and close
 * @example
 * const database = await openDatabase({ dataDir: './data' });
 * await database.migrate();
 */
export async function openDatabase(options: OpenDatabaseOptions = {}): Promise<Database> {
  if (options.url) return openNodePg(options.url, options.poolSize ?? 10, options.migrationUrl);
  return openPglite(options.dataDir, options.thread ?? options.dataDir !== undefined, options.onLost, options.restoreFrom);
}

export interface OpeningDatabase extends Database {
  /** Settles once the database answers, as openDatabase does; until then its queries wait for it. */
  opened: Promise<void>;
}

/**
 * Begins to open the database and hands back its Drizzle handle at once, so that the app is built on it while
 * PGlite's worker opens (main.ts; ADR 0029). Its queries wait for the open; close() waits for it too.
 *
 * @param options - as openDatabase's
 * @returns the database, and when it is open
 * @example
 * const database = beginOpenDatabase({ dataDir: './data' });
 * const building = prepareApp({ db: database.db });
 * await database.opened;
 */
export function beginOpenDatabase(options: OpenDatabaseOptions = {}): OpeningDatabase {
  if (options.url) return { ...openNodePg(options.url, options.poolSize ?? 10, options.migrationUrl), opened: Promise.resolve() };
  const opening = options.opening ?? newPgliteClient(options.dataDir, options.thread ?? options.dataDir !== undefined, options.onLost);
  let client: PgliteThread | BatchedPGlite | undefined;
  const opened = opening.then((open) => {
    client = open;
  });
  // Awaited by the caller; until then a failed open is not an unhandled rejection.
  opened.catch(() => undefined);
  // drizzle's PGlite driver calls only query() and transaction(); each goes to the client once it is open.
  const waiting = {
    query: async (...args: Parameters<PGlite['query']>) => (client ?? (await opening)).query(...args),
    transaction: async (...args: Parameters<PGlite['transaction']>) => ((client ?? (await opening)) as PGlite).transaction(...args),
  };
  const db = drizzlePglite({ client: waiting as unknown as PGlite, schema });
  return {
    db,
    driver: 'pglite',
    migrate: () => migratePglite(db, { migrationsFolder }),
    close: async () => {
      await (await opening.catch(() => undefined))?.close();
    },
    dump: async () => snapshotOf(client ?? (await opening)),
    opened,
  };
}

async function openPglite(dataDir: string | undefined, thread: boolean, onLost: OpenDatabaseOptions['onLost'], restoreFrom?: Uint8Array): Promise<Database> {
  const client = await newPgliteClient(dataDir, thread, onLost, restoreFrom);
  // drizzle's PGlite driver types its client as PGlite; it calls only query() and transaction(), which the thread
  // client has with the same meaning.
  const db = drizzlePglite({ client: client as PGlite, schema });
  return {
    db,
    driver: 'pglite',
    // PGlite is one connection inside this process: nothing else can migrate concurrently.
    // The ledger engine is a migration too (npm run engine, ADR 0021).
    migrate: () => migratePglite(db, { migrationsFolder }),
    close: () => client.close(),
    dump: () => snapshotOf(client),
  };
}

/** A running PGlite's snapshot, through its worker thread or in this one (Database.dump). */
const snapshotOf = (client: PgliteThread | BatchedPGlite): Promise<Uint8Array> => (client instanceof PgliteThread ? client.dump() : dumpPglite(client));

async function newPgliteClient(dataDir: string | undefined, thread: boolean, onLost: OpenDatabaseOptions['onLost'], restoreFrom?: Uint8Array): Promise<PgliteThread | BatchedPGlite> {
  // BatchedPGlite: one call into its backend per statement (server/db/pglite.ts); in a worker thread of its own
  // (server/db/pgliteThread.ts), statements run while the request thread answers requests.
  let folder: string | undefined;
  if (dataDir) {
    folder = path.resolve(dataDir, 'pglite');
    await mkdir(folder, { recursive: true });
  }
  if (restoreFrom && thread) throw new Error('a restore opens PGlite in this thread');
  return thread ? PgliteThread.open(folder, { onLost }) : inThisThread(folder, restoreFrom);
}

async function inThisThread(folder: string | undefined, restoreFrom?: Uint8Array): Promise<BatchedPGlite> {
  const client = newPglite(folder, restoreFrom);
  await client.waitReady;
  return client;
}

function openNodePg(url: string, poolSize: number, migrationUrl: string | undefined): Database {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // An idle client that loses its connection emits 'error' on the pool; without a listener Node would crash.
  pool.on('error', () => undefined);
  // So does a checked-out one (a transaction between two statements when the primary dies at a failover): its
  // statement fails and the pool drops it on release; the 'error' event must not end the process.
  pool.on('connect', (client) => client.on('error', () => undefined));
  const db = drizzleNodePg({ client: pool, schema });
  return {
    db,
    driver: 'node-postgres',
    migrate: async () => {
      if (migrationUrl === undefined) {
        const client = await pool.connect();
        try {
          await migrateLocked(client);
        } finally {
          client.release();
        }
        return;
      }
      // The app's role is whoever DATABASE_URL logs in as (its URL may name no user: PGUSER, the OS user).
      const { rows } = await pool.query<{ role: string }>('SELECT current_user AS role');
      const appRole = rows[0]?.role ?? '';
      const owner = new pg.Client({ connectionString: migrationUrl });
      await owner.connect();
      try {
        await migrateLocked(owner, {
          before: () => refuseUnsafeAppRole(owner, appRole),
          after: () => grantAppRole(owner, appRole),
        });
      } finally {
        await owner.end();
      }
    },
    close: () => pool.end(),
  };
}

/**
 * Applies the migrations on one connection under the migration lock, with the steps that belong with them (the app
 * role's check and grants) inside it too, so that instances starting at once grant one after another.
 */
async function migrateLocked(client: pg.PoolClient | pg.Client, steps: { before?: () => Promise<void>; after?: () => Promise<void> } = {}): Promise<void> {
  // The advisory lock is per session, so lock, migrate and unlock on one dedicated connection.
  await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
  try {
    await steps.before?.();
    await migrateNodePg(drizzleNodePg({ client, schema }), { migrationsFolder });
    await steps.after?.();
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
  }
}

/**
 * Runs a raw SQL query (for what the query builder cannot say, such as recursive CTEs) and checks its rows.
 * Both drivers answer `{ rows }`; the zod schema gives the rows their type and guards against driver differences.
 *
 * @param db - database or transaction handle
 * @param query - the statement, built with drizzle's `sql` tag so every value is a bound parameter
 * @param row - schema of one row
 * @returns the parsed rows
 * @example
 * const [row] = await queryRows(db, sql`SELECT 1::int AS one`, z.object({ one: z.number() }));
 */
export async function queryRows<T>(db: Db, query: SQL, row: z.ZodType<T>): Promise<T[]> {
  return rowsOf(await db.execute(query), row);
}

/** A bigint column as the drivers answer it (text, or a number for small values), read as a JS bigint. */
export const bigintText = z.union([z.string(), z.number(), z.bigint()]).transform((value) => BigInt(value));

const resultShape = z.object({ rows: z.array(z.unknown()) });

/**
 * Checks the rows of a raw result (db.execute, or a prepared raw statement) with a row schema.
 *
 * @param result - what the driver answered: `{ rows }` for both
 * @param row - schema of one row
 * @returns the parsed rows
 * @example
 * const [row] = rowsOf(await statement.execute(values), z.object({ id: z.number() }));
 */
export function rowsOf<T>(result: unknown, row: z.ZodType<T>): T[] {
  // Only the caller's row schema is parsed: a wrapper schema built per call would be compiled per call by zod.
  return resultShape.parse(result).rows.map((value) => row.parse(value));
}

/**
 * Takes a transaction-scoped advisory lock, released at commit or rollback.
 *
 * @param tx - a transaction handle
 * @param key - lock key: a constant named by the caller (the member tree, the seed), unique in this app
 * @returns when the lock is held
 * @example
 * await db.transaction(async (tx) => { await lockTransaction(tx, LOCK_MEMBER_TREE); ... });
 */
export async function lockTransaction(tx: Db, key: number): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${key})`);
}

/**
 * Memoises a drizzle prepared query per database handle, for statements that run on nearly every request:
 * building the SQL through the query builder costs more CPU than running a short statement on PGlite, and
 * node-postgres keeps a named query as a prepared statement on each connection. It keeps query objects, never
 * data.
 *
 * @param build - prepares the query on a handle (with sql.placeholder for the values and a unique name)
 * @returns the prepared query of a handle, built on first use
 * @example
 * const nonceInsert = preparedPerDb((db) => db.insert(nonces).values({ value: sql.placeholder('value'), ... }).prepare('issue_nonce'));
 * await nonceInsert(db).execute({ value, ... });
 */
export function preparedPerDb<T>(build: (db: Db) => T): (db: Db) => T {
  const byDb = new WeakMap<Db, T>();
  return (db) => {
    let prepared = byDb.get(db);
    if (prepared === undefined) {
      prepared = build(db);
      byDb.set(db, prepared);
    }
    return prepared;
  };
}
