/**
 * One act of the desk that changes something and answers once (issue 43): a bulk approval, a member signed out
 * everywhere, a freeze, a grant or deduction, an operator added or removed, an API key made or revoked, a re-read
 * of blocks. The screen's form gives the request (with its request id, made when the operator confirms) in
 * `user.run`; a retry sends the same request again, so an act that moves money moves it once. The answer stays on
 * the screen until the operator dismisses it (an API key is shown once, there); `reportDone`, which the screen
 * provides, reads again the lists an accepted act changed.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { Answer } from '../shared/answer';
import type { ErrorInfo } from '../shared/errorInfo';
import { notProvided, toErrorInfo } from '../shared/errorInfo';

export interface OpsActionContext<TRequest, TResult> {
  request: TRequest | null;
  result: TResult | null;
  error: ErrorInfo | null;
}

export type OpsActionEvent<TRequest> = { type: 'user.run'; request: TRequest } | { type: 'user.retry' } | { type: 'user.dismiss' };

/** Builds the machine for one kind of act; `opsActionMachine` below is the same for unknown requests. */
// @__NO_SIDE_EFFECTS__
export function createOpsActionMachine<TRequest, TResult>() {
  return setup({
    types: {
      context: {} as OpsActionContext<TRequest, TResult>,
      events: {} as OpsActionEvent<TRequest>,
      tags: {} as 'busy',
    },
    actors: {
      act: fromPromise<Answer<TResult>, { request: TRequest | null }>(async () => notProvided('opsAction', 'act')),
    },
    actions: {
      assignRequest: assign((_, params: { request: TRequest }) => ({ request: params.request, result: null, error: null })),
      assignResult: assign((_, params: { result: TResult | null }) => ({ result: params.result, error: null })),
      assignError: assign((_, params: { error: ErrorInfo }) => ({ error: params.error })),
      assignThrownError: assign((_, params: { error: unknown }) => ({ error: toErrorInfo(params.error) })),
      clear: assign({ request: null, result: null, error: null }),
      reportDone: () => {
        // Provided by the screen: the act changed a list, which is read again (no effect in a component watches).
      },
    },
    guards: {
      isApiOk: (_, params: { code: number }) => params.code === 0,
    },
  }).createMachine({
    id: 'opsAction',
    context: { request: null, result: null, error: null },
    initial: 'idle',
    states: {
      idle: {
        description: 'opsAction.idle',
        on: { 'user.run': { target: 'running', actions: { type: 'assignRequest', params: ({ event }) => ({ request: event.request }) } } },
      },
      running: {
        description: 'opsAction.running',
        tags: 'busy',
        invoke: {
          src: 'act',
          id: 'act',
          input: ({ context }) => ({ request: context.request }),
          onDone: [
            {
              guard: { type: 'isApiOk', params: ({ event }) => ({ code: event.output.code }) },
              target: 'done',
              actions: [{ type: 'assignResult', params: ({ event }) => ({ result: event.output.result }) }, 'reportDone'],
            },
            { target: 'refused', actions: { type: 'assignError', params: ({ event }) => ({ error: { name: 'ApiError', code: event.output.code } }) } },
          ],
          onError: { target: 'refused', actions: { type: 'assignThrownError', params: ({ event }) => ({ error: event.error }) } },
        },
      },
      done: {
        description: 'opsAction.done',
        on: {
          'user.dismiss': { target: 'idle', actions: 'clear' },
          'user.run': { target: 'running', actions: { type: 'assignRequest', params: ({ event }) => ({ request: event.request }) } },
        },
      },
      refused: {
        description: 'opsAction.refused',
        on: {
          'user.retry': 'running',
          'user.dismiss': { target: 'idle', actions: 'clear' },
        },
      },
    },
  });
}

export const opsActionMachine = createOpsActionMachine<unknown, unknown>();
export type OpsActionMachine = typeof opsActionMachine;
