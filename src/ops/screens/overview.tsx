/**
 * The overview, the desk's home for every role (GET /api/admin/overview; docs/API.md, "Operators: the overview"):
 * money in and out per day for 30 days, what waits and for how long, the hot wallet's runway, how far the watcher
 * and the payer are behind, the alerts firing and reconcile's verdict. Each figure links to the screen where an
 * operator acts on it; a part the operator's roles do not act on is not there (the server leaves it null).
 */
import Button from 'antd-mobile/es/components/button';
import { useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { AmountText } from '../../components/AmountText';
import type { OpsResult } from '../api/opsContract';
import { useDeskRead } from '../deskHooks';
import { deskPath } from '../deskScreens';
import { formatAge } from '../formatAge';
import { MoneyChart } from '../parts/MoneyChart';
import { ReadState, readAgain } from '../parts/ReadState';

type Overview = OpsResult<'opsOverview'>;
type Tone = 'success' | 'warning' | 'danger' | undefined;

export function Screen() {
  const { t } = useTranslation('ops');
  const overview = useDeskRead('opsOverview', undefined);
  const loading = useSelector(overview, (snapshot) => snapshot.matches('loading'));
  return (
    <section aria-labelledby="overview-title">
      <div className="desk-row">
        <h2 id="overview-title" className="desk-screen-title desk-row-main">
          {t('screens.overview')}
        </h2>
        <Button size="small" fill="outline" shape="rounded" loading={loading} onClick={() => readAgain(overview)}>
          {t('actions.readAgain')}
        </Button>
      </div>
      <ReadState actor={overview} isEmpty={() => false} emptyTitle="">
        {(value) => <OverviewView value={value} />}
      </ReadState>
    </section>
  );
}

function Tile({ title, to, tone, children }: { title: string; to: string; tone?: Tone; children: ReactNode }) {
  return (
    <li className="desk-tile card" data-tone={tone}>
      <Link to={to} className="desk-tile-link">
        <span className="desk-tile-title">{title}</span>
        <span className="desk-tile-body">{children}</span>
      </Link>
    </li>
  );
}

function OverviewView({ value }: { value: Overview }) {
  const { t, i18n } = useTranslation('ops');
  const locale = i18n.resolvedLanguage ?? 'zh';
  const age = (seconds: number) => formatAge(seconds, locale);
  const waiting = (count: number, oldestAgeSeconds: number) => (
    <>
      <strong className="desk-figure">{count}</strong>
      {count > 0 ? <span className="desk-muted">{t('overview.oldest', { age: age(oldestAgeSeconds) })}</span> : null}
    </>
  );
  const withdrawals = deskPath('withdrawals');
  const reconcilePath = deskPath('reconcile');
  const { lags } = value;
  const days = (figure: number | null) =>
    figure === null ? t('overview.noPace') : t('overview.covers', { span: new Intl.NumberFormat(locale, { style: 'unit', unit: 'day', unitDisplay: 'long', maximumFractionDigits: 1 }).format(figure) });
  return (
    <div className="desk-form">
      <ul className="desk-tiles" aria-label={t('overview.figures')}>
        <Tile title={t('overview.reconcile')} to={reconcilePath} tone={value.reconcile === null ? 'warning' : value.reconcile.ok ? 'success' : 'danger'}>
          <strong className="desk-figure">{value.reconcile === null ? t('overview.notRun') : value.reconcile.ok ? t('reconcile.ok') : t('reconcile.notOk')}</strong>
          {value.reconcile ? <span className="desk-muted">{t('overview.ranAgo', { age: age((Date.parse(value.at) - Date.parse(value.reconcile.ranAt)) / 1000) })}</span> : null}
        </Tile>
        <Tile title={t('overview.alerts')} to={reconcilePath} tone={value.alerts.length > 0 ? 'danger' : 'success'}>
          <strong className="desk-figure">{value.alerts.length}</strong>
          {value.payoutsPaused ? <span className="desk-badge" data-tone="danger">{t('overview.payoutsPaused')}</span> : null}
        </Tile>
        {value.withdrawals ? (
          <>
            <Tile title={t('overview.pending')} to={`${withdrawals}?status=pending`} tone={value.withdrawals.pending.count > 0 ? 'warning' : undefined}>
              {waiting(value.withdrawals.pending.count, value.withdrawals.pending.oldestAgeSeconds)}
            </Tile>
            <Tile title={t('overview.approvalsWaiting')} to={`${withdrawals}?status=pending`} tone={value.withdrawals.approvalsWaiting.count > 0 ? 'warning' : undefined}>
              {waiting(value.withdrawals.approvalsWaiting.count, value.withdrawals.approvalsWaiting.oldestAgeSeconds)}
            </Tile>
            <Tile title={t('overview.approved')} to={`${withdrawals}?status=approved`}>
              {waiting(value.withdrawals.approved.count, value.withdrawals.approved.oldestAgeSeconds)}
            </Tile>
            <Tile title={t('overview.sent')} to={`${withdrawals}?status=sent`}>
              {waiting(value.withdrawals.sent.count, value.withdrawals.sent.oldestAgeSeconds)}
            </Tile>
            <Tile title={t('overview.heldTopUps')} to={deskPath('topUps')} tone={value.withdrawals.heldTopUps.count > 0 ? 'warning' : undefined}>
              <strong className="desk-figure">{value.withdrawals.heldTopUps.count}</strong>
              <AmountText amount={value.withdrawals.heldTopUps.amount} symbol="CREDIT" locale={locale} />
            </Tile>
          </>
        ) : null}
        {value.orders ? (
          <Tile title={t('overview.toShip')} to={`${deskPath('orders')}?status=paid`} tone={value.orders.toShip.count > 0 ? 'warning' : undefined}>
            {waiting(value.orders.toShip.count, value.orders.toShip.oldestAgeSeconds)}
          </Tile>
        ) : null}
        {value.runway ? (
          <Tile title={t('overview.runway')} to={reconcilePath} tone={value.runway.tokenDays !== null && value.runway.tokenDays < 3 ? 'danger' : undefined}>
            <span>
              {t('overview.token')} <AmountText amount={value.runway.token} symbol="CREDIT" locale={locale} /> · {days(value.runway.tokenDays)}
            </span>
            <span className="desk-muted">
              {t('overview.gas')} · {days(value.runway.gasDays)}
            </span>
          </Tile>
        ) : null}
        <Tile title={t('overview.lags')} to={reconcilePath} tone={lags.chainUnreachable ? 'danger' : undefined}>
          <span>{t('overview.watcher', { lag: lags.watcherSeconds === null ? t('overview.notHere') : age(lags.watcherSeconds), blocks: lags.watcherBehindBlocks ?? '—' })}</span>
          <span>{t('overview.payer', { lag: lags.payerSeconds === null ? t('overview.notHere') : age(lags.payerSeconds) })}</span>
          {lags.chainUnreachable ? <span className="desk-badge" data-tone="danger">{t('overview.chainUnreachable')}</span> : null}
        </Tile>
      </ul>
      {value.money ? (
        <section className="card desk-form" aria-labelledby="money-title">
          <h3 id="money-title" className="card-title">
            {t('overview.money', { days: value.money.days.length })}
          </h3>
          <p>
            {t('overview.moneyIn')} <AmountText amount={value.money.total.in} symbol="CREDIT" locale={locale} /> · {t('overview.moneyOut')}{' '}
            <AmountText amount={value.money.total.out} symbol="CREDIT" locale={locale} />
          </p>
          <MoneyChart days={value.money.days} />
        </section>
      ) : null}
    </div>
  );
}
