import { useSelector } from '@xstate/react';
import InfiniteScroll from 'antd-mobile/es/components/infinite-scroll';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { waitFor } from 'xstate';
import type { ActorRefFrom } from 'xstate';
import type { createPagedListMachine } from '../../../machines/list/pagedListMachine';
import {
  selectCanLoadMore,
  selectCanRefresh,
  selectIsRefreshing,
  selectItems,
  selectListError,
  selectListFooter,
  selectListView,
  selectRefreshFailed,
} from '../../../machines/list/pagedListSelectors';
import { errorKey } from '../../app/errorKey';
import { ErrorText } from '../../components/ErrorText';
import { ListFooter } from '../../components/ListFooter';
import { ListState } from '../../components/ListState';
import { RefreshButton } from '../../components/RefreshButton';

type PagedListActor<TItem, TQuery> = ActorRefFrom<ReturnType<typeof createPagedListMachine<TItem, TQuery>>>;

interface PagedListViewProps<TItem, TQuery> {
  actor: PagedListActor<TItem, TQuery>;
  /** The rows, rendered by the screen (an antd-mobile List, cards, ...). */
  renderItems: (items: readonly TItem[]) => ReactNode;
  emptyTitle: string;
  emptyDescription?: string;
  /** Filters and the like, shown above the rows in every state. */
  toolbar?: ReactNode;
}

/**
 * Every list screen's states from the paged-list machine: skeleton, error with retry, empty, the rows with a
 * refresh control, and the footer that loads the next page as the member scrolls (antd-mobile InfiniteScroll,
 * told by the machine whether there is more; its own "failed" flag is unused, the machine's footer says it).
 */
export function PagedListView<TItem, TQuery>({ actor, renderItems, emptyTitle, emptyDescription, toolbar }: PagedListViewProps<TItem, TQuery>) {
  const { t } = useTranslation('common');
  const view = useSelector(actor, selectListView);
  const items = useSelector(actor, selectItems<TItem, TQuery>);
  const footer = useSelector(actor, selectListFooter);
  const error = useSelector(actor, selectListError);
  const canLoadMore = useSelector(actor, selectCanLoadMore);
  const canRefresh = useSelector(actor, selectCanRefresh);
  const refreshing = useSelector(actor, selectIsRefreshing);
  const refreshFailed = useSelector(actor, selectRefreshFailed);
  const errorText = error ? t(errorKey(error)) : t('Common.unknown');
  const refresh = <RefreshButton label={t('list.refresh')} busyLabel={t('list.refreshing')} busy={refreshing || !canRefresh} onRefresh={() => actor.send({ type: 'user.refresh' })} />;

  // InfiniteScroll awaits loadMore: it resolves once the page arrived or failed, so it never asks twice at once.
  const loadMore = async () => {
    actor.send({ type: 'user.loadMore' });
    await waitFor(actor, (snapshot) => !snapshot.matches({ loaded: 'loadingMore' }));
  };

  return (
    <div className="paged-list">
      <div className="list-toolbar">
        {toolbar}
        {view === 'loaded' || view === 'empty' ? refresh : null}
      </div>
      {view === 'loading' ? <ListState state="loading" loadingLabel={t('status.loading')} rows={4} /> : null}
      {view === 'failed' ? <ListState state="error" title={errorText} retryLabel={t('actions.retry')} onRetry={() => actor.send({ type: 'user.retry' })} /> : null}
      {view === 'empty' ? <ListState state="empty" title={emptyTitle} description={emptyDescription} /> : null}
      {view === 'loaded' ? (
        <>
          {refreshFailed ? (
            <div className="card">
              <ErrorText text={errorText} />
            </div>
          ) : null}
          {renderItems(items)}
          <InfiniteScroll hasMore={canLoadMore} loadMore={loadMore}>
            {() => (
              <ListFooter
                state={footer}
                loadingLabel={t('status.loading')}
                noMoreLabel={t('list.noMore')}
                errorText={errorText}
                retryLabel={t('actions.retry')}
                onRetry={() => actor.send({ type: 'user.retry' })}
              />
            )}
          </InfiniteScroll>
        </>
      ) : null}
    </div>
  );
}
