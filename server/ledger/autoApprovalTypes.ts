/**
 * The auto-approval as a withdrawal meets it (autoApproval.ts makes it; withdrawals.ts calls it once a withdrawal
 * is reserved held): a module of its own, so that the two never import each other.
 */
import type { WithdrawalStatus } from './withdrawalLifecycle';

/** A withdrawal just reserved held. */
export interface HeldWithdrawal {
  id: bigint;
  memberId: number;
  /** Minor units: what the budgets count (the amount the member asked for, fee included). */
  amount: bigint;
}

/** The auto-approval of one server: its budgets, its database and its ledger batcher. */
export interface AutoApproval {
  /**
   * Approves a held withdrawal if the budgets hold it, at most once per withdrawal (a repeat answers as the first).
   *
   * @returns the withdrawal's status: `approved`, or `pending` for an operator (or what an operator made it first)
   * @throws RequestInProgressError (3005) while the same withdrawal's auto-approval runs elsewhere
   */
  decide(withdrawal: HeldWithdrawal, now: Date): Promise<WithdrawalStatus>;
}
