import { describe, expect, it } from 'vitest';
import { engineFunctions, engineMigration, expandRecordTables } from './engineSql';
import { recordTables } from './recordTables';
import { engineMigrationState } from '../../scripts/engine';

const template = `CREATE OR REPLACE FUNCTION f() RETURNS void LANGUAGE sql AS $$
  WITH a AS (SELECT 1)
  -- BEGIN RECORD TABLE
  ), record___table__ AS (INSERT INTO __table__ SELECT '__table__'
  -- END RECORD TABLE
  ) SELECT 1
$$`;

describe('the engine migration', () => {
  it('behavior: repeats the record template once per record table, markers left out', () => {
    expect(expandRecordTables(template, ['orders', 'top_ups'])).toMatchInlineSnapshot(`
      "CREATE OR REPLACE FUNCTION f() RETURNS void LANGUAGE sql AS $$
        WITH a AS (SELECT 1)
        ), record_orders AS (INSERT INTO orders SELECT 'orders'
        ), record_top_ups AS (INSERT INTO top_ups SELECT 'top_ups'
        ) SELECT 1
      $$"
    `);
  });

  it('behavior: refuses a table name that is not a plain SQL name, and a text without one template', () => {
    expect(() => expandRecordTables(template, ['orders; DROP TABLE members'])).toThrow('not a plain table name');
    expect(() => expandRecordTables('SELECT 1', ['orders'])).toThrow('BEGIN RECORD TABLE');
  });

  it('behavior: names every registered table in the engine, and no business table outside the template', () => {
    const definitions = expandRecordTables();
    for (const table of Object.keys(recordTables)) expect(definitions).toContain(`INSERT INTO ${table} OVERRIDING SYSTEM VALUE`);
    // Its code, comments left out (they may say "orders" in English).
    const bare = expandRecordTables(undefined, []).replace(/--.*$/gm, '');
    for (const table of Object.keys(recordTables)) expect(bare).not.toMatch(new RegExp(`\\b${table}\\b`));
  });

  it('behavior: drops the functions of earlier engine migrations that the engine no longer defines', () => {
    const earlier = 'CREATE OR REPLACE FUNCTION ledger_gone(p integer) RETURNS integer LANGUAGE sql AS $$ SELECT p $$';
    const migration = engineMigration([earlier]);
    expect(migration).toContain(`'ledger_gone'`);
    expect(engineFunctions(migration)).toEqual(engineFunctions(expandRecordTables()));
    expect(engineFunctions(migration)).toContain('ledger_post');
  });

  it('behavior: the latest engine migration installs engine.sql as it is (npm run engine:check)', () => {
    const state = engineMigrationState();
    expect(state.latest).toMatch(/_ledger_engine_\d+$/);
    expect(state.current).toBe(true);
  });
});
