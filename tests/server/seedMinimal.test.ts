/**
 * SEED=minimal (server/seed/seed.ts): a real deployment's first start seeds the app config, the ledger's system
 * accounts and its own root inviter, nothing of the demo (no notices, about page, bots, share pools, goods, no
 * DEMO2026); a second start with another address or code changes nothing. On a fresh in-memory database of its own.
 */
import { sql } from 'drizzle-orm';
import { getAddress } from 'viem';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openDatabase, queryRows, type Database } from '../../server/db/client';
import { seed } from '../../server/seed/seed';

const counts = z.object({ notices: z.number(), about: z.number(), bots: z.number(), pools: z.number(), goods: z.number(), config: z.number(), accounts: z.number() });
const memberRow = z.object({ address: z.string(), inviteCode: z.string(), isRoot: z.boolean() });

describe('the minimal seed', () => {
  let database: Database | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it('adds the app config, the system accounts and the given root inviter only, once', async () => {
    database = await openDatabase();
    await database.migrate();
    const root = '0x2a3f7cc1d0a37e3e2b63e91c4c8b1d6f6f0c1a2b';
    await seed(database.db, { minimal: { rootInviter: root, inviteCode: 'root2027' } });
    await seed(database.db, { minimal: { rootInviter: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8', inviteCode: 'OTHER1' } });
    const [seeded] = await queryRows(
      database.db,
      sql`SELECT (SELECT count(*)::int FROM notices) AS notices, (SELECT count(*)::int FROM about) AS about, (SELECT count(*)::int FROM bots) AS bots,
            (SELECT count(*)::int FROM share_pools) AS pools, (SELECT count(*)::int FROM goods) AS goods, (SELECT count(*)::int FROM app_config) AS config,
            (SELECT count(*)::int FROM ledger_accounts WHERE member_id IS NULL) AS accounts`,
      counts,
    );
    expect(seeded).toMatchObject({ notices: 0, about: 0, bots: 0, pools: 0, goods: 0, config: 1 });
    expect(seeded?.accounts).toBeGreaterThan(0);
    expect(await queryRows(database.db, sql`SELECT address, invite_code AS "inviteCode", is_root AS "isRoot" FROM members`, memberRow)).toEqual([
      { address: getAddress(root), inviteCode: 'ROOT2027', isRoot: true },
    ]);
  });
});
