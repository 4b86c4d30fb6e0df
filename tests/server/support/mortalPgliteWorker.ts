/**
 * The PGlite worker (server/db/pgliteWorker.ts) with ways to fail, for the tests of a lost worker:
 * - the statement `-- die <code>` ends the thread with that exit code instead of running;
 * - the statement `-- abort` fails as an aborted WebAssembly backend does (a WebAssembly.RuntimeError);
 * - a file `refuse-to-start` beside the data folder makes a worker throw as it starts;
 * - a file `fail-ready` beside the data folder makes a worker answer `ready` with an error, as one whose database
 *   cannot open.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import type { QueryOptions, Results } from '@electric-sql/pglite';
import { BatchedPGlite } from '../../../server/db/pglite';
import type { ThreadAnswer, ThreadRequest } from '../../../server/db/pgliteThread';

const { dataDir } = workerData as { dataDir: string | undefined };
const marked = (name: string) => dataDir !== undefined && existsSync(path.join(dataDir, '..', name));
if (marked('refuse-to-start')) throw new Error('this worker refuses to start');

const query = BatchedPGlite.prototype.query;
BatchedPGlite.prototype.query = async function <T>(this: BatchedPGlite, text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
  if (text === '-- abort') throw new WebAssembly.RuntimeError('unreachable');
  return query.call(this, text, params, options) as Promise<Results<T>>;
};

// The worker's own listener first: messages that arrive before any listener wait for the first one, and would
// reach only this one. The worker answers after an await, so what this one does happens first.
await import('../../../server/db/pgliteWorker');
const failReady = marked('fail-ready');
parentPort?.on('message', (request: ThreadRequest) => {
  if (request.kind === 'ready' && failReady) {
    parentPort?.postMessage({ id: request.id, ok: false, error: { message: 'the database failed to open', fields: {} } } satisfies ThreadAnswer);
  }
  const die = request.kind === 'query' ? /^-- die (\d+)$/.exec(request.text) : null;
  if (die) process.exit(Number(die[1]));
});
