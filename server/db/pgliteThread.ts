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
 *
 * A worker that dies (its JavaScript heap exhausted, an uncaught error, or an abort of the WebAssembly backend,
 * after which pgliteWorker.ts ends itself) is replaced, as a pool replaces a lost PostgreSQL connection: the calls
 * in flight fail (a transaction in flight is rolled back, as after a crash of PostgreSQL; the ledger's at-most-once
 * keys make a client's retry safe), and the next calls go to a new worker on the same data folder, which Postgres
 * recovers from its WAL. A worker that dies or fails before its database is ready is not replaced, nor one whose
 * database was in memory, nor the third lost within a minute: every later call fails, and `onLost` says so, so that
 * the server can stop instead of answering every request with an error.
 */
import type { Worker } from 'node:worker_threads';
import type { QueryOptions, Results, RowMode } from '@electric-sql/pglite';
import { startTsWorker } from '../tsWorker';
import { workerModule } from '../serverFiles';

/** What the request thread asks the worker. `tx` names an open transaction by the id of its `begin`. */
export type ThreadRequest =
  | { id: number; kind: 'ready' }
  | { id: number; kind: 'query'; tx: number | null; text: string; params: unknown[]; rowMode: RowMode | undefined; textTypes: number[] }
  | { id: number; kind: 'begin' }
  | { id: number; kind: 'end'; tx: number; commit: boolean }
  | { id: number; kind: 'dump' }
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

const defaultWorkerUrl = workerModule('pgliteWorker', 'db/pgliteWorker.ts');

/** The third worker lost within a minute is not replaced: something kills every one of them. */
const MAX_LOSSES_IN_WINDOW = 3;
const LOSS_WINDOW_MS = 60_000;

/** What happens after a worker is lost: a new one starts, or (it never became ready) the client stops. */
export type WorkerLossOutcome = 'restarting' | 'stopped';

export interface PgliteThreadOptions {
  /** Told when a worker is lost, with what follows: a server logs a restart and stops when the client stops. */
  onLost?: ((error: Error, next: WorkerLossOutcome) => void) | undefined;
  /** The worker module: pgliteWorker.ts; tests give one that can be made to die. */
  workerUrl?: URL | undefined;
}
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
    // By key: Object.entries reads PGlite's number-indexed ParserOptions as any.
    types = Object.keys(parsers).map((key) => {
      const type = Number(key);
      const parser: ((value: string, typeId: number) => unknown) | undefined = parsers[type];
      if (parser?.(PROBE, type) !== PROBE) throw new Error(`PgliteThread: the parser of type ${type} changes its text; only pass-through parsers can cross to the worker`);
      return type;
    });
    textTypesOf.set(parsers, types);
  }
  return types;
}

function toError(error: ThreadError, options: QueryOptions | undefined): Error {
  return Object.assign(new Error(error.message), error.fields, options ? { queryOptions: options } : {});
}

export class PgliteThread {
  readonly #dataDir: string | undefined;
  readonly #options: PgliteThreadOptions;
  #worker: Worker;
  /** Whether the current worker's database answered `ready`: a worker lost before that is not replaced. */
  #ready = false;
  #closing = false;
  /** Set once open() has answered: before that a loss is open()'s failure, not the server's news. */
  #opened = false;
  readonly #pending = new Map<number, Pending>();
  #nextId = 0;
  /** Set when the client has stopped: every later call fails with it. */
  #stopped: Error | undefined;
  /** Why each lost worker ended: its open transactions fail with it. */
  readonly #losses = new WeakMap<Worker, Error>();
  /** The uncaught error a worker ended with, kept until its 'exit'. */
  readonly #exitErrors = new WeakMap<Worker, Error>();
  /** When the last workers were lost: one that dies on every use is not replaced forever. */
  #lossTimes: number[] = [];

  private constructor(dataDir: string | undefined, options: PgliteThreadOptions) {
    this.#dataDir = dataDir;
    this.#options = options;
    this.#worker = this.#start();
  }

