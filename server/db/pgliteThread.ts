/**
 * The embedded database in a thread of its own. PGlite is Postgres compiled to WebAssembly: every statement runs
 * synchronously on the thread that owns it. In the request thread, each batch of the ledger held up the parsing
 * and answering of every other request for as long as it ran (about half of a withdrawal's CPU). Here a worker
 * thread (pgliteWorker.ts) owns the BatchedPGlite and the request thread sends it statements, as it would send
 * them to a PostgreSQL server: both threads work at once, on two cores.
 *
 * This class is what drizzle's PGlite driver calls: query() (with drizzle's options: the row mode, and parsers
 * that leave a type's text as it is) and transaction() (whose handle has query()). Answers and errors cross the
 * thread boundary by structured clone; a database error arrives as an Error with the same fields (code,
 * constraint, detail, ...). PGlite's own locks stay in the worker, so a statement outside a transaction still
 * waits for the open transaction. The worker holds the process open only while a call is pending.
 */
import type { Worker } from 'node:worker_threads';
import type { QueryOptions, Results, RowMode } from '@electric-sql/pglite';
import { startTsWorker } from '../tsWorker';

/** What the request thread asks the worker. `tx` names an open transaction by the id of its `begin`. */
export type ThreadRequest =
  | { id: number; kind: 'ready' }
  | { id: number; kind: 'query'; tx: number | null; text: string; params: unknown[]; rowMode: RowMode | undefined; textTypes: number[] }
  | { id: number; kind: 'begin' }
  | { id: number; kind: 'end'; tx: number; commit: boolean }
  | { id: number; kind: 'close' };

/** An error as it crosses the boundary: its message, name and own fields (a database error's code, detail, ...). */
export interface ThreadError {
  message: string;
  fields: Record<string, unknown>;
}

export type ThreadAnswer = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: ThreadError };

/** The handle a transaction's callback gets: query() runs inside the transaction. */
export interface ThreadTransaction {
  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  readonly closed: boolean;
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  options: QueryOptions | undefined;
}

const workerUrl = new URL('./pgliteWorker.ts', import.meta.url);
/** Any string: a parser that answers it unchanged leaves the type's text as it is. */
const PROBE = '\u0000probe';

/**
 * The types whose parser keeps the text as it is (drizzle's only use of parsers: timestamps, dates and intervals as
 * text). Functions cannot cross to the worker, so a parser is probed once with a sample string and refused when it
 * changes it; so are the query options the worker does not carry (a blob, serializers, parameter types, a notice
 * callback), rather than being silently dropped.
 */
const textTypesOf = new WeakMap<object, number[]>();
function textTypes(options: QueryOptions | undefined): number[] {
  if (options && (options.blob || options.serializers || options.paramTypes || options.onNotice)) {
    throw new Error('PgliteThread: only the rowMode and pass-through parsers options can cross to the worker');
  }
  const parsers = options?.parsers;
  if (!parsers) return [];
  let types = textTypesOf.get(parsers);
  if (!types) {
    types = Object.entries(parsers).map(([type, parser]) => {
      if (parser(PROBE, Number(type)) !== PROBE) throw new Error(`PgliteThread: the parser of type ${type} changes its text; only pass-through parsers can cross to the worker`);
      return Number(type);
    });
    textTypesOf.set(parsers, types);
  }
  return types;
}

function toError(error: ThreadError, options: QueryOptions | undefined): Error {
  return Object.assign(new Error(error.message), error.fields, options ? { queryOptions: options } : {});
}

export class PgliteThread {
  readonly #worker: Worker;
  readonly #pending = new Map<number, Pending>();
  #nextId = 0;
  /** Set when the worker has stopped: every later call fails with it. */
  #stopped: Error | undefined;

  private constructor(dataDir: string | undefined) {
    this.#worker = startTsWorker(workerUrl, { dataDir });
    this.#worker.unref();
    this.#worker.on('message', (answer: ThreadAnswer) => this.#settle(answer));
    this.#worker.on('error', (error) => this.#stop(error));
    this.#worker.on('exit', (code) => this.#stop(new Error(`PGlite worker exited with code ${code}`)));
  }

