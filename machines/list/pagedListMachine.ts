/**
 * A list the member pages through (team, announcements, bots, credit records): the first page with a skeleton,
 * the next pages as the member scrolls, a refresh that keeps the rows on screen while it runs, and a retry
 * wherever a page failed. One machine for every list screen; each screen provides its own `fetchPage` and keeps
 * its query (a type filter, the language) in the context, so changing it starts the list again.
 *
 * Pages answer with the API's envelope: `code` 0 and a page `{ list, total, page, pageSize }`, or another code
 * (docs/API.md "Codes"; -1 for network failures). The list is complete when it holds `total` rows or a page came back
 * empty, so a server whose total shrinks meanwhile cannot keep the member loading forever.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { ErrorInfo } from '../shared/errorInfo';
import { notProvided, toErrorInfo } from '../shared/errorInfo';
import type { Answer } from '../shared/answer';

/** One page as the API sends it (docs/API.md "Envelope": lists are pages). */
export interface Page<TItem> {
  list: readonly TItem[];
  total: number;
  page: number;
  pageSize: number;
}

export type PageAnswer<TItem> = Answer<Page<TItem>>;

export interface FetchPageInput<TQuery> {
  query: TQuery;
  page: number;
  pageSize: number;
  /** The last row loaded before this page (none for the first): a list read by keyset asks for the rows after it. */
  last?: unknown;
}

export interface PagedListContext<TItem, TQuery> {
  query: TQuery;
  pageSize: number;
  items: readonly TItem[];
  total: number;
  /** The last page loaded (0 before the first). */
  page: number;
  /** True once a page came back with fewer rows than asked for: nothing more to load, whatever `total` says. */
  exhausted: boolean;
  error: ErrorInfo | null;
}

export type PagedListEvent<TQuery> =
  | { type: 'user.loadMore' }
  | { type: 'user.refresh' }
  | { type: 'user.retry' }
  | { type: 'user.changeQuery'; query: TQuery };

export interface PagedListInput<TQuery> {
  query: TQuery;
  pageSize?: number;
}

/** Rows per page unless the screen says otherwise (docs/API.md: pageSize 1..100, default 20). */
export const defaultPageSize = 20;

/**
 * Builds the machine for items of one type. Every list screen calls it with its own types and provides
 * `fetchPage`; the diagram and the path tests use `pagedListMachine` below, the same machine for unknown items.
 */
