/**
 * Large downlines in a few statements, for the team search scale test and bench/teamSearch.ts: members with random
 * EIP-55 addresses, their recommenders, tree positions and team counts computed here and inserted in one statement
 * (what bindRecommender and the count fold keep one bind at a time).
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { getAddress } from 'viem';
import { z } from 'zod';
import { queryRows, type Db } from '../../../server/db/client';
import { members, teamCounts } from '../../../server/db/schema';
import { positionBelow, type TreePosition } from '../../../server/members/tree';

export interface BulkMember {
  id: number;
  address: string;
  /** Depth below the downline's root: 1 for its direct members. */
  level: number;
}

export interface BulkDownlineOptions {
  /** The member the downline hangs from. */
  rootId: number;
  /** How many members. */
  size: number;
  /** Direct members per member (default 5): a tree of about log_fanout(size) levels. */
  fanout?: number;
  /** Creation time of every member. */
  createdAt: Date;
  /** Prefix of the generated invite codes (2 letters), so two downlines never collide. */
  codePrefix: string;
}

/** A random EIP-55 address. */
export function randomAddress(): string {
  return getAddress(`0x${randomBytes(20).toString('hex')}`);
}

/** A PostgreSQL array literal of simple values (hex, codes, numbers): one bound parameter, whatever the length. */
function arrayLiteral(values: readonly (string | number)[]): string {
  return `{${values.join(',')}}`;
}

/**
 * Adds `size` members below `rootId`: the first `fanout` bound to the root, each next one to an earlier member, in
 * id order. Keeps member_tree and team_size/direct_count of every member consistent, as binds would.
 *
 * Each row is written once: an UPDATE of the new rows (their recommender, their counts) would write every row again,
 * and with it its entries in the address-grams GIN index, which take most of an insert's time.
 *
 * @param db - database handle
 * @param options - root, size, fanout, creation time and invite code prefix
 * @returns the new members in id order, with their level below the root
 * @example
 * const team = await addBulkDownline(db, { rootId: boss.id, size: 10_000, createdAt: now, codePrefix: 'BK' });
 */
export async function addBulkDownline(db: Db, options: BulkDownlineOptions): Promise<BulkMember[]> {
  const fanout = options.fanout ?? 5;
  const { size, rootId } = options;
  const addresses = Array.from({ length: size }, randomAddress);
  const codes = addresses.map((_, index) => `${options.codePrefix}${index.toString(36).toUpperCase().padStart(6, '0')}`);
  // The identity's next values, drawn as the inserts would draw them.
  const drawn = await queryRows(
    db,
    sql`SELECT nextval(pg_get_serial_sequence('members', 'id'))::int AS id FROM generate_series(1, ${size}::int)`,
    z.object({ id: z.number() }),
  );
  const ids = drawn.map((row) => row.id).sort((a, b) => a - b);
  // Member i's recommender is member parentIndex(i) (-1: the root), always an earlier one.
  const parentIndex = (index: number) => (index < fanout ? -1 : Math.floor(index / fanout) - 1);
  const levels: number[] = [];
  for (let index = 0; index < size; index++) {
    const parent = parentIndex(index);
    levels.push(parent < 0 ? 1 : (levels[parent] ?? 0) + 1);
  }
  const teamSizes = new Array<number>(size).fill(0);
  const directCounts = new Array<number>(size).fill(0);
  for (let index = size - 1; index >= 0; index--) {
    const parent = parentIndex(index);
    if (parent < 0) continue;
    teamSizes[parent] = (teamSizes[parent] ?? 0) + (teamSizes[index] ?? 0) + 1;
    directCounts[parent] = (directCounts[parent] ?? 0) + 1;
  }
  const recommenders = ids.map((_, index) => {
    const parent = parentIndex(index);
    return parent < 0 ? rootId : (ids[parent] ?? rootId);
  });
  const [root] = await queryRows(
    db,
    sql`SELECT tree_depth AS depth, near_ancestors AS near, checkpoint_ancestors AS checkpoints FROM ${members} WHERE id = ${rootId}::int`,
    z.object({ depth: z.number(), near: z.array(z.number()), checkpoints: z.array(z.number()) }),
  );
  if (!root) throw new Error(`no member ${rootId}`);
  const positions: TreePosition[] = [];
  ids.forEach((_, index) => {
    const parent = parentIndex(index);
    positions.push(parent < 0 ? positionBelow(rootId, root) : positionBelow(ids[parent] ?? 0, positions[parent] ?? root));
  });
  const intArrays = (values: number[][]) => `{${values.map((value) => `"{${value.join(',')}}"`).join(',')}}`;
  await db.execute(
    sql`INSERT INTO ${members} (id, address, invite_code, recommender_id, tree_depth, near_ancestors, checkpoint_ancestors, created_at)
        OVERRIDING SYSTEM VALUE
        SELECT t.id, t.address, t.code, t.recommender, t.depth, t.near::int[], t.checkpoints::int[],
               ${options.createdAt.toISOString()}::timestamptz
        FROM unnest(${arrayLiteral(ids)}::int[], ${arrayLiteral(addresses)}::text[], ${arrayLiteral(codes)}::text[], ${arrayLiteral(recommenders)}::int[],
                    ${arrayLiteral(positions.map((p) => p.depth))}::int[], ${intArrays(positions.map((p) => p.near))}::text[],
                    ${intArrays(positions.map((p) => p.checkpoints))}::text[])
          AS t(id, address, code, recommender, depth, near, checkpoints)
        ORDER BY t.id`,
  );
  await db.execute(
    sql`INSERT INTO ${teamCounts} (member_id, team_size, direct_count)
        SELECT * FROM unnest(${arrayLiteral(ids)}::int[], ${arrayLiteral(teamSizes)}::int[], ${arrayLiteral(directCounts)}::int[]) AS t(id, team_size, direct_count)
        WHERE t.team_size > 0`,
  );
  // The root and every member above it: the whole downline more, and the root its direct members.
  await db.execute(
    sql`WITH RECURSIVE up(id) AS (
          SELECT ${rootId}::int UNION SELECT m.recommender_id FROM ${members} m JOIN up ON m.id = up.id WHERE m.recommender_id IS NOT NULL
        )
        INSERT INTO ${teamCounts} AS tc (member_id, team_size, direct_count)
        SELECT id, ${size}::int, CASE WHEN id = ${rootId}::int THEN ${Math.min(size, fanout)}::int ELSE 0 END FROM up
        ON CONFLICT (member_id) DO UPDATE SET team_size = tc.team_size + excluded.team_size, direct_count = tc.direct_count + excluded.direct_count`,
  );
  // Statistics of the loaded table, as autovacuum gathers them after a bulk load: the worker's database is kept from
  // suite to suite, and without them the planner would plan the 10,000 rows on the counts of a small earlier team.
  await db.execute(sql`ANALYZE ${members}`);
  return ids.map((id, index) => ({ id, address: addresses[index] ?? '', level: levels[index] ?? 0 }));
}
