import { useSelector } from '@xstate/react';
import Button from 'antd-mobile/es/components/button';
import { useTranslation } from 'react-i18next';
import { AmountText } from '../../components/AmountText';
import { ShortAddress } from '../../components/ShortAddress';
import { SummaryList } from '../../components/SummaryList';
import { formatDateTime } from '../../components/dateFormat';
import type { OpsResult } from '../api/opsContract';
import { useDesk } from '../DeskContext';
import { useDeskAction, useDeskRead, useOperator } from '../deskHooks';
import { ActionState } from './ActionState';
import { PageButtons } from './PageButtons';
import { ReadState, readAgain } from './ReadState';
import { runAct } from '../../../machines/ops/opsActionMachine';

const sameAddress = (a: string | null | undefined, b: string | null | undefined) => !!a && !!b && a.toLowerCase() === b.toLowerCase();

/**
 * The grants and deductions above the quorum threshold that wait for a second finance operator (opsAdjustmentsPending),
 * oldest first, each with Confirm; the operator's own ones say another operator confirms them.
 */
export function PendingAdjustments() {
  const { t, i18n } = useTranslation('ops');
  const { api } = useDesk();
  const operator = useOperator();
  const locale = i18n.resolvedLanguage ?? 'zh';
  const pending = useDeskRead('opsAdjustmentsPending', {});
  const nextCursor = useSelector(pending, (snapshot) => snapshot.context.value?.nextCursor ?? null);
  // A confirmed one leaves the list: it is read again after each accepted confirmation.
  const confirm = useDeskAction((request: { id: string }) => api.call('opsAdjustConfirm', { body: request }), () => readAgain(pending));
  const busy = useSelector(confirm, (snapshot) => snapshot.hasTag('busy'));
  return (
    <section className="card desk-form" aria-labelledby="pending-adjustments-title">
      <h3 id="pending-adjustments-title" className="card-title">
        {t('members.pendingTitle')}
      </h3>
      <p className="desk-muted">{t('members.pendingLead')}</p>
      <div className="desk-actions">
        <Button fill="outline" shape="rounded" onClick={() => readAgain(pending)}>
          {t('actions.readAgain')}
        </Button>
      </div>
      <ActionState
        actor={confirm}
        busyText={t('members.saving')}
        done={(result: OpsResult<'opsAdjustConfirm'> | null) => <ConfirmDone result={result} />}
      />
      <ReadState actor={pending} isEmpty={(value) => value.list.length === 0} emptyTitle={t('members.pendingEmpty')}>
        {(value) => (
          <ul className="desk-list" aria-label={t('members.pendingTitle')}>
            {value.list.map((item) => (
              <li key={item.id} className="desk-item">
                <SummaryList
                  label={t('members.pendingItem', { id: item.id })}
                  rows={[
                    { label: t('members.fields.address'), value: <ShortAddress address={item.address} /> },
                    { label: t('members.amount'), value: <AmountText amount={item.amount} symbol={item.asset} signed locale={locale} />, strong: true },
                    { label: t('members.reason'), value: item.reason },
                    { label: t('members.requestedBy'), value: item.requestedBy ? <ShortAddress address={item.requestedBy} /> : '—' },
                    { label: t('members.requestedAt'), value: formatDateTime(item.requestedAt, locale) },
                  ]}
                />
                {sameAddress(item.requestedBy, operator?.address) ? (
                  <p className="desk-muted">{t('members.yours')}</p>
                ) : (
                  <div className="desk-actions">
                    <Button color="primary" shape="rounded" disabled={busy} onClick={() => runAct(confirm, { id: item.id })}>
                      {t('members.confirmItem', { id: item.id })}
                    </Button>
                  </div>
                )}
              </li>
            ))}
          </ul>
        )}
      </ReadState>
      <PageButtons actor={pending} nextCursor={nextCursor} />
    </section>
  );
}

function ConfirmDone({ result }: { result: OpsResult<'opsAdjustConfirm'> | null }) {
  const { t } = useTranslation('ops');
  if (!result) return null;
  return <p>{result.status === 'waiting' ? t('members.adjustWaiting', { id: result.id }) : t('members.adjustDone', { id: result.id })}</p>;
}
