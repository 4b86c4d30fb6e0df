/**
 * Withdrawing credit (spec: the member area's credit withdrawal; API.md "Member" withdrawCredit and "Money"). The
 * member types an amount, checked as it is typed against the app config's limits and the balance, with the fixed
 * fee and what arrives shown beside it; confirms a summary; and the withdrawal is sent with a request id the page
 * creates at that moment. Every retry of that confirmation (network failure, 5000, 4290, 3005 "still processing",
 * or a member who stopped waiting) sends the same id, so the server moves the money at most once. Rejections the
 * member fixes by editing (3001 balance, 3002 limits, 3003 id reused) go back to the amount and drop the id; 1002
 * ends the flow, as the app's auth machine ends the session by itself.
 *
 * Amounts stay decimal strings (JSON-serialisable); machines/shared/amount.ts compares them as bigint minor units.
 */
import type * as z from 'zod/mini';
import type { withdrawCredit } from '../../api-schema/member';
import { assign, fromPromise, setup } from 'xstate';
import { ApiErrorName } from '../shared/errorNames';
import type { ErrorInfo } from '../shared/errorInfo';
import { notProvided, toErrorInfo } from '../shared/errorInfo';
import { checkAmount, normalizeAmount } from '../shared/amount';
import { Decisions } from '../shared/transitionMeta';
import type { TransitionMeta } from '../shared/transitionMeta';
import type { AmountError } from '../shared/amount';
import type { Answer } from '../shared/answer';

/** The limits of app config (dappParam) and the member's balance (meInfo), as decimal strings. */
export interface WithdrawInput {
  minWithdraw: string;
  maxWithdraw: string;
  /** A fixed fee taken from the amount (dappParam withdrawFee). */
  withdrawFee: string;
  /** The most a member may withdraw in one UTC day; only the server knows today's total (3002). */
  dailyWithdrawCap: string;
  /** meInfo creditBalance when the flow started. */
  balance: string;
}

/** What withdrawCredit answers (API.md "Member"). */
export type WithdrawResult = z.output<typeof withdrawCredit.result>;

/** The envelope of withdrawCredit: code 0 with the result, or another code (-1 for network failures). */
export type WithdrawAnswer = Answer<WithdrawResult>;

export interface SubmitWithdrawalInput {
  /** The normalized amount ("12.5"). */
  amount: string;
  requestId: string;
}

export interface WithdrawContext {
  limits: WithdrawInput;
  /** The amount as the member typed it. */
  amount: string;
  /** Why the typed amount cannot be sent, checked on every change; null when it can. */
  fieldError: AmountError | null;
  /** The id of the confirmed request, reused by every retry; null until the member confirms. */
  requestId: string | null;
  result: WithdrawResult | null;
  /** The server's or the network's answer the member last got. */
  error: ErrorInfo | null;
}

export type WithdrawEvent =
  | { type: 'field.change'; value: string }
  | { type: 'user.submit' }
  | { type: 'user.edit' }
  | { type: 'user.confirm'; requestId: string }
  | { type: 'user.retry' }
  | { type: 'user.cancel' };

/** The codes each path reacts to (API.md "Codes"). */
export const WithdrawCodes = {
  ok: 0,
  network: -1,
  notSignedIn: 1002,
  insufficientBalance: 3001,
  amountOutOfLimits: 3002,
  requestIdReused: 3003,
  stillProcessing: 3005,
  tooManyRequests: 4290,
  internal: 5000,
} as const;

/** Answers after which the same request, with the same id, may succeed: nothing was decided yet. */
const retryableCodes: readonly number[] = [WithdrawCodes.network, WithdrawCodes.tooManyRequests, WithdrawCodes.internal];

const limitsOf = (limits: WithdrawInput) => ({
  min: limits.minWithdraw,
  max: limits.maxWithdraw,
  balance: limits.balance,
  dailyCap: limits.dailyWithdrawCap,
});

const codeIs = (code: number) => (_: unknown, params: { code: number }) => params.code === code;
const apiError = (code: number): ErrorInfo => ({ name: ApiErrorName, code });
const decided = { decision: Decisions.withdrawalRequestId };

