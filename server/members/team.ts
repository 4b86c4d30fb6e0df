/**
 * The team screens: a member's team one level at a time, and search of the whole downline by address fragment
 * (docs/API.md, "Member"). Neither walks the tree: a level is read from the recommender index, and whether a
 * member is below the caller from its kept ancestors (tree_is_below, ADR 0034); search starts from the few members
 * whose address has the keyword's 4-character windows (members.address_grams, GIN, ADR 0009).
 */
import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { TeamMember } from '../../api-schema/member';
import { queryRows, type Db } from '../db/client';
import { members, teamCounts, treeJoins } from '../db/schema';
import { InvalidParametersError } from '../errors';
import { exactDirectCount, exactTeamSize } from './teamCounts';

/** Most matches one search answers with: a keyword of 4 digits matches about one address in 1,800. */
export const TEAM_SEARCH_LIMIT = 100;

/** Shortest keyword, in hex digits after any 0x (the contract's regex says the same). */
const MIN_KEYWORD_DIGITS = 4;

const teamRow = z.object({
  address: z.string(),
  level: z.number(),
  teamSize: z.number(),
  directCount: z.number(),
  /** Milliseconds since the epoch: the drivers hand timestamps to raw queries in different shapes, a number in none. */
  joinedAtMs: z.number(),
});

function toTeamMember(row: z.output<typeof teamRow>): TeamMember {
  return {
    address: row.address,
    level: row.level,
    teamSize: row.teamSize,
    directCount: row.directCount,
    joinedAt: new Date(row.joinedAtMs).toISOString(),
  };
}

export interface TeamPageQuery {
  page: number;
  pageSize: number;
  /** Whose direct members: a member of the caller's downline (EIP-55); the caller when absent. */
  of?: string | undefined;
}

export interface TeamPage {
  list: TeamMember[];
  total: number;
  page: number;
  pageSize: number;
}

const listedRow = z.object({ id: z.number(), depth: z.number(), level: z.number(), directCount: z.number() });

/**
 * One page of the direct members of the caller, or of a member of its downline (`of`), in the order they joined
 * (member id). Levels count from the caller. A page past the end is empty, with the same total. A deep tree costs
 * nothing here: the level is one range of the (recommender, id) index.
 *
 * @param db - database handle
 * @param callerId - the member asking
 * @param query - 1-based page, page size, and whose team
 * @returns the page
 * @throws InvalidParametersError (1001, `of`) when `of` is not in the caller's downline
 * @example
 * const page = await listTeam(db, auth.memberId, { page: 1, pageSize: 20 });
 */
export async function listTeam(db: Db, callerId: number, query: TeamPageQuery): Promise<TeamPage> {
  const [listed] = await queryRows(
    db,
    query.of === undefined
      ? sql`SELECT c.id, c.tree_depth AS depth, 0 AS level, ${exactDirectCount('c')} AS "directCount" FROM ${members} c WHERE c.id = ${callerId}::int`
      : sql`SELECT o.id, o.tree_depth AS depth, o.tree_depth - c.tree_depth AS level, ${exactDirectCount('o')} AS "directCount"
            FROM ${members} c JOIN ${members} o ON o.address = ${query.of}::text
            WHERE c.id = ${callerId}::int AND tree_is_below(c.id, c.tree_depth, o.tree_depth, o.near_ancestors, o.checkpoint_ancestors)`,
    listedRow,
  );
  if (!listed) throw new InvalidParametersError('of');
  const offset = (query.page - 1) * query.pageSize;
  const page = { total: listed.directCount, page: query.page, pageSize: query.pageSize };
  if (offset >= listed.directCount) return { list: [], ...page };
  // The page's members are siblings, one depth below the listed member: the binds still waiting below them are
  // summed in one pass for that depth (tree_waiting_at), rather than once per row of the page.
  const depth = listed.depth + 1;
  const rows = await queryRows(
    db,
    sql`WITH page AS (
          SELECT m.id, m.address, m.created_at FROM ${members} m WHERE m.recommender_id = ${listed.id}::int ORDER BY m.id LIMIT ${query.pageSize} OFFSET ${offset}
        ), waiting AS (
          SELECT ancestor_id AS id, joined FROM tree_waiting_at(${depth}::int)
        ), waiting_direct AS (
          SELECT inviter_id AS id, count(*)::int AS directs FROM ${treeJoins} GROUP BY inviter_id
        )
        SELECT p.address, ${listed.level + 1}::int AS "level",
          coalesce(c.team_size, 0) + coalesce(w.joined, 0) AS "teamSize", coalesce(c.direct_count, 0) + coalesce(d.directs, 0) AS "directCount",
          floor(extract(epoch FROM p.created_at) * 1000)::float8 AS "joinedAtMs"
        FROM page p LEFT JOIN ${teamCounts} c ON c.member_id = p.id LEFT JOIN waiting w ON w.id = p.id LEFT JOIN waiting_direct d ON d.id = p.id
        ORDER BY p.id`,
    teamRow,
  );
  return { list: rows.map(toTeamMember), ...page };
}

