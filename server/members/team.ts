/**
 * The team screens: a member's downline page by page, and search by address fragment (docs/API.md, "Member"). Both read
 * the closure table member_tree, so neither walks the tree; search starts from the few members whose address has
 * the keyword's 4-character windows (members.address_grams, GIN) and keeps those below the caller (ADR 0009).
 */
import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { TeamMember } from '../../api-schema/member';
import { queryRows, type Db } from '../db/client';
import { memberTree, members } from '../db/schema';

/** Most matches one search answers with: a keyword of 4 digits matches about one address in 1,800. */
export const TEAM_SEARCH_LIMIT = 100;

/** Shortest keyword, in hex digits after any 0x (the contract's regex says the same). */
const MIN_KEYWORD_DIGITS = 4;

const teamRow = z.object({
  address: z.string(),
  level: z.number(),
  teamSize: z.number(),
  /** Milliseconds since the epoch: the drivers hand timestamps to raw queries in different shapes, a number in none. */
  joinedAtMs: z.number(),
});

function toTeamMember(row: z.output<typeof teamRow>): TeamMember {
  return { address: row.address, level: row.level, teamSize: row.teamSize, joinedAt: new Date(row.joinedAtMs).toISOString() };
}

export interface TeamPageQuery {
  page: number;
  pageSize: number;
}

export interface TeamPage {
  list: TeamMember[];
  total: number;
  page: number;
  pageSize: number;
}

/**
 * One page of a member's whole downline: direct members (level 1) first, then each deeper level, each level in the
 * order its members joined (member id). A page past the end is empty, with the same total.
 *
 * @param db - database handle
 * @param caller - the member and its kept team size (members.team_size, the number of rows below it)
 * @param query - 1-based page and page size
 * @returns the page
 * @example
 * const page = await listTeam(db, { id: auth.memberId, teamSize: auth.member.teamSize }, { page: 1, pageSize: 20 });
 */
export async function listTeam(db: Db, caller: { id: number; teamSize: number }, query: TeamPageQuery): Promise<TeamPage> {
  const offset = (query.page - 1) * query.pageSize;
  const page = { total: caller.teamSize, page: query.page, pageSize: query.pageSize };
  if (offset >= caller.teamSize) return { list: [], ...page };
  // The page is cut from the closure table's primary key (ancestor, depth, member) alone; only its rows are joined.
  const rows = await queryRows(
    db,
    sql`SELECT m.address, p.depth AS "level", m.team_size AS "teamSize", floor(extract(epoch FROM m.created_at) * 1000)::float8 AS "joinedAtMs"
        FROM (SELECT member_id, depth FROM ${memberTree} WHERE ancestor_id = ${caller.id}
              ORDER BY depth, member_id LIMIT ${query.pageSize} OFFSET ${offset}) p
        JOIN ${members} m ON m.id = p.member_id
        ORDER BY p.depth, p.member_id`,
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
 * keyword's 4-digit windows, a handful for random addresses), each checked against the exact fragment and looked up
 * in member_tree (member, ancestor): the cost follows the number of candidates, not the size of the downline. The
 * OFFSET 0 keeps the planner from turning the per-candidate lookup into a scan of the whole downline.
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
  return sql`SELECT c.address, c.level, c.team_size AS "teamSize", floor(extract(epoch FROM c.created_at) * 1000)::float8 AS "joinedAtMs"
        FROM (SELECT m.id, m.address, m.team_size, m.created_at,
                     (SELECT t.depth FROM ${memberTree} t WHERE t.member_id = m.id AND t.ancestor_id = ${callerId}) AS level
              FROM ${members} m
              WHERE m.address_grams @> ${grams}::text[]
                AND CASE WHEN ${keyword.anchored}::boolean THEN strpos(lower(m.address), ${fragment}) = 1
                         ELSE strpos(lower(m.address), ${fragment}) > 0 END
              OFFSET 0) c
        WHERE c.level IS NOT NULL
        ORDER BY c.level, c.id
        LIMIT ${TEAM_SEARCH_LIMIT}`;
}
