import { useSelector } from '@xstate/react';
import Button from 'antd-mobile/es/components/button';
import { useTranslation } from 'react-i18next';
import { SummaryList } from '../../components/SummaryList';
import type { OpsResult } from '../api/opsContract';
import { useDesk } from '../DeskContext';
import { useDeskAction } from '../deskHooks';
import { ActionState } from './ActionState';
import { runAct } from '../../../machines/ops/opsActionMachine';

type Pause = NonNullable<OpsResult<'opsReconcile'>['pause']>;

/**
 * Payouts paused on doubt (docs/API.md, "Credit on chain: payouts paused"): why, since when, who asked to resume;
 * the resume act, which waits for a second finance operator and is refused while a cause still holds (3010).
 */
export function PayoutPauseCard({ pause }: { pause: Pause }) {
  const { t } = useTranslation('ops');
  const { api } = useDesk();
  const resume = useDeskAction((request: { pauseId: string; requestId: string }) => api.call('opsPayoutsResume', { body: request }));
  const busy = useSelector(resume, (snapshot) => snapshot.hasTag('busy'));
  return (
    <section aria-labelledby="pause-title" className="card desk-form">
      <h3 id="pause-title" className="card-title">
        {t('pause.title')}
      </h3>
      <p role="status" className="desk-badge" data-tone="danger">
        {t('pause.paused')}
      </p>
      <ul className="desk-list">
        {pause.causes.map((doubt) => (
          <li key={`${doubt.cause}:${doubt.detail}`} className="desk-item">
            <p>
              <strong>{t(`pause.cause.${doubt.cause}`)}</strong>
            </p>
            <p className="desk-muted">{doubt.detail}</p>
          </li>
        ))}
      </ul>
      <SummaryList
        rows={[
          { label: t('pause.since'), value: new Date(pause.pausedAt).toLocaleString() },
          { label: t('pause.approvals'), value: pause.approvals.length === 0 ? t('pause.noApprovals') : pause.approvals.join(', ') },
        ]}
      />
      <p className="desk-muted">{t('pause.do')}</p>
      <Button color="primary" shape="rounded" disabled={busy} onClick={() => runAct(resume, { pauseId: pause.id, requestId: crypto.randomUUID() })}>
        {t('pause.resume')}
      </Button>
      <ActionState
        actor={resume}
        busyText={t('pause.resuming')}
        done={(result: OpsResult<'opsPayoutsResume'> | null) => <p>{result?.resumed ? t('pause.resumed') : t('pause.waits')}</p>}
      />
    </section>
  );
}
