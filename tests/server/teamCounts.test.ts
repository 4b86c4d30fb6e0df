/**
 * Team counts (team_counts, folded in batches from tree_joins) and tree positions (tree_depth,
 * near_ancestors, checkpoint_ancestors) always equal a walk of the tree, on every database target: what reads see at
 * any moment (kept plus waiting), the kept columns once folded, and tree_is_below for every pair of members.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { migrationsFolder, queryRows, type Db } from '../../server/db/client';
import { members, teamCounts, treeJoins } from '../../server/db/schema';
import { randomInviteCode } from '../../server/members/inviteCode';
import { exactDirectCount, exactTeamSize, foldTeamCounts, startTeamCountFold } from '../../server/members/teamCounts';
import { listTeam } from '../../server/members/team';
import { bindRecommender, TREE_NEAR } from '../../server/members/tree';
import { describeWithDatabases } from './support/harness';

const countsRow = z.object({ id: z.number(), teamSize: z.number(), directCount: z.number() });

/** Every member's counts as reads see them: kept plus the binds still waiting. */
async function readCounts(db: Db) {
  return queryRows(
    db,
    sql`SELECT m.id, ${exactTeamSize('m')} AS "teamSize", ${exactDirectCount('m')} AS "directCount" FROM ${members} m ORDER BY m.id`,
    countsRow,
  );
}

/** Every member's kept counts (the columns alone). */
async function keptCounts(db: Db) {
  return queryRows(
    db,
    sql`SELECT m.id, coalesce(c.team_size, 0) AS "teamSize", coalesce(c.direct_count, 0) AS "directCount"
        FROM ${members} m LEFT JOIN ${teamCounts} c ON c.member_id = m.id ORDER BY m.id`,
    countsRow,
  );
}

