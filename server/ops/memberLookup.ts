/**
 * A member as the operators' desk looks them up (docs/API.md, "Operators: finance calls"): by address or invite code
 * (exactly, else by look-alikes as a bind finds an inviter), with balances, the latest records, team counts, live
 * sessions and the withdrawals freeze; and signing them out everywhere.
 */
import { sql } from 'drizzle-orm';
import { getAddress } from 'viem';
import { z } from 'zod';
import { formatMinor } from '../../api-schema/amount';
import { bigintText, queryRows, type Db } from '../db/client';
import { listCreditRecords, listWposRecords } from '../ledger/queries';
import { freezeOf, type Freeze } from '../members/freezes';
import { exactDirectCount, exactTeamSize } from '../members/teamCounts';
import { LOOKALIKE_DIGITS, LOOKALIKE_LETTERS, lookalikeKey, normaliseInviteCode } from '../members/inviteCode';

/** Records of each asset the lookup shows. */
const RECENT_RECORDS = 20;

const memberRow = z.object({
  id: z.number().int(),
  address: z.string(),
  inviteCode: z.string(),
  recommender: z.string().nullable(),
  createdAt: z.coerce.date(),
  credit: bigintText,
  wpos: bigintText,
  direct: z.number().int(),
  total: z.number().int(),
  sessions: z.number().int(),
});

export interface MemberRecordView {
  id: string;
  asset: 'CREDIT' | 'WPOS';
  type: string;
  amount: string;
  balanceAfter: string;
  status: string;
  txHash?: string;
  createdAt: string;
}

export interface MemberLookup {
  address: string;
  inviteCode: string;
  recommender: string | null;
  createdAt: string;
  balances: { CREDIT: string; WPOS: string };
  team: { direct: number; total: number };
  sessions: number;
  frozen: Freeze | null;
  records: MemberRecordView[];
}

/** The member id of an address (any case) or an invite code, if any. */
async function memberIdOf(db: Db, q: string): Promise<number | undefined> {
  const idRow = z.object({ id: z.number().int() });
  if (q.startsWith('0x') && q.length === 42) {
    const [row] = await queryRows(db, sql`SELECT id FROM members WHERE address = ${getAddress(q.toLowerCase())}`, idRow);
    return row?.id;
  }
  const code = normaliseInviteCode(q);
  const [exact] = await queryRows(db, sql`SELECT id FROM members WHERE invite_code = ${code}`, idRow);
  if (exact) return exact.id;
  const alike = await queryRows(
    db,
    sql`SELECT id FROM members WHERE translate(invite_code, ${LOOKALIKE_LETTERS}, ${LOOKALIKE_DIGITS}) = ${lookalikeKey(code)} LIMIT 2`,
    idRow,
  );
  return alike.length === 1 ? alike[0]?.id : undefined;
}

/**
 * Looks a member up.
 *
 * @param db - database handle
 * @param q - an address or an invite code
 * @param now - the clock (live sessions)
 * @returns the member, or undefined
 * @example
 * const member = await lookUpMember(db, 'DEMO2026', now);
 */
export async function lookUpMember(db: Db, q: string, now: Date): Promise<MemberLookup | undefined> {
  const memberId = await memberIdOf(db, q);
  if (memberId === undefined) return undefined;
  const [row] = await queryRows(
    db,
    sql`SELECT m.id, m.address, m.invite_code AS "inviteCode", r.address AS recommender, m.created_at AS "createdAt",
          coalesce((SELECT a.balance FROM ledger_accounts a WHERE a.member_id = m.id AND a.asset = 'CREDIT'), 0) AS credit,
          coalesce((SELECT a.balance FROM ledger_accounts a WHERE a.member_id = m.id AND a.asset = 'WPOS'), 0) AS wpos,
          ${exactDirectCount('m')} AS direct, ${exactTeamSize('m')} AS total,
          (SELECT count(*)::int FROM tokens t WHERE t.member_id = m.id AND t.revoked_at IS NULL AND t.expires_at > ${now.toISOString()}::timestamptz) AS sessions
        FROM members m LEFT JOIN members r ON r.id = m.recommender_id
        WHERE m.id = ${memberId}::int`,
    memberRow,
  );
  if (!row) return undefined;
  const page = { memberId, page: 1, pageSize: RECENT_RECORDS };
  const [credit, wpos, frozen] = await Promise.all([listCreditRecords(db, page), listWposRecords(db, page), freezeOf(db, memberId)]);
  const records: MemberRecordView[] = [
    ...credit.list.map((record) => ({
      id: record.id,
      asset: 'CREDIT' as const,
      type: record.type,
      amount: record.amount,
      balanceAfter: record.balanceAfter,
      status: record.status,
      ...(record.txHash ? { txHash: record.txHash } : {}),
      createdAt: record.createdAt,
    })),
    ...wpos.list.map((record) => ({ id: record.id, asset: 'WPOS' as const, type: record.type, amount: record.amount, balanceAfter: record.balanceAfter, status: 'done', createdAt: record.createdAt })),
  ].sort((a, b) => Number(BigInt(b.id) - BigInt(a.id)));
  return {
    address: row.address,
    inviteCode: row.inviteCode,
    recommender: row.recommender,
    createdAt: row.createdAt.toISOString(),
    balances: { CREDIT: formatMinor(row.credit), WPOS: formatMinor(row.wpos) },
    team: { direct: row.direct, total: row.total },
    sessions: row.sessions,
    frozen,
    records,
  };
}

/**
 * Signs a member out everywhere: every session token not revoked yet is revoked now.
 *
 * @param db - database handle
 * @param memberId - the member
 * @param now - when
 * @returns how many tokens were revoked
 * @example
 * const revoked = await signMemberOut(db, 3, now);
 */
export async function signMemberOut(db: Db, memberId: number, now: Date): Promise<number> {
  const rows = await queryRows(
    db,
    sql`UPDATE tokens SET revoked_at = ${now.toISOString()}::timestamptz WHERE member_id = ${memberId}::int AND revoked_at IS NULL RETURNING 1 AS one`,
    z.object({ one: z.number() }),
  );
  return rows.length;
}
