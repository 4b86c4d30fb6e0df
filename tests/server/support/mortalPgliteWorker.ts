/**
 * The PGlite worker (server/db/pgliteWorker.ts) with two ways to fail, for the tests of a lost worker: the
 * statement `-- die <code>` ends the thread with that exit code instead of running, and a file named
 * `refuse-to-start` beside the data folder makes a worker throw as it starts, as one whose database cannot open.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';

const { dataDir } = workerData as { dataDir: string | undefined };
if (dataDir !== undefined && existsSync(path.join(dataDir, '..', 'refuse-to-start'))) throw new Error('this worker refuses to start');

// The worker's own listener first: messages that arrive before any listener wait for the first one, and would
// reach only this one. This one still acts first: it exits in the same dispatch, before the worker can answer.
await import('../../../server/db/pgliteWorker');
parentPort?.on('message', (request: { kind: string; text?: string }) => {
  const die = request.kind === 'query' ? /^-- die (\d+)$/.exec(request.text ?? '') : null;
  if (die) process.exit(Number(die[1]));
});