  /**
   * Starts the worker and waits until its database is ready.
   *
   * @param dataDir - the data folder, or undefined for a database in memory
   * @param options - what to do when a worker is lost, and the worker module
   * @returns the ready client
   * @example
   * const client = await PgliteThread.open('./data/pglite', { onLost: (error, next) => log.error({ error, next }) });
   */
  static async open(dataDir: string | undefined, options: PgliteThreadOptions = {}): Promise<PgliteThread> {
    const thread = new PgliteThread(dataDir, options);
    try {
      await thread.#whenReady();
    } catch (error) {
      await thread.#worker.terminate();
      throw error;
    }
    thread.#opened = true;
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
    // The transaction lives in this worker: once it is lost, so is the transaction (a new worker never knew it).
    const worker = this.#worker;
    const lost = () => this.#losses.get(worker);
    let closed = false;
    const handle: ThreadTransaction = {
      query: <R>(text: string, params: unknown[] = [], options?: QueryOptions) => {
        if (closed) return Promise.reject(new Error('Transaction is closed'));
        const loss = lost();
        return loss ? Promise.reject(loss) : this.#query<R>(tx, text, params, options);
      },
      get closed() {
        return closed || lost() !== undefined;
      },
    };
    let result: T;
    try {
      result = await callback(handle);
    } catch (error) {
      closed = true;
      // A lost worker rolled the transaction back as it ended: the callback's error is the one to tell.
      if (!lost()) await this.#call({ kind: 'end', tx, commit: false }, undefined);
      throw error;
    }
    closed = true;
    const loss = lost();
    if (loss) throw loss;
    await this.#call({ kind: 'end', tx, commit: true }, undefined);
    return result;
  }

  /**
   * A consistent snapshot of the whole database while it runs (server/db/backup.ts): PGlite's data folder as a
   * gzipped tarball, taken between two statements.
   *
   * @returns the tarball's bytes
   * @example
   * const bytes = await client.dump();
   */
  async dump(): Promise<Uint8Array> {
    return (await this.#call({ kind: 'dump' }, undefined)) as Uint8Array;
  }

  /**
   * Closes the database and ends the worker.
   *
   * @returns when the worker has exited
   * @example
   * await client.close();
   */
  async close(): Promise<void> {
    this.#closing = true;
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

  #start(): Worker {
    const worker = startTsWorker(this.#options.workerUrl ?? defaultWorkerUrl, { dataDir: this.#dataDir });
    worker.unref();
    worker.on('message', (answer: ThreadAnswer) => {
      if (worker === this.#worker) this.#settle(answer);
    });
    // 'error' (an uncaught exception) comes before the answers the worker had already sent are delivered; 'exit'
    // comes after them. So the loss is handled at 'exit', with the error if there was one: an answered commit stays
    // answered.
    worker.on('error', (error: unknown) => this.#exitErrors.set(worker, error instanceof Error ? error : new Error(String(error))));
    worker.on('exit', (code) => this.#lost(worker, this.#exitErrors.get(worker) ?? new Error(`PGlite worker exited with code ${code}`)));
    return worker;
  }

  async #whenReady(): Promise<void> {
    await this.#call({ kind: 'ready' }, undefined);
    this.#ready = true;
  }

  #settle(answer: ThreadAnswer): void {
    const pending = this.#pending.get(answer.id);
    if (!pending) return;
    this.#pending.delete(answer.id);
    if (this.#pending.size === 0) this.#worker.unref();
    if (answer.ok) pending.resolve(answer.value);
    else pending.reject(toError(answer.error, pending.options));
  }

  /** A worker ended: its calls fail, and a ready one is replaced. */
  #lost(worker: Worker, error: Error): void {
    if (worker !== this.#worker || this.#stopped) return;
    this.#losses.set(worker, error);
    const now = Date.now();
    this.#lossTimes = [...this.#lossTimes.filter((time) => now - time < LOSS_WINDOW_MS), now];
    // In memory, a new worker would answer from an empty database: the data went with the worker.
    if (this.#closing || !this.#ready || this.#dataDir === undefined || this.#lossTimes.length >= MAX_LOSSES_IN_WINDOW) {
      this.#stop(error);
      return;
    }
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    this.#ready = false;
    this.#worker = this.#start();
    // A replacement that cannot open its database stops the client (its ready call fails; so do the calls queued
    // behind it).
    this.#whenReady().catch((reason: unknown) => this.#stop(reason instanceof Error ? reason : new Error(String(reason))));
    for (const call of pending) call.reject(error);
    if (this.#opened && !this.#closing) this.#options.onLost?.(error, 'restarting');
  }

  /** The client stops: every call pending and to come fails with the error, and the worker ends (if it has not). */
  #stop(error: Error): void {
    if (this.#stopped) return;
    this.#stopped = error;
    for (const call of this.#pending.values()) call.reject(error);
    this.#pending.clear();
    void this.#worker.terminate();
    if (this.#opened && !this.#closing) this.#options.onLost?.(error, 'stopped');
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
