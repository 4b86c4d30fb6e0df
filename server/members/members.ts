/** Members: created at first sign-in, read for meInfo. */
import { eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import type { MeInfo } from '../../api-schema/member';
import { queryRows, type Db } from '../db/client';
import { members } from '../db/schema';
import { formatMinor } from '../money';
import { randomInviteCode } from './inviteCode';

export interface MemberRow {
  id: number;
  recommenderId: number | null;
  isRoot: boolean;
}

/**
 * Returns the member of an address, creating it on first sign-in with a fresh unique invite code.
 *
 * @param tx - transaction handle (the sign-in transaction)
 * @param address - EIP-55 address
 * @param now - creation time for a new member
 * @returns the member's id and bind state
 * @example
 * const member = await findOrCreateMember(tx, fields.address, now);
 */
export async function findOrCreateMember(tx: Db, address: string, now: Date): Promise<MemberRow> {
  const columns = { id: members.id, recommenderId: members.recommenderId, isRoot: members.isRoot };
  for (let attempt = 0; attempt < 8; attempt++) {
    const [existing] = await tx.select(columns).from(members).where(eq(members.address, address));
    if (existing) return existing;
    // ON CONFLICT DO NOTHING rather than catching a unique violation: in PostgreSQL an error aborts the whole
    // transaction. No row back means either the address was inserted meanwhile by another instance (found by the
    // select on the next turn) or the invite code collided (a new one is drawn).
    const [created] = await tx
      .insert(members)
      .values({ address, inviteCode: randomInviteCode(), createdAt: now })
      .onConflictDoNothing()
      .returning(columns);
    if (created) return created;
  }
  throw new Error('could not create a member: invite codes keep colliding');
}

/**
 * Whether a member counts as bound: it has a recommender, or it is the root of the tree (the seeded inviter).
 *
 * @param member - the member's bind state
 * @returns true when bound
 * @example
 * isBound({ id: 1, recommenderId: null, isRoot: true }); // true
 */
export function isBound(member: Pick<MemberRow, 'recommenderId' | 'isRoot'>): boolean {
  return member.recommenderId !== null || member.isRoot;
}

/** The recommender of a member, joined by address for meInfo (a left join: the root and new members have none). */
export const recommender = alias(members, 'recommender');

/**
 * The columns meInfo answers with, for a select from members left-joined to `recommender`; resolveToken reads them
 * with the token, so a meInfo request is one statement.
 */
export const memberRecordColumns = {
  address: members.address,
  inviteCode: members.inviteCode,
  recommender: recommender.address,
  level: members.level,
  creditBalance: members.creditBalance,
  wposBalance: members.wposBalance,
  teamSize: members.teamSize,
  directCount: members.directCount,
  createdAt: members.createdAt,
};

export interface MemberRecord {
  address: string;
  inviteCode: string;
  recommender: string | null;
  level: number;
  creditBalance: bigint;
  wposBalance: bigint;
  teamSize: number;
  directCount: number;
  createdAt: Date;
}

/**
 * Formats a member as meInfo returns it: balances as decimal strings, the creation time in ISO 8601.
 *
 * @param record - the member's columns (memberRecordColumns)
 * @returns the meInfo result
 * @example
 * const info = toMeInfo(requireAuth(request).member);
 */
export function toMeInfo(record: MemberRecord): MeInfo {
  return {
    address: record.address,
    inviteCode: record.inviteCode,
    recommender: record.recommender,
    level: record.level,
    creditBalance: formatMinor(record.creditBalance),
    wposBalance: formatMinor(record.wposBalance),
    teamSize: record.teamSize,
    directCount: record.directCount,
    createdAt: record.createdAt.toISOString(),
  };
}

/**
 * Reads what meInfo returns for a member, in one statement. (The meInfo route answers from the record the access
 * hook read with the token; this is for callers that have only the member's id.)
 *
 * @param db - database handle
 * @param memberId - the member
 * @returns the meInfo result, or undefined when the member does not exist
 * @example
 * const info = await getMemberInfo(db, auth.memberId);
 */
export async function getMemberInfo(db: Db, memberId: number): Promise<MeInfo | undefined> {
  const [row] = await db
    .select(memberRecordColumns)
    .from(members)
    .leftJoin(recommender, eq(recommender.id, members.recommenderId))
    .where(eq(members.id, memberId));
  return row ? toMeInfo(row) : undefined;
}

/**
 * Addresses of a member's whole downline, sorted. Everyone in a downline is bound by construction (being in it
 * means having a recommender), which is what a WPOS transfer needs of its recipient.
 *
 * @param db - database handle
 * @param memberId - the member
 * @returns EIP-55 addresses
 * @example
 * const list = await listDownlineAddresses(db, auth.memberId);
 */
export async function listDownlineAddresses(db: Db, memberId: number): Promise<string[]> {
  const rows = await queryRows(
    db,
    sql`WITH RECURSIVE downline(id) AS (
          SELECT id FROM ${members} WHERE recommender_id = ${memberId}
          UNION
          SELECT m.id FROM ${members} m JOIN downline d ON m.recommender_id = d.id
        )
        SELECT m.address FROM ${members} m JOIN downline d ON m.id = d.id ORDER BY m.address`,
    z.object({ address: z.string() }),
  );
  return rows.map((row) => row.address);
}