/** A search keyword taken apart: the lower-case digits, whether they must start the address, and their windows. */
export interface TeamKeyword {
  digits: string;
  anchored: boolean;
  grams: string[];
}

/**
 * Reads a keyword as the contract allows it: at least 4 hex digits, any case, with or without a leading 0x. With
 * 0x the digits must start the address; without, they may stand anywhere in it.
 *
 * @param keyword - the keyword as received
 * @returns the parsed keyword, or undefined when it is not one
 * @example
 * parseTeamKeyword('0xAB12'); // { digits: 'ab12', anchored: true, grams: ['ab12'] }
 */
export function parseTeamKeyword(keyword: string): TeamKeyword | undefined {
  const match = /^(0[xX])?([0-9a-fA-F]+)$/.exec(keyword);
  const digits = match?.[2]?.toLowerCase();
  if (!match || digits === undefined || digits.length < MIN_KEYWORD_DIGITS || digits.length > 40) return undefined;
  const grams = new Set<string>();
  for (let i = 0; i + MIN_KEYWORD_DIGITS <= digits.length; i++) grams.add(digits.slice(i, i + MIN_KEYWORD_DIGITS));
  return { digits, anchored: match[1] !== undefined, grams: [...grams].sort() };
}

/**
 * Members of the caller's whole downline whose address matches the keyword, nearest level first, then in the order
 * they joined; at most TEAM_SEARCH_LIMIT. Never a member outside the downline, nor the caller.
 *
 * The candidates come from the GIN index on members.address_grams (every member whose address holds all of the
 * keyword's 4-digit windows, a handful for random addresses), each checked against the exact fragment and against
 * the caller with its kept ancestors (tree_is_below): the cost follows the number of candidates, not the size or
 * the depth of the downline.
 *
 * @param db - database handle
 * @param callerId - the member searching
 * @param keyword - a parsed keyword (parseTeamKeyword)
 * @returns the matches
 * @example
 * const list = await searchTeam(db, auth.memberId, parseTeamKeyword('8ba1')!);
 */
export async function searchTeam(db: Db, callerId: number, keyword: TeamKeyword): Promise<TeamMember[]> {
  const rows = await queryRows(db, teamSearchQuery(callerId, keyword), teamRow);
  return rows.map(toTeamMember);
}

/**
 * The statement searchTeam runs (exported so a test can check its plan uses the address-grams index).
 *
 * @param callerId - the member searching
 * @param keyword - a parsed keyword
 * @returns the statement; every value in it is a bound parameter
 * @example
 * await db.execute(sql`EXPLAIN ${teamSearchQuery(1, parseTeamKeyword('abcd')!)}`);
 */
export function teamSearchQuery(callerId: number, keyword: TeamKeyword): SQL {
  // The grams array is hex digits only, passed as one array literal.
  const grams = `{${keyword.grams.join(',')}}`;
  const fragment = keyword.anchored ? `0x${keyword.digits}` : keyword.digits;
  // The matches are chosen first (level and id only); the exact counts are read for those alone.
  return sql`SELECT m.address, f.level, ${exactTeamSize('m')} AS "teamSize", ${exactDirectCount('m')} AS "directCount",
          floor(extract(epoch FROM m.created_at) * 1000)::float8 AS "joinedAtMs"
        FROM (
          SELECT c.id, c.tree_depth - caller.tree_depth AS level
          FROM ${members} caller
          JOIN ${members} c ON c.address_grams @> ${grams}::text[]
            AND CASE WHEN ${keyword.anchored}::boolean THEN strpos(lower(c.address), ${fragment}) = 1
                     ELSE strpos(lower(c.address), ${fragment}) > 0 END
          WHERE caller.id = ${callerId}::int
            AND tree_is_below(caller.id, caller.tree_depth, c.tree_depth, c.near_ancestors, c.checkpoint_ancestors)
          ORDER BY level, c.id
          LIMIT ${TEAM_SEARCH_LIMIT}
        ) f JOIN ${members} m ON m.id = f.id
        ORDER BY f.level, f.id`;
}
