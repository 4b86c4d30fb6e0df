/**
 * The recommender tree. Binding is the only write: a member without recommender picks one by invite code, once,
 * and never itself or anyone below it (a cycle would make team counts and payouts loop).
 */
import { and, eq, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import { lockTransaction, queryRows, type Db } from '../db/client';
import { memberTree, members } from '../db/schema';
import { LOOKALIKE_DIGITS, LOOKALIKE_LETTERS, lookalikeKey, normaliseInviteCode } from './inviteCode';
import { isBound } from './members';

/**
 * Binds take this transaction lock. Row locks alone cannot stop two members binding to each other at the same
 * moment (each checks the other's ancestors before either commits); one lock for the whole tree makes bind
 * decisions sequential, which is cheap since binding happens once per member.
 */
const MEMBER_TREE_LOCK = 4_361_000_002;

export type BindOutcome = 'bound' | 'inviteCodeUnknown' | 'alreadyBound' | 'cycle';

/**
 * Binds a member's recommender by invite code, inside the caller's transaction.
 *
 * @param tx - transaction handle; nothing is written unless the outcome is "bound"
 * @param memberId - the member to bind
 * @param inviteCode - the recommender's invite code, any case
 * @returns "bound", or why not: unknown code, already bound, or a cycle (self or own downline)
 * @example
 * const outcome = await db.transaction((tx) => bindRecommender(tx, auth.memberId, 'DEMO2026'));
 */
export async function bindRecommender(tx: Db, memberId: number, inviteCode: string): Promise<BindOutcome> {
  await lockTransaction(tx, MEMBER_TREE_LOCK);
  const inviter = await findInviter(tx, inviteCode);
  if (!inviter) return 'inviteCodeUnknown';

  const [member] = await tx
    .select({ id: members.id, recommenderId: members.recommenderId, isRoot: members.isRoot, teamSize: members.teamSize })
    .from(members)
    .where(eq(members.id, memberId));
  if (!member) throw new Error(`member ${memberId} vanished during bind`);
  if (isBound(member)) return 'alreadyBound';

  if (inviter.id === memberId || (await isAncestor(tx, memberId, inviter.id))) return 'cycle';

  const updated = await tx
    .update(members)
    .set({ recommenderId: inviter.id })
    .where(and(eq(members.id, memberId), isNull(members.recommenderId), eq(members.isRoot, false)))
    .returning({ id: members.id });
  // Under the tree lock nobody else can have bound this member since the read above.
  if (updated.length !== 1) throw new Error(`member ${memberId} changed during bind`);
  await addToAncestors(tx, inviter.id, member.teamSize + 1);
  await addTreeRows(tx, inviter.id, memberId);
  return 'bound';
}

/**
 * The member whose invite code was typed: the code exactly (any case), else the one member whose code differs from
 * it only by look-alikes (O/0, I/1, L/1; a code typed from a poster). Two such members match nobody, rather than
 * the wrong one. Both lookups use an index (the unique code, and migration 0010's expression index).
 */
async function findInviter(tx: Db, inviteCode: string): Promise<{ id: number } | undefined> {
  const code = normaliseInviteCode(inviteCode);
  const [exact] = await tx.select({ id: members.id }).from(members).where(eq(members.inviteCode, code));
  if (exact) return exact;
  const alike = await tx
    .select({ id: members.id })
    .from(members)
    .where(sql`translate(${members.inviteCode}, ${LOOKALIKE_LETTERS}, ${LOOKALIKE_DIGITS}) = ${lookalikeKey(code)}`)
    .limit(2);
  return alike.length === 1 ? alike[0] : undefined;
}

/**
 * Keeps the closure table (member_tree) after a bind: every member at or above the inviter gains every member at
 * or below the newly bound one, at the sum of the two depths plus one. Runs in the bind's transaction under the
 * tree lock, like the team counts.
 *
 * @param tx - the bind's transaction
 * @param inviterId - the new recommender
 * @param memberId - the newly bound member (it may already have a downline of its own)
 * @returns when done
 * @example
 * await addTreeRows(tx, inviter.id, memberId);
 */
async function addTreeRows(tx: Db, inviterId: number, memberId: number): Promise<void> {
  await tx.execute(
    sql`INSERT INTO ${memberTree} (ancestor_id, member_id, depth)
        SELECT up.id, down.id, up.depth + down.depth + 1
        FROM (SELECT ${inviterId}::int AS id, 0 AS depth
              UNION ALL SELECT ancestor_id, depth FROM ${memberTree} WHERE member_id = ${inviterId}::int) up
        CROSS JOIN (SELECT ${memberId}::int AS id, 0 AS depth
              UNION ALL SELECT member_id, depth FROM ${memberTree} WHERE ancestor_id = ${memberId}::int) down`,
  );
}

/**
 * Keeps the team counts (members.team_size, direct_count) after a bind: the inviter and every member above it
 * gain the newly bound member and its whole downline, and the inviter gains one direct member. Runs in the bind's
 * transaction under the tree lock, so counts and tree change together.
 *
 * @param tx - the bind's transaction
 * @param inviterId - the new recommender
 * @param joined - members that joined the inviter's team: the bound member and its downline
 * @returns when done
 * @example
 * await addToAncestors(tx, inviter.id, member.teamSize + 1);
 */
async function addToAncestors(tx: Db, inviterId: number, joined: number): Promise<void> {
  // UNION stops the walk even if a cycle ever slipped in; binding forbids cycles, this is only a second line.
  await tx.execute(
    sql`WITH RECURSIVE up(id) AS (
          SELECT ${inviterId}::int
          UNION
          SELECT m.recommender_id FROM ${members} m JOIN up ON m.id = up.id WHERE m.recommender_id IS NOT NULL
        )
        UPDATE ${members}
        SET team_size = team_size + ${joined}::int,
            direct_count = direct_count + (CASE WHEN id = ${inviterId}::int THEN 1 ELSE 0 END)
        WHERE id IN (SELECT id FROM up)`,
  );
}

/**
 * Whether `ancestorId` is on the recommender chain above `memberId`.
 *
 * @param db - database handle
 * @param ancestorId - the member that may be above
 * @param memberId - where the walk up starts
 * @returns true when found on the chain
 * @example
 * await isAncestor(tx, newcomer.id, inviter.id); // inviter is in the newcomer's downline?
 */
export async function isAncestor(db: Db, ancestorId: number, memberId: number): Promise<boolean> {
  const [row] = await queryRows(
    db,
    sql`WITH RECURSIVE up(id, recommender_id) AS (
          SELECT id, recommender_id FROM ${members} WHERE id = ${memberId}
          UNION
          SELECT m.id, m.recommender_id FROM ${members} m JOIN up ON m.id = up.recommender_id
        )
        SELECT EXISTS (SELECT 1 FROM up WHERE id = ${ancestorId}) AS "found"`,
    z.object({ found: z.boolean() }),
  );
  return row?.found ?? false;
}
