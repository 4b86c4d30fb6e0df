/**
 * Large downlines in a few statements, for the team search scale test and bench/teamSearch.ts: members with random
 * EIP-55 addresses inserted at once, their recommenders set, then their member_tree rows and every team count
 * computed from the tree (what bindRecommender keeps one bind at a time).
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { getAddress } from 'viem';
import { z } from 'zod';
import { queryRows, type Db } from '../../../server/db/client';
import { members, memberTree } from '../../../server/db/schema';

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
 * @param db - database handle
 * @param options - root, size, fanout, creation time and invite code prefix
 * @returns the new members in id order, with their level below the root
 * @example
 * const team = await addBulkDownline(db, { rootId: boss.id, size: 10_000, createdAt: now, codePrefix: 'BK' });
 */
export async function addBulkDownline(db: Db, options: BulkDownlineOptions): Promise<BulkMember[]> {
  const fanout = options.fanout ?? 5;
  const addresses = Array.from({ length: options.size }, randomAddress);
  const codes = addresses.map((_, index) => `${options.codePrefix}${index.toString(36).toUpperCase().padStart(6, '0')}`);
  const inserted = await queryRows(
    db,
    sql`INSERT INTO ${members} (address, invite_code, created_at)
        SELECT t.address, t.code, ${options.createdAt.toISOString()}::timestamptz
        FROM unnest(${arrayLiteral(addresses)}::text[], ${arrayLiteral(codes)}::text[]) WITH ORDINALITY AS t(address, code, n)
        ORDER BY t.n
        RETURNING id, address`,
    z.object({ id: z.number(), address: z.string() }),
  );
  const idOf = new Map(inserted.map((row) => [row.address, row.id]));
  const ids = addresses.map((address) => {
    const id = idOf.get(address);
    if (id === undefined) throw new Error(`bulk member ${address} was not inserted`);
    return id;
  });
  const parentIndex = (index: number) => (index < fanout ? -1 : Math.floor(index / fanout) - 1);
  const parents = ids.map((_, index) => {
    const parent = parentIndex(index);
    return parent < 0 ? options.rootId : (ids[parent] ?? options.rootId);
  });
  const levels: number[] = [];
  ids.forEach((_, index) => {
    const parent = parentIndex(index);
    levels.push(parent < 0 ? 1 : (levels[parent] ?? 0) + 1);
  });

  await db.execute(
    sql`UPDATE ${members} SET recommender_id = v.parent
        FROM unnest(${arrayLiteral(ids)}::int[], ${arrayLiteral(parents)}::int[]) AS v(id, parent)
        WHERE ${members}.id = v.id`,
  );
  // Each new member's rows: every member above it, the root's own ancestors included.
  await db.execute(
    sql`INSERT INTO ${memberTree} (ancestor_id, member_id, depth)
        WITH RECURSIVE up(member_id, ancestor_id, depth) AS (
          SELECT id, recommender_id, 1 FROM ${members} WHERE id = ANY(${arrayLiteral(ids)}::int[])
          UNION ALL
          SELECT up.member_id, m.recommender_id, up.depth + 1 FROM up JOIN ${members} m ON m.id = up.ancestor_id
          WHERE m.recommender_id IS NOT NULL
        )
        SELECT ancestor_id, member_id, depth FROM up`,
  );
  await db.execute(
    sql`UPDATE ${members} m SET team_size = c.team_size, direct_count = c.direct_count
        FROM (SELECT ancestor_id, count(*)::int AS team_size, (count(*) FILTER (WHERE depth = 1))::int AS direct_count
              FROM ${memberTree} GROUP BY ancestor_id) c
        WHERE m.id = c.ancestor_id`,
  );
  return ids.map((id, index) => ({ id, address: addresses[index] ?? '', level: levels[index] ?? 0 }));
}
