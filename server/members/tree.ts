/**
 * The recommender tree. Binding is the only write: a member without recommender picks one by invite code, once,
 * and never itself or anyone below it (a cycle would make team counts and payouts loop).
 */
import { and, eq, isNull, sql, TransactionRollbackError } from 'drizzle-orm';
import { z } from 'zod';
import { lockTransaction, queryRows, type Db } from '../db/client';
import { createBatcher } from '../ledger/batcher';
import { members, teamCounts, treeJoins } from '../db/schema';
import { LOOKALIKE_DIGITS, LOOKALIKE_LETTERS, lookalikeKey, normaliseInviteCode } from './inviteCode';
import { isBound } from './members';
import { foldTeamCounts } from './teamCounts';

/**
 * How many nearest ancestors each member keeps, and the spacing of the ancestors it keeps beyond them
 * (members.near_ancestors, checkpoint_ancestors). 64 balances the two arrays at the depths campaigns reach: a member
 * 5,000 levels down keeps 64 + 79 ids. Migration 0033's tree_is_below and tree_bind say the same number.
 */
export const TREE_NEAR = 64;

/**
 * Binds take this transaction lock (tree_bind, migration 0033, says the same number): shared when the member has no
 * downline yet (nearly every bind: a member binds right after its first sign-in), exclusive when it has one. Row
 * locks order two binds that touch the same member; the exclusive lock orders the binds that could close a cycle
 * between two downlines (ADR 0034 gives the argument).
 */
const MEMBER_TREE_LOCK = 4_361_000_002;

export type BindOutcome = 'bound' | 'inviteCodeUnknown' | 'alreadyBound' | 'cycle';

/** What tree_bind answers: an outcome, or 'exclusive' for a member with a downline (bindWithDownline). */
const bindOutcomeRow = z.object({ i: z.number(), outcome: z.enum(['bound', 'inviteCodeUnknown', 'alreadyBound', 'cycle', 'exclusive']) });

/**
 * Binds a member's recommender by invite code, inside the caller's transaction. The member takes its place below
 * the inviter (its depth and kept ancestors, and its downline's if it has one) and the bind waits in tree_joins for
 * the count fold (server/members/teamCounts.ts); no ancestor's row is written, so binds deep in the tree cost what
 * binds near the top cost.
 *
 * @param tx - transaction handle; nothing is written unless the outcome is "bound"
 * @param memberId - the member to bind
 * @param inviteCode - the recommender's invite code, any case
 * @returns "bound", or why not: unknown code, already bound, or a cycle (self or own downline)
 * @example
 * const outcome = await db.transaction((tx) => bindRecommender(tx, auth.memberId, 'DEMO2026'));
 */
export async function bindRecommender(tx: Db, memberId: number, inviteCode: string): Promise<BindOutcome> {
  const code = normaliseInviteCode(inviteCode);
  // A member without a downline binds in tree_bind (migration 0033) under the shared lock: one round trip. In a
  // savepoint: an 'exclusive' answer rolls it back, which lets go of the shared lock and the rows tree_bind locked
  // before the exclusive lock is asked for. Held on, they deadlocked against binds waiting for those rows while
  // holding the shared lock themselves (40P01 in a rush of 60 binds on PostgreSQL).
  const outcome = await tx
    .transaction(async (savepoint) => {
      const [row] = await queryRows(
        savepoint,
        sql`SELECT 0 AS i, tree_bind(${memberId}::int, ${code}::text, ${lookalikeKey(code)}::text) AS outcome`,
        bindOutcomeRow,
      );
      if (!row) throw new Error('tree_bind answered nothing');
      if (row.outcome === 'exclusive') savepoint.rollback();
      return row.outcome;
    })
    .catch((error: unknown) => {
      if (error instanceof TransactionRollbackError) return 'exclusive' as const;
      throw error;
    });
  return outcome === 'exclusive' ? bindWithDownline(tx, memberId, code) : outcome;
}

/** Binds, one at a time or a turn of the event loop's together (createBinder). */
export interface Binder {
  bind(memberId: number, inviteCode: string): Promise<BindOutcome>;
}

