/**
 * Team counts kept in members.team_size and direct_count (bindRecommender, migration 0001) and the closure table
 * member_tree (bindRecommender, migration 0003) always equal a walk of the tree, on every database target.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { migrationsFolder, queryRows, type Db } from '../../server/db/client';
import { members, memberTree } from '../../server/db/schema';
import { randomInviteCode } from '../../server/members/inviteCode';
import { bindRecommender } from '../../server/members/tree';
import { describeWithDatabases } from './support/harness';

const countsRow = z.object({ id: z.number(), teamSize: z.number(), directCount: z.number() });

/** Every member's kept counts. */
async function keptCounts(db: Db) {
  return queryRows(db, sql`SELECT id, team_size AS "teamSize", direct_count AS "directCount" FROM ${members} ORDER BY id`, countsRow);
}

/** Every member's counts by walking the tree, as meInfo computed them before the counts were kept. */
async function walkedCounts(db: Db) {
  return queryRows(
    db,
    sql`WITH RECURSIVE below(ancestor_id, member_id) AS (
          SELECT recommender_id, id FROM ${members} WHERE recommender_id IS NOT NULL
          UNION
          SELECT m.recommender_id, b.member_id FROM below b JOIN ${members} m ON m.id = b.ancestor_id WHERE m.recommender_id IS NOT NULL
        )
        SELECT m.id,
          (SELECT count(*)::int FROM below b WHERE b.ancestor_id = m.id) AS "teamSize",
          (SELECT count(*)::int FROM ${members} d WHERE d.recommender_id = m.id) AS "directCount"
        FROM ${members} m ORDER BY m.id`,
    countsRow,
  );
}

/** The backfill that migration 0001 runs after adding the columns (its last statement). */
function backfillStatement(): string {
  const text = readFileSync(path.join(migrationsFolder, '0001_team_counters.sql'), 'utf8');
  const statement = text.split('--> statement-breakpoint').at(-1) ?? '';
  expect(statement).toContain('UPDATE "members" SET "team_size"');
  return statement;
}

const treeRow = z.object({ ancestorId: z.number(), memberId: z.number(), depth: z.number() });

/** The kept closure table (member_tree, bindRecommender, migration 0003). */
async function keptTree(db: Db) {
  return queryRows(
    db,
    sql`SELECT ancestor_id AS "ancestorId", member_id AS "memberId", depth FROM ${memberTree} ORDER BY ancestor_id, member_id`,
    treeRow,
  );
}

/** Every (ancestor, member, depth) by walking up from each member. */
async function walkedTree(db: Db) {
  return queryRows(
    db,
    sql`WITH RECURSIVE up(member_id, ancestor_id, depth) AS (
          SELECT id, recommender_id, 1 FROM ${members} WHERE recommender_id IS NOT NULL
          UNION ALL
          SELECT up.member_id, m.recommender_id, up.depth + 1 FROM up JOIN ${members} m ON m.id = up.ancestor_id
          WHERE m.recommender_id IS NOT NULL
        )
        SELECT ancestor_id AS "ancestorId", member_id AS "memberId", depth FROM up ORDER BY ancestor_id, member_id`,
    treeRow,
  );
}

describeWithDatabases('team counts', (ctx) => {
  async function member(n: number): Promise<{ id: number; code: string }> {
    const address = `0x${n.toString(16).padStart(40, '0')}`;
    const [row] = await ctx.db
      .insert(members)
      .values({ address, inviteCode: randomInviteCode(), createdAt: ctx.clock.now() })
      .returning({ id: members.id, code: members.inviteCode });
    if (!row) throw new Error('member not created');
    return row;
  }

  async function bind(memberId: number, inviteCode: string) {
    return ctx.db.transaction((tx) => bindRecommender(tx, memberId, inviteCode));
  }

  /**
   * A tree of 40 members under the seeded root, bound in an order where members that already have a downline
   * bind later (their whole team joins the new ancestors), with refused binds (cycles, already bound) in between.
   */
  async function growTree(): Promise<void> {
    const people = [];
    for (let n = 1; n <= 40; n++) people.push(await member(n));
    // First, small unbound subtrees: each of 2..40 binds to a member with a lower number that is not a root of
    // the chain yet (n → floor(n / 2) for n ≥ 4; 2 and 3 stay unbound for now).
    for (let n = 4; n <= 40; n++) {
      const parent = people[Math.floor(n / 2) - 1];
      const self = people[n - 1];
      if (!parent || !self) throw new Error('no such member');
      expect(await bind(self.id, parent.code)).toBe('bound');
    }
    const [one, two, three] = people;
    if (!one || !two || !three) throw new Error('no such member');
    // A cycle and a second bind are refused and change nothing.
    expect(await bind(two.id, people[9]?.code ?? '')).toBe('cycle');
    expect(await bind(people[9]?.id ?? 0, one.code)).toBe('alreadyBound');
    // Then the subtree tops join: 2 and 3 under 1, and 1 under the root.
    expect(await bind(two.id, one.code)).toBe('bound');
    expect(await bind(three.id, one.code)).toBe('bound');
    expect(await bind(one.id, 'DEMO2026')).toBe('bound');
  }

  it('equal a walk of the tree after every kind of bind', async () => {
    await growTree();
    const walked = await walkedCounts(ctx.db);
    expect(await keptCounts(ctx.db)).toEqual(walked);
    // The root has everyone; a leaf has nobody.
    expect(walked[0]).toMatchObject({ teamSize: 40, directCount: 1 });
    expect(walked.at(-1)).toMatchObject({ teamSize: 0, directCount: 0 });
  });

  it('equal a walk of the tree and its closure after a rush of 60 binds at once, parents binding while their team does', async () => {
    const people: { id: number; code: string }[] = [];
    for (let n = 1; n <= 60; n++) people.push(await member(n));
    // Everyone binds at once: 1..4 under the seeded root, each other n under floor(n / 4), so most parents are still
    // binding, or not bound yet, while their own team binds to them (on PostgreSQL, transactions of the pool at once).
    const outcomes = await Promise.all(
      people.map((self, index) => {
        const n = index + 1;
        const parent = n <= 4 ? 'DEMO2026' : (people[Math.floor(n / 4) - 1]?.code ?? '');
        return bind(self.id, parent);
      }),
    );
    expect(outcomes.every((outcome) => outcome === 'bound')).toBe(true);
    const walked = await walkedCounts(ctx.db);
    expect(await keptCounts(ctx.db)).toEqual(walked);
    expect(walked[0]).toMatchObject({ teamSize: 60, directCount: 4 });
    expect(await keptTree(ctx.db)).toEqual(await walkedTree(ctx.db));
  });

  it('keep member_tree equal to a walk of the tree after every kind of bind', async () => {
    await growTree();
    const walked = await walkedTree(ctx.db);
    expect(await keptTree(ctx.db)).toEqual(walked);
    // One row per member and each member above it; the deepest of the 40 (n = 32..40) are 6 below the root.
    expect(walked.filter((row) => row.ancestorId === 1)).toHaveLength(40);
    expect(Math.max(...walked.map((row) => row.depth))).toBe(6);
  });

  it('are computed for existing members by migration 0001', async () => {
    await growTree();
    const walked = await walkedCounts(ctx.db);
    await ctx.db.update(members).set({ teamSize: 0, directCount: 0 });
    await ctx.db.execute(sql.raw(backfillStatement()));
    expect(await keptCounts(ctx.db)).toEqual(walked);
  });
});
