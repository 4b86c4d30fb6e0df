/**
 * PGlite that runs a statement in one call into its WebAssembly backend instead of six, as a prepared statement.
 *
 * PGlite's query() sends the extended-protocol messages of one statement (Parse, Describe statement, Bind,
 * Describe portal, Execute, Sync) as six separate calls, each with its own trip through the WebAssembly boundary
 * and the protocol wrappers, and Postgres parses and plans the text every time; for the short statements of this
 * server that costs more than running them (a three-table join: 0.85 ms against 0.3 ms). So this class prepares
 * each statement text once as a named statement (Parse and Describe statement, which also gives the parameter
 * types PGlite needs to choose each value's serializer) and then runs it with Bind, Describe portal, Execute and
 * Sync sent as one buffer, as drivers such as postgres.js do by default.
 *
 * Prepared statements depend on the schema; an embedded database's schema changes only through this process, so
 * any statement that is neither DML nor TRUNCATE nor transaction control (DDL, SET, ...) forgets them all (closed
 * on the next call). Everything else is PGlite's own: the same serializers and parsers, the same result parser,
 * the same error objects, the same locks (a statement outside a transaction waits for any open transaction), and
 * the same sync to the file system after a statement that is not inside a transaction. A query with options this
 * path does not handle (a blob, custom serializers or parameter types, a notice callback) goes to PGlite's query().
 */
import { parse, PGlite, protocol, type QueryOptions, type Results, type Transaction } from '@electric-sql/pglite';

/** Statements that run prepared; anything else takes PGlite's own path. */
const DML = /^\s*(select|insert|update|delete|with)\b/i;
/** Statements that leave prepared statements valid: they change neither the schema nor name resolution. */
const KEEPS_PREPARED = /^\s*(truncate|begin|start|commit|end|rollback|savepoint|release)\b/i;
/** A bound on prepared statement texts (they are few: one per query shape). */
const MAX_PREPARED = 500;

type Params = readonly unknown[];

function concat(parts: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** PGlite's own error decoration (query, params, queryOptions), so callers see the same error either way. */
function decorate(error: unknown, query: string, params: Params, options: QueryOptions | undefined): unknown {
  if (error instanceof Error && 'severity' in error) Object.assign(error, { query, params, queryOptions: options });
  return error;
}

interface Prepared {
  name: string;
  types: readonly number[];
}

export class BatchedPGlite extends PGlite {
  readonly #prepared = new Map<string, Prepared>();
  /** Prepared statements forgotten but not closed yet: closed at the start of the next prepared call. */
  #toClose: string[] = [];
  #nextName = 0;

  override async query<T>(query: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> {
    if (!this.#fits(query, options)) {
      this.#forgetUnless(query);
      return super.query<T>(query, params, options);
    }
    await this._checkReady();
    return this._runExclusiveTransaction(() => this.#run<T>(query, params, options, true));
  }

  override async exec(query: string, options?: QueryOptions): Promise<Results[]> {
    this.#forgetUnless(query);
    return super.exec(query, options);
  }

  override async transaction<T>(callback: (tx: Transaction) => Promise<T>): Promise<T> {
    return super.transaction((tx) => callback(this.#batched(tx)));
  }

  /** The transaction handle with query() on the prepared path (no sync: PGlite syncs after the transaction). */
  #batched(tx: Transaction): Transaction {
    const query = async <T>(text: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> => {
      if (tx.closed) throw new Error('Transaction is closed');
      if (!this.#fits(text, options)) {
        this.#forgetUnless(text);
        return tx.query<T>(text, params, options);
      }
      return this.#run<T>(text, params, options, false);
    };
    return {
      query,
      sql: <T>(strings: TemplateStringsArray, ...params: unknown[]) => tx.sql<T>(strings, ...params),
      exec: (text: string, options?: QueryOptions) => {
        this.#forgetUnless(text);
        return tx.exec(text, options);
      },
      rollback: () => tx.rollback(),
      listen: (channel: string, callback: (payload: string) => void) => tx.listen(channel, callback),
      get closed() {
        return tx.closed;
      },
    };
  }

  #fits(query: string, options: QueryOptions | undefined): boolean {
    if (!DML.test(query)) return false;
    if (!options) return true;
    return !options.blob && !options.serializers && !options.paramTypes && !options.onNotice;
  }

  /** Forgets every prepared statement, unless the statement about to run cannot invalidate them. */
  #forgetUnless(query: string): void {
    if (KEEPS_PREPARED.test(query)) return;
    this.#forget();
  }

  #forget(): void {
    for (const { name } of this.#prepared.values()) this.#toClose.push(name);
    this.#prepared.clear();
  }

  async #run<T>(query: string, params: Params, options: QueryOptions | undefined, sync: boolean): Promise<Results<T>> {
    const results = await this._runExclusiveQuery(async () => {
      try {
        const { name, types } = this.#prepared.get(query) ?? (await this.#prepare(query));
        const values = params.map((value, index) => {
          if (value === null || value === undefined) return null;
          const type = types[index];
          const serializer = type === undefined ? undefined : this.serializers[type];
          // As PGlite's own query does: a value of a type without a serializer goes as its text.
          // eslint-disable-next-line @typescript-eslint/no-base-to-string -- drizzle sends primitives and strings here
          return serializer ? serializer(value) : String(value);
        });
        // Closing a statement never fails (not even an unknown one), so the forgotten ones go first, once.
        const closes = this.#toClose.map((old) => protocol.serialize.close({ type: 'S', name: old }));
        this.#toClose = [];
        const message = concat([
          ...closes,
          protocol.serialize.bind({ statement: name, values }),
          protocol.serialize.describe({ type: 'P' }),
          protocol.serialize.execute({}),
          protocol.serialize.sync(),
        ]);
        return await this.execProtocolStream(message, { syncToFs: false });
      } catch (error) {
        throw decorate(error, query, params, options);
      }
    });
    if (sync) await this.syncToFs();
    // PGlite's parseResults copies all of its default parsers into a new object whenever options carry parsers
    // (drizzle's always do): a few hundred entries per statement. A prototype chain answers the same lookups.
    if (!options?.parsers) return parse.parseResults(results, this.parsers, options)[0] as Results<T>;
    const parsers = Object.assign(Object.create(this.parsers) as PGlite['parsers'], options.parsers);
    return parse.parseResults(results, parsers, { ...options, parsers: undefined })[0] as Results<T>;
  }

  /** Prepares a statement text under a new name and learns its parameter types. */
  async #prepare(query: string): Promise<Prepared> {
    if (this.#prepared.size >= MAX_PREPARED) this.#forget();
    const name = `batched_${this.#nextName++}`;
    const messages = await this.execProtocolStream(
      concat([
        protocol.serialize.parse({ name, text: query }),
        protocol.serialize.describe({ type: 'S', name }),
        protocol.serialize.sync(),
      ]),
      { syncToFs: false },
    );
    const prepared = { name, types: parse.parseDescribeStatementResults(messages) };
    this.#prepared.set(query, prepared);
    return prepared;
  }
}
