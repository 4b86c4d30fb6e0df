/**
 * An operator's decision on one withdrawal (issue 43; docs/API.md, "Operators: finance calls"): approve it, or fail
 * it with a reason (failed refunds the member). Above APPROVAL_QUORUM_ABOVE an approval needs two different finance
 * operators: the first approval answers it still pending (waitsForSecondApproval), and the desk says it waits for a
 * second approver; the same operator approving again counts once, so the desk does not offer it. A pending or
 * approved withdrawal can fail; anything later (sent, paid, ...) is the chain's to resolve. A refusal (3006 already
 * decided, 3008 frozen, 1006 no finance role, ...) or a dropped call stays on the screen with a retry.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { Answer } from '../shared/answer';
import type { ErrorInfo } from '../shared/errorInfo';
import { notProvided, toErrorInfo } from '../shared/errorInfo';

/** The part of a queued withdrawal (opsWithdrawals) the decision reads. */
export interface DecidableWithdrawal {
  id: string;
  status: string;
  approvals: readonly { address: string }[];
  approvalsNeeded: number;
}

export interface WithdrawalDecisionInput {
  withdrawal: DecidableWithdrawal;
  /** The signed-in operator's address: their own approval counts once. */
  operator: string;
}

/** What adminWithdrawalDecide answers, as far as the machine reads it. */
export interface DecidedWithdrawal {
  id: string;
  status: string;
  approvals?: readonly { address: string }[] | undefined;
  waitsForSecondApproval?: boolean | undefined;
}

export interface DecideInput {
  id: string;
  status: 'approved' | 'failed';
  reason?: string;
}

export interface WithdrawalDecisionContext extends WithdrawalDecisionInput {
  /** The reason typed for failing it. */
  reason: string;
  /** What the last call tried, for its retry. */
  attempt: 'approve' | 'fail' | null;
  error: ErrorInfo | null;
}

export type WithdrawalDecisionEvent =
  | { type: 'user.approve' }
  | { type: 'user.fail' }
  | { type: 'reason.change'; reason: string }
  | { type: 'user.confirmFail' }
  | { type: 'user.retry' }
  | { type: 'user.cancel' };

/** The longest reason the server keeps (adminWithdrawalDecide). */
export const maxReasonLength = 500;

const sameAddress = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

export const withdrawalDecisionSetup = setup({
  types: {
    context: {} as WithdrawalDecisionContext,
    events: {} as WithdrawalDecisionEvent,
    input: {} as WithdrawalDecisionInput,
    tags: {} as 'busy',
  },
  actors: {
    decide: fromPromise<Answer<DecidedWithdrawal>, DecideInput>(async () => notProvided('withdrawalDecision', 'decide')),
  },
  actions: {
    assignDecided: assign(({ context }, params: { decided: DecidedWithdrawal | null }) => ({
      withdrawal: params.decided
        ? { ...context.withdrawal, status: params.decided.status, approvals: params.decided.approvals ?? context.withdrawal.approvals }
        : context.withdrawal,
      error: null,
      attempt: null,
    })),
    assignReason: assign((_, params: { reason: string }) => ({ reason: params.reason })),
    assignAttempt: assign((_, params: { attempt: 'approve' | 'fail' }) => ({ attempt: params.attempt, error: null })),
    assignError: assign((_, params: { error: ErrorInfo }) => ({ error: params.error })),
    assignThrownError: assign((_, params: { error: unknown }) => ({ error: toErrorInfo(params.error) })),
    clearForm: assign({ reason: '', error: null, attempt: null }),
  },
  guards: {
    isPending: ({ context }) => context.withdrawal.status === 'pending',
    isApproved: ({ context }) => context.withdrawal.status === 'approved',
    isApprovedByMe: ({ context }) => context.withdrawal.approvals.some((approval) => sameAddress(approval.address, context.operator)),
    hasReason: ({ context }) => context.reason.trim().length > 0 && context.reason.trim().length <= maxReasonLength,
    isApiOk: (_, params: { code: number }) => params.code === 0,
    isAttemptApprove: ({ context }) => context.attempt === 'approve',
  },
});

