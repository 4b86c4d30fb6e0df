/**
 * Deep and large trees for the bench, written set-based (no HTTP, no bind per member): each member with its tree
 * position (positionBelow, the same arrays a bind writes) and its counts, in statements of thousands of rows, through
 * the loaders the bulk test teams use (tests/server/support/bulkTeam.ts).
 */
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { queryRows, type Db } from '../server/db/client';
import { members, teamCounts } from '../server/db/schema';
import { positionBelow, type TreePosition } from '../server/members/tree';
import { addToTopAndAbove, insertPlacedMembers, insertTeamCounts, positionOf, randomAddress, type PlacedMember } from '../tests/server/support/bulkTeam';

/** Rows per INSERT of a chain: a chain member's arrays are at most 64 + depth / 64 ids. */
const ROWS_PER_STATEMENT = 1_000;

/** Rows per INSERT of the random tree: its members are shallow, their arrays short. */
const RANDOM_ROWS_PER_STATEMENT = 20_000;

export interface ChainMember {
  id: number;
  address: string;
  inviteCode: string;
  depth: number;
}

const inviteCode = (prefix: string, index: number) => `${prefix}${index.toString(36).toUpperCase().padStart(6, '0')}`;

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
  const top = await positionOf(db, topId);
  const drawn = await queryRows(
    db,
    sql`SELECT nextval(pg_get_serial_sequence('members', 'id'))::int AS id FROM generate_series(1, ${length}::int)`,
    z.object({ id: z.number() }),
  );
  const ids = drawn.map((row) => row.id).sort((a, b) => a - b);
  const placed: PlacedMember[] = [];
  let above: { id: number; position: TreePosition } = { id: topId, position: top };
  ids.forEach((id, index) => {
    const position = positionBelow(above.id, above.position);
    placed.push({ id, address: randomAddress(), inviteCode: inviteCode(codePrefix, index), recommenderId: above.id, position });
    above = { id, position };
  });
  for (let start = 0; start < length; start += ROWS_PER_STATEMENT) {
    await insertPlacedMembers(db, placed.slice(start, start + ROWS_PER_STATEMENT));
  }
  // Each but the last has the rest of the chain below it, one of them direct.
  await insertTeamCounts(db, placed.map((member, index) => ({ memberId: member.id, teamSize: length - 1 - index, directCount: 1 })));
  // The top and everyone above it gain the chain; the top gains one direct member.
  await addToTopAndAbove(db, topId, length, 1);
  await db.execute(sql`ANALYZE ${members}`);
  return placed.map((member) => ({ id: member.id, address: member.address, inviteCode: member.inviteCode, depth: member.position.depth }));
}

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
  const top = await positionOf(db, topId);
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
      const indexes = Array.from({ length: Math.min(count, start + RANDOM_ROWS_PER_STATEMENT) - start }, (_, offset) => start + offset);
      await insertPlacedMembers(
        db,
        indexes.map((index) => {
          const parent = parents[index] ?? -1;
          return {
            id: next + index,
            address: randomAddress(),
            inviteCode: inviteCode(codePrefix, index),
            recommenderId: parent < 0 ? topId : next + parent,
            position: positions[index] ?? top,
          };
        }),
      );
      await insertTeamCounts(
        db,
        indexes.map((index) => ({ memberId: next + index, teamSize: teamSizes[index] ?? 0, directCount: directCounts[index] ?? 0 })),
      );
    }
  } finally {
    await db.execute(sql.raw(grams.indexdef));
  }
  await db.execute(sql`SELECT setval(pg_get_serial_sequence('members', 'id'), ${next + count - 1}::int)`);
  await addToTopAndAbove(db, topId, count, 1);
  // What autovacuum would do soon after a million inserts (during the measurements otherwise): the visibility map
  // and the statistics.
  await db.execute(sql`VACUUM ANALYZE ${members}, ${teamCounts}`);
  return count;
}