/**
 * Binds batched (ADR 0012's group commit, as sign-ins' sessions): the binds that arrive in one turn of the event
 * loop run as one statement of tree_bind calls and one commit; a member with a downline then binds alone under the
 * exclusive lock. On PGlite a statement's fixed cost and its commit were most of a bind's time, so a rush of
 * sign-ups that bind goes at the pace of sign-ins.
 *
 * @param db - database handle
 * @param maxInFlight - batches at once (BATCHES_IN_FLIGHT of the driver)
 * @returns the binder
 * @example
 * const outcome = await createBinder(db, 1).bind(memberId, 'DEMO2026');
 */
export function createBinder(db: Db, maxInFlight: number): Binder {
  const batcher = createBatcher(
    async (items: { memberId: number; code: string }[]) => {
      const rows = items.map((item, i) => ({ i, member: item.memberId, code: item.code, alike: lookalikeKey(item.code) }));
      const outcomes = await queryRows(
        db,
        sql`SELECT b.i, tree_bind(b.member, b.code, b.alike) AS outcome
            FROM json_to_recordset(${JSON.stringify(rows)}::json) AS b(i int, member int, code text, alike text) ORDER BY b.i`,
        bindOutcomeRow,
      );
      const byItem = new Map(outcomes.map((row) => [row.i, row.outcome]));
      return items.map((_, i) => byItem.get(i) ?? 'exclusive');
    },
    { maxBatch: 128, maxInFlight },
  );
  return {
    bind: async (memberId, inviteCode) => {
      const code = normaliseInviteCode(inviteCode);
      const outcome = await batcher.submit({ memberId, code });
      return outcome === 'exclusive' ? db.transaction((tx) => bindWithDownline(tx, memberId, code)) : outcome;
    },
  };
}

/**
 * The bind of a member that has a downline already: under the exclusive lock, refused when the inviter is in that
 * downline (a cycle), with the counts waiting below the member folded first (they must reach the ancestors it is
 * about to gain), its whole downline placed again, and the member joining with its whole team.
 */
async function bindWithDownline(tx: Db, memberId: number, code: string): Promise<BindOutcome> {
  await lockTransaction(tx, MEMBER_TREE_LOCK);
  const inviter = await findInviter(tx, code);
  if (!inviter) return 'inviteCodeUnknown';
  const member = await lockBindRows(tx, memberId, inviter.id);
  if (isBound(member)) return 'alreadyBound';
  if (inviter.id === memberId || (await isAncestor(tx, memberId, inviter.id))) return 'cycle';
  await foldTeamCounts(tx);
  const joined = 1 + (await keptTeamSize(tx, memberId));
  const updated = await tx
    .update(members)
    .set({ recommenderId: inviter.id })
    .where(and(eq(members.id, memberId), isNull(members.recommenderId), eq(members.isRoot, false)))
    .returning({ id: members.id });
  // The member's row is locked since lockBindRows: nobody else can have bound it since.
  if (updated.length !== 1) throw new Error(`member ${memberId} changed during bind`);
  await placeBelow(tx, inviter.id, memberId);
  await tx.execute(
    sql`INSERT INTO ${treeJoins} (member_id, inviter_id, joined, tree_depth, near_ancestors, checkpoint_ancestors)
        SELECT id, ${inviter.id}::int, ${joined}::int, tree_depth, near_ancestors, checkpoint_ancestors FROM ${members} WHERE id = ${memberId}::int`,
  );
  return 'bound';
}

/** The member's team size as kept (after a fold, the exact one). */
async function keptTeamSize(tx: Db, memberId: number): Promise<number> {
  const [row] = await tx.select({ teamSize: teamCounts.teamSize }).from(teamCounts).where(eq(teamCounts.memberId, memberId));
  return row?.teamSize ?? 0;
}

/**
 * Locks the member (to update) and the inviter (against a change of its key, so nobody deletes or re-keys it; its
 * counts stay writable by the fold) in id order, so two binds of two members to each other wait rather than
 * deadlock. Returns the member's bind state, read under its lock.
 */
