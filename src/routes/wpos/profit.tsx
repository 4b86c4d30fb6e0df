import { useSelector } from '@xstate/react';
import List from 'antd-mobile/es/components/list';
import { useTranslation } from 'react-i18next';
import type { ItemOf, ResultOf } from '../../api/answer';
import { fetchWposProfit } from '../../api/screenCalls';
import { useRootActors } from '../../app/RootActorsContext';
import { paths } from '../../app/paths';
import { AmountText } from '../../components/AmountText';
import { SummaryList } from '../../components/SummaryList';
import { formatDateTime } from '../../components/dateFormat';
import { PagedListView } from '../shared/PagedListView';
import { Screen } from '../shared/Screen';
import { recordsPageQuery, usePagedList } from '../shared/usePagedList';
import { selectResource, selectResourceError, selectResourceView } from '../../../machines/resource/resourceSelectors';
import { errorKey } from '../../app/errorKey';
import { ListState } from '../../components/ListState';
import { useResource } from '../shared/useResource';

type ProfitTotals = Pick<ResultOf<'wposProfit'>, 'totalProfit' | 'todayProfit'>;

/**
 * /me/wpos/profit — the member's share-pool profit: the total and today's (UTC, as the server counts it), and the
 * paged profit records with the pool that paid each.
 */
export function Component() {
  const { t, i18n } = useTranslation(['wpos', 'common']);
  const { api } = useRootActors();
  const profit = usePagedList<ItemOf<'wposProfit'>, Record<string, never>>((input) => fetchWposProfit(api, recordsPageQuery(input)), {});
  // The totals come with every page; the card reads them once, with its own loading and retry.
  const totalsDoc = useResource<ProfitTotals, Record<string, never>>(async () => {
    const answer = await fetchWposProfit(api, { page: 1, pageSize: 1 });
    return { code: answer.code, result: answer.result ? { totalProfit: answer.result.totalProfit, todayProfit: answer.result.todayProfit } : null };
  }, {});
  const totalsView = useSelector(totalsDoc, selectResourceView);
  const totalsError = useSelector(totalsDoc, selectResourceError);
  const totals = useSelector(totalsDoc, selectResource<ProfitTotals, Record<string, never>>);
  const locale = i18n.resolvedLanguage ?? 'zh';

  return (
    <Screen title={t('wpos:profit.title')} parent={paths.wpos.href()}>
      {totalsView === 'loading' ? <ListState state="loading" loadingLabel={t('common:status.loading')} rows={1} /> : null}
      {totalsView === 'failed' || totalsView === 'notFound' ? (
        <ListState
          state="error"
          title={totalsError ? t(`common:${errorKey(totalsError)}`) : t('common:Common.unknown')}
          retryLabel={t('common:actions.retry')}
          onRetry={() => totalsDoc.send({ type: 'user.retry' })}
        />
      ) : null}
      {totalsView === 'loaded' && totals ? (
        <section className="card" aria-label={t('wpos:profit.title')}>
          <SummaryList
            rows={[
              { label: t('wpos:profit.total'), value: <AmountText amount={totals.totalProfit} symbol="WPOS" locale={locale} />, strong: true },
              { label: t('wpos:profit.today'), value: <AmountText amount={totals.todayProfit} symbol="WPOS" locale={locale} /> },
            ]}
          />
        </section>
      ) : null}
      <h2 className="section-title">{t('wpos:profit.list')}</h2>
      <PagedListView
        actor={profit}
        emptyTitle={t('wpos:profit.empty')}
        emptyDescription={t('wpos:profit.emptyDescription')}
        renderItems={(items) => (
          <List mode="card" className="rows credit-records">
            {items.map((record) => (
              <List.Item
                key={record.id}
                title={record.source}
                description={
                  <span className="row-date">
                    <time dateTime={record.createdAt}>{formatDateTime(record.createdAt, locale)}</time>
                  </span>
                }
                extra={<AmountText amount={record.amount} locale={locale} signed />}
              />
            ))}
          </List>
        )}
      />
    </Screen>
  );
}
