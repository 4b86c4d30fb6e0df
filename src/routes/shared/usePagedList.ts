import { useActorRef } from '@xstate/react';
import { useState } from 'react';
import type { FetchPageInput, PageAnswer } from '../../../machines/list/pagedListMachine';
import { providePagedList } from '../../actors/listActors';

/**
 * The page's own paged-list actor, living as long as the page: created with the screen's API call, started at
 * once (the first page loads), stopped when the member leaves.
 *
 * @param fetchPage - one page of the screen's call (src/api/screenCalls.ts)
 * @param query - the list's starting query (a filter, the language)
 * @returns the actor; read it with PagedListView or the list selectors
 * @example
 * const bots = usePagedList((input) => fetchBotPage(api, pageQuery(input)), {});
 */
export function usePagedList<TItem, TQuery>(
  fetchPage: (input: FetchPageInput<TQuery>) => Promise<PageAnswer<TItem>>,
  query: TQuery,
) {
  // Created once: the call is fixed for the life of the page; a changed query goes to the machine as user.changeQuery.
  const [logic] = useState(() => providePagedList<TItem, TQuery>(fetchPage));
  return useActorRef(logic, { input: { query } });
}

/** The page and page size of a fetch, as the API's page query. */
export function pageQuery<TQuery>(input: FetchPageInput<TQuery>): { page: number; pageSize: number } {
  return { page: input.page, pageSize: input.pageSize };
}

/**
 * The page query of a list of records read by keyset: after the first page, the id of the last record loaded
 * (`before`), so a deep page costs what the first does (docs/API.md creditRecord).
 *
 * @param input - the machine's fetch input
 * @returns page, page size and, past the first page, before
 * @example
 * fetchCreditRecords(api, recordsPageQuery(input));
 */
export function recordsPageQuery<TQuery>(input: FetchPageInput<TQuery>): { page: number; pageSize: number; before?: string } {
  const { last } = input;
  const id = typeof last === 'object' && last !== null && 'id' in last && typeof last.id === 'string' ? last.id : undefined;
  return id === undefined ? pageQuery(input) : { ...pageQuery(input), before: id };
}
