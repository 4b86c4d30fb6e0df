/**
 * Migration 0018 keys top-ups by the log's position within its transaction. The rows of before it were keyed by the
 * log's index in its block, and their position cannot be known from the database: they keep that key as -1 - index
 * (server/chain/topUps.ts counts such a transaction as credited whole), and so do their releases. Run on every
 * database target, applying the migration files in order by hand.
 */
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { queryRows } from '../../server/db/client';
import { applyMigration, describeOnEmptyDatabases, migrationTags } from './support/migrations';

describeOnEmptyDatabases('migration 0018', (opened) => {
  it('keeps the block log index of the rows before it as -1 - index, releases too', async () => {
    const database = opened();
    const { db } = database;
    const tags = migrationTags();
    const at = tags.indexOf('0018_top_ups_keyed_by_transaction');
    for (const tag of tags.slice(0, at)) await applyMigration(database, tag);
    const hash = `0x${'ab'.repeat(32)}`;
    await db.execute(
      sql.raw(`INSERT INTO top_ups (chain_id, tx_hash, log_index, from_address, member_id, amount, block_number) VALUES
        (56, '${hash}', 0, '0x${'a'.repeat(40)}', NULL, 1000000, 10), (56, '${hash}', 5, '0x${'a'.repeat(40)}', NULL, 2000000, 10)`),
    );
    await db.execute(sql.raw(`INSERT INTO top_up_releases (chain_id, tx_hash, log_index, member_id) VALUES (56, '${hash}', 5, 1)`));
    for (const tag of tags.slice(at)) await applyMigration(database, tag);
    const rows = (table: string) =>
      queryRows(db, sql.raw(`SELECT log_position AS "logPosition" FROM ${table} ORDER BY log_position`), z.object({ logPosition: z.number() }));
    expect(await rows('top_ups')).toEqual([{ logPosition: -6 }, { logPosition: -1 }]);
    expect(await rows('top_up_releases')).toEqual([{ logPosition: -6 }]);
    const [row] = await queryRows(db, sql`SELECT block_hash AS "blockHash", reorged_at AS "reorgedAt" FROM top_ups LIMIT 1`, z.object({ blockHash: z.null(), reorgedAt: z.null() }));
    expect(row).toEqual({ blockHash: null, reorgedAt: null });
  });
});
