/**
 * The real `fetchPage` and `search` actors of the list and search machines: thin wiring from a page's API call to
 * the machine, so every list screen provides the same machine with its own call.
 */
import { fromPromise } from 'xstate';
import { createPagedListMachine } from '../../machines/list/pagedListMachine';
import type { FetchPageInput, PageAnswer } from '../../machines/list/pagedListMachine';
import { createSearchMachine } from '../../machines/search/searchMachine';
import type { SearchAnswer } from '../../machines/search/searchMachine';
import { provideBuilt } from '../../machines/shared/provideBuilt';

/**
 * The paged-list machine for one screen.
 *
 * @param fetchPage - the screen's API call for one page (resolves with the envelope, never throws)
 * @returns the machine with its fetchPage provided
 * @example
 * const logic = providePagedList((input) => fetchBotPage(api, { page: input.page, pageSize: input.pageSize }));
 */
export function providePagedList<TItem, TQuery>(fetchPage: (input: FetchPageInput<TQuery>) => Promise<PageAnswer<TItem>>) {
  return provideBuilt(createPagedListMachine<TItem, TQuery>(), {
    actors: { fetchPage: fromPromise<PageAnswer<TItem>, FetchPageInput<TQuery>>(({ input }) => fetchPage(input)) },
  });
}

/**
 * The search machine for one screen.
 *
 * @param search - the screen's API call for one keyword
 * @returns the machine with its search provided
 * @example
 * const logic = provideSearch((keyword) => searchTeam(api, { keyword }));
 */
export function provideSearch<TItem>(search: (keyword: string) => Promise<SearchAnswer<TItem>>) {
  return provideBuilt(createSearchMachine<TItem>(), {
    actors: { search: fromPromise<SearchAnswer<TItem>, { keyword: string }>(({ input }) => search(input.keyword)) },
  });
}
