/**
 * Auto-approval as a budget (docs/operations.md, "Credit on chain: paying withdrawals";
 * docs/decisions/0022-auto-approval-budget.md): a withdrawal is approved on request only while the member's
 * auto-approved total of its UTC day plus it stays within AUTO_APPROVE_MAX and all members' auto-approved total of its
 * UTC hour plus it stays within AUTO_APPROVE_HOURLY; past either it stays held (`pending`) for an operator.
 *
 * The withdrawal is reserved held (server/ledger/withdrawals.ts); its auto-approval is a second engine request, the
 * operator's move held → approved under an at-most-once key of its own, that draws its amount from two counters
 * (ledger_counters): the member's day and the hour. The engine locks the counters and refuses a draw they do not
 * hold, so the budgets hold however many requests, batches and server instances run at once: no read-then-write
 * here. (Not a ledger_limits limit: the engine guards a limit with its member's account lock, which a move without
 * legs does not take.)
 *
 * Spent is spent: a withdrawal auto-approved and then failed (by an operator, or by the chain) gives back neither
 * budget, so failing and retrying cannot take more than the budget out without an operator.
 */
import { sql } from 'drizzle-orm';
import { ApiCode, type ApiCodeValue } from '../../api-schema/codes';
import { utcDay } from '../clock';
import type { Db } from '../db/client';
import { errorOfApiCode } from '../errors';
import type { AutoApproval, HeldWithdrawal } from './autoApprovalTypes';
import type { LedgerBatcher, LedgerRequest } from './engine';
import { approvalRequest, readWithdrawal } from './withdrawals';
import { statusOfStage, WithdrawalStage } from './withdrawalLifecycle';

export type { AutoApproval, HeldWithdrawal } from './autoApprovalTypes';

/** The budgets in minor units (0: nothing is approved on request). */
export interface AutoApprovalBudget {
  /** AUTO_APPROVE_MAX: one member's auto-approved total per UTC day. */
  perMemberDay: bigint;
  /** AUTO_APPROVE_HOURLY: every member's auto-approved total per UTC hour. */
  perHour: bigint;
}

/** The counters' keys in ledger_counters. */
export const autoApprovalCounters = {
  memberDay: (memberId: number, now: Date) => `autoApprove:day:${utcDay(now)}:${memberId}`,
  hour: (now: Date) => `autoApprove:hour:${now.toISOString().slice(0, 13)}`,
};

/** The refusal of a draw past a budget (the engine's counter code). */
const PAST_BUDGET = ApiCode.amountOutOfLimits;

/**
 * The auto-approval as the engine's request: the operator's approval (held → approved) keyed once per withdrawal
 * as `autoApprove`, drawing the amount from the member's day and the hour.
 *
 * @param withdrawal - id, member and amount
 * @param now - when the member asked (its day and hour)
 * @returns the ledger request (3002 past a budget, 3006 when no longer held)
 * @example
 * await postRequests(db, [autoApprovalRequest({ id: 7n, memberId: 3, amount: 100_000_000n }, now)]);
 */
export function autoApprovalRequest(withdrawal: HeldWithdrawal, now: Date): LedgerRequest {
  const { id, memberId, amount } = withdrawal;
  return {
    ...approvalRequest(id, now),
    key: { scope: 'withdrawal', endpoint: 'autoApprove', requestId: id.toString(), body: {} },
    draws: [
      { key: autoApprovalCounters.memberDay(memberId, now), amount },
      { key: autoApprovalCounters.hour(now), amount },
    ],
    counterCode: PAST_BUDGET,
  };
}

/**
 * Opens the member's day and the hour with their whole budgets unless open already (a counter once open keeps what
 * is left of it: a budget changed by a restart counts from the next day or hour).
 *
 * @param db - database handle
 * @param budget - the budgets
 * @param memberId - the member
 * @param now - when
 * @returns when both exist
 * @example
 * await openBudgets(db, budget, 3, now);
 */
async function openBudgets(db: Db, budget: AutoApprovalBudget, memberId: number, now: Date): Promise<void> {
  await db.execute(
    sql`INSERT INTO ledger_counters (key, available) VALUES
          (${autoApprovalCounters.memberDay(memberId, now)}, ${budget.perMemberDay.toString()}::bigint),
          (${autoApprovalCounters.hour(now)}, ${budget.perHour.toString()}::bigint)
        ON CONFLICT (key) DO NOTHING`,
  );
}

/**
 * The server's auto-approval.
 *
 * @param deps - database, the ledger batcher and the budgets
 * @returns decide()
 * @example
 * const autoApproval = createAutoApproval({ db, ledger, budget: { perMemberDay: 1000_000000n, perHour: 10_000_000000n } });
 * const status = await autoApproval.decide({ id, memberId, amount }, now);
 */
export function createAutoApproval(deps: { db: Db; ledger: LedgerBatcher; budget: AutoApprovalBudget }): AutoApproval {
  const { db, ledger, budget } = deps;
  return {
    async decide(withdrawal, now) {
      if (budget.perMemberDay <= 0n) return statusOfStage(WithdrawalStage.held);
      await openBudgets(db, budget, withdrawal.memberId, now);
      const outcome = await ledger.post(() => autoApprovalRequest(withdrawal, now), now);
      if (outcome.code === ApiCode.ok) return statusOfStage(WithdrawalStage.approved);
      if (outcome.code === PAST_BUDGET) return statusOfStage(WithdrawalStage.held);
      if (outcome.code === ApiCode.alreadyDecided) {
        // An operator decided first (a repeat after a crash between the two requests): what it is now.
        const current = await readWithdrawal(db, withdrawal.id);
        if (current) return current.status;
      }
      throw errorOfApiCode(outcome.code as ApiCodeValue);
    },
  };
}
