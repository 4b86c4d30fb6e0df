/**
 * An operator's decision on one withdrawal (docs/API.md, "Operators: finance calls"), an instance of the desk's
 * decision skeleton (machines/shared/deskDecision.ts): approve it, or fail it with a reason (failed refunds the
 * member). Above APPROVAL_QUORUM_ABOVE an approval needs two different finance operators: the first approval answers
 * it still pending (waitsForSecondApproval); the same operator approving again counts once, so approve is not open
 * to them. A pending or approved withdrawal can fail; anything later (sent, paid, ...) is the chain's to resolve.
 */
import { createDeskDecisionMachine, hasReason } from '../shared/deskDecision';
import type { DecisionSpec } from '../shared/deskDecision';

/** The part of a queued withdrawal (opsWithdrawals) the decision reads. */
export interface DecidableWithdrawal {
  id: string;
  status: string;
  approvals: readonly { address: string }[];
  approvalsNeeded: number;
}

/** What opsWithdrawalDecide answers, as far as the machine reads it. */
export interface DecidedWithdrawal {
  id: string;
  status: string;
  approvals?: readonly { address: string }[] | undefined;
  waitsForSecondApproval?: boolean | undefined;
}

export type WithdrawalAct = 'approve' | 'fail';

/** The longest reason the server keeps (opsWithdrawalDecide). */
export const maxReasonLength = 500;

const sameAddress = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** Whether this operator's approval is already on the withdrawal. */
export const isApprovedBy = (withdrawal: DecidableWithdrawal, operator: string): boolean =>
  withdrawal.approvals.some((approval) => sameAddress(approval.address, operator));

export const withdrawalDecisionSpec: DecisionSpec<DecidableWithdrawal, WithdrawalAct, DecidedWithdrawal> = {
  id: 'withdrawalDecision',
  acts: { approve: {}, fail: { reason: '' } },
  openActs: (withdrawal, operator) => {
    if (withdrawal.status === 'pending') return isApprovedBy(withdrawal, operator) ? ['fail'] : ['approve', 'fail'];
    return withdrawal.status === 'approved' ? ['fail'] : [];
  },
  isFormValid: (act, form) => act === 'approve' || hasReason(form, maxReasonLength),
  merge: (withdrawal, answer) =>
    answer ? { ...withdrawal, status: answer.status, approvals: answer.approvals ?? withdrawal.approvals } : withdrawal,
  describe: { ready: 'withdrawalDecision.ready', closed: 'withdrawalDecision.closed' },
};

/** A machine of its own for one screen's item (provideBuilt changes the machine it is given). */
// @__NO_SIDE_EFFECTS__
export const createWithdrawalDecisionMachine = () => createDeskDecisionMachine(withdrawalDecisionSpec);
export const withdrawalDecisionMachine = createWithdrawalDecisionMachine();
export type WithdrawalDecisionMachine = typeof withdrawalDecisionMachine;