async function lockBindRows(tx: Db, memberId: number, inviterId: number): Promise<{ recommenderId: number | null; isRoot: boolean }> {
  const lockMember = () =>
    queryRows(
      tx,
      sql`SELECT recommender_id AS "recommenderId", is_root AS "isRoot" FROM ${members} WHERE id = ${memberId}::int FOR UPDATE`,
      z.object({ recommenderId: z.number().nullable(), isRoot: z.boolean() }),
    );
  const lockInviter = () => tx.execute(sql`SELECT 1 FROM ${members} WHERE id = ${inviterId}::int FOR KEY SHARE`);
  let rows;
  if (memberId < inviterId) {
    rows = await lockMember();
    await lockInviter();
  } else {
    await lockInviter();
    rows = await lockMember();
  }
  const [member] = rows;
  if (!member) throw new Error(`member ${memberId} vanished during bind`);
  return member;
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

/** Where a member sits: what members.tree_depth, near_ancestors and checkpoint_ancestors keep. */
export interface TreePosition {
  depth: number;
  near: number[];
  checkpoints: number[];
}

/**
 * The position of a member bound to `inviterId` at `inviter`: what placeBelow writes, for loaders that build many
 * members at once (the scale bench, bulk test teams).
 *
 * @param inviterId - the recommender's id
 * @param inviter - the recommender's position
 * @returns the new member's position
 * @example
 * positionBelow(1, { depth: 0, near: [], checkpoints: [] }); // { depth: 1, near: [1], checkpoints: [1] }
 */
export function positionBelow(inviterId: number, inviter: TreePosition): TreePosition {
  return {
    depth: inviter.depth + 1,
    near: [inviterId, ...inviter.near].slice(0, TREE_NEAR),
    checkpoints: inviter.depth % TREE_NEAR === 0 ? [...inviter.checkpoints, inviterId] : inviter.checkpoints,
  };
}

/**
 * Places a newly bound member below its inviter: its depth, nearest ancestors and checkpoints follow from the
 * inviter's by copying two short arrays, whatever the depth. A member that already had a downline moves with it
 * (each member below gets its new place from its parent's, top down); that is the rare bind that costs its downline.
 *
 * @param tx - the bind's transaction
 * @param inviterId - the new recommender
 * @param memberId - the newly bound member
 * @returns when done
 * @example
 * await placeBelow(tx, inviter.id, memberId);
 */
async function placeBelow(tx: Db, inviterId: number, memberId: number): Promise<void> {
  await tx.execute(
    sql`WITH RECURSIVE placed(id, depth, near, checkpoints) AS (
          SELECT ${memberId}::int, i.tree_depth + 1, (ARRAY[i.id] || i.near_ancestors)[1:${TREE_NEAR}],
                 i.checkpoint_ancestors || CASE WHEN i.tree_depth % ${TREE_NEAR} = 0 THEN ARRAY[i.id] ELSE '{}'::int[] END
          FROM ${members} i WHERE i.id = ${inviterId}::int
          UNION ALL
          SELECT c.id, p.depth + 1, (ARRAY[p.id] || p.near)[1:${TREE_NEAR}],
                 p.checkpoints || CASE WHEN p.depth % ${TREE_NEAR} = 0 THEN ARRAY[p.id] ELSE '{}'::int[] END
          FROM placed p JOIN ${members} c ON c.recommender_id = p.id
        )
        UPDATE ${members} m SET tree_depth = p.depth, near_ancestors = p.near, checkpoint_ancestors = p.checkpoints
        FROM placed p WHERE m.id = p.id`,
  );
}

/**
 * Whether `ancestorId` is above `memberId` in the tree: two array reads at most (tree_is_below, migration 0033),
 * whatever the depth.
 *
 * @param db - database handle
 * @param ancestorId - the member that may be above
 * @param memberId - the member that may be below
 * @returns true when `ancestorId` is one of `memberId`'s ancestors
 * @example
 * await isAncestor(tx, newcomer.id, inviter.id); // inviter is in the newcomer's downline?
 */
export async function isAncestor(db: Db, ancestorId: number, memberId: number): Promise<boolean> {
  const [row] = await queryRows(
    db,
    sql`SELECT tree_is_below(a.id, a.tree_depth, m.tree_depth, m.near_ancestors, m.checkpoint_ancestors) AS "found"
        FROM ${members} a, ${members} m WHERE a.id = ${ancestorId}::int AND m.id = ${memberId}::int`,
    z.object({ found: z.boolean() }),
  );
  return row?.found ?? false;
}
