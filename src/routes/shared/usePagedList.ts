import { useActorRef } from '@xstate/react';
import { useState } from 'react';
import type { FetchPageInput, PageAnswer } from '../../../machines/list/pagedListMachine';
import { providePagedList } from '../../actors/listActors';
import type { ApiResult } from '../../api/client';

/**
 * The page's own paged-list actor, living as long as the page: created with the screen's API call, started at
 * once (the first page loads), stopped when the member leaves.
 *
 * @param fetchPage - one page of the screen's call, as the API client answers it
 * @param query - the list's starting query (a filter, the language)
 * @returns the actor; read it with PagedListView or the list selectors
 * @example
 * const bots = usePagedList((input) => api.call('solbotList', { query: pageQuery(input) }), {});
 */
export function usePagedList<TItem, TQuery>(
  fetchPage: (input: FetchPageInput<TQuery>) => Promise<ApiResult<{ list: TItem[]; total: number; page: number; pageSize: number }>>,
  query: TQuery,
) {
  // Created once: the call is fixed for the life of the page; a changed query goes to the machine as user.changeQuery.
  const [logic] = useState(() => providePagedList<TItem, TQuery>(async (input): Promise<PageAnswer<TItem>> => toPageAnswer(await fetchPage(input))));
  return useActorRef(logic, { input: { query } });
}

function toPageAnswer<TItem>(answer: ApiResult<{ list: TItem[]; total: number; page: number; pageSize: number }>): PageAnswer<TItem> {
  return { code: answer.code, result: answer.code === 0 && answer.result ? answer.result : null };
}

/** The page and page size of a fetch, as the API's page query. */
export function pageQuery<TQuery>(input: FetchPageInput<TQuery>): { page: number; pageSize: number } {
  return { page: input.page, pageSize: input.pageSize };
}