// @__NO_SIDE_EFFECTS__
export function createWithdrawalDecisionMachine() {
  return withdrawalDecisionSetup.createMachine({
    id: 'withdrawalDecision',
    context: ({ input }) => ({ withdrawal: input.withdrawal, operator: input.operator, reason: '', attempt: null, error: null }),
    initial: 'sorting',
    states: {
      /** Where the withdrawal stands decides what the operator may do. */
      sorting: {
        description: 'withdrawalDecision.sorting',
        always: [
          { guard: 'isApproved', target: 'approved' },
          { guard: { type: 'isPending' }, target: 'pending' },
          { target: 'closed' },
        ],
      },
      pending: {
        description: 'withdrawalDecision.pending',
        initial: 'sorting',
        on: { 'user.fail': { target: 'failForm', actions: 'clearForm' } },
        states: {
          sorting: { description: 'withdrawalDecision.pending.sorting', always: [{ guard: 'isApprovedByMe', target: 'awaitingSecond' }, { target: 'ready' }] },
          ready: { description: 'withdrawalDecision.pending.ready', on: { 'user.approve': '#withdrawalDecision.approving' } },
          /** Approved by this operator; a second, different finance operator must approve it too. */
          awaitingSecond: { description: 'withdrawalDecision.pending.awaitingSecond' },
        },
      },
      approved: {
        description: 'withdrawalDecision.approved',
        on: { 'user.fail': { target: 'failForm', actions: 'clearForm' } },
      },
      failForm: {
        description: 'withdrawalDecision.failForm',
        on: {
          'reason.change': { actions: { type: 'assignReason', params: ({ event }) => ({ reason: event.reason }) } },
          'user.confirmFail': { guard: 'hasReason', target: 'failing' },
          'user.cancel': { target: 'sorting', actions: 'clearForm' },
        },
      },
      approving: {
        description: 'withdrawalDecision.approving',
        tags: 'busy',
        entry: { type: 'assignAttempt', params: { attempt: 'approve' } },
        invoke: {
          src: 'decide',
          id: 'decide',
          input: ({ context }) => ({ id: context.withdrawal.id, status: 'approved' as const }),
          onDone: [
            {
              guard: { type: 'isApiOk', params: ({ event }) => ({ code: event.output.code }) },
              target: 'sorting',
              actions: { type: 'assignDecided', params: ({ event }) => ({ decided: event.output.result }) },
            },
            { target: 'refused', actions: { type: 'assignError', params: ({ event }) => ({ error: { name: 'ApiError', code: event.output.code } }) } },
          ],
          onError: { target: 'refused', actions: { type: 'assignThrownError', params: ({ event }) => ({ error: event.error }) } },
        },
      },
      failing: {
        description: 'withdrawalDecision.failing',
        tags: 'busy',
        entry: { type: 'assignAttempt', params: { attempt: 'fail' } },
        invoke: {
          src: 'decide',
          id: 'decide',
          input: ({ context }) => ({ id: context.withdrawal.id, status: 'failed' as const, reason: context.reason.trim() }),
          onDone: [
            {
              guard: { type: 'isApiOk', params: ({ event }) => ({ code: event.output.code }) },
              target: 'sorting',
              actions: { type: 'assignDecided', params: ({ event }) => ({ decided: event.output.result }) },
            },
            { target: 'refused', actions: { type: 'assignError', params: ({ event }) => ({ error: { name: 'ApiError', code: event.output.code } }) } },
          ],
          onError: { target: 'refused', actions: { type: 'assignThrownError', params: ({ event }) => ({ error: event.error }) } },
        },
      },
      /** The call was refused or dropped: retry what was tried, or go back. */
      refused: {
        description: 'withdrawalDecision.refused',
        on: {
          'user.retry': [{ guard: 'isAttemptApprove', target: 'approving' }, { target: 'failing' }],
          'user.cancel': { target: 'sorting', actions: 'clearForm' },
        },
      },
      /** Sent, paid, failed, stuck or lost: nothing for an operator to decide here. */
      closed: { description: 'withdrawalDecision.closed' },
    },
  });
}

export const withdrawalDecisionMachine = createWithdrawalDecisionMachine();
export type WithdrawalDecisionMachine = typeof withdrawalDecisionMachine;
