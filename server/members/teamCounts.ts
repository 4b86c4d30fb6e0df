/**
 * Team counts (team_counts: team_size, direct_count) kept by batch: a bind writes one row to tree_joins, the fold adds
 * a batch of them to every ancestor at once (one UPDATE per ancestor per batch, not per bind), and every read adds
 * the rows still waiting, so a count is exact at any moment (docs/decisions/0034-tree-counts-folded.md).
 */
import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { lockTransaction, queryRows, type Db } from '../db/client';
import { members, teamCounts, treeJoins } from '../db/schema';

/** The fold's transaction lock: one fold at a time over all instances, so two never update ancestors crosswise. */
const TEAM_COUNT_FOLD_LOCK = 4_361_000_010;

/** Most binds one fold adds: a rush folds in steps whose transactions stay short. */
const FOLD_BATCH = 5_000;

/**
 * How often each instance folds. A read never waits for it: it adds what is still waiting. A fold costs about the
 * depth of its deepest inviters (53 ms of PGlite for a batch 5,000 levels down), a read the binds waiting: at 500
 * joins a second, half a second of them.
 */
export const TEAM_COUNT_FOLD_EVERY_MS = 500;

/**
 * The team size of `member` (a table or alias of members in the enclosing query) exactly: the kept count plus the
 * binds still waiting below it (tree_waiting_at, migration 0033). The waiting rows are few (a fold every
 * TEAM_COUNT_FOLD_EVERY_MS) and each keeps its member's position, so none is joined to members: on PGlite, whose
 * planner has no statistics for the queue, a join to members was a scan of members at every read.
 *
 * @param member - the members row, as an alias name of the enclosing query
 * @returns an int expression
 * @example
 * sql`SELECT ${exactTeamSize('m')} FROM members m WHERE m.id = 1`;
 */
export function exactTeamSize(member: string): SQL {
  const m = sql.raw(`"${member}"`);
  return sql`(coalesce((SELECT tc.team_size FROM ${teamCounts} tc WHERE tc.member_id = ${m}.id), 0)
      + coalesce((SELECT w.joined FROM tree_waiting_at(${m}.tree_depth) w WHERE w.ancestor_id = ${m}.id), 0))`;
}

/**
 * The direct count of `member` exactly: the kept count plus the binds to it still waiting.
 *
 * @param member - the members row, as an alias name of the enclosing query
 * @returns an int expression
 * @example
 * sql`SELECT ${exactDirectCount('m')} FROM members m WHERE m.id = 1`;
 */
export function exactDirectCount(member: string): SQL {
  const m = sql.raw(`"${member}"`);
  return sql`(coalesce((SELECT tc.direct_count FROM ${teamCounts} tc WHERE tc.member_id = ${m}.id), 0)
      + (SELECT count(*)::int FROM ${treeJoins} j WHERE j.inviter_id = ${m}.id))`;
}

/**
 * Adds waiting binds to their ancestors' counts and deletes them, in the caller's transaction: each inviter gains
 * its direct members, it and every ancestor the members that joined below it. The ancestors of a batch are read from
 * the inviters' kept arrays (nearest, checkpoints and each checkpoint's nearest: the whole path, without a walk;
 * foldStatement), summed per ancestor, and each ancestor's row is written once.
 *
 * @param tx - a transaction; `wait` false returns at once when another fold holds the lock
 * @param options - wait for another instance's fold (a bind that needs exact kept counts) or skip
 * @returns how many binds were folded
 * @example
 * await db.transaction((tx) => foldTeamCounts(tx, { wait: false }));
 */
export async function foldTeamCounts(tx: Db, options: { wait: boolean } = { wait: true }): Promise<number> {
  if (options.wait) await lockTransaction(tx, TEAM_COUNT_FOLD_LOCK);
  else {
    const [row] = await queryRows(tx, sql`SELECT pg_try_advisory_xact_lock(${TEAM_COUNT_FOLD_LOCK}) AS "locked"`, z.object({ locked: z.boolean() }));
    if (!row?.locked) return 0;
  }
  let folded = 0;
  for (;;) {
    const [row] = await queryRows(tx, foldStatement(), z.object({ folded: z.number() }));
    const step = row?.folded ?? 0;
    folded += step;
    if (step < FOLD_BATCH) return folded;
  }
}

