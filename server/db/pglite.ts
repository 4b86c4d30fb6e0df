/**
 * PGlite that runs a statement in one call into its WebAssembly backend instead of six.
 *
 * PGlite's query() sends the extended-protocol messages of one statement (Parse, Describe statement, Bind,
 * Describe portal, Execute, Sync) as six separate calls, each with its own trip through the WebAssembly
 * boundary and the protocol wrappers; for the short statements of this server those trips cost more than the
 * statement itself (about 0.6 ms against 0.2 ms). Postgres accepts the same messages back to back, so this
 * class sends Parse, Bind, Describe portal, Execute and Sync as one buffer. Only the parameter types, which
 * PGlite learns from Describe statement to choose a serializer for each value, need an earlier answer: they are
 * asked once per statement text and remembered (they depend on the schema alone, and only this process can
 * change the schema of an embedded database; any statement that is not plain DML clears them).
 *
 * Everything else is PGlite's own: the same serializers and parsers, the same result parser, the same error
 * objects, the same locks (a statement outside a transaction waits for any open transaction), and the same sync
 * to the file system after a statement that is not inside a transaction. A query with options this path does
 * not handle (a blob, custom serializers or parameter types, a notice callback) goes to PGlite's own query().
 */
import { parse, PGlite, protocol, type QueryOptions, type Results, type Transaction } from '@electric-sql/pglite';

/** Statements whose parameter types are remembered; anything else (DDL, TRUNCATE, SET...) takes PGlite's path. */
const DML = /^\s*(select|insert|update|delete|with)\b/i;
/** A bound on remembered statement texts (they are few: one per query shape). */
const MAX_REMEMBERED = 1_000;

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

export class BatchedPGlite extends PGlite {
  readonly #paramTypes = new Map<string, readonly number[]>();

  override async query<T>(query: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> {
    if (!this.#fits(query, options)) {
      this.#paramTypes.clear();
      return super.query<T>(query, params, options);
    }
    await this._checkReady();
    return this._runExclusiveTransaction(() => this.#run<T>(query, params, options, true));
  }

  override async transaction<T>(callback: (tx: Transaction) => Promise<T>): Promise<T> {
    return super.transaction((tx) => callback(this.#batched(tx)));
  }

  /** The transaction handle with query() on the batched path (no sync: PGlite syncs after the transaction). */
  #batched(tx: Transaction): Transaction {
    const query = async <T>(text: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> => {
      if (tx.closed) throw new Error('Transaction is closed');
      if (!this.#fits(text, options)) {
        this.#paramTypes.clear();
        return tx.query<T>(text, params, options);
      }
      return this.#run<T>(text, params, options, false);
    };
    return {
      query,
      sql: <T>(strings: TemplateStringsArray, ...params: unknown[]) => tx.sql<T>(strings, ...params),
      exec: (text: string, options?: QueryOptions) => tx.exec(text, options),
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

  async #run<T>(query: string, params: Params, options: QueryOptions | undefined, sync: boolean): Promise<Results<T>> {
    const results = await this._runExclusiveQuery(async () => {
      try {
        const types = this.#paramTypes.get(query) ?? (await this.#describe(query));
        const values = params.map((value, index) => {
          if (value === null || value === undefined) return null;
          const type = types[index];
          const serializer = type === undefined ? undefined : this.serializers[type];
          return serializer ? serializer(value) : String(value);
        });
        const message = concat([
          protocol.serialize.parse({ text: query }),
          protocol.serialize.bind({ values }),
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

  /** Asks for the parameter types of a statement text, and remembers them. */
  async #describe(query: string): Promise<readonly number[]> {
    const messages = await this.execProtocolStream(
      concat([protocol.serialize.parse({ text: query }), protocol.serialize.describe({ type: 'S' }), protocol.serialize.sync()]),
      { syncToFs: false },
    );
    const types = parse.parseDescribeStatementResults(messages);
    if (this.#paramTypes.size >= MAX_REMEMBERED) this.#paramTypes.clear();
    this.#paramTypes.set(query, types);
    return types;
  }
}
