/**
 * An operator's approval of a withdrawal, by quorum (docs/API.md, "Operators: finance calls"; README, "Paying
 * withdrawals"). Above APPROVAL_QUORUM_ABOVE a withdrawal needs two different operators: each approval is a row of
 * withdrawal_approvals keyed by (withdrawal, operator), so the same operator twice counts once. The approval that
 * completes the quorum moves the withdrawal held → approved through the ledger desk; the stage allows that move once,
 * so two operators completing it at the same time approve it once (the move carries no request key: a key's lock
 * would answer one of them 3005 on another server instance). Each approval is written before its count is read, so of
 * two approvals at once at least one sees both.
 *
 * The bootstrap ADMIN_TOKEN is nobody in particular: it may approve alone at or below the threshold, and above it is
 * refused (1006), neither a first nor a second approval. A frozen member's withdrawal is not approved (3008).
 */
import { sql } from 'drizzle-orm';
import { toMinor } from '../../api-schema/amount';
import { ApiCode, type ApiCodeValue } from '../../api-schema/codes';
import type { Db } from '../db/client';
import { AlreadyDecidedError, errorOfApiCode, NotFoundError, RoleRequiredError } from '../errors';
import type { LedgerDesk } from '../ledger/engine';
import { memberIdByAddress } from '../ledger/queries';
import { approvalRequest, readWithdrawal, type WithdrawalView } from '../ledger/withdrawals';
import { refuseFrozen } from '../members/freezes';
import type { OperatorActor } from './actor';
import { approvalsNeeded, approvalsOf, type Approval } from './withdrawalQueue';

export interface ApprovalDeps {
  db: Db;
  desk: LedgerDesk;
  /** APPROVAL_QUORUM_ABOVE in minor units. */
  quorumAbove: bigint;
}

export interface ApprovalOutcome {
  withdrawal: WithdrawalView;
  approvals: Approval[];
  /** True when it waits for a second, different operator. */
  waitsForSecondApproval: boolean;
}

/** Statuses a withdrawal reaches only once approved. */
const APPROVED_OR_LATER = new Set(['approved', 'sent', 'done']);

/**
 * One operator's approval: recorded, and the withdrawal approved once its quorum is complete.
 *
 * @param deps - database, desk, quorum threshold
 * @param input - the withdrawal, the operator, time
 * @returns the withdrawal, its approvals and whether it waits for a second operator
 * @throws NotFoundError (4004), AlreadyDecidedError (3006) when failed, WithdrawalsFrozenError (3008),
 *   RoleRequiredError (1006) for the bootstrap ADMIN_TOKEN above the threshold
 * @example
 * const { waitsForSecondApproval } = await approveWithdrawal(deps, { id: 7n, actor, now });
 */
export async function approveWithdrawal(deps: ApprovalDeps, input: { id: bigint; actor: Pick<OperatorActor, 'address'>; now: Date }): Promise<ApprovalOutcome> {
  const { db, desk, quorumAbove } = deps;
  const { id, actor, now } = input;
  const approvalsNow = async () => (await approvalsOf(db, [id])).get(id.toString()) ?? [];
  const before = await readWithdrawal(db, id);
  if (!before) throw new NotFoundError();
  // Approved already (and maybe sent or paid since): the same decision again answers it as it is.
  if (APPROVED_OR_LATER.has(before.status)) return { withdrawal: before, approvals: await approvalsNow(), waitsForSecondApproval: false };
  if (before.status !== 'pending') throw new AlreadyDecidedError();
  const memberId = await memberIdByAddress(db, before.address);
  if (memberId !== undefined) await refuseFrozen(db, memberId);
  const needed = approvalsNeeded(toMinor(before.amount), quorumAbove);
  if (needed > 1 && actor.address === null) throw new RoleRequiredError();
  if (actor.address !== null) {
    await db.execute(
      sql`INSERT INTO withdrawal_approvals (withdrawal_id, operator, created_at) VALUES (${id.toString()}::bigint, ${actor.address}, ${now.toISOString()}::timestamptz)
          ON CONFLICT (withdrawal_id, operator) DO NOTHING`,
    );
  }
  const approvals = await approvalsNow();
  // The bootstrap's own approval is not a row (it is nobody), yet at or below the threshold it is enough.
  const counted = approvals.length + (actor.address === null ? 1 : 0);
  if (counted < needed) return { withdrawal: before, approvals, waitsForSecondApproval: true };
  const moved = await desk.post(() => ({ ...approvalRequest(id, now), key: undefined }), now);
  const after = await readWithdrawal(db, id);
  if (!after) throw new NotFoundError();
  // Approved by this call, or by another operator's at the same time (the payer may have sent it since): once.
  if (moved.code === ApiCode.ok || (moved.code === ApiCode.alreadyDecided && APPROVED_OR_LATER.has(after.status))) {
    return { withdrawal: after, approvals, waitsForSecondApproval: false };
  }
  if (moved.code === ApiCode.alreadyDecided) throw new AlreadyDecidedError();
  throw errorOfApiCode(moved.code as ApiCodeValue);
}
