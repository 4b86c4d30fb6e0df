/**
 * The worker thread of server/db/pgliteThread.ts: it owns the BatchedPGlite and runs what the request thread
 * sends. Calls run as they arrive; PGlite's own locks order them (a statement outside a transaction waits for the
 * open one), exactly as when they came from the same thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { QueryOptions, Transaction } from '@electric-sql/pglite';
import { dumpPglite, newPglite } from './pgliteStart';
import type { ThreadAnswer, ThreadError, ThreadRequest } from './pgliteThread';

if (!parentPort) throw new Error('pgliteWorker.ts runs as a worker thread');
const port = parentPort;
const { dataDir } = workerData as { dataDir: string | undefined };
const db = newPglite(dataDir);

interface OpenTransaction {
  tx: Transaction;
  end(answerId: number, commit: boolean): void;
}
const transactions = new Map<number, OpenTransaction>();
/** The exit code of a worker whose backend aborted (EX_SOFTWARE). */
const ABORTED_EXIT_CODE = 70;
/** Thrown into PGlite's transaction() to roll it back when the request thread's callback failed. */
const ROLLBACK = new Error('rolled back by the request thread');

const keepText = (value: string): string => value;
/** drizzle sends the same two option sets on every call: built once each. */
const optionSets = new Map<string, QueryOptions | undefined>();
function optionsOf(rowMode: QueryOptions['rowMode'], textTypes: readonly number[]): QueryOptions | undefined {
  const key = `${rowMode ?? ''}:${textTypes.join(',')}`;
  if (!optionSets.has(key)) {
    const parsers = textTypes.length > 0 ? Object.fromEntries(textTypes.map((type) => [type, keepText])) : undefined;
    optionSets.set(key, rowMode || parsers ? { ...(rowMode ? { rowMode } : {}), ...(parsers ? { parsers } : {}) } : undefined);
  }
  return optionSets.get(key);
}

/** An error's message and own fields, without what cannot be cloned (PGlite's queryOptions holds functions). */
function errorOf(error: unknown): ThreadError {
  if (!(error instanceof Error)) return { message: String(error), fields: {} };
  const fields: Record<string, unknown> = { name: error.name };
  for (const [key, value] of Object.entries(error)) if (key !== 'queryOptions' && typeof value !== 'function') fields[key] = value;
  return { message: error.message, fields };
}

function answer(id: number, value: unknown): void {
  try {
    port.postMessage({ id, ok: true, value } satisfies ThreadAnswer);
  } catch (error) {
    // A value that cannot be cloned fails its own call, not the worker.
    fail(id, error);
  }
}

function fail(id: number, error: unknown): void {
  const shape = errorOf(error);
  try {
    port.postMessage({ id, ok: false, error: shape } satisfies ThreadAnswer);
  } catch {
    // A field that cannot be cloned: the message still gets through.
    port.postMessage({ id, ok: false, error: { message: shape.message, fields: {} } } satisfies ThreadAnswer);
  }
  // The backend aborted (emscripten's abort() throws a WebAssembly.RuntimeError: a failed memory grow, an
  // assertion): it cannot be trusted with another statement. Ending the thread, after the answer, makes the
  // request thread start a new worker on the same data folder (pgliteThread.ts).
  if (error instanceof WebAssembly.RuntimeError) process.exit(ABORTED_EXIT_CODE);
}

/** Opens a transaction named by the id of its begin; it ends when the request thread says commit or roll back. */
function begin(id: number): void {
  let endId: number | undefined;
  db.transaction(
    (tx) =>
      new Promise<void>((resolve, reject) => {
        transactions.set(id, {
          tx,
          end: (answerId, commit) => {
            endId = answerId;
            if (commit) resolve();
            else reject(ROLLBACK);
          },
        });
        answer(id, id);
      }),
  ).then(
    () => answer(endId ?? id, null),
    (error: unknown) => {
      if (endId === undefined) fail(id, error);
      else if (error === ROLLBACK) answer(endId, null);
      else fail(endId, error);
    },
  ).finally(() => transactions.delete(id));
}

/** The calls answered when their work ends (a transaction's begin and end are answered by the transaction). */
async function run(request: Exclude<ThreadRequest, { kind: 'begin' | 'end' }>): Promise<unknown> {
  switch (request.kind) {
    case 'ready':
      await db.waitReady;
      return null;
    case 'query': {
      const options = optionsOf(request.rowMode, request.textTypes);
      if (request.tx === null) return db.query(request.text, request.params, options);
      const open = transactions.get(request.tx);
      if (!open) throw new Error('Transaction is closed');
      return open.tx.query(request.text, request.params, options);
    }
    case 'dump':
      return dumpPglite(db);
    case 'close':
      await db.close();
      return null;
  }
}

port.on('message', (request: ThreadRequest) => {
  if (request.kind === 'begin') return begin(request.id);
  if (request.kind === 'end') {
    const open = transactions.get(request.tx);
    if (open) open.end(request.id, request.commit);
    else fail(request.id, new Error('Transaction is closed'));
    return;
  }
  run(request).then(
    (value) => answer(request.id, value),
    (error: unknown) => fail(request.id, error),
  );
});
