/**
 * An operator's approval of a withdrawal under the operators' policy (docs/API.md, "Operators: finance calls";
 * server/ops/policy.ts). The first approval is decided by the policy: within what its operator may approve alone (the
 * amount, and their own and the member's 24-hour totals) it moves the withdrawal held → approved at once; above, it
 * is recorded (withdrawal_approvals, keyed by withdrawal and operator, so the same operator twice counts once) and
 * the withdrawal waits for a second, different operator, whose approval moves it. Nobody approves a withdrawal to
 * their own address, and a removed operator's approval no longer counts. Each approval runs in one transaction that
 * holds the withdrawal's advisory lock, so two approvals at once are decided one after the other, and writes its
 * audit row there (the `audit` callback), only when it changed something.
 *
 * A frozen member's withdrawal is not approved (3008).
 */
import { sql } from 'drizzle-orm';
import { toMinor } from '../../api-schema/amount';
import { ApiCode, type ApiCodeValue } from '../../api-schema/codes';
import type { Db } from '../db/client';
import { AlreadyDecidedError, errorOfApiCode, NotFoundError } from '../errors';
import { postRequests } from '../ledger/engine';
import { memberIdByAddress } from '../ledger/queries';
import { approvalRequest, readWithdrawal, type WithdrawalView } from '../ledger/withdrawals';
import { refuseFrozen } from '../members/freezes';
import type { OperatorActor } from './actor';
import { actorKeyOf, confirmPolicy, decidePolicy, recordPolicyUse, type OperatorsPolicy } from './policy';
import { approvalsOf, type Approval } from './withdrawalQueue';

export interface ApprovalDeps {
  db: Db;
  policy: OperatorsPolicy;
}

export interface ApprovalOutcome {
  withdrawal: WithdrawalView;
  approvals: Approval[];
  /** True when it waits for a second, different operator. */
  waitsForSecondApproval: boolean;
}

/** Statuses a withdrawal reaches only once approved. */
const APPROVED_OR_LATER = new Set(['approved', 'sent', 'done']);

/** The withdrawal's approvals by operators who still are operators. */
async function currentApprovals(tx: Db, id: bigint): Promise<Approval[]> {
  return (await approvalsOf(tx, [id])).get(id.toString()) ?? [];
}

/**
 * One operator's approval, in one transaction with its audit row.
 *
 * @param deps - database, policy
 * @param input - the withdrawal, the operator, time
 * @param audit - writes the act's audit row in the transaction (called only when something changed)
 * @returns the withdrawal, its approvals and whether it waits for a second operator
 * @throws NotFoundError (4004), AlreadyDecidedError (3006) when failed, WithdrawalsFrozenError (3008),
 *   SelfActRefusedError (1007), RoleRequiredError (1006) without the role
 * @example
 * const { waitsForSecondApproval } = await approveWithdrawal(deps, { id: 7n, actor, now }, (tx, change) => recordAudit(tx, ...));
 */
export async function approveWithdrawal(
  deps: ApprovalDeps,
  input: { id: bigint; actor: Pick<OperatorActor, 'address' | 'roles'>; now: Date },
  audit: (tx: Db, change: { before: WithdrawalView; outcome: ApprovalOutcome }) => Promise<void>,
): Promise<ApprovalOutcome> {
  const { id, actor, now } = input;
  return deps.db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`withdrawal-approval:${id}`}, 4362))`);
    const before = await readWithdrawal(tx, id);
    if (!before) throw new NotFoundError();
    // Approved already (and maybe sent or paid since): the same decision again answers it as it is.
    if (APPROVED_OR_LATER.has(before.status)) return { withdrawal: before, approvals: await currentApprovals(tx, id), waitsForSecondApproval: false };
    if (before.status !== 'pending') throw new AlreadyDecidedError();
    const memberId = await memberIdByAddress(tx, before.address);
    if (memberId !== undefined) await refuseFrozen(tx, memberId);
    const amount = toMinor(before.amount);
    const check = { act: 'withdrawalApprove' as const, actor, amount, member: memberId === undefined ? undefined : { id: memberId, address: before.address } };
    const approvals = await currentApprovals(tx, id);
    if (approvals.some((approval) => approval.address === actor.address)) {
      return { withdrawal: before, approvals, waitsForSecondApproval: true };
    }
    const first = approvals[0];
    if (first === undefined) {
      const verdict = await decidePolicy(tx, deps.policy, check, now);
      if (verdict === 'confirm') {
        await recordApproval(tx, id, actor.address, now);
        const outcome = { withdrawal: before, approvals: await currentApprovals(tx, id), waitsForSecondApproval: true };
        await audit(tx, { before, outcome });
        return outcome;
      }
    } else {
      confirmPolicy(deps.policy, check, first.address);
    }
    await recordApproval(tx, id, actor.address, now);
    const [moved] = await postRequests(tx, [{ ...approvalRequest(id, now), key: undefined }]);
    if (moved?.code !== ApiCode.ok) throw moved?.code === ApiCode.alreadyDecided ? new AlreadyDecidedError() : errorOfApiCode((moved?.code ?? ApiCode.internal) as ApiCodeValue);
    await recordPolicyUse(tx, {
      act: 'withdrawalApprove',
      operator: first?.address ?? actorKeyOf(actor),
      memberId,
      amount,
      confirmedBy: first === undefined ? null : actor.address,
      now,
    });
    const after = await readWithdrawal(tx, id);
    if (!after) throw new NotFoundError();
    const outcome = { withdrawal: after, approvals: await currentApprovals(tx, id), waitsForSecondApproval: false };
    await audit(tx, { before, outcome });
    return outcome;
  });
}

async function recordApproval(tx: Db, id: bigint, operator: string, now: Date): Promise<void> {
  await tx.execute(
    sql`INSERT INTO withdrawal_approvals (withdrawal_id, operator, created_at) VALUES (${id.toString()}::bigint, ${operator}, ${now.toISOString()}::timestamptz)
        ON CONFLICT (withdrawal_id, operator) DO NOTHING`,
  );
}
