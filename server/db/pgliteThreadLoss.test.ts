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
import { PgliteThread, type WorkerLossOutcome } from './pgliteThread';

const mortalWorker = new URL('../../tests/server/support/mortalPgliteWorker.ts', import.meta.url);
/** How long to wait for a report that follows a worker's start or end: seconds on a loaded CI machine. */
const WORKER_START = { timeout: 60_000, interval: 50 };

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

  it('answers the call that found the backend aborted with its error, then goes on on a new worker', async () => {
    losses = [];
    await expect(client.query('-- abort')).rejects.toThrow('unreachable');
    await expect.poll(() => losses, WORKER_START).toEqual([{ message: 'PGlite worker exited with code 70', next: 'restarting' }]);
    expect((await client.query('SELECT count(*)::int AS n FROM notes')).rows).toEqual([{ n: 2 }]);
  });

  /** Kills the worker while `marker` stands beside the data folder, so that its replacement fails; the reports. */
  async function loseWithFailingReplacement(marker: 'fail-ready' | 'refuse-to-start', code: number) {
    losses = [];
    await writeFile(path.join(folder, marker), '');
    try {
      await expect(client.query(`-- die ${code}`)).rejects.toThrow(`PGlite worker exited with code ${code}`);
      await expect.poll(() => losses.length, WORKER_START).toBe(2);
    } finally {
      await rm(path.join(folder, marker));
    }
    return losses;
  }

  it('stops when the new worker starts but its database cannot open: every later call fails and close still works', async () => {
    expect(await loseWithFailingReplacement('fail-ready', 6)).toEqual([
      { message: 'PGlite worker exited with code 6', next: 'restarting' },
      { message: 'the database failed to open', next: 'stopped' },
    ]);
    await expect(client.query('SELECT 1')).rejects.toThrow('the database failed to open');
    await client.close();
    expect(losses).toHaveLength(2);
  });

  it('stops when the new worker cannot start at all', async () => {
    client = await open(path.join(folder, 'pglite'));
    expect(await loseWithFailingReplacement('refuse-to-start', 9)).toEqual([
      { message: 'PGlite worker exited with code 9', next: 'restarting' },
      { message: 'this worker refuses to start', next: 'stopped' },
    ]);
    await expect(client.query('SELECT 1')).rejects.toThrow('this worker refuses to start');
  });

  it('stops at the third worker lost within a minute: one that dies on every use is not replaced forever', async () => {
    await client.close();
    client = await open(path.join(folder, 'pglite'));
    losses = [];
    for (const code of [11, 12, 13]) {
      await expect(client.query(`-- die ${code}`)).rejects.toThrow(`PGlite worker exited with code ${code}`);
      // Each replacement answers before the next death, so every loss is of a ready worker.
      if (code !== 13) expect((await client.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    }
    expect(losses.map((loss) => loss.next)).toEqual(['restarting', 'restarting', 'stopped']);
    await expect(client.query('SELECT 1')).rejects.toThrow('PGlite worker exited with code 13');
  });
});
