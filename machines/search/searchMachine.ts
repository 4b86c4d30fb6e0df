/**
 * Search as you type (the team search, spec section 2 /team/search): the keyword is checked as it is typed, the
 * search starts once the member pauses, and only the answer to the newest keyword is ever shown, because typing
 * again leaves `searching`, which stops the running search, and an answer from a stopped search is never
 * delivered. A keyword that cannot match ("too short", not hex) is said at once, without asking the server.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { ErrorInfo } from '../shared/errorInfo';
import { notProvided, toErrorInfo } from '../shared/errorInfo';
import { checkAddressKeyword } from '../shared/fieldRules';
import type { Answer } from '../shared/answer';

export type SearchAnswer<TItem> = Answer<{ list: readonly TItem[] }>;

export interface SearchContext<TItem> {
  keyword: string;
  results: readonly TItem[];
  error: ErrorInfo | null;
}

export type SearchEvent = { type: 'user.type'; keyword: string } | { type: 'user.retry' };

/** Builds the machine for results of one type; `searchMachine` below is the same for unknown results. */
export function createSearchMachine<TItem>() {
  return setup({
    types: { context: {} as SearchContext<TItem>, events: {} as SearchEvent },
    actors: {
      /** The server's answer for one keyword; resolves with the API's envelope. */
      search: fromPromise<SearchAnswer<TItem>, { keyword: string }>(async () => notProvided('search', 'search')),
    },
    actions: {
      assignKeyword: assign((_, params: { keyword: string }) => ({ keyword: params.keyword, error: null })),
      assignResults: assign((_, params: { results: readonly TItem[] }) => ({ results: params.results, error: null })),
      assignFailure: assign((_, params: { code: number }) => ({ results: [], error: { name: 'ApiError', code: params.code } })),
      assignThrown: assign((_, params: { error: unknown }) => ({ results: [], error: toErrorInfo(params.error) })),
      clearResults: assign({ results: [] }),
    },
    guards: {
      isEmptyKeyword: (_, params: { keyword: string }) => checkAddressKeyword(params.keyword) === 'empty',
      isTooShort: (_, params: { keyword: string }) => checkAddressKeyword(params.keyword) === 'tooShort',
      isNotHex: (_, params: { keyword: string }) => checkAddressKeyword(params.keyword) === 'notHex',
      isFailure: (_, params: { answer: SearchAnswer<TItem> }) => params.answer.code !== 0 || params.answer.result === null,
      hasNoMatch: (_, params: { answer: SearchAnswer<TItem> }) => (params.answer.result?.list.length ?? 0) === 0,
    },
    delays: {
      /** How long the member may pause between keys before the search starts. */
      typingPause: 300,
    },
  }).createMachine({
    id: 'search',
    context: { keyword: '', results: [], error: null },
    initial: 'idle',
    on: {
      'user.type': [
        {
          guard: { type: 'isEmptyKeyword', params: ({ event }) => ({ keyword: event.keyword }) },
          target: '.idle',
          actions: [{ type: 'assignKeyword', params: ({ event }) => ({ keyword: event.keyword }) }, 'clearResults'],
        },
        {
          guard: { type: 'isTooShort', params: ({ event }) => ({ keyword: event.keyword }) },
          target: '.tooShort',
          actions: [{ type: 'assignKeyword', params: ({ event }) => ({ keyword: event.keyword }) }, 'clearResults'],
        },
        {
          guard: { type: 'isNotHex', params: ({ event }) => ({ keyword: event.keyword }) },
          target: '.notHex',
          actions: [{ type: 'assignKeyword', params: ({ event }) => ({ keyword: event.keyword }) }, 'clearResults'],
        },
        {
          target: '.typing',
          reenter: true,
          actions: { type: 'assignKeyword', params: ({ event }) => ({ keyword: event.keyword }) },
          description: 'search:user.type',
        },
      ],
    },
    states: {
      idle: { description: 'search.idle' },
      tooShort: { description: 'search.tooShort' },
      notHex: { description: 'search.notHex' },
      typing: {
        description: 'search.typing',
        after: { typingPause: 'searching' },
      },
      searching: {
        description: 'search.searching',
        invoke: {
          id: 'search',
          src: 'search',
          input: ({ context }) => ({ keyword: context.keyword }),
          onDone: [
            {
              guard: { type: 'isFailure', params: ({ event }) => ({ answer: event.output }) },
              target: 'failed',
              actions: { type: 'assignFailure', params: ({ event }) => ({ code: event.output.code }) },
            },
            {
              guard: { type: 'hasNoMatch', params: ({ event }) => ({ answer: event.output }) },
              target: 'noMatch',
              actions: 'clearResults',
            },
            { target: 'found', actions: { type: 'assignResults', params: ({ event }) => ({ results: event.output.result?.list ?? [] }) } },
          ],
          onError: { target: 'failed', actions: { type: 'assignThrown', params: ({ event }) => ({ error: event.error }) } },
        },
      },
      found: { description: 'search.found' },
      noMatch: { description: 'search.noMatch' },
      failed: {
        description: 'search.failed',
        on: { 'user.retry': 'searching' },
      },
    },
  });
}

/** The machine for any search, as the diagram shows it and the path tests walk it. */
export const searchMachine = createSearchMachine<unknown>();
export type SearchMachine = typeof searchMachine;
