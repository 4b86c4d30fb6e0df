/**
 * What the search screen shows, read from the search machine's snapshot.
 */
import type { SnapshotFrom } from 'xstate';
import type { ErrorInfo } from '../shared/errorInfo';
import type { createSearchMachine } from './searchMachine';

type SearchSnapshot<TItem> = SnapshotFrom<ReturnType<typeof createSearchMachine<TItem>>>;

export type SearchView = 'idle' | 'tooShort' | 'notHex' | 'searching' | 'found' | 'noMatch' | 'failed';

/** The screen's state; while the member types, the last results stay and a search is "on its way". */
export function selectSearchView<TItem>(snapshot: SearchSnapshot<TItem>): SearchView {
  if (snapshot.matches('typing') || snapshot.matches('searching')) return 'searching';
  if (snapshot.matches('tooShort')) return 'tooShort';
  if (snapshot.matches('notHex')) return 'notHex';
  if (snapshot.matches('found')) return 'found';
  if (snapshot.matches('noMatch')) return 'noMatch';
  if (snapshot.matches('failed')) return 'failed';
  return 'idle';
}

export const selectKeyword = <TItem>(snapshot: SearchSnapshot<TItem>): string => snapshot.context.keyword;
export const selectResults = <TItem>(snapshot: SearchSnapshot<TItem>): readonly TItem[] => snapshot.context.results;
export const selectSearchError = <TItem>(snapshot: SearchSnapshot<TItem>): ErrorInfo | null => snapshot.context.error;
