/**
 * Acts on one target that wait for a second operator above what one may do alone (server/ops/policy.ts): a held
 * top-up's release, an order's refund. The first operator's call is decided by the policy: alone, the act goes ahead;
 * else their approval is recorded (ops_approvals, one row per act, target and operator) and the act waits. A second,
 * different operator's call on the same target and subject completes it. A removed operator's approval no longer
 * counts. Callers hold the target's lock for the transaction (the held top-ups' decision lock, the order's row).
 */
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { queryRows, type Db } from '../db/client';
import { AlreadyDecidedError } from '../errors';
import { isCurrentOperatorSql } from './operators';
import { actorKeyOf, confirmPolicy, decidePolicy, type OperatorsPolicy, type PolicyCheck } from './policy';

/** What the act should do now. */
export interface SecondApproval {
  /** Go ahead: the act happens in this transaction. */
  proceed: boolean;
  /** This call recorded something (an approval, or the act): it writes an audit row. */
  changed: boolean;
  /** Whose act it is (the totals count against them) and who confirmed it, if a second operator did. */
  requestedBy: string;
  confirmedBy: string | null;
  /** The approving operators so far (current ones). */
  approvals: string[];
}

const approvalRow = z.object({ operator: z.string(), subject: z.string() });

/**
 * The approvals of current operators recorded for an act on a target, oldest first.
 *
 * @param tx - database handle or the act's transaction
 * @param act - the policy's act
 * @param target - what is acted on (e.g. `payoutPause:3`)
 * @returns each approval's operator and subject
 * @example
 * const names = (await approvalsOf(db, 'payoutsResume', 'payoutPause:3')).map((approval) => approval.operator);
 */
export async function approvalsOf(tx: Db, act: string, target: string): Promise<z.infer<typeof approvalRow>[]> {
  return queryRows(
    tx,
    sql`SELECT a.operator, a.subject FROM ops_approvals a
        WHERE a.act = ${act} AND a.target = ${target} AND ${isCurrentOperatorSql(sql.raw('a.operator'))}
        ORDER BY a.created_at, a.operator`,
    approvalRow,
  );
}

async function recordApproval(tx: Db, act: string, target: string, operator: string, subject: string, now: Date): Promise<void> {
  await tx.execute(
    sql`INSERT INTO ops_approvals (act, target, operator, subject, created_at) VALUES (${act}, ${target}, ${operator}, ${subject}, ${now.toISOString()}::timestamptz)
        ON CONFLICT (act, target, operator) DO NOTHING`,
  );
}

/**
 * Decides an act on a target with its approvals so far.
 *
 * @param tx - the act's transaction (holding the target's lock)
 * @param policy - the server's policy
 * @param input - the policy check, the target (e.g. `txHash/logPosition`), the subject (what is approved: the member) and time
 * @returns whether to go ahead, and who requested and confirmed
 * @throws RoleRequiredError (1006), SelfActRefusedError (1007), PolicyLimitError (3009), AlreadyDecidedError (3006)
 *   when the waiting approval is for another subject
 * @example
 * const decision = await decideWithSecondApproval(tx, deps.policy, { check, target: `order:${id}`, subject: String(memberId), now });
 */
export async function decideWithSecondApproval(
  tx: Db,
  policy: OperatorsPolicy,
  input: { check: PolicyCheck; target: string; subject: string; now: Date },
): Promise<SecondApproval> {
  const { check, target, subject, now } = input;
  const { actor } = check;
  const approvals = await approvalsOf(tx, check.act, target);
  const names = approvals.map((approval) => approval.operator);
  const first = approvals[0];
  if (first === undefined) {
    const verdict = await decidePolicy(tx, policy, check, now);
    if (verdict === 'alone') return { proceed: true, changed: true, requestedBy: actorKeyOf(actor), confirmedBy: null, approvals: names };
    await recordApproval(tx, check.act, target, actor.address, subject, now);
    return { proceed: false, changed: true, requestedBy: actor.address, confirmedBy: null, approvals: [actor.address] };
  }
  if (first.subject !== subject) throw new AlreadyDecidedError();
  if (names.includes(actor.address)) return { proceed: false, changed: false, requestedBy: first.operator, confirmedBy: null, approvals: names };
  confirmPolicy(policy, check, first.operator);
  await recordApproval(tx, check.act, target, actor.address, subject, now);
  return { proceed: true, changed: true, requestedBy: first.operator, confirmedBy: actor.address, approvals: [...names, actor.address] };
}
