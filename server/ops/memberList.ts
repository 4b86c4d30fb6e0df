/**
 * The members as the operators' desk lists them (api-schema/opsMembers.ts): newest first, keyset-paged by id, with
 * their CREDIT balance and whether their withdrawals are frozen; the total counts the filters on all pages.
 */
import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { formatMinor } from '../../api-schema/amount';
import { bigintText, queryRows, type Db } from '../db/client';
import { normaliseInviteCode } from '../members/inviteCode';

export interface MemberListQuery {
  /** The start of an address (0x…) or of an invite code, as typed. */
  q?: string | undefined;
  frozenOnly: boolean;
  /** The last member id of the page before. */
  cursor?: number | undefined;
  limit: number;
}

export interface ListedMember {
  address: string;
  inviteCode: string;
  recommender: string | null;
  createdAt: string;
  credit: string;
  frozen: boolean;
}

const memberRow = z.object({
  id: z.number().int(),
  address: z.string(),
  inviteCode: z.string(),
  recommender: z.string().nullable(),
  createdAt: z.coerce.date(),
  credit: bigintText,
  frozen: z.boolean(),
});
const countRow = z.object({ total: bigintText });

/** LIKE's own characters in what an operator typed are letters to match, not patterns. */
const likePrefix = (text: string) => `${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

/**
 * A page of members.
 *
 * @param db - database handle
 * @param query - the prefix, frozen only, cursor and page size
 * @returns the page, the next page's cursor (null after the last) and how many match on all pages
 * @example
 * const page = await listMembers(db, { q: '0x8ba1', frozenOnly: false, limit: 50 });
 */
export async function listMembers(db: Db, query: MemberListQuery): Promise<{ list: ListedMember[]; nextCursor: string | null; total: number }> {
  const where: SQL[] = [sql`true`];
  if (query.q !== undefined) {
    // Addresses are stored checksummed: an address's start matches in any case; an invite code as the code normalises.
    where.push(query.q.startsWith('0x') ? sql`lower(m.address) LIKE ${likePrefix(query.q.toLowerCase())}` : sql`m.invite_code LIKE ${likePrefix(normaliseInviteCode(query.q))}`);
  }
  if (query.frozenOnly) where.push(sql`EXISTS (SELECT 1 FROM member_freezes f WHERE f.member_id = m.id)`);
  const filters = sql.join(where, sql` AND `);
  const paged = query.cursor === undefined ? filters : sql`${filters} AND m.id < ${query.cursor}::int`;
  const rows = await queryRows(
    db,
    sql`SELECT m.id, m.address, m.invite_code AS "inviteCode", r.address AS recommender, m.created_at AS "createdAt",
          coalesce((SELECT a.balance FROM ledger_accounts a WHERE a.member_id = m.id AND a.asset = 'CREDIT'), 0) AS credit,
          EXISTS (SELECT 1 FROM member_freezes f WHERE f.member_id = m.id) AS frozen
        FROM members m LEFT JOIN members r ON r.id = m.recommender_id
        WHERE ${paged}
        ORDER BY m.id DESC LIMIT ${query.limit + 1}::int`,
    memberRow,
  );
  const [counted] = await queryRows(db, sql`SELECT count(*) AS total FROM members m WHERE ${filters}`, countRow);
  const page = rows.slice(0, query.limit);
  return {
    list: page.map((row) => ({
      address: row.address,
      inviteCode: row.inviteCode,
      recommender: row.recommender,
      createdAt: row.createdAt.toISOString(),
      credit: formatMinor(row.credit),
      frozen: row.frozen,
    })),
    nextCursor: rows.length > query.limit ? String(page.at(-1)?.id ?? '') : null,
    total: Number(counted?.total ?? 0n),
  };
}
