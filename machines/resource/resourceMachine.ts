/**
 * One document the member opens (an announcement, the about page): loading with a skeleton, the content, "not
 * found" for an id the server does not know (4004, or 1001 for a malformed one), an error with a retry otherwise,
 * and a reload when the query changes (the member switched language).
 */
import { assign, fromPromise, setup } from 'xstate';
import { ApiCode } from '../../api-schema/codes';
import type { ErrorInfo } from '../shared/errorInfo';
import { notProvided, toErrorInfo } from '../shared/errorInfo';
import type { Answer } from '../shared/answer';

export type ResourceAnswer<TValue> = Answer<TValue>;

export interface ResourceContext<TValue, TQuery> {
  query: TQuery;
  value: TValue | null;
  error: ErrorInfo | null;
}

export type ResourceEvent<TQuery> = { type: 'user.retry' } | { type: 'user.changeQuery'; query: TQuery };

/** Builds the machine for one kind of document; `resourceMachine` below is the same for unknown values. */
export function createResourceMachine<TValue, TQuery>() {
  return setup({
    types: {
      context: {} as ResourceContext<TValue, TQuery>,
      events: {} as ResourceEvent<TQuery>,
      input: {} as { query: TQuery },
    },
    actors: {
      /** The document for the query; resolves with the API's envelope. */
      fetchResource: fromPromise<ResourceAnswer<TValue>, { query: TQuery }>(async () => notProvided('resource', 'fetchResource')),
    },
    actions: {
      assignValue: assign((_, params: { value: TValue | null }) => ({ value: params.value, error: null })),
      assignFailure: assign((_, params: { code: number }) => ({ error: { name: 'ApiError', code: params.code } })),
      assignThrown: assign((_, params: { error: unknown }) => ({ error: toErrorInfo(params.error) })),
      assignQuery: assign((_, params: { query: TQuery }) => ({ query: params.query })),
    },
    guards: {
      isNotFound: (_, params: { code: number }) => params.code === ApiCode.notFound || params.code === ApiCode.invalidParameters,
      isFailure: (_, params: { answer: ResourceAnswer<TValue> }) => params.answer.code !== 0 || params.answer.result === null,
    },
  }).createMachine({
    id: 'resource',
    context: ({ input }) => ({ query: input.query, value: null, error: null }),
    initial: 'loading',
    on: {
      'user.changeQuery': {
        target: '.loading',
        actions: { type: 'assignQuery', params: ({ event }) => ({ query: event.query }) },
        description: 'resource:user.changeQuery',
      },
    },
    states: {
      loading: {
        description: 'resource.loading',
        invoke: {
          id: 'fetchResource',
          src: 'fetchResource',
          input: ({ context }) => ({ query: context.query }),
          onDone: [
            {
              guard: { type: 'isNotFound', params: ({ event }) => ({ code: event.output.code }) },
              target: 'notFound',
              actions: [{ type: 'assignValue', params: { value: null } }, { type: 'assignFailure', params: ({ event }) => ({ code: event.output.code }) }],
            },
            {
              guard: { type: 'isFailure', params: ({ event }) => ({ answer: event.output }) },
              target: 'failed',
              actions: { type: 'assignFailure', params: ({ event }) => ({ code: event.output.code }) },
            },
            { target: 'loaded', actions: { type: 'assignValue', params: ({ event }) => ({ value: event.output.result }) } },
          ],
          onError: { target: 'failed', actions: { type: 'assignThrown', params: ({ event }) => ({ error: event.error }) } },
        },
      },
      loaded: { description: 'resource.loaded' },
      notFound: { description: 'resource.notFound' },
      failed: {
        description: 'shared.loadFailed',
        on: { 'user.retry': 'loading' },
      },
    },
  });
}

/** The machine for any document, as the diagram shows it and the path tests walk it. */
export const resourceMachine = createResourceMachine<unknown, unknown>();
export type ResourceMachine = typeof resourceMachine;