async function waitingBinds(db: Db): Promise<number> {
  return (await db.select().from(treeJoins)).length;
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

const pairRow = z.object({ ancestorId: z.number(), memberId: z.number(), depth: z.number() });

/** Every (ancestor, member, levels between) by walking up from each member. */
async function walkedPairs(db: Db) {
  return queryRows(
    db,
    sql`WITH RECURSIVE up(member_id, ancestor_id, depth) AS (
          SELECT id, recommender_id, 1 FROM ${members} WHERE recommender_id IS NOT NULL
          UNION ALL
          SELECT up.member_id, m.recommender_id, up.depth + 1 FROM up JOIN ${members} m ON m.id = up.ancestor_id
          WHERE m.recommender_id IS NOT NULL
        )
        SELECT ancestor_id AS "ancestorId", member_id AS "memberId", depth FROM up ORDER BY ancestor_id, member_id`,
    pairRow,
  );
}

/** Every pair the kept positions place one below the other (tree_is_below over all pairs), with their depth gap. */
async function keptPairs(db: Db) {
  return queryRows(
    db,
    sql`SELECT a.id AS "ancestorId", m.id AS "memberId", m.tree_depth - a.tree_depth AS depth
        FROM ${members} a JOIN ${members} m ON tree_is_below(a.id, a.tree_depth, m.tree_depth, m.near_ancestors, m.checkpoint_ancestors)
        ORDER BY a.id, m.id`,
    pairRow,
  );
}

/** Every member's team page (its direct members with their counts, as listTeam reads them) equals the walk. */
async function expectTeamPagesOfTheTree(db: Db) {
  const walked = new Map((await walkedCounts(db)).map((row) => [row.id, row]));
  const rows = await queryRows(
    db,
    sql`SELECT m.id, m.address, m.recommender_id AS "recommenderId" FROM ${members} m WHERE m.recommender_id IS NOT NULL ORDER BY m.id`,
    z.object({ id: z.number(), address: z.string(), recommenderId: z.number() }),
  );
  for (const parent of new Set(rows.map((row) => row.recommenderId))) {
    const children = rows.filter((row) => row.recommenderId === parent);
    const page = await listTeam(db, parent, { page: 1, pageSize: 100 });
    expect(page.total).toBe(children.length);
    expect(page.list.map((m) => [m.address, m.teamSize, m.directCount])).toEqual(
      children.map((child) => [child.address, walked.get(child.id)?.teamSize, walked.get(child.id)?.directCount]),
    );
  }
}

/** Reads equal the walk now; once folded, so do the kept columns, and nothing waits. */
async function expectCountsOfTheTree(db: Db) {
  const walked = await walkedCounts(db);
  expect(await readCounts(db)).toEqual(walked);
  await db.transaction((tx) => foldTeamCounts(tx));
  expect(await waitingBinds(db)).toBe(0);
  expect(await keptCounts(db)).toEqual(walked);
  expect(await readCounts(db)).toEqual(walked);
  return walked;
}

/** A migration's last statement (its backfill), checked to be the one meant. */
function migrationStatement(file: string, starts: string): string {
  const text = readFileSync(path.join(migrationsFolder, file), 'utf8');
  const statements = text.split('--> statement-breakpoint');
  const statement = statements.find((candidate) => candidate.includes(starts)) ?? '';
  expect(statement).toContain(starts);
  return statement;
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

  it('equal a walk of the tree after every kind of bind, before and after the fold', async () => {
    await growTree();
    expect(await waitingBinds(ctx.db)).toBeGreaterThan(0);
    const walked = await expectCountsOfTheTree(ctx.db);
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
    expect(await keptPairs(ctx.db)).toEqual(await walkedPairs(ctx.db));
    const walked = await expectCountsOfTheTree(ctx.db);
    expect(walked[0]).toMatchObject({ teamSize: 60, directCount: 4 });
  });

  it('equal a walk while folds run between binds of a deep chain and of a subtree that joins it', async () => {
    // A chain deeper than two checkpoints, built one bind at a time, and a folded count in the middle of it.
    const chainLength = 2 * TREE_NEAR + 20;
    const chain: { id: number; code: string }[] = [];
    let above = 'DEMO2026';
    for (let n = 1; n <= chainLength; n++) {
      const self = await member(n);
      expect(await bind(self.id, above)).toBe('bound');
      if (n === TREE_NEAR) await ctx.db.transaction((tx) => foldTeamCounts(tx));
      chain.push(self);
      above = self.code;
    }
    // An unbound subtree of 30 (a small chain with a branch), which then joins the chain's last member.
    const top = await member(1000);
    let parent = top;
    for (let n = 1001; n < 1030; n++) {
      const self = await member(n);
      expect(await bind(self.id, (n % 3 === 0 ? top : parent).code)).toBe('bound');
      parent = self;
    }
    const deepest = chain.at(-1);
    if (!deepest) throw new Error('no chain');
    expect(await bind(top.id, deepest.code)).toBe('bound');
    expect(await keptPairs(ctx.db)).toEqual(await walkedPairs(ctx.db));
    const walked = await expectCountsOfTheTree(ctx.db);
    expect(walked[0]).toMatchObject({ teamSize: chainLength + 30, directCount: 1 });
  });

  it('equal a walk after one fold of a deep branching tree: many inviters sharing bands above their nearest', async () => {
    // 320 members, each below one of the three joined just before it: about 160 levels, with branches at every level.
    const joined: { id: number; code: string }[] = [];
    let seedValue = 7;
    const next = () => (seedValue = (seedValue * 48_271) % 2_147_483_647);
    for (let n = 1; n <= 320; n++) {
      const self = await member(n);
      const parent = joined.length === 0 ? 'DEMO2026' : (joined[Math.max(0, joined.length - 1 - (next() % 3))]?.code ?? '');
      expect(await bind(self.id, parent)).toBe('bound');
      joined.push(self);
    }
    expect(await waitingBinds(ctx.db)).toBe(320);
    expect(await keptPairs(ctx.db)).toEqual(await walkedPairs(ctx.db));
    const depth = Math.max(...(await walkedPairs(ctx.db)).map((pair) => pair.depth));
    expect(depth).toBeGreaterThan(2 * TREE_NEAR);
    // Each team page's counts, found for the page at once, equal the walk before any fold.
    await expectTeamPagesOfTheTree(ctx.db);
    await expectCountsOfTheTree(ctx.db);
    await expectTeamPagesOfTheTree(ctx.db);
  });

  it('refuse a cycle across checkpoints: a chain top binding below its own deep member', async () => {
    const top = await member(1);
    let below = top;
    for (let n = 2; n <= TREE_NEAR + 10; n++) {
      const self = await member(n);
      expect(await bind(self.id, below.code)).toBe('bound');
      below = self;
    }
    expect(await bind(top.id, below.code)).toBe('cycle');
    expect(await keptPairs(ctx.db)).toEqual(await walkedPairs(ctx.db));
  });

  it('are folded by the timer of every instance, which stops when asked', async () => {
    await growTree();
    const errors: unknown[] = [];
    const stop = startTeamCountFold(ctx.db, (error) => errors.push(error));
    try {
      const deadline = Date.now() + 10_000;
      while ((await waitingBinds(ctx.db)) > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      await stop();
    }
    expect(errors).toEqual([]);
    expect(await waitingBinds(ctx.db)).toBe(0);
    expect(await keptCounts(ctx.db)).toEqual(await walkedCounts(ctx.db));
  });

  it('are placed for existing members by migration 0033', async () => {
    await growTree();
    const pairs = await walkedPairs(ctx.db);
    await ctx.db.update(members).set({ treeDepth: 0, nearAncestors: [], checkpointAncestors: [] });
    await ctx.db.execute(sql.raw(migrationStatement('0033_tree_positions.sql', 'UPDATE members m SET tree_depth')));
    expect(await keptPairs(ctx.db)).toEqual(pairs);
  });
});
