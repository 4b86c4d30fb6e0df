/**
 * What a list screen shows, read from the paged-list machine's snapshot (the page never recomputes the rules).
 */
import type { SnapshotFrom } from 'xstate';
import type { ErrorInfo } from '../shared/errorInfo';
import type { createPagedListMachine } from './pagedListMachine';

type ListSnapshot<TItem, TQuery> = SnapshotFrom<ReturnType<typeof createPagedListMachine<TItem, TQuery>>>;

export type ListView = 'loading' | 'failed' | 'empty' | 'loaded';
/** What shows below the rows: more loading, the next page's error with a retry, "no more", or nothing yet. */
export type ListFooter = 'idle' | 'loadingMore' | 'loadMoreFailed' | 'complete';

/** The screen's main state; a refresh keeps the rows (loaded) and shows its own line. */
export function selectListView<TItem, TQuery>(snapshot: ListSnapshot<TItem, TQuery>): ListView {
  if (snapshot.matches('loading')) return 'loading';
  if (snapshot.matches('failed')) return 'failed';
  if (snapshot.matches('empty')) return 'empty';
  return 'loaded';
}

export function selectListFooter<TItem, TQuery>(snapshot: ListSnapshot<TItem, TQuery>): ListFooter {
  if (snapshot.matches({ loaded: 'loadingMore' })) return 'loadingMore';
  if (snapshot.matches({ loaded: 'loadMoreFailed' })) return 'loadMoreFailed';
  if (snapshot.matches({ loaded: 'complete' })) return 'complete';
  return 'idle';
}

export const selectItems = <TItem, TQuery>(snapshot: ListSnapshot<TItem, TQuery>): readonly TItem[] => snapshot.context.items;
export const selectListError = <TItem, TQuery>(snapshot: ListSnapshot<TItem, TQuery>): ErrorInfo | null => snapshot.context.error;
export const selectIsRefreshing = <TItem, TQuery>(snapshot: ListSnapshot<TItem, TQuery>): boolean => snapshot.matches('refreshing');
export const selectRefreshFailed = <TItem, TQuery>(snapshot: ListSnapshot<TItem, TQuery>): boolean => snapshot.matches('refreshFailed');
/** True when scrolling to the end should ask for the next page. */
export const selectCanLoadMore = <TItem, TQuery>(snapshot: ListSnapshot<TItem, TQuery>): boolean => snapshot.can({ type: 'user.loadMore' });
export const selectCanRefresh = <TItem, TQuery>(snapshot: ListSnapshot<TItem, TQuery>): boolean => snapshot.can({ type: 'user.refresh' });
export const selectQuery = <TItem, TQuery>(snapshot: ListSnapshot<TItem, TQuery>): TQuery => snapshot.context.query;
