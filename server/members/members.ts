/** Members: created at first sign-in (server/auth/signIn.ts), read for meInfo. */
import { and, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import type { MeInfo } from '../../api-schema/member';
import { getAddress, isAddress } from 'viem';
import { queryRows, rowsOf, type Db } from '../db/client';
import { InvalidParametersError } from '../errors';
import { namedStatement } from '../ledger/statements';
import { ledgerAccounts, members } from '../db/schema';
import { formatMinor } from '../../api-schema/amount';
import { exactDirectCount, exactTeamSize } from './teamCounts';

export interface MemberRow {
  id: number;
  recommenderId: number | null;
  isRoot: boolean;
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
/** The member's ledger accounts, joined for meInfo's balances (left joins: an account exists from the first movement). */
export const creditAccount = alias(ledgerAccounts, 'credit_account');
export const wposAccount = alias(ledgerAccounts, 'wpos_account');

/** The join conditions of creditAccount and wposAccount to `members`. */
export const creditAccountJoin = and(eq(creditAccount.memberId, members.id), eq(creditAccount.asset, sql`'CREDIT'`));
export const wposAccountJoin = and(eq(wposAccount.memberId, members.id), eq(wposAccount.asset, sql`'WPOS'`));

const toBigInt = (value: unknown): bigint => BigInt(value as string | number | bigint);

/**
 * The columns meInfo answers with, for a select from members left-joined to `recommender`, `creditAccount` and
 * `wposAccount`; resolveToken reads them with the token, so a meInfo request is one statement. The balances are
 * the member's ledger accounts (docs/API.md: "meInfo's balances are the member accounts").
 */
export const memberRecordColumns = {
  address: members.address,
  inviteCode: members.inviteCode,
  recommender: recommender.address,
  level: members.level,
  creditBalance: sql<bigint>`coalesce(${creditAccount.balance}, 0)`.mapWith(toBigInt),
  wposBalance: sql<bigint>`coalesce(${wposAccount.balance}, 0)`.mapWith(toBigInt),
  teamSize: sql<number>`${exactTeamSize('members')}`.mapWith(Number),
  directCount: sql<number>`${exactDirectCount('members')}`.mapWith(Number),
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

/**
 * An address as the server keeps it (EIP-55). Any case is accepted when all lower or all upper; a mixed-case address
 * with a wrong checksum is a typo, refused as 1001 naming the field.
 *
 * @param address - 0x and 40 hex digits (the contract's address schema let it through)
 * @param field - the request field, for the error
 * @returns the checksummed address
 * @throws InvalidParametersError (1001)
 * @example
 * checksummedAddress('0x8ba1f109551bd432803012645ac136ddd64dba72', 'toAddress'); // '0x8ba1f109551bD432803012645Ac136ddd64DBA72'
 */
export function checksummedAddress(address: string, field: string): string {
  if (!isAddress(address, { strict: true })) throw new InvalidParametersError(field);
  return getAddress(address);
}

const recipientStatement = namedStatement(
  'transfer_recipient',
  sql`SELECT m.id, coalesce((SELECT tree_is_below(c.id, c.tree_depth, m.tree_depth, m.near_ancestors, m.checkpoint_ancestors)
                              FROM members c WHERE c.id = ${sql.placeholder('callerId')}::int), false) AS "inTeam"
      FROM members m WHERE m.address = ${sql.placeholder('address')}::text`,
);
const recipientRow = z.object({ id: z.number().int(), inTeam: z.boolean() });

/**
 * Who a transfer would pay: the member of the address and whether the caller may pay it (docs/API.md: only the members
 * of getRentValidBindMemberAddress, the caller's downline; never itself, an upline or a stranger). The recipient's
 * kept ancestors answer it (tree_is_below).
 *
 * @param db - database handle
 * @param callerId - the sender
 * @param address - the recipient's EIP-55 address
 * @returns the recipient's member id (undefined for a stranger) and whether it is in the caller's team
 * @example
 * const { memberId, allowed } = await transferRecipient(db, auth.memberId, toAddress);
 */
export async function transferRecipient(db: Db, callerId: number, address: string): Promise<{ memberId: number | undefined; allowed: boolean }> {
  const key = `${callerId}:${address}`;
  const known = allowedRecipients.get(key);
  if (known !== undefined) return { memberId: known, allowed: true };
  const [row] = rowsOf(await recipientStatement(db).execute({ callerId, address }), recipientRow);
  if (row?.inTeam) {
    if (allowedRecipients.size >= ALLOWED_RECIPIENTS_KEPT) allowedRecipients.delete(allowedRecipients.keys().next().value ?? '');
    allowedRecipients.set(key, row.id);
  }
  return { memberId: row?.id, allowed: row?.inTeam ?? false };
}

/**
 * Recipients found in a caller's team, by "caller:address". A yes never turns into a no (a binding is never undone,
 * an address never changes member), so every instance may keep it; a no is asked again, since a stranger may bind
 * into the team later. It saves the lookup on a member's repeated transfers (a PostgreSQL round trip each).
 */
const allowedRecipients = new Map<string, number>();
const ALLOWED_RECIPIENTS_KEPT = 10_000;

/**
 * Forgets the recipients found so far: for tests that empty the database under a running process (member ids start
 * again at 1 then, so a kept yes would name someone else).
 *
 * @returns nothing
 * @example
 * forgetAllowedRecipients();
 */
export function forgetAllowedRecipients(): void {
  allowedRecipients.clear();
}