export const withdrawMachine = setup({
  types: {
    context: {} as WithdrawContext,
    events: {} as WithdrawEvent,
    input: {} as WithdrawInput,
    transitionMeta: {} as TransitionMeta,
  },
  actors: {
    /** POST withdrawCredit { amount, requestId }; resolves with the envelope and never needs to throw. */
    submitWithdrawal: fromPromise<WithdrawAnswer, SubmitWithdrawalInput>(async () => notProvided('withdraw', 'submitWithdrawal')),
  },
  actions: {
    assignAmount: assign(({ context }, params: { value: string }) => ({
      amount: params.value,
      fieldError: checkAmount(params.value, limitsOf(context.limits)),
      error: null,
    })),
    assignRequestId: assign((_, params: { requestId: string }) => ({ requestId: params.requestId, error: null })),
    assignResult: assign((_, params: { result: WithdrawResult | null }) => ({ result: params.result, error: null })),
    assignRejection: assign((_, params: { code: number }) => ({ error: apiError(params.code), requestId: null })),
    assignFailure: assign((_, params: { code: number }) => ({ error: apiError(params.code) })),
    assignThrown: assign((_, params: { error: unknown }) => ({ error: toErrorInfo(params.error) })),
    clearError: assign({ error: null }),
    reportWithdrawn: () => {
      // Provided by the app: the member's balance changed, so meInfo is read again (auth app.refreshProfile).
    },
  },
  guards: {
    isAmountValid: ({ context }) => checkAmount(context.amount, limitsOf(context.limits)) === null,
    isOk: codeIs(WithdrawCodes.ok),
    isNotSignedIn: codeIs(WithdrawCodes.notSignedIn),
    isInsufficientBalance: codeIs(WithdrawCodes.insufficientBalance),
    isOutOfLimits: codeIs(WithdrawCodes.amountOutOfLimits),
    isRequestIdReused: codeIs(WithdrawCodes.requestIdReused),
    isStillProcessing: codeIs(WithdrawCodes.stillProcessing),
    isRetryable: (_, params: { code: number }) => retryableCodes.includes(params.code),
  },
}).createMachine({
  id: 'withdraw',
  context: ({ input }) => ({
    limits: input,
    amount: '',
    fieldError: 'empty',
    requestId: null,
    result: null,
    error: null,
  }),
  initial: 'editing',
  states: {
    editing: {
      description:
        'The member types the amount; each change is checked (form, min, max, balance, daily cap) and the fee and what arrives show beside it. A rejection from the server shows here too.',
      on: {
        'field.change': { actions: { type: 'assignAmount', params: ({ event }) => ({ value: event.value }) } },
        'user.submit': {
          guard: 'isAmountValid',
          target: 'confirming',
          description: 'Only an amount that passes every check reaches the summary.',
        },
      },
    },
    confirming: {
      description: 'A summary: amount, fee, what arrives. Confirming creates the request id every retry reuses.',
      on: {
        'user.confirm': {
          target: 'submitting',
          actions: { type: 'assignRequestId', params: ({ event }) => ({ requestId: event.requestId }) },
          meta: decided,
          description: 'The event carries the request id the page just created; every retry of this confirmation reuses it.',
        },
        'user.edit': 'editing',
      },
    },
    submitting: {
      description: 'POST withdrawCredit with the amount and the request id; the member may stop waiting.',
      tags: 'busy',
      invoke: {
        id: 'submitWithdrawal',
        src: 'submitWithdrawal',
        input: ({ context }) => ({ amount: normalizeAmount(context.amount) ?? context.amount, requestId: context.requestId ?? '' }),
        onDone: [
          {
            guard: { type: 'isOk', params: ({ event }) => ({ code: event.output.code }) },
            target: 'done',
            actions: { type: 'assignResult', params: ({ event }) => ({ result: event.output.result }) },
          },
          {
            guard: { type: 'isNotSignedIn', params: ({ event }) => ({ code: event.output.code }) },
            target: 'sessionEnded',
            actions: { type: 'assignFailure', params: ({ event }) => ({ code: event.output.code }) },
            description: '1002: the session is over; the auth machine signs the member out by itself.',
          },
          {
            guard: { type: 'isInsufficientBalance', params: ({ event }) => ({ code: event.output.code }) },
            target: 'editing',
            actions: { type: 'assignRejection', params: ({ event }) => ({ code: event.output.code }) },
            meta: decided,
            description: '3001: the balance is short; the member edits the amount, and a new confirmation gets a new id.',
          },
          {
            guard: { type: 'isOutOfLimits', params: ({ event }) => ({ code: event.output.code }) },
            target: 'editing',
            actions: { type: 'assignRejection', params: ({ event }) => ({ code: event.output.code }) },
            meta: decided,
            description: "3002: outside min, max or today's cap (only the server knows today's total); edit the amount.",
          },
          {
            guard: { type: 'isRequestIdReused', params: ({ event }) => ({ code: event.output.code }) },
            target: 'editing',
            actions: { type: 'assignRejection', params: ({ event }) => ({ code: event.output.code }) },
            meta: decided,
            description: '3003: the id was used with another body; the id is dropped and the next confirmation gets a new one.',
          },
          {
            guard: { type: 'isStillProcessing', params: ({ event }) => ({ code: event.output.code }) },
            target: 'failed',
            actions: { type: 'assignFailure', params: ({ event }) => ({ code: event.output.code }) },
            meta: decided,
            description: '3005: the first send of this id is still running; a retry with the same id gets its outcome.',
          },
          {
            guard: { type: 'isRetryable', params: ({ event }) => ({ code: event.output.code }) },
            target: 'failed',
            actions: { type: 'assignFailure', params: ({ event }) => ({ code: event.output.code }) },
            meta: decided,
            description: '-1, 4290, 5000: nothing decided yet; a retry with the same id is safe.',
          },
          {
            target: 'failed',
            actions: { type: 'assignFailure', params: ({ event }) => ({ code: event.output.code }) },
            meta: decided,
            description: 'Any other code: kept with the same id, never a new one, since only the server knows what it did.',
          },
        ],
        onError: { target: 'failed', actions: { type: 'assignThrown', params: ({ event }) => ({ error: event.error }) } },
      },
      on: {
        'user.cancel': {
          target: 'interrupted',
          meta: decided,
          description: 'The member stops waiting; the request may still go through, so the id is kept.',
        },
      },
    },
    interrupted: {
      description:
        'The member stopped waiting: the withdrawal may still go through on the server. A retry sends the same id, which answers the first outcome (or 3005 while it runs).',
      on: { 'user.retry': { target: 'submitting', actions: 'clearError' } },
    },
    failed: {
      description: 'No answer to act on (network, 4290, 5000, 3005, another code): the error, and a retry with the same request id.',
      on: { 'user.retry': { target: 'submitting', actions: 'clearError' } },
    },
    done: {
      type: 'final',
      entry: 'reportWithdrawn',
      description: 'The withdrawal is recorded (pending until an operator decides): its amount, fee and status; the balance is read again.',
    },
    sessionEnded: {
      type: 'final',
      description: 'The server answered 1002: the session is over and the app returns to sign-in.',
    },
  },
});

export type WithdrawMachine = typeof withdrawMachine;
