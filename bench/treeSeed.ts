/**
 * Deep trees for the bench, written set-based (no HTTP, no bind per member): a chain below a member, each member
 * with its tree position (positionBelow, the same arrays a bind writes) and its counts, in statements of a few
 * thousand rows.
 */
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { queryRows, type Db } from '../server/db/client';
import { members, teamCounts } from '../server/db/schema';
import { positionBelow, type TreePosition } from '../server/members/tree';
import { randomAddress } from '../tests/server/support/bulkTeam';

/** Rows per INSERT: a chain member's arrays are at most 64 + depth / 64 ids. */
const ROWS_PER_STATEMENT = 1_000;

export interface ChainMember {
  id: number;
  address: string;
  inviteCode: string;
  depth: number;
}

/** A PostgreSQL array literal of int arrays, as text: one bound parameter however long. */
function intArrays(values: readonly number[][]): string {
  return `{${values.map((value) => `"{${value.join(',')}}"`).join(',')}}`;
}

function list(values: readonly (string | number)[]): string {
  return `{${values.join(',')}}`;
}

/** The top and every member above it gain `joined` members, the top one direct member (the new tree's first). */
async function addToTopAndAbove(db: Db, topId: number, joined: number): Promise<void> {
  await db.execute(
    sql`WITH RECURSIVE up(id) AS (
          SELECT ${topId}::int UNION SELECT m.recommender_id FROM ${members} m JOIN up ON m.id = up.id WHERE m.recommender_id IS NOT NULL
        )
        INSERT INTO ${teamCounts} AS tc (member_id, team_size, direct_count)
        SELECT id, ${joined}::int, CASE WHEN id = ${topId}::int THEN 1 ELSE 0 END FROM up
        ON CONFLICT (member_id) DO UPDATE SET team_size = tc.team_size + excluded.team_size, direct_count = tc.direct_count + excluded.direct_count`,
  );
}

/**
 * Adds a chain of `length` members below `topId`, each the only direct member of the one before.
 *
 * @param db - database handle
 * @param topId - the member the chain hangs from (bound, or the root)
 * @param length - members in the chain
 * @param codePrefix - 2 letters that start every invite code of this chain
 * @returns the chain, top first, with each member's depth in the tree
 * @example
 * const chain = await addChain(db, rootId, 5_000, 'CH');
 */
export async function addChain(db: Db, topId: number, length: number, codePrefix: string): Promise<ChainMember[]> {
  const [top] = await queryRows(
    db,
    sql`SELECT tree_depth AS depth, near_ancestors AS near, checkpoint_ancestors AS checkpoints FROM ${members} WHERE id = ${topId}::int`,
    z.object({ depth: z.number(), near: z.array(z.number()), checkpoints: z.array(z.number()) }),
  );
  if (!top) throw new Error(`no member ${topId}`);
  const drawn = await queryRows(
    db,
    sql`SELECT nextval(pg_get_serial_sequence('members', 'id'))::int AS id FROM generate_series(1, ${length}::int)`,
    z.object({ id: z.number() }),
  );
  const ids = drawn.map((row) => row.id).sort((a, b) => a - b);
  const positions: TreePosition[] = [];
  let above: { id: number; position: TreePosition } = { id: topId, position: top };
  for (const id of ids) {
    const position = positionBelow(above.id, above.position);
    positions.push(position);
    above = { id, position };
  }
  const chain = ids.map((id, index) => ({
    id,
    address: randomAddress(),
    inviteCode: `${codePrefix}${index.toString(36).toUpperCase().padStart(6, '0')}`,
    depth: positions[index]?.depth ?? 0,
  }));
  for (let start = 0; start < length; start += ROWS_PER_STATEMENT) {
    const part = chain.slice(start, start + ROWS_PER_STATEMENT);
    const recommenders = part.map((_, offset) => (start + offset === 0 ? topId : (ids[start + offset - 1] ?? topId)));
    await db.execute(
      sql`INSERT INTO ${members} (id, address, invite_code, recommender_id, tree_depth, near_ancestors, checkpoint_ancestors)
          OVERRIDING SYSTEM VALUE
          SELECT t.id, t.address, t.code, t.recommender, t.depth, t.near::int[], t.checkpoints::int[]
          FROM unnest(${list(part.map((m) => m.id))}::int[], ${list(part.map((m) => m.address))}::text[], ${list(part.map((m) => m.inviteCode))}::text[],
                      ${list(recommenders)}::int[], ${list(part.map((m) => m.depth))}::int[],
                      ${intArrays(part.map((_, offset) => positions[start + offset]?.near ?? []))}::text[],
                      ${intArrays(part.map((_, offset) => positions[start + offset]?.checkpoints ?? []))}::text[])
            AS t(id, address, code, recommender, depth, near, checkpoints)`,
    );
    // Each but the last has the rest of the chain below it, one of them direct.
    const counted = part.filter((_, offset) => start + offset < length - 1);
    if (counted.length > 0) {
      await db.execute(
        sql`INSERT INTO ${teamCounts} (member_id, team_size, direct_count)
            SELECT t.id, ${length - 1}::int - t.position, 1 FROM unnest(${list(counted.map((m) => m.id))}::int[], ${list(counted.map((_, offset) => start + offset))}::int[]) AS t(id, position)`,
      );
    }
  }
  // The top and everyone above it gain the chain; the top gains one direct member.
  await addToTopAndAbove(db, topId, length);
  await db.execute(sql`ANALYZE ${members}`);
  return chain;
}

