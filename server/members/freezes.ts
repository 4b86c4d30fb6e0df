/**
 * A member's withdrawals frozen by an operator (docs/API.md, "Operators: finance calls"): while frozen, the member's
 * withdrawCredit is refused with 3008 and no operator can approve their pending withdrawals (3008). Withdrawals
 * approved before the freeze are still paid: freezing stops what starts, an operator fails an approved one to stop it.
 * One row per frozen member (member_freezes); unfreezing deletes it, and the audit log keeps the history.
 */
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { queryRows, type Db } from '../db/client';
import { WithdrawalsFrozenError } from '../errors';

export interface Freeze {
  reason: string;
  frozenAt: string;
  /** The operator's address; null for the bootstrap ADMIN_TOKEN. */
  frozenBy: string | null;
}

const freezeRow = z.object({ reason: z.string(), frozenAt: z.coerce.date(), frozenBy: z.string().nullable() });

/**
 * The member's freeze, if frozen.
 *
 * @param db - database handle
 * @param memberId - the member
 * @returns the freeze, or null
 * @example
 * const freeze = await freezeOf(db, 3);
 */
export async function freezeOf(db: Db, memberId: number): Promise<Freeze | null> {
  const [row] = await queryRows(
    db,
    sql`SELECT reason, frozen_at AS "frozenAt", frozen_by AS "frozenBy" FROM member_freezes WHERE member_id = ${memberId}::int`,
    freezeRow,
  );
  return row ? { reason: row.reason, frozenAt: row.frozenAt.toISOString(), frozenBy: row.frozenBy } : null;
}

/**
 * Refuses a frozen member's withdrawal (or its approval).
 *
 * @param db - database handle
 * @param memberId - the member
 * @throws WithdrawalsFrozenError (3008) when frozen
 * @example
 * await refuseFrozen(db, memberId);
 */
export async function refuseFrozen(db: Db, memberId: number): Promise<void> {
  const [row] = await queryRows(db, sql`SELECT 1 AS one FROM member_freezes WHERE member_id = ${memberId}::int`, z.object({ one: z.number() }));
  if (row) throw new WithdrawalsFrozenError();
}

/**
 * Freezes (again, with a new reason) or unfreezes a member's withdrawals.
 *
 * @param db - database or transaction handle
 * @param input - member, frozen or not, reason, operator, time
 * @returns the freeze now (null when unfrozen)
 * @example
 * await setFreeze(tx, { memberId: 3, frozen: true, reason: 'chargeback', by: '0xAb…', now });
 */
export async function setFreeze(db: Db, input: { memberId: number; frozen: boolean; reason: string; by: string | null; now: Date }): Promise<Freeze | null> {
  const { memberId, frozen, reason, by, now } = input;
  if (!frozen) {
    await db.execute(sql`DELETE FROM member_freezes WHERE member_id = ${memberId}::int`);
    return null;
  }
  await db.execute(
    sql`INSERT INTO member_freezes (member_id, reason, frozen_by, frozen_at) VALUES (${memberId}::int, ${reason}, ${by}, ${now.toISOString()}::timestamptz)
        ON CONFLICT (member_id) DO UPDATE SET reason = excluded.reason, frozen_by = excluded.frozen_by, frozen_at = excluded.frozen_at`,
  );
  return { reason, frozenAt: now.toISOString(), frozenBy: by };
}