/**
 * One fold step. Every ancestor of an inviter at depth d is read from kept arrays, each exactly once: d-1 down to
 * d-TREE_NEAR from its nearest; every depth above from the nearest of its checkpoints (the checkpoint at depth c
 * keeps c-1 down to c-TREE_NEAR). A band wholly above the inviter's nearest is summed per checkpoint first and
 * read once for all the inviters below it, so a fold costs its inviters times 2 x TREE_NEAR, plus the bands they
 * share, not its inviters times their depth. The lookups are scalar subqueries by primary key, so the plan never
 * scans members, whatever its size. 64 below is TREE_NEAR.
 */
function foldStatement(): SQL {
  return sql`WITH taken AS (
      DELETE FROM ${treeJoins} WHERE id IN (SELECT id FROM ${treeJoins} ORDER BY id LIMIT ${FOLD_BATCH})
      RETURNING inviter_id, joined
    ), by_inviter AS (
      SELECT inviter_id AS id, sum(joined)::int AS joined, count(*)::int AS directs FROM taken GROUP BY inviter_id
    ), inviter AS (
      SELECT b.id, b.joined, p.depth, p.near, p.checkpoints
      FROM by_inviter b CROSS JOIN LATERAL (
        SELECT tree_depth AS depth, near_ancestors AS near, checkpoint_ancestors AS checkpoints FROM ${members} WHERE id = b.id OFFSET 0
      ) p
    ), near_gains AS (
      SELECT v.id AS ancestor, v.joined FROM inviter v
      UNION ALL
      SELECT a.id, v.joined FROM inviter v CROSS JOIN LATERAL unnest(v.near) a(id)
    ), checkpoints AS (
      SELECT v.joined, v.depth, c.id, (c.k - 1)::int * 64 AS at
      FROM inviter v CROSS JOIN LATERAL unnest(v.checkpoints) WITH ORDINALITY c(id, k)
      WHERE v.depth > 64 AND c.k >= 2
    ), whole_bands AS (
      SELECT id, sum(joined)::int AS joined FROM checkpoints WHERE at <= depth - 64 GROUP BY id
    ), band_gains AS (
      SELECT a.id AS ancestor, w.joined
      FROM whole_bands w CROSS JOIN LATERAL unnest((SELECT near_ancestors FROM ${members} WHERE id = w.id)) a(id)
      UNION ALL
      SELECT a.id, c.joined
      FROM checkpoints c CROSS JOIN LATERAL unnest((SELECT near_ancestors FROM ${members} WHERE id = c.id)[c.at - c.depth + 65:64]) a(id)
      WHERE c.at > c.depth - 64
    ), gains AS (
      SELECT ancestor AS id, sum(joined)::int AS joined FROM (SELECT * FROM near_gains UNION ALL SELECT * FROM band_gains) g GROUP BY ancestor
    ), kept AS (
      UPDATE ${teamCounts} tc SET team_size = tc.team_size + g.joined, direct_count = tc.direct_count + coalesce(d.directs, 0)
      FROM gains g LEFT JOIN by_inviter d ON d.id = g.id
      WHERE tc.member_id = g.id
      RETURNING tc.member_id
    ), added AS (
      INSERT INTO ${teamCounts} (member_id, team_size, direct_count)
      SELECT g.id, g.joined, coalesce(d.directs, 0) FROM gains g LEFT JOIN by_inviter d ON d.id = g.id
      WHERE g.id NOT IN (SELECT member_id FROM kept)
    )
    SELECT count(*)::int AS folded FROM taken`;
}

/**
 * Folds now and then on this instance, beside the payout timer: every TEAM_COUNT_FOLD_EVERY_MS, skipping a round
 * when nothing waits or another instance is folding. A failed round is logged and the next one tries again.
 *
 * @param db - database handle
 * @param onError - where a failed round is reported
 * @returns a function that stops the timer and waits for the round under way
 * @example
 * const stop = startTeamCountFold(db, (error) => log.error({ err: error }, 'team count fold failed'));
 */
export function startTeamCountFold(db: Db, onError: (error: unknown) => void): () => Promise<void> {
  let round: Promise<void> | undefined;
  const timer = setInterval(() => {
    if (round) return;
    round = foldWhenWaiting(db)
      .then(() => undefined, onError)
      .finally(() => {
        round = undefined;
      });
  }, TEAM_COUNT_FOLD_EVERY_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await round;
  };
}

/** One round: a cheap look first, so an idle server writes nothing. */
async function foldWhenWaiting(db: Db): Promise<number> {
  const [waiting] = await queryRows(db, sql`SELECT EXISTS (SELECT 1 FROM ${treeJoins}) AS "any"`, z.object({ any: z.boolean() }));
  if (!waiting?.any) return 0;
  return db.transaction((tx) => foldTeamCounts(tx, { wait: false }));
}
