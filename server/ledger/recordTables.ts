/**
 * The business tables the ledger engine writes a flow's record into (docs/decisions/0021-generic-records-and-engine-migrations.md).
 * The engine's SQL (engine.sql) names none of them: `npm run engine` repeats its one record template for each table
 * here and writes the result into the engine's migration. A flow with a new table adds one line here and runs
 * `npm run engine`; it adds no SQL.
 */

/** Where a record's `id` comes from, if the table has one. */
export interface RecordTableSpec {
  /**
   * The sequence that numbers the table's rows, drawn in request order by the engine. A request that reserves a
   * pending transfer gives its record that transfer's id instead (a withdrawal's id is its pending transfer's).
   * Neither: the row carries its own key (no `id` is added).
   */
  idSequence?: string;
}

/** Every record table, by name as in the database. */
export const recordTables = {
  withdrawals: {},
  withdrawal_failures: {},
  share_pool_payouts: {},
  orders: { idSequence: 'orders_id_seq' },
  top_ups: {},
  top_up_releases: {},
  // An adjustment's id is its pending transfer's; its confirmation is keyed by it.
  ops_adjustments: {},
  ops_adjustment_confirmations: {},
} as const satisfies Record<string, RecordTableSpec>;

/** A business table the engine writes. */
export type RecordTable = keyof typeof recordTables;

/**
 * The id sequence of a record table, if its rows are numbered by one.
 *
 * @param table - a registered record table
 * @returns the sequence's name, or null
 * @example
 * recordIdSequence('orders'); // 'orders_id_seq'
 */
export function recordIdSequence(table: RecordTable): string | null {
  const spec: RecordTableSpec = recordTables[table];
  return spec.idSequence ?? null;
}
