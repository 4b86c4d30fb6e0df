/**
 * What a document screen shows, read from the resource machine's snapshot.
 */
import type { SnapshotFrom } from 'xstate';
import type { ErrorInfo } from '../shared/errorInfo';
import type { createResourceMachine } from './resourceMachine';

type ResourceSnapshot<TValue, TQuery> = SnapshotFrom<ReturnType<typeof createResourceMachine<TValue, TQuery>>>;

export type ResourceView = 'loading' | 'loaded' | 'notFound' | 'failed';

export function selectResourceView<TValue, TQuery>(snapshot: ResourceSnapshot<TValue, TQuery>): ResourceView {
  if (snapshot.matches('loaded')) return 'loaded';
  if (snapshot.matches('notFound')) return 'notFound';
  if (snapshot.matches('failed')) return 'failed';
  return 'loading';
}

export const selectResource = <TValue, TQuery>(snapshot: ResourceSnapshot<TValue, TQuery>): TValue | null => snapshot.context.value;
export const selectResourceError = <TValue, TQuery>(snapshot: ResourceSnapshot<TValue, TQuery>): ErrorInfo | null => snapshot.context.error;
