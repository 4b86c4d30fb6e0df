/**
 * An operator's approval of several withdrawals at once (docs/API.md, opsWithdrawalsApprove), an instance of the
 * desk's decision skeleton (machines/shared/deskDecision.ts): the ticked rows (or the focused one) go in the form's
 * `ids`, the operator confirms how many, and each is approved as one approval would be (the quorum per withdrawal);
 * the answer, one result per id, stays on the subject for the screen to say what was approved and what waits for a
 * second operator. An operator without the finance role has nothing to approve here.
 */
import { createDeskDecisionMachine } from '../shared/deskDecision';
import type { DecisionForm, DecisionSpec } from '../shared/deskDecision';

/** One withdrawal's answer (opsWithdrawalsApprove), as far as the machine keeps it. */
export interface BulkApprovalResult {
  id: string;
  code: number;
  waitsForSecondApproval?: boolean | undefined;
}

export interface BulkApprovalSubject {
  /** Whether this operator may approve withdrawals (the finance role). */
  mayApprove: boolean;
  /** The last confirmed approval's answers, null before the first. */
  results: readonly BulkApprovalResult[] | null;
}

export type BulkApprovalAct = 'approve';

/** The most ids one request takes (opsWithdrawalsApprove). */
export const maxBulkIds = 100;

/** The form's ids, as the screen puts them (space-separated). */
export const bulkIdsOf = (form: DecisionForm): string[] => (form.ids ?? '').split(' ').filter((id) => id !== '');

export const withdrawalBulkApprovalSpec: DecisionSpec<BulkApprovalSubject, BulkApprovalAct, { results: readonly BulkApprovalResult[] }> = {
  id: 'withdrawalBulkApproval',
  acts: { approve: { ids: '' } },
  openActs: (subject) => (subject.mayApprove ? ['approve'] : []),
  isFormValid: (_, form) => {
    const count = bulkIdsOf(form).length;
    return count > 0 && count <= maxBulkIds;
  },
  merge: (subject, answer) => ({ ...subject, results: answer?.results ?? [] }),
  describe: { ready: 'withdrawalBulkApproval.ready', closed: 'withdrawalBulkApproval.closed' },
};

/** A machine of its own for one screen (provideBuilt changes the machine it is given). */
// @__NO_SIDE_EFFECTS__
export const createWithdrawalBulkApprovalMachine = () => createDeskDecisionMachine(withdrawalBulkApprovalSpec);
export const withdrawalBulkApprovalMachine = createWithdrawalBulkApprovalMachine();
