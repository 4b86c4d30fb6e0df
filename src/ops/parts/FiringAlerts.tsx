import { useSelector } from '@xstate/react';
import Button from 'antd-mobile/es/components/button';
import { useTranslation } from 'react-i18next';
import { selectResource, selectResourceView } from '../../../machines/resource/resourceSelectors';
import type { OpsResult } from '../api/opsContract';
import { useDeskRead } from '../deskHooks';
import { readAgain } from './ReadState';

type Alerts = OpsResult<'opsAlerts'>;

/**
 * The alerts firing now (GET /api/admin/alerts; docs/operations.md, "Metrics and alerts"), above every screen for every
 * role: each rule's summary and what it saw. Nothing while none fires; a failed read says so with a retry, never hiding
 * an alert behind silence.
 */
export function FiringAlerts() {
  const { t } = useTranslation('ops');
  const alerts = useDeskRead('opsAlerts', undefined);
  const view = useSelector(alerts, selectResourceView);
  const value = useSelector(alerts, selectResource<Alerts, undefined>);
  if (view === 'loading') return null;
  if (view === 'failed' || view === 'notFound' || value === null) {
    return (
      <div className="desk-alerts desk-row" role="status">
        <p className="desk-muted desk-row-main">{t('alerts.unread')}</p>
        <Button size="small" fill="outline" shape="rounded" onClick={() => readAgain(alerts)}>
          {t('common:actions.retry')}
        </Button>
      </div>
    );
  }
  if (value.firing.length === 0) return null;
  return (
    <section className="desk-alerts card" aria-labelledby="alerts-title">
      <div className="desk-row">
        <h2 id="alerts-title" className="card-title desk-row-main">
          {t('alerts.firing', { count: value.firing.length })}
        </h2>
        <Button size="small" fill="outline" shape="rounded" onClick={() => readAgain(alerts)}>
          {t('actions.readAgain')}
        </Button>
      </div>
      <ul className="desk-list">
        {value.firing.map((alert) => (
          <li key={alert.id} className="desk-item" data-severity={alert.severity}>
            <p>
              <span className="desk-badge" data-tone={alert.severity === 'critical' ? 'danger' : 'warning'}>
                {t(`alerts.severity.${alert.severity}`)}
              </span>{' '}
              <strong>{alert.summary}</strong>
            </p>
            <p className="desk-muted">
              {alert.rule} · {alert.description} · {t('alerts.since', { at: new Date(alert.startedAt).toLocaleString() })}
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}