/** Rows per INSERT of the random tree: its members are shallow, their arrays short. */
const RANDOM_ROWS_PER_STATEMENT = 20_000;

/**
 * Adds `count` members below `topId` as a random recursive tree: the first bound to `topId`, each next one to a
 * member drawn at random among those added before it (about ln(count) levels deep on average). Positions and counts
 * are computed here; the address-grams GIN index is dropped for the load and built again after it (one sorted build
 * instead of a million inserts into it), as a bulk load into PostgreSQL would do.
 *
 * @param db - database handle
 * @param topId - the member the tree hangs from
 * @param count - members to add
 * @param codePrefix - 2 letters that start every invite code of this tree
 * @returns how many were added
 * @example
 * await addRandomTree(db, rootId, 995_000, 'SR');
 */
export async function addRandomTree(db: Db, topId: number, count: number, codePrefix: string): Promise<number> {
  if (count <= 0) return 0;
  const [top] = await queryRows(
    db,
    sql`SELECT tree_depth AS depth, near_ancestors AS near, checkpoint_ancestors AS checkpoints FROM ${members} WHERE id = ${topId}::int`,
    z.object({ depth: z.number(), near: z.array(z.number()), checkpoints: z.array(z.number()) }),
  );
  if (!top) throw new Error(`no member ${topId}`);
  const [{ next } = { next: 0 }] = await queryRows(
    db,
    sql`SELECT (coalesce(max(id), 0) + 1)::int AS next FROM ${members}`,
    z.object({ next: z.number() }),
  );
  // Member i (0-based) has id next + i; its parent is member parents[i] (-1: the top).
  const parents = new Int32Array(count);
  for (let index = 0; index < count; index++) parents[index] = index === 0 ? -1 : Math.floor(Math.random() * index);
  const positions: TreePosition[] = new Array<TreePosition>(count);
  for (let index = 0; index < count; index++) {
    const parent = parents[index] ?? -1;
    positions[index] = parent < 0 ? positionBelow(topId, top) : positionBelow(next + parent, positions[parent] ?? top);
  }
  const teamSizes = new Int32Array(count);
  const directCounts = new Int32Array(count);
  for (let index = count - 1; index > 0; index--) {
    const parent = parents[index] ?? -1;
    teamSizes[parent] = (teamSizes[parent] ?? 0) + (teamSizes[index] ?? 0) + 1;
    directCounts[parent] = (directCounts[parent] ?? 0) + 1;
  }

  const [grams] = await queryRows(
    db,
    sql`SELECT indexdef FROM pg_indexes WHERE indexname = 'members_address_grams_idx'`,
    z.object({ indexdef: z.string() }),
  );
  if (!grams) throw new Error('no address-grams index');
  await db.execute(sql`DROP INDEX members_address_grams_idx`);
  try {
    for (let start = 0; start < count; start += RANDOM_ROWS_PER_STATEMENT) {
      const end = Math.min(count, start + RANDOM_ROWS_PER_STATEMENT);
      const indexes = Array.from({ length: end - start }, (_, offset) => start + offset);
      const at = (index: number) => positions[index] ?? top;
      await db.execute(
        sql`INSERT INTO ${members} (id, address, invite_code, recommender_id, tree_depth, near_ancestors, checkpoint_ancestors)
            OVERRIDING SYSTEM VALUE
            SELECT t.id, t.address, t.code, t.recommender, t.depth, t.near::int[], t.checkpoints::int[]
            FROM unnest(${list(indexes.map((index) => next + index))}::int[], ${list(indexes.map(() => randomAddress()))}::text[],
                        ${list(indexes.map((index) => `${codePrefix}${index.toString(36).toUpperCase().padStart(6, '0')}`))}::text[],
                        ${list(indexes.map((index) => ((parents[index] ?? -1) < 0 ? topId : next + (parents[index] ?? 0))))}::int[],
                        ${list(indexes.map((index) => at(index).depth))}::int[],
                        ${intArrays(indexes.map((index) => at(index).near))}::text[],
                        ${intArrays(indexes.map((index) => at(index).checkpoints))}::text[])
              AS t(id, address, code, recommender, depth, near, checkpoints)`,
      );
      const counted = indexes.filter((index) => (teamSizes[index] ?? 0) > 0);
      if (counted.length > 0) {
        await db.execute(
          sql`INSERT INTO ${teamCounts} (member_id, team_size, direct_count)
              SELECT * FROM unnest(${list(counted.map((index) => next + index))}::int[], ${list(counted.map((index) => teamSizes[index] ?? 0))}::int[],
                                   ${list(counted.map((index) => directCounts[index] ?? 0))}::int[])`,
        );
      }
    }
  } finally {
    await db.execute(sql.raw(grams.indexdef));
  }
  await db.execute(sql`SELECT setval(pg_get_serial_sequence('members', 'id'), ${next + count - 1}::int)`);
  await addToTopAndAbove(db, topId, count);
  await db.execute(sql`ANALYZE ${members}, ${teamCounts}`);
  return count;
}
