import { sql } from 'drizzle-orm';
import { openDatabase } from './server/db/client';
import { seed } from './server/seed/seed';
import { members } from './server/db/schema';
import { addChain } from './bench/treeSeed';
import { randomAddress } from './tests/server/support/bulkTeam';
import { randomInviteCode } from './server/members/inviteCode';
const database = await openDatabase({ url: process.env.DATABASE_URL, dataDir: process.env.DATABASE_URL ? undefined : '/tmp/bindprof-data2' });
await database.migrate();
const db = database.db;
await seed(db);
const [root] = await db.select({ id: members.id }).from(members).where(sql`invite_code = 'DEMO2026'`);
const chain = await addChain(db, root!.id, 5000, 'PY');
const inviter = chain[0]!;
const ids: number[] = [];
for (let i = 0; i < 200; i++) {
  const [row] = await db.insert(members).values({ address: randomAddress(), inviteCode: randomInviteCode() }).returning({ id: members.id });
  ids.push(row!.id);
}
const steps: Record<string, number> = {};
const time = async (name: string, f: () => Promise<unknown>) => { const t = performance.now(); await f(); steps[name] = (steps[name] ?? 0) + performance.now() - t; };
for (const id of ids) {
  await db.transaction(async (tx) => {
    await time('findInviter', () => tx.execute(sql`SELECT id FROM members WHERE invite_code = ${inviter.inviteCode}`));
    await time('hasDownline', () => tx.execute(sql`SELECT EXISTS (SELECT 1 FROM members WHERE recommender_id = ${id}::int)`));
    await time('lock', () => tx.execute(sql`SELECT pg_advisory_xact_lock_shared(4361000002)`));
    await time('lockRows', async () => { await tx.execute(sql`SELECT recommender_id FROM members WHERE id = ${id}::int FOR UPDATE`); await tx.execute(sql`SELECT 1 FROM members WHERE id = ${inviter.id}::int FOR KEY SHARE`); });
    await time('hasDownline2', () => tx.execute(sql`SELECT EXISTS (SELECT 1 FROM members WHERE recommender_id = ${id}::int)`));
    await time('update', () => tx.execute(sql`UPDATE members SET recommender_id = ${inviter.id} WHERE id = ${id} AND recommender_id IS NULL RETURNING id`));
    await time('place', () => tx.execute(sql`WITH RECURSIVE placed(id, depth, near, checkpoints) AS (
          SELECT ${id}::int, i.tree_depth + 1, (ARRAY[i.id] || i.near_ancestors)[1:64],
                 i.checkpoint_ancestors || CASE WHEN i.tree_depth % 64 = 0 THEN ARRAY[i.id] ELSE '{}'::int[] END
          FROM members i WHERE i.id = ${inviter.id}::int
          UNION ALL
          SELECT c.id, p.depth + 1, (ARRAY[p.id] || p.near)[1:64],
                 p.checkpoints || CASE WHEN p.depth % 64 = 0 THEN ARRAY[p.id] ELSE '{}'::int[] END
          FROM placed p JOIN members c ON c.recommender_id = p.id
        )
        UPDATE members m SET tree_depth = p.depth, near_ancestors = p.near, checkpoint_ancestors = p.checkpoints
        FROM placed p WHERE m.id = p.id`));
    await time('queue', () => tx.execute(sql`INSERT INTO tree_joins (member_id, inviter_id, joined) VALUES (${id}, ${inviter.id}, 1)`));
  });
}
for (const [k, v] of Object.entries(steps)) console.log(k, (v / ids.length).toFixed(3), 'ms');
console.log((await db.execute(sql`EXPLAIN ANALYZE SELECT EXISTS (SELECT 1 FROM members WHERE recommender_id = 5::int)`)).rows ?? '');
await database.close();
