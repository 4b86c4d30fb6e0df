/**
 * BatchedPGlite (server/db/pglite.ts), in this thread and in a worker thread (server/db/pgliteThread.ts, as the
 * server runs it), against PGlite itself: the same statements, parameters and options give the same results and
 * the same errors, transactions keep their meaning, and a schema change is seen; its prepared statements outlive a
 * rollback and are closed once forgotten.
 */
import { PGlite, type QueryOptions, type Results } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPglite, pgliteOptions } from './pgliteStart';
import { PgliteThread, type WorkerLossOutcome } from './pgliteThread';

/** What drizzle calls on either client. */
interface Client {
  query<T>(query: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  transaction<T>(callback: (tx: { query: Client['query'] }) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

const clients: { name: string; open: () => Promise<Client> }[] = [
  {
    name: 'BatchedPGlite',
    open: async () => {
      // As the server makes it (server/db/pgliteStart.ts): from the run's empty cluster when there is one.
      const db = newPglite();
      await db.waitReady;
      return db;
    },
  },
  { name: 'BatchedPGlite in a worker thread', open: () => PgliteThread.open(undefined) },
];

/**
 * PGlite itself, with the options the server opens it with (server/db/pgliteStart.ts): loaded from the run's empty
 * cluster (PGLITE_INITDB_DUMP, tests/support/pgliteInitdb.ts) when there is one, the same cluster initdb makes in a
 * third of its CPU, and with the smaller shared buffers, which PGlite zeroes at every open. Neither changes an answer.
 */
function plainPglite(): PGlite {
  return new PGlite(pgliteOptions());
}

const SCHEMA = `
  CREATE TABLE things (
    id integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
    name text NOT NULL UNIQUE,
    big bigint,
    flag boolean,
    at timestamp with time zone,
    doc jsonb,
    bytes bytea,
    amount numeric
  )`;

describe.each(clients)('$name', { timeout: 60_000 }, ({ open }) => {
  let plain: PGlite;
  let batched: Client;

  beforeAll(async () => {
    plain = plainPglite();
    [batched] = await Promise.all([open(), plain.waitReady]);
    await plain.exec(SCHEMA);
    await batched.query(SCHEMA);
  }, 120_000);

  afterAll(async () => {
    await plain?.close();
    await batched?.close();
  });

  /** Runs the same statement on both and expects the same answer, or the same error. */
  async function same(query: string, params: unknown[] = [], options?: QueryOptions): Promise<unknown> {
    const settle = async (db: Client) => {
      try {
        return { ok: await db.query(query, params, options) };
      } catch (error) {
        const e = error as Error & { code?: string; query?: string; params?: unknown };
        return { error: { name: e.name, message: e.message, code: e.code, query: e.query, params: e.params } };
      }
    };
    const [expected, actual] = [await settle(plain), await settle(batched)];
    expect(actual).toEqual(expected);
    return actual;
  }

  it('writes and reads every parameter type the same way', async () => {
    const at = new Date('2026-11-22T12:00:00.123Z');
    const insert = 'INSERT INTO things (name, big, flag, at, doc, bytes, amount) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *';
    await same(insert, ['a', 9_007_199_254_740_993n, true, at, { k: [1, 'x'] }, new Uint8Array([0, 255]), '12.500000']);
    await same(insert, ['b', 42, false, at.toISOString(), JSON.stringify({ k: null }), null, 3]);
    await same(insert, ['c', null, null, null, null, null, null]);
    await same('SELECT * FROM things ORDER BY id');
    await same('SELECT * FROM things WHERE flag = $1 AND at <= $2', [true, at]);
    await same('SELECT id, name FROM things WHERE name = $1', ['nobody']);
  });

  it('honours drizzle’s options: array rows and pass-through parsers', async () => {
    const options: QueryOptions = { rowMode: 'array', parsers: { 1184: (value: string) => value } };
    await same('SELECT name, at, big FROM things ORDER BY id', [], options);
    await same('WITH x AS (UPDATE things SET flag = $1 WHERE name = $2 RETURNING name) SELECT count(*)::int AS n FROM x', [false, 'a'], options);
  });

  it('reports the same errors and goes on working after them', async () => {
    await same('INSERT INTO things (name) VALUES ($1)', ['a']);
    await same('SELECT nosuchcolumn FROM things');
    await same('SELECT $1::int', ['not a number']);
    await same('SELECT count(*)::int AS n FROM things');
  });

  it('keeps a transaction all or nothing, and its statements in order with the ones outside', async () => {
    await expect(
      batched.transaction(async (tx) => {
        await tx.query('INSERT INTO things (name) VALUES ($1)', ['t1']);
        throw new Error('stop');
      }),
    ).rejects.toThrow('stop');
    expect((await batched.query('SELECT name FROM things WHERE name = $1', ['t1'])).rows).toEqual([]);

    // A failed statement aborts the transaction, as in PGlite.
    await expect(
      batched.transaction(async (tx) => {
        await tx.query('INSERT INTO things (name) VALUES ($1)', ['t2']).catch(() => undefined);
        await tx.query('INSERT INTO things (name) VALUES ($1)', ['a']).catch(() => undefined);
        await tx.query('INSERT INTO things (name) VALUES ($1)', ['t3']);
      }),
    ).rejects.toMatchObject({ code: '25P02' });
    expect((await batched.query('SELECT name FROM things WHERE name IN ($1, $2)', ['t2', 't3'])).rows).toEqual([]);

    // A statement outside waits for the open transaction instead of running inside it.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const order: string[] = [];
    const transaction = batched.transaction(async (tx) => {
      await tx.query('INSERT INTO things (name) VALUES ($1)', ['t4']);
      await held;
      order.push('commit');
    });
    const outside = batched.query<{ n: number }>('SELECT count(*)::int AS n FROM things WHERE name = $1', ['t4']).then((result) => {
      order.push('outside');
      return result.rows[0]?.n;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    await transaction;
    expect(await outside).toBe(1);
    expect(order).toEqual(['commit', 'outside']);
  });

  it('keeps a statement prepared inside a rolled-back transaction, and closes forgotten ones', async () => {
    const query = 'SELECT name FROM things WHERE name = $1 AND flag IS NOT DISTINCT FROM $2';
    await expect(
      batched.transaction(async (tx) => {
        await tx.query(query, ['a', false]);
        throw new Error('stop');
      }),
    ).rejects.toThrow('stop');
    await same(query, ['a', false]);

    const prepared = async () => (await batched.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_prepared_statements')).rows[0]?.n ?? 0;
    expect(await prepared()).toBeGreaterThan(2);
    // TRUNCATE keeps them; DDL forgets them, and the next prepared call closes them.
    for (const db of [plain, batched]) await db.query('TRUNCATE TABLE things');
    expect(await prepared()).toBeGreaterThan(2);
    for (const db of [plain, batched]) await db.query('CREATE TABLE other (id integer)');
    expect(await prepared()).toBe(1);
    await same('SELECT count(*)::int AS n FROM things');
  });

  it('sees a schema change in the parameter types of a statement it has run before', async () => {
    const query = 'SELECT count(*)::int AS n FROM things WHERE amount = $1';
    await same(query, [3]);
    await plain.query('ALTER TABLE things ALTER COLUMN amount TYPE jsonb USING to_jsonb(amount)');
    await batched.query('ALTER TABLE things ALTER COLUMN amount TYPE jsonb USING to_jsonb(amount)');
    await same(query, [{ a: 1 }]);
    await same(query, [3]);
  });
});

describe('PgliteThread', { timeout: 60_000 }, () => {
  let thread: PgliteThread;
  const losses: { message: string; next: WorkerLossOutcome }[] = [];

  beforeAll(async () => {
    // The worker that can be made to die (pgliteThreadLoss.test.ts has the rest of a lost worker's tests): its
    // last test here kills it, which saves that file a database in memory of its own.
    thread = await PgliteThread.open(undefined, {
      workerUrl: new URL('../../tests/server/support/mortalPgliteWorker.ts', import.meta.url),
      onLost: (error, next) => losses.push({ message: error.message, next }),
    });
    await thread.query(SCHEMA);
  }, 120_000);

  afterAll(async () => {
    await thread?.close();
  });

  it('hands a database error over with its fields, for callers that read them (a unique violation’s constraint)', async () => {
    await thread.query('INSERT INTO things (name) VALUES ($1)', ['dup']);
    const error: unknown = await thread.query('INSERT INTO things (name) VALUES ($1)', ['dup']).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ code: '23505', constraint: 'things_name_key', detail: 'Key (name)=(dup) already exists.', query: 'INSERT INTO things (name) VALUES ($1)', params: ['dup'] });
  });

  it('refuses a parser that changes its text (it cannot cross to the worker) before running anything', async () => {
    const options: QueryOptions = { parsers: { 20: (value: string) => Number(value) } };
    await expect(thread.query('INSERT INTO things (name) VALUES ($1) RETURNING big', ['parsed'], options)).rejects.toThrow(/parser of type 20/);
    expect((await thread.query('SELECT name FROM things WHERE name = $1', ['parsed'])).rows).toEqual([]);
  });

  it('fails a call whose parameters cannot be cloned, or whose options cannot cross, and goes on working', async () => {
    await expect(thread.query('SELECT $1::text AS v', [() => 1])).rejects.toThrow(/could not be cloned/);
    await expect(thread.query('SELECT 1 AS one', [], { onNotice: () => undefined })).rejects.toThrow(/only the rowMode/);
    expect((await thread.query('SELECT $1::text AS v', ['ok'])).rows).toEqual([{ v: 'ok' }]);
  });

  it('refuses a statement on a transaction handle after the transaction ended', async () => {
    let kept: { query: Client['query'] } | undefined;
    await thread.transaction(async (tx) => {
      kept = tx;
      await tx.query('INSERT INTO things (name) VALUES ($1)', ['inside']);
    });
    await expect(kept?.query('INSERT INTO things (name) VALUES ($1)', ['late'])).rejects.toThrow('Transaction is closed');
    expect((await thread.query<{ name: string }>('SELECT name FROM things WHERE name IN ($1, $2)', ['inside', 'late'])).rows).toEqual([{ name: 'inside' }]);
  });

  it('fails every call after close, also when closed twice at once', async () => {
    const other = await PgliteThread.open(undefined);
    await Promise.allSettled([other.close(), other.close()]);
    await expect(other.query('SELECT 1')).rejects.toThrow(/PGlite worker exited/);
  });

  it('stops when its worker dies with the database in memory: a new worker would answer from an empty one', async () => {
    expect(losses).toEqual([]);
    await expect(thread.query('-- die 4')).rejects.toThrow('PGlite worker exited with code 4');
    expect(losses).toEqual([{ message: 'PGlite worker exited with code 4', next: 'stopped' }]);
    await expect(thread.query('SELECT name FROM things')).rejects.toThrow('PGlite worker exited with code 4');
  });
});
