/**
 * A PGlite worker thread that dies (server/db/pgliteThread.ts): the calls in flight fail, a transaction in flight
 * leaves nothing, the next calls run on a new worker that has the committed data, and a worker that cannot start
 * again stops the client with one report, so that the server can stop. One data folder for the file: each open of
 * a new one costs seconds.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgliteThread, type WorkerLossOutcome } from '../../../server/db/pgliteThread';

const mortalWorker = new URL('../support/mortalPgliteWorker.ts', import.meta.url);

describe('PgliteThread when its worker dies', { timeout: 120_000 }, () => {
  let folder: string;
  let losses: { message: string; next: WorkerLossOutcome }[] = [];
  const open = (dataDir: string | undefined) =>
    PgliteThread.open(dataDir, { workerUrl: mortalWorker, onLost: (error, next) => losses.push({ message: error.message, next }) });
  let client: PgliteThread;

  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'md-pglite-loss-'));
    client = await open(path.join(folder, 'pglite'));
    await client.query('CREATE TABLE notes (body text NOT NULL)');
  }, 120_000);

  afterAll(async () => {
    await client?.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('fails the calls in flight, then answers on a new worker that has what was committed', async () => {
    losses = [];
    await client.query('INSERT INTO notes (body) VALUES ($1)', ['kept']);
    // The call behind the lost one was sent to the lost worker too: it fails with the same error.
    const [died, queued] = await Promise.allSettled([client.query('-- die 7'), client.query('SELECT 1 AS one')]);
    expect(died).toMatchObject({ status: 'rejected', reason: { message: 'PGlite worker exited with code 7' } });
    expect(queued).toMatchObject({ status: 'rejected', reason: { message: 'PGlite worker exited with code 7' } });
    expect(losses).toEqual([{ message: 'PGlite worker exited with code 7', next: 'restarting' }]);

    expect((await client.query<{ body: string }>('SELECT body FROM notes')).rows).toEqual([{ body: 'kept' }]);
    await client.transaction(async (tx) => {
      await tx.query('INSERT INTO notes (body) VALUES ($1)', ['after']);
    });
    expect((await client.query<{ body: string }>('SELECT body FROM notes ORDER BY body')).rows).toEqual([{ body: 'after' }, { body: 'kept' }]);
  });

  it('rolls back a transaction the worker died in: the transaction fails with the loss and none of its rows remain', async () => {
    losses = [];
    const transaction = client.transaction(async (tx) => {
      await tx.query('INSERT INTO notes (body) VALUES ($1)', ['uncommitted']);
      await tx.query('-- die 3');
    });
    await expect(transaction).rejects.toThrow('PGlite worker exited with code 3');
    expect((await client.query('SELECT body FROM notes WHERE body = $1', ['uncommitted'])).rows).toEqual([]);
    expect(losses.map((loss) => loss.next)).toEqual(['restarting']);
  });

  it('reports nothing when the client is closed, or when open() fails', async () => {
    losses = [];
    await client.close();
    await writeFile(path.join(folder, 'refuse-to-start'), '');
    await expect(open(path.join(folder, 'pglite'))).rejects.toThrow('this worker refuses to start');
    await rm(path.join(folder, 'refuse-to-start'));
    client = await open(path.join(folder, 'pglite'));
    expect(losses).toEqual([]);
    expect((await client.query('SELECT count(*)::int AS n FROM notes')).rows).toEqual([{ n: 2 }]);
  });

  it('stops, with one report, when the new worker cannot start: every later call fails and close still works', async () => {
    losses = [];
    await writeFile(path.join(folder, 'refuse-to-start'), '');
    await expect(client.query('-- die 9')).rejects.toThrow('PGlite worker exited with code 9');
    await expect.poll(() => losses.length).toBe(2);
    expect(losses).toEqual([
      { message: 'PGlite worker exited with code 9', next: 'restarting' },
      { message: 'this worker refuses to start', next: 'stopped' },
    ]);
    await expect(client.query('SELECT 1')).rejects.toThrow('this worker refuses to start');
    await client.close();
    expect(losses).toHaveLength(2);
  });

  it('stops when the database was in memory: a new worker would answer from an empty one', async () => {
    losses = [];
    const inMemory = await open(undefined);
    try {
      await inMemory.query('CREATE TABLE notes (body text NOT NULL)');
      await expect(inMemory.query('-- die 4')).rejects.toThrow('PGlite worker exited with code 4');
      expect(losses).toEqual([{ message: 'PGlite worker exited with code 4', next: 'stopped' }]);
      await expect(inMemory.query('SELECT body FROM notes')).rejects.toThrow('PGlite worker exited with code 4');
    } finally {
      await inMemory.close();
    }
  });
});
