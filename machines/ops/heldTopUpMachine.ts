/**
 * An operator's decision on one held top-up (issue 43; docs/API.md, "Operators"; README, "Credit on chain: held
 * top-ups"): a top-up from a sender that is no member is released to a member after a check (the operator types
 * the member's address), or returned on chain to its sender by the payer. Each is decided once, released or
 * returned, never both; the request id is made when the operator confirms and kept for every retry, so a retry
 * never moves it twice. A reorganised top-up (reconcile lists it) can be neither.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { Answer } from '../shared/answer';
import { checkAddress } from '../shared/address';
import type { ErrorInfo } from '../shared/errorInfo';
import { notProvided, toErrorInfo } from '../shared/errorInfo';

/** The part of a held top-up (opsHeldTopUps) the decision reads. */
export interface DecidableTopUp {
  txHash: string;
  logPosition: number;
  state: string;
  reorged: boolean;
  releasedTo?: string | undefined;
}

export interface HeldTopUpInput {
  topUp: DecidableTopUp;
}

export interface ReleaseInput {
  txHash: string;
  logPosition: number;
  address: string;
  requestId: string;
}

export interface ReturnInput {
  txHash: string;
  logPosition: number;
  requestId: string;
}

export interface HeldTopUpContext extends HeldTopUpInput {
  /** The member's address typed for a release. */
  address: string;
  requestId: string | null;
  attempt: 'release' | 'return' | null;
  error: ErrorInfo | null;
}

export type HeldTopUpEvent =
  | { type: 'user.release' }
  | { type: 'user.return' }
  | { type: 'address.change'; address: string }
  | { type: 'user.confirm'; requestId: string }
  | { type: 'user.retry' }
  | { type: 'user.cancel' };

export const heldTopUpSetup = setup({
  types: {
    context: {} as HeldTopUpContext,
    events: {} as HeldTopUpEvent,
    input: {} as HeldTopUpInput,
    tags: {} as 'busy',
  },
  actors: {
    release: fromPromise<Answer<DecidableTopUp>, ReleaseInput>(async () => notProvided('heldTopUp', 'release')),
    giveBack: fromPromise<Answer<DecidableTopUp>, ReturnInput>(async () => notProvided('heldTopUp', 'giveBack')),
  },
  actions: {
    assignAddress: assign((_, params: { address: string }) => ({ address: params.address.trim() })),
    assignRequest: assign((_, params: { requestId: string; attempt: 'release' | 'return' }) => ({ requestId: params.requestId, attempt: params.attempt, error: null })),
    assignTopUp: assign(({ context }, params: { topUp: DecidableTopUp | null }) => ({
      topUp: params.topUp ?? context.topUp,
      requestId: null,
      attempt: null,
      error: null,
    })),
    assignError: assign((_, params: { error: ErrorInfo }) => ({ error: params.error })),
    assignThrownError: assign((_, params: { error: unknown }) => ({ error: toErrorInfo(params.error) })),
    clearForm: assign({ address: '', requestId: null, attempt: null, error: null }),
  },
  guards: {
    isUndecided: ({ context }) => context.topUp.state === 'held' && !context.topUp.reorged,
    isAddressValid: ({ context }) => checkAddress(context.address) === null,
    isApiOk: (_, params: { code: number }) => params.code === 0,
    isAttemptRelease: ({ context }) => context.attempt === 'release',
  },
});

const callAnswers = (next: string) => ({
  onDone: [
    {
      guard: { type: 'isApiOk' as const, params: ({ event }: { event: { output: Answer<DecidableTopUp> } }) => ({ code: event.output.code }) },
      target: next,
      actions: { type: 'assignTopUp' as const, params: ({ event }: { event: { output: Answer<DecidableTopUp> } }) => ({ topUp: event.output.result }) },
    },
    {
      target: 'refused',
      actions: { type: 'assignError' as const, params: ({ event }: { event: { output: Answer<DecidableTopUp> } }) => ({ error: { name: 'ApiError', code: event.output.code } }) },
    },
  ],
  onError: { target: 'refused', actions: { type: 'assignThrownError' as const, params: ({ event }: { event: { error: unknown } }) => ({ error: event.error }) } },
});

// @__NO_SIDE_EFFECTS__
export function createHeldTopUpMachine() {
  return heldTopUpSetup.createMachine({
    id: 'heldTopUp',
    context: ({ input }) => ({ topUp: input.topUp, address: '', requestId: null, attempt: null, error: null }),
    initial: 'sorting',
    states: {
      sorting: { description: 'heldTopUp.sorting', always: [{ guard: 'isUndecided', target: 'ready' }, { target: 'closed' }] },
      ready: {
        description: 'heldTopUp.ready',
        on: {
          'user.release': { target: 'releaseForm', actions: 'clearForm' },
          'user.return': { target: 'confirmingReturn', actions: 'clearForm' },
        },
      },
      /** The operator types the member it goes to (after their own check of who sent it). */
      releaseForm: {
        description: 'heldTopUp.releaseForm',
        on: {
          'address.change': { actions: { type: 'assignAddress', params: ({ event }) => ({ address: event.address }) } },
          'user.confirm': {
            guard: 'isAddressValid',
            target: 'releasing',
            actions: { type: 'assignRequest', params: ({ event }) => ({ requestId: event.requestId, attempt: 'release' as const }) },
          },
          'user.cancel': { target: 'ready', actions: 'clearForm' },
        },
      },
      confirmingReturn: {
        description: 'heldTopUp.confirmingReturn',
        on: {
          'user.confirm': {
            target: 'returning',
            actions: { type: 'assignRequest', params: ({ event }) => ({ requestId: event.requestId, attempt: 'return' as const }) },
          },
          'user.cancel': { target: 'ready', actions: 'clearForm' },
        },
      },
      releasing: {
        description: 'heldTopUp.releasing',
        tags: 'busy',
        invoke: {
          src: 'release',
          id: 'release',
          input: ({ context }) => ({ txHash: context.topUp.txHash, logPosition: context.topUp.logPosition, address: context.address, requestId: context.requestId ?? '' }),
          ...callAnswers('sorting'),
        },
      },
      returning: {
        description: 'heldTopUp.returning',
        tags: 'busy',
        invoke: {
          src: 'giveBack',
          id: 'giveBack',
          input: ({ context }) => ({ txHash: context.topUp.txHash, logPosition: context.topUp.logPosition, requestId: context.requestId ?? '' }),
          ...callAnswers('sorting'),
        },
      },
      /** Refused (3006 decided elsewhere, 4004 no such member, 1001 reorganised) or dropped: the same request again, or back. */
      refused: {
        description: 'heldTopUp.refused',
        on: {
          'user.retry': [{ guard: 'isAttemptRelease', target: 'releasing' }, { target: 'returning' }],
          'user.cancel': { target: 'sorting', actions: 'clearForm' },
        },
      },
      /** Released, returning or returned, or reorganised: nothing more to decide. */
      closed: { description: 'heldTopUp.closed' },
    },
  });
}

export const heldTopUpMachine = createHeldTopUpMachine();
export type HeldTopUpMachine = typeof heldTopUpMachine;
