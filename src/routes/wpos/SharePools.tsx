import { useSelector } from '@xstate/react';
import { useCallback, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { selectResource, selectResourceError, selectResourceView } from '../../../machines/resource/resourceSelectors';
import type { ItemOf, ResultOf } from '../../api/answer';
import { fetchSharePools } from '../../api/screenCalls';
import { useRootActors } from '../../app/RootActorsContext';
import { errorKey } from '../../app/errorKey';
import { AmountText } from '../../components/AmountText';
import { ListState } from '../../components/ListState';
import { SummaryList } from '../../components/SummaryList';
import { useResource } from '../shared/useResource';
import { useCountdown } from './useCountdown';

type SharePool = ItemOf<'getSharePools'>;
/** The pools' query: the payout they were read for, so a new read follows each payout. */
interface PoolsQuery {
  after: string | null;
}

const pad = (value: number) => String(value).padStart(2, '0');

/**
 * /me/wpos's share pools (docs/API.md "Share pools"): each pool's daily amount, minimum holding, the member's share if it
 * paid now, and a live countdown to the next payout; read again once that payout is due.
 */
export function SharePools() {
  const { t, i18n } = useTranslation(['wpos', 'common']);
  const { api } = useRootActors();
  const pools = useResource<ResultOf<'getSharePools'>, PoolsQuery>(() => fetchSharePools(api), { after: null });
  const view = useSelector(pools, selectResourceView);
  const error = useSelector(pools, selectResourceError);
  const list = useSelector(pools, selectResource<ResultOf<'getSharePools'>, PoolsQuery>)?.list ?? [];
  const locale = i18n.resolvedLanguage ?? 'zh';
  // Stable, so a card's timer for the payout is not restarted by every tick of its countdown.
  const readAfter = useCallback((after: string) => pools.send({ type: 'user.changeQuery', query: { after } }), [pools]);

  return (
    <section className="card share-pools" aria-labelledby="share-pools-title">
      <h2 id="share-pools-title" className="card-title">
        {t('wpos:pools.title')}
      </h2>
      {view === 'loading' ? <ListState state="loading" loadingLabel={t('wpos:pools.loading')} rows={2} /> : null}
      {view === 'failed' || view === 'notFound' ? (
        <ListState
          state="error"
          title={error ? t(`common:${errorKey(error)}`) : t('common:Common.unknown')}
          retryLabel={t('common:actions.retry')}
          onRetry={() => pools.send({ type: 'user.retry' })}
        />
      ) : null}
      {view === 'loaded' && list.length === 0 ? <ListState state="empty" title={t('wpos:pools.empty')} /> : null}
      {view === 'loaded' && list.length > 0 ? (
        <ul className="pool-list">
          {list.map((pool) => (
            <PoolCard key={pool.id} pool={pool} locale={locale} onDue={readAfter} />
          ))}
        </ul>
      ) : null}
    </section>
  );
}

function PoolCard({ pool, locale, onDue }: { pool: SharePool; locale: string; onDue: (after: string) => void }) {
  const { t } = useTranslation(['wpos']);
  const countdown = useCountdown(pool.nextDistributionAt);
  const due = countdown.remainingMs === 0;
  useEffect(() => {
    // A few seconds after the payout, so the server's timer has run.
    if (!due) return;
    const timer = setTimeout(() => onDue(pool.nextDistributionAt), 5000);
    return () => clearTimeout(timer);
  }, [due, onDue, pool.nextDistributionAt]);
  const titleId = `pool-${pool.id}`;
  return (
    <li className="pool-card" aria-labelledby={titleId}>
      <h3 id={titleId} className="pool-name">
        {pool.name}
      </h3>
      <SummaryList
        rows={[
          { label: t('wpos:pools.daily'), value: <AmountText amount={pool.totalAmount} symbol="WPOS" locale={locale} /> },
          { label: t('wpos:pools.minHolding'), value: <AmountText amount={pool.minHolding} symbol="WPOS" locale={locale} /> },
          { label: t('wpos:pools.myShare'), value: <AmountText amount={pool.myShare} symbol="WPOS" locale={locale} />, strong: true },
          {
            label: t('wpos:pools.next'),
            value: due ? (
              t('wpos:pools.due')
            ) : (
              <time dateTime={pool.nextDistributionAt} className="countdown">
                {`${pad(countdown.hours)}:${pad(countdown.minutes)}:${pad(countdown.seconds)}`}
              </time>
            ),
          },
        ]}
      />
    </li>
  );
}
