/**
 * Migration 0002 moves the balances that were columns on members into the ledger: one issuance transfer per member
 * and asset, the member account holding the balance, the books at zero. Run on every database target from an
 * empty database, applying the migration files in order by hand up to 0002. Then the ledger engine's migration
 * (ADR 0021) replaces an engine of other signatures whole.
 */
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { queryRows } from '../../server/db/client';
import { expectBooksBalanced } from './support/testLedger';
import { applyMigration as apply, describeOnEmptyDatabases, migrationTags } from './support/migrations';

/** The migrations after `tag`, in the order drizzle applies them. */
function laterMigrations(tag: string): string[] {
  const tags = migrationTags();
  return tags.slice(tags.indexOf(tag) + 1);
}

describeOnEmptyDatabases('migration 0002', (opened) => {
  it('moves members’ balances into the ledger as issuance transfers', async () => {
    const database = opened();
    await apply(database, '0000_init.sql');
    await apply(database, '0001_team_counters.sql');
    await database.db.execute(
      sql.raw(`INSERT INTO members (address, invite_code, credit_balance, wpos_balance) VALUES
        ('0x${'a'.repeat(40)}', 'AAAA0001', 12500000, 3), ('0x${'b'.repeat(40)}', 'BBBB0002', 0, 0), ('0x${'c'.repeat(40)}', 'CCCC0003', 0, 7)`),
    );
    await apply(database, '0002_ledger.sql');
    // Every later migration in order, so the books are checked against today's schema (0006 keeps member legs only).
    for (const tag of laterMigrations('0002_ledger')) await apply(database, `${tag}.sql`);
    const big = z.union([z.string(), z.number(), z.bigint()]).transform((value) => BigInt(value));
    const accounts = await queryRows(
      database.db,
      sql`SELECT m.invite_code AS code, a.asset, a.balance, a.version FROM ledger_accounts a JOIN members m ON m.id = a.member_id ORDER BY 1, 2`,
      z.object({ code: z.string(), asset: z.string(), balance: big, version: big }),
    );
    expect(accounts).toEqual([
      { code: 'AAAA0001', asset: 'CREDIT', balance: 12_500_000n, version: 1n },
      { code: 'AAAA0001', asset: 'WPOS', balance: 3n, version: 1n },
      { code: 'CCCC0003', asset: 'WPOS', balance: 7n, version: 1n },
    ]);
    const [system] = await queryRows(database.db, sql`SELECT count(*)::int AS n FROM ledger_accounts WHERE member_id IS NULL`, z.object({ n: z.number() }));
    // 0002's twelve, 0014's four of credit on chain and 0031's two write-off accounts.
    expect(system?.n).toBe(18);
    const columns = await queryRows(
      database.db,
      sql`SELECT column_name AS name FROM information_schema.columns WHERE table_name = 'members' AND column_name LIKE '%balance%'`,
      z.object({ name: z.string() }),
    );
    expect(columns).toEqual([]);
    const [entries] = await queryRows(database.db, sql`SELECT count(*)::int AS n FROM ledger_entries`, z.object({ n: z.number() }));
    expect(entries?.n).toBe(3);
    await expectBooksBalanced(database.db);
  });

  it('installs the ledger engine by migration, replacing an engine of other signatures whole', async () => {
    const database = opened();
    // What an engine that started applies before ADR 0021 could leave: a function of a signature the engine no
    // longer has. The latest engine migration, applied again, leaves one function of each name.
    await database.db.execute(sql.raw(`CREATE FUNCTION ledger_post(p_items jsonb) RETURNS integer LANGUAGE sql AS $$ SELECT 1 $$`));
    const engineTag = laterMigrations('0002_ledger').filter((tag) => /_ledger_engine_\d+$/.test(tag)).at(-1);
    if (!engineTag) throw new Error('no engine migration');
    await apply(database, `${engineTag}.sql`);
    const functions = await queryRows(
      database.db,
      sql`SELECT proname AS name, count(*)::int AS n FROM pg_proc WHERE proname LIKE 'ledger\_%' GROUP BY 1 ORDER BY 1`,
      z.object({ name: z.string(), n: z.number() }),
    );
    expect(functions.map((row) => row.name)).toContain('ledger_post');
    expect(functions.filter((row) => row.n !== 1)).toEqual([]);
    const [posted] = await queryRows(
      database.db,
      sql`SELECT code FROM ledger_post('[{"ord": 0, "now": "2026-11-26T00:00:00Z"}]', '[]', '{}', '{}', '[]', '[]', NULL)`,
      z.object({ code: z.number() }),
    );
    expect(posted?.code).toBe(0);
  });
});
