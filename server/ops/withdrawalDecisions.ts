/**
 * An operator's decision on a withdrawal (docs/API.md, "Operators: finance calls"): its approval under the operators'
 * policy (server/ops/policy.ts), or its failure. Both take one path to the engine: one transaction that holds the
 * withdrawal's decision lock, reads it, decides, moves its pending transfer with postRequests in that transaction and
 * writes the act's audit row there (the `audit` callback), only when it changed something. So two decisions of one
 * withdrawal at once are decided one after the other, and a decision's rows commit with its move or not at all. (Not
 * the ledger batcher: a batch's transaction holds every flow's locks, and the policy's locks would wait in it.)
 *
 * The first approval is decided by the policy: within what its operator may approve alone (the amount, and their own
 * and the member's 24-hour totals) it moves the withdrawal held → approved at once; above, it is recorded
 * (withdrawal_approvals, keyed by withdrawal and operator, so the same operator twice counts once) and the withdrawal
 * waits for a second, different operator, whose approval moves it. Nobody approves a withdrawal to their own address,
 * a removed operator's approval no longer counts, and a frozen member's withdrawal is not approved (3008).
 *
 * A failure refunds a pending or approved withdrawal; failing a failed one answers it unchanged, a sent or paid one is
 * 3006 (the chain alone resolves a sent payment).
 */
import { sql } from 'drizzle-orm';
import { toMinor } from '../../api-schema/amount';
import { ApiCode, type ApiCodeValue } from '../../api-schema/codes';
import type { Db } from '../db/client';
import { AlreadyDecidedError, errorOfApiCode, NotFoundError } from '../errors';
import { postRequests, type LedgerRequest } from '../ledger/engine';
import { memberIdByAddress } from '../ledger/queries';
import { approvalRequest, failureRequest, readWithdrawal, type WithdrawalView } from '../ledger/withdrawals';
import { isApproved } from '../ledger/withdrawalLifecycle';
import { refuseFrozen } from '../members/freezes';
import type { OperatorActor } from './actor';
import { actorKeyOf, confirmPolicy, decidePolicy, recordPolicyUse, type OperatorsPolicy } from './policy';
import { approvalsOf, type Approval } from './withdrawalQueue';

export interface DecisionDeps {
  db: Db;
  policy: OperatorsPolicy;
}

export interface ApprovalOutcome {
  withdrawal: WithdrawalView;
  approvals: Approval[];
  /** True when it waits for a second, different operator. */
  waitsForSecondApproval: boolean;
}

/**
 * A decision's transaction: the withdrawal's decision lock (keyed as when only approvals took it, so the instances of
 * the version before still share it during a deploy), then the withdrawal.
 */
async function decide<T>(db: Db, id: bigint, work: (tx: Db, before: WithdrawalView) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`withdrawal-approval:${id}`}, 4362))`);
    const before = await readWithdrawal(tx, id);
    if (!before) throw new NotFoundError();
    return work(tx, before);
  });
}

/** Moves the withdrawal's pending transfer in the decision's transaction, and reads it as it is then. */
async function move(tx: Db, id: bigint, request: LedgerRequest): Promise<WithdrawalView> {
  const [moved] = await postRequests(tx, [request]);
  if (moved?.code !== ApiCode.ok) throw moved?.code === ApiCode.alreadyDecided ? new AlreadyDecidedError() : errorOfApiCode((moved?.code ?? ApiCode.internal) as ApiCodeValue);
  const after = await readWithdrawal(tx, id);
  if (!after) throw new NotFoundError();
  return after;
}

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
  deps: DecisionDeps,
  input: { id: bigint; actor: Pick<OperatorActor, 'address' | 'roles'>; now: Date },
  audit: (tx: Db, change: { before: WithdrawalView; outcome: ApprovalOutcome }) => Promise<void>,
): Promise<ApprovalOutcome> {
  const { id, actor, now } = input;
  return decide(deps.db, id, async (tx, before) => {
    // Approved already (and maybe sent or paid since): the same decision again answers it as it is.
    if (isApproved(before.status)) return { withdrawal: before, approvals: await currentApprovals(tx, id), waitsForSecondApproval: false };
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
    const after = await move(tx, id, { ...approvalRequest(id, now), key: undefined });
    await recordPolicyUse(tx, {
      act: 'withdrawalApprove',
      operator: first?.address ?? actorKeyOf(actor),
      memberId,
      amount,
      confirmedBy: first === undefined ? null : actor.address,
      now,
    });
    const outcome = { withdrawal: after, approvals: await currentApprovals(tx, id), waitsForSecondApproval: false };
    await audit(tx, { before, outcome });
    return outcome;
  });
}

/**
 * One operator's failure of a withdrawal, in one transaction with its audit row: the member gets it all back and the
 * note is kept.
 *
 * @param deps - database
 * @param input - the withdrawal, time, the operator's note
 * @param audit - writes the act's audit row in the transaction (called only when it failed it)
 * @returns the withdrawal as it is now
 * @throws NotFoundError (4004), AlreadyDecidedError (3006) when sent or paid
 * @example
 * const withdrawal = await failWithdrawal(deps, { id: 7n, now, note: 'address on a sanctions list' }, (tx, change) => recordAudit(tx, ...));
 */
export async function failWithdrawal(
  deps: Pick<DecisionDeps, 'db'>,
  input: { id: bigint; now: Date; note?: string | undefined },
  audit: (tx: Db, change: { before: WithdrawalView; after: WithdrawalView }) => Promise<void>,
): Promise<WithdrawalView> {
  const { id, now, note } = input;
  return decide(deps.db, id, async (tx, before) => {
    if (before.status === 'failed') return before;
    const after = await move(tx, id, failureRequest(id, 'rejected', now, note));
    await audit(tx, { before, after });
    return after;
  });
}

async function recordApproval(tx: Db, id: bigint, operator: string, now: Date): Promise<void> {
  await tx.execute(
    sql`INSERT INTO withdrawal_approvals (withdrawal_id, operator, created_at) VALUES (${id.toString()}::bigint, ${operator}, ${now.toISOString()}::timestamptz)
        ON CONFLICT (withdrawal_id, operator) DO NOTHING`,
  );
}
