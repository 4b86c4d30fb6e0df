import { useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { createResourceMachine } from '../../../machines/resource/resourceMachine';
import { selectResource, selectResourceError, selectResourceView } from '../../../machines/resource/resourceSelectors';
import { ListState } from '../../components/ListState';
import { deskErrorText } from '../deskErrors';

interface ReadStateProps<TValue, TQuery> {
  actor: ActorRefFrom<ReturnType<typeof createResourceMachine<TValue, TQuery>>>;
  /** Whether a loaded value has nothing to show. */
  isEmpty: (value: TValue) => boolean;
  emptyTitle: string;
  emptyDescription?: string;
  children: (value: TValue) => ReactNode;
}

/** Every desk read's states, as the member app's screens have them: a skeleton, an error with a retry, empty, loaded. */
export function ReadState<TValue, TQuery>({ actor, isEmpty, emptyTitle, emptyDescription, children }: ReadStateProps<TValue, TQuery>) {
  const { t, i18n } = useTranslation('ops');
  const view = useSelector(actor, selectResourceView);
  const value = useSelector(actor, selectResource<TValue, TQuery>);
  const error = useSelector(actor, selectResourceError);
  if (view === 'loading') return <ListState state="loading" loadingLabel={t('common:status.loading')} />;
  if (view === 'failed' || view === 'notFound' || value === null) {
    return (
      <ListState
        state="error"
        title={deskErrorText(t, (key) => i18n.exists(key), error)}
        retryLabel={t('common:actions.retry')}
        // "Not found" has no retry in the resource machine: the same query is read again.
        onRetry={() => (view === 'notFound' ? readAgain(actor) : actor.send({ type: 'user.retry' }))}
      />
    );
  }
  if (isEmpty(value)) return <ListState state="empty" title={emptyTitle} {...(emptyDescription ? { description: emptyDescription } : {})} />;
  return <>{children(value)}</>;
}

/** Reads the same query again (after an act changed what it shows). */
export function readAgain<TQuery>(actor: { send: (event: { type: 'user.changeQuery'; query: TQuery }) => void; getSnapshot: () => { context: { query: TQuery } } }): void {
  actor.send({ type: 'user.changeQuery', query: actor.getSnapshot().context.query });
}