  /**
   * Starts the worker and waits until its database is ready.
   *
   * @param dataDir - the data folder, or undefined for a database in memory
   * @returns the ready client
   * @example
   * const client = await PgliteThread.open('./data/pglite');
   */
  static async open(dataDir: string | undefined): Promise<PgliteThread> {
    const thread = new PgliteThread(dataDir);
    try {
      await thread.#call({ kind: 'ready' }, undefined);
    } catch (error) {
      await thread.#worker.terminate();
      throw error;
    }
    return thread;
  }

  /**
   * Runs one statement, as PGlite's query() does.
   *
   * @param text - the statement
   * @param params - its parameters
   * @param options - the row mode, and parsers that leave a type as text
   * @returns PGlite's results
   * @example
   * const { rows } = await client.query('SELECT 1 AS one');
   */
  query<T>(text: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> {
    return this.#query<T>(null, text, params, options);
  }

  /**
   * Runs a callback in a transaction, as PGlite's transaction() does: committed when it returns, rolled back when
   * it throws (the callback's error is rethrown).
   *
   * @param callback - the work, given a handle whose query() runs inside the transaction
   * @returns what the callback returns
   * @throws the callback's error, or the commit's (an aborted transaction cannot commit)
   * @example
   * await client.transaction(async (tx) => { await tx.query('INSERT ...'); });
   */
  async transaction<T>(callback: (tx: ThreadTransaction) => Promise<T>): Promise<T> {
    const tx = (await this.#call({ kind: 'begin' }, undefined)) as number;
    let closed = false;
    const handle: ThreadTransaction = {
      query: <R>(text: string, params: unknown[] = [], options?: QueryOptions) =>
        closed ? Promise.reject(new Error('Transaction is closed')) : this.#query<R>(tx, text, params, options),
      get closed() {
        return closed;
      },
    };
    let result: T;
    try {
      result = await callback(handle);
    } catch (error) {
      closed = true;
      await this.#call({ kind: 'end', tx, commit: false }, undefined);
      throw error;
    }
    closed = true;
    await this.#call({ kind: 'end', tx, commit: true }, undefined);
    return result;
  }

  /**
   * Closes the database and ends the worker.
   *
   * @returns when the worker has exited
   * @example
   * await client.close();
   */
  async close(): Promise<void> {
    try {
      if (!this.#stopped) await this.#call({ kind: 'close' }, undefined);
    } finally {
      await this.#worker.terminate();
    }
  }

  // async: an option that cannot cross (textTypes throws) rejects the call like any other failure.
  async #query<T>(tx: number | null, text: string, params: unknown[], options: QueryOptions | undefined): Promise<Results<T>> {
    const types = textTypes(options);
    return (await this.#call({ kind: 'query', tx, text, params, rowMode: options?.rowMode, textTypes: types }, options)) as Results<T>;
  }

  #call(request: DistributiveOmit<ThreadRequest, 'id'>, options: QueryOptions | undefined): Promise<unknown> {
    if (this.#stopped) return Promise.reject(this.#stopped);
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      // Sent first: a value that cannot be cloned (a function among the parameters) throws here, and the call
      // must not stay pending, holding the process open.
      this.#worker.postMessage({ ...request, id });
      if (this.#pending.size === 0) this.#worker.ref();
      this.#pending.set(id, { resolve, reject, options });
    });
  }

  #settle(answer: ThreadAnswer): void {
    const pending = this.#pending.get(answer.id);
    if (!pending) return;
    this.#pending.delete(answer.id);
    if (this.#pending.size === 0) this.#worker.unref();
    if (answer.ok) pending.resolve(answer.value);
    else pending.reject(toError(answer.error, pending.options));
  }

  #stop(error: Error): void {
    this.#stopped ??= error;
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
