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

/** A member a loader writes with its place already known (positionBelow), as a bind would leave it. */
export interface PlacedMember {
  id: number;
  address: string;
  inviteCode: string;
  recommenderId: number;
  position: TreePosition;
}

/** A PostgreSQL array literal of int arrays, as text: one bound parameter however long. */
function intArrays(values: readonly number[][]): string {
  return `{${values.map((value) => `"{${value.join(',')}}"`).join(',')}}`;
}

/**
 * Where a member sits, as members keeps it.
 *
 * @param db - database handle
 * @param id - the member
 * @returns its depth, nearest ancestors and checkpoints
 * @example
 * const top = await positionOf(db, rootId);
 */
export async function positionOf(db: Db, id: number): Promise<TreePosition> {
  const [row] = await queryRows(
    db,
    sql`SELECT tree_depth AS depth, near_ancestors AS near, checkpoint_ancestors AS checkpoints FROM ${members} WHERE id = ${id}::int`,
    z.object({ depth: z.number(), near: z.array(z.number()), checkpoints: z.array(z.number()) }),
  );
  if (!row) throw new Error(`no member ${id}`);
  return row;
}

/**
 * Writes placed members in one statement, each row once (an UPDATE after would write every row again, and its
 * address-grams GIN entries with it, which take most of an insert's time).
 *
 * @param db - database handle
 * @param rows - the members, their ids drawn or chosen by the caller
 * @param createdAt - their creation time (the database's now when absent)
 * @returns when written
 * @example
 * await insertPlacedMembers(db, rows, now);
 */
export async function insertPlacedMembers(db: Db, rows: readonly PlacedMember[], createdAt?: Date): Promise<void> {
  await db.execute(
    sql`INSERT INTO ${members} (id, address, invite_code, recommender_id, tree_depth, near_ancestors, checkpoint_ancestors, created_at)
        OVERRIDING SYSTEM VALUE
        SELECT t.id, t.address, t.code, t.recommender, t.depth, t.near::int[], t.checkpoints::int[], coalesce(${createdAt?.toISOString() ?? null}::timestamptz, now())
        FROM unnest(${arrayLiteral(rows.map((row) => row.id))}::int[], ${arrayLiteral(rows.map((row) => row.address))}::text[],
                    ${arrayLiteral(rows.map((row) => row.inviteCode))}::text[], ${arrayLiteral(rows.map((row) => row.recommenderId))}::int[],
                    ${arrayLiteral(rows.map((row) => row.position.depth))}::int[], ${intArrays(rows.map((row) => row.position.near))}::text[],
                    ${intArrays(rows.map((row) => row.position.checkpoints))}::text[])
          AS t(id, address, code, recommender, depth, near, checkpoints)
        ORDER BY t.id`,
  );
}

/**
 * Writes the kept counts of the members that have a team (a team size of 0 keeps no row, as the fold leaves it).
 *
 * @param db - database handle
 * @param rows - member, team size, direct count
 * @returns when written
 * @example
 * await insertTeamCounts(db, [{ memberId: 7, teamSize: 3, directCount: 2 }]);
 */
export async function insertTeamCounts(db: Db, rows: readonly { memberId: number; teamSize: number; directCount: number }[]): Promise<void> {
  const counted = rows.filter((row) => row.teamSize > 0);
  if (counted.length === 0) return;
  await db.execute(
    sql`INSERT INTO ${teamCounts} (member_id, team_size, direct_count)
        SELECT * FROM unnest(${arrayLiteral(counted.map((row) => row.memberId))}::int[], ${arrayLiteral(counted.map((row) => row.teamSize))}::int[],
                             ${arrayLiteral(counted.map((row) => row.directCount))}::int[])`,
  );
}

/**
 * The top and every member above it gain `joined` members, the top `directs` direct ones: what the fold would add
 * for a team written below the top.
 *
 * @param db - database handle
 * @param topId - the member the new team hangs from
 * @param joined - members in the new team
 * @param directs - of them, bound to the top itself
 * @returns when written
 * @example
 * await addToTopAndAbove(db, rootId, 10_000, 5);
 */
export async function addToTopAndAbove(db: Db, topId: number, joined: number, directs: number): Promise<void> {
  await db.execute(
    sql`WITH RECURSIVE up(id) AS (
          SELECT ${topId}::int UNION SELECT m.recommender_id FROM ${members} m JOIN up ON m.id = up.id WHERE m.recommender_id IS NOT NULL
        )
        INSERT INTO ${teamCounts} AS tc (member_id, team_size, direct_count)
        SELECT id, ${joined}::int, CASE WHEN id = ${topId}::int THEN ${directs}::int ELSE 0 END FROM up
        ON CONFLICT (member_id) DO UPDATE SET team_size = tc.team_size + excluded.team_size, direct_count = tc.direct_count + excluded.direct_count`,
  );
}

/**
 * Adds `size` members below `rootId`: the first `fanout` bound to the root, each next one to an earlier member, in
 * id order. Keeps every member's tree position and team counts consistent, as binds and the count fold would.
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
  const root = await positionOf(db, rootId);
  const positions: TreePosition[] = [];
  ids.forEach((_, index) => {
    const parent = parentIndex(index);
    positions.push(parent < 0 ? positionBelow(rootId, root) : positionBelow(ids[parent] ?? 0, positions[parent] ?? root));
  });
  await insertPlacedMembers(
    db,
    ids.map((id, index) => ({ id, address: addresses[index] ?? '', inviteCode: codes[index] ?? '', recommenderId: recommenders[index] ?? rootId, position: positions[index] ?? root })),
    options.createdAt,
  );
  await insertTeamCounts(db, ids.map((id, index) => ({ memberId: id, teamSize: teamSizes[index] ?? 0, directCount: directCounts[index] ?? 0 })));
  // The root and every member above it: the whole downline more, and the root its direct members.
  await addToTopAndAbove(db, rootId, size, Math.min(size, fanout));
  // Statistics of the loaded table, as autovacuum gathers them after a bulk load: the worker's database is kept from
  // suite to suite, and without them the planner would plan the 10,000 rows on the counts of a small earlier team.
  await db.execute(sql`ANALYZE ${members}`);
  return ids.map((id, index) => ({ id, address: addresses[index] ?? '', level: levels[index] ?? 0 }));
}
