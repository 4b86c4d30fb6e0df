/**
 * A member's account frozen by an operator (docs/API.md, "Operators: finance calls"): while frozen, no value leaves
 * the member's accounts by any flow: the ledger engine refuses every debit of them with 3008 (withdrawals, exchanges,
 * transfers, purchases, and whatever flow comes later: the engine's rule, not each route's), except an operator's
 * deduction under the policy. Nothing of theirs is approved on request, and no operator can approve their pending
 * withdrawals (3008). A freeze takes the member's account locks, so a debit already under way commits before it and
 * every later one is refused. Withdrawals approved before the freeze are still paid: freezing stops what starts, an
 * operator fails an approved one to stop it. One row per frozen member (member_freezes); unfreezing deletes it, and
 * the audit log keeps the history.
 */
import { inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import { queryRows, type Db } from '../db/client';
import { memberFreezes } from '../db/schema';
import { WithdrawalsFrozenError } from '../errors';
import { createBatcher } from '../ledger/batcher';
import type { AutoApproval } from '../ledger/autoApproval';
import { statusOfStage, WithdrawalStage } from '../ledger/withdrawalLifecycle';

export interface Freeze {
  reason: string;
  frozenAt: string;
  /** The operator's address; null on rows of the removed ADMIN_TOKEN. */
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
  if (await isFrozen(db, memberId)) throw new WithdrawalsFrozenError();
}

async function isFrozen(db: Db, memberId: number): Promise<boolean> {
  const [row] = await queryRows(db, sql`SELECT 1 AS one FROM member_freezes WHERE member_id = ${memberId}::int`, z.object({ one: z.number() }));
  return row !== undefined;
}

/**
 * The auto-approval of a server that leaves a frozen member's withdrawal pending: a withdrawal that passed the
 * refusal just before a freeze landed is not approved on request (and no operator can approve it while frozen).
 * The freezes of the withdrawals that arrive together are read in one statement (server/ledger/batcher.ts, as the
 * withdrawals themselves), so the check costs a busy server no statement per withdrawal.
 *
 * @param db - database handle
 * @param autoApproval - the server's auto-approval
 * @param maxInFlight - reads at once (BATCHES_IN_FLIGHT of the driver)
 * @returns the same, checking the freeze first
 * @example
 * const autoApproval = unlessFrozen(db, createAutoApproval({ db, ledger, budget }), 1);
 */
export function unlessFrozen(db: Db, autoApproval: AutoApproval, maxInFlight: number): AutoApproval {
  const frozen = createBatcher((memberIds: number[]) => frozenAmong(db, memberIds), { maxBatch: 128, maxInFlight });
  return {
    async decide(withdrawal, now) {
      return (await frozen.submit(withdrawal.memberId)) ? statusOfStage(WithdrawalStage.held) : autoApproval.decide(withdrawal, now);
    },
  };
}

/** Whether each member is frozen, in order. */
async function frozenAmong(db: Db, memberIds: readonly number[]): Promise<boolean[]> {
  const rows = await db.select({ memberId: memberFreezes.memberId }).from(memberFreezes).where(inArray(memberFreezes.memberId, [...new Set(memberIds)]));
  const frozen = new Set(rows.map((row) => row.memberId));
  return memberIds.map((memberId) => frozen.has(memberId));
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
  // The member's accounts' locks, which every debit of them takes first (engine.sql): a debit in flight commits
  // before the freeze, and every debit after it reads the freeze and is refused (3008).
  await db.execute(sql`SELECT 1 FROM ledger_accounts WHERE member_id = ${memberId}::int ORDER BY asset FOR UPDATE`);
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