export function createPagedListMachine<TItem, TQuery>() {
  type Context = PagedListContext<TItem, TQuery>;
  type PageDone = { event: { output: PageAnswer<TItem> }; context: Context };
  /**
   * The first page, for the first load and for a refresh alike: they differ only in the actor's id and where a
   * failure goes (a refresh keeps the old rows on screen).
   */
  const firstPage = (id: 'fetchFirstPage' | 'refreshFirstPage', failedTarget: 'failed' | 'refreshFailed') => ({
    id,
    src: 'fetchPage' as const,
    input: ({ context }: { context: Context }) => ({ query: context.query, page: 1, pageSize: context.pageSize }),
    onDone: [
      {
        guard: { type: 'isFailure' as const, params: ({ event }: PageDone) => ({ answer: event.output }) },
        target: failedTarget,
        actions: { type: 'assignFailure' as const, params: ({ event }: PageDone) => ({ code: event.output.code }) },
      },
      {
        guard: { type: 'isEmptyPage' as const, params: ({ event }: PageDone) => ({ answer: event.output }) },
        target: 'empty',
        actions: { type: 'assignFirstPage' as const, params: ({ event, context }: PageDone) => ({ page: event.output.result ?? emptyPage(), pageSize: context.pageSize }) },
      },
      {
        target: 'loaded',
        actions: { type: 'assignFirstPage' as const, params: ({ event, context }: PageDone) => ({ page: event.output.result ?? emptyPage(), pageSize: context.pageSize }) },
      },
    ],
    onError: { target: failedTarget, actions: { type: 'assignThrown' as const, params: ({ event }: { event: { error: unknown } }) => ({ error: event.error }) } },
  });
  return setup({
    types: {
      context: {} as Context,
      events: {} as PagedListEvent<TQuery>,
      input: {} as PagedListInput<TQuery>,
    },
    actors: {
      /** One page of the list; resolves with the API's envelope and never needs to throw. */
      fetchPage: fromPromise<PageAnswer<TItem>, FetchPageInput<TQuery>>(async () => notProvided('pagedList', 'fetchPage')),
    },
    actions: {
      assignFirstPage: assign((_, params: { page: Page<TItem>; pageSize: number }) => ({
        items: params.page.list,
        total: params.page.total,
        page: 1,
        exhausted: params.page.list.length < params.pageSize,
        error: null,
      })),
      assignNextPage: assign(({ context }, params: { page: Page<TItem> }) => ({
        items: [...context.items, ...params.page.list],
        total: params.page.total,
        page: context.page + 1,
        exhausted: params.page.list.length < context.pageSize,
        error: null,
      })),
      assignFailure: assign((_, params: { code: number }) => ({ error: { name: 'ApiError', code: params.code } })),
      assignThrown: assign((_, params: { error: unknown }) => ({ error: toErrorInfo(params.error) })),
      assignQuery: assign((_, params: { query: TQuery }) => ({ query: params.query, items: [], total: 0, page: 0, exhausted: false, error: null })),
    },
    guards: {
      isFailure: (_, params: { answer: PageAnswer<TItem> }) => params.answer.code !== 0 || params.answer.result === null,
      isEmptyPage: (_, params: { answer: PageAnswer<TItem> }) => (params.answer.result?.list.length ?? 0) === 0,
      isComplete: ({ context }) => context.exhausted || context.items.length >= context.total,
    },
  }).createMachine({
    id: 'pagedList',
    context: ({ input }) => ({
      query: input.query,
      pageSize: input.pageSize ?? defaultPageSize,
      items: [],
      total: 0,
      page: 0,
      exhausted: false,
      error: null,
    }),
    initial: 'loading',
    on: {
      'user.changeQuery': {
        target: '.loading',
        actions: { type: 'assignQuery', params: ({ event }) => ({ query: event.query }) },
        description: 'pagedList:user.changeQuery',
      },
    },
    states: {
      loading: {
        description: 'pagedList.loading',
        invoke: firstPage('fetchFirstPage', 'failed'),
      },
      failed: {
        description: 'pagedList.failed',
        on: { 'user.retry': 'loading', 'user.refresh': 'loading' },
      },
      empty: {
        description: 'pagedList.empty',
        on: { 'user.refresh': 'refreshing' },
      },
      loaded: {
        description: 'pagedList.loaded',
        initial: 'idle',
        on: { 'user.refresh': '#pagedList.refreshing' },
        states: {
          idle: {
            description: 'pagedList.loaded.idle',
            always: { guard: 'isComplete', target: 'complete' },
            on: { 'user.loadMore': 'loadingMore' },
          },
          loadingMore: {
            description: 'pagedList.loaded.loadingMore',
            invoke: {
              id: 'fetchNextPage',
              src: 'fetchPage',
              input: ({ context }) => ({ query: context.query, page: context.page + 1, pageSize: context.pageSize, last: context.items.at(-1) }),
              onDone: [
                {
                  guard: { type: 'isFailure', params: ({ event }) => ({ answer: event.output }) },
                  target: 'loadMoreFailed',
                  actions: { type: 'assignFailure', params: ({ event }) => ({ code: event.output.code }) },
                },
                { target: 'idle', actions: { type: 'assignNextPage', params: ({ event }) => ({ page: event.output.result ?? emptyPage() }) } },
              ],
              onError: { target: 'loadMoreFailed', actions: { type: 'assignThrown', params: ({ event }) => ({ error: event.error }) } },
            },
          },
          loadMoreFailed: {
            description: 'pagedList.loaded.loadMoreFailed',
            on: { 'user.retry': 'loadingMore' },
          },
          complete: { description: 'pagedList.loaded.complete' },
        },
      },
      refreshing: {
        description: 'pagedList.refreshing',
        invoke: firstPage('refreshFirstPage', 'refreshFailed'),
      },
      refreshFailed: {
        description: 'pagedList.refreshFailed',
        on: { 'user.retry': 'refreshing', 'user.refresh': 'refreshing' },
      },
    },
  });
}

function emptyPage<TItem>(): Page<TItem> {
  return { list: [], total: 0, page: 1, pageSize: defaultPageSize };
}

/** The machine for any list, as the diagram shows it and the path tests walk it. */
export const pagedListMachine = createPagedListMachine<unknown, unknown>();
export type PagedListMachine = typeof pagedListMachine;
