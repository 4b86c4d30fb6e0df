import { useSelector } from '@xstate/react';
import Button from 'antd-mobile/es/components/button';
import { useTranslation } from 'react-i18next';
import { ShortAddress } from '../../components/ShortAddress';
import { SummaryList } from '../../components/SummaryList';
import { formatDateTime } from '../../components/dateFormat';
import type { OpsResult } from '../api/opsContract';
import { useDesk } from '../DeskContext';
import { useDeskAction, useOperator, type useDeskRead } from '../deskHooks';
import { ActionState } from './ActionState';
import { ReadState } from './ReadState';
import { runAct } from '../../../machines/ops/opsActionMachine';

type ChangesRead = ReturnType<typeof useDeskRead<'opsOperatorChanges'>>;
type OperatorChange = OpsResult<'opsOperatorChanges'>['changes'][number];

const sameAddress = (a: string | null | undefined, b: string | null | undefined) => !!a && !!b && a.toLowerCase() === b.toLowerCase();

/**
 * The operator changes waiting for a second admin (opsOperatorChanges), oldest first: another admin's with Confirm,
 * the operator's own saying another admin confirms it; any of them may be withdrawn. `onDecided` reads the screen's
 * lists again after each accepted answer (the act's machine reports it).
 */
export function PendingOperatorChanges({ changes, onDecided }: { changes: ChangesRead; onDecided: () => void }) {
  const { t, i18n } = useTranslation('ops');
  const { api } = useDesk();
  const operator = useOperator();
  const locale = i18n.resolvedLanguage ?? 'zh';
  const confirm = useDeskAction((request: { id: string }) => api.call('opsOperatorConfirm', { body: request }), onDecided);
  const cancel = useDeskAction((request: { id: string }) => api.call('opsOperatorCancel', { body: request }), onDecided);
  const confirming = useSelector(confirm, (snapshot) => snapshot.hasTag('busy'));
  const cancelling = useSelector(cancel, (snapshot) => snapshot.hasTag('busy'));
  const busy = confirming || cancelling;
  const what = (item: OperatorChange) =>
    item.roles === null ? t('operators.changeRemove') : t('operators.changePut', { roles: item.roles.map((role) => t(`roles.${role}`)).join(t('operators.rolesJoin')) });
  return (
    <section className="card desk-form" aria-labelledby="operator-changes-title">
      <h3 id="operator-changes-title" className="card-title">
        {t('operators.changesTitle')}
      </h3>
      <p className="desk-muted">{t('operators.changesLead')}</p>
      <ActionState
        actor={confirm}
        busyText={t('operators.saving')}
        done={(result: OpsResult<'opsOperatorConfirm'> | null) => <DecidedText result={result} />}
      />
      <ActionState
        actor={cancel}
        busyText={t('operators.saving')}
        done={(result: OpsResult<'opsOperatorCancel'> | null) => <DecidedText result={result} />}
      />
      <ReadState actor={changes} isEmpty={(value) => value.changes.length === 0} emptyTitle={t('operators.changesEmpty')}>
        {(value) => (
          <ul className="desk-list" aria-label={t('operators.changesTitle')}>
            {value.changes.map((item) => (
              <li key={item.id} className="desk-item">
                <SummaryList
                  label={t('operators.changeItem', { id: item.id })}
                  rows={[
                    { label: t('operators.changeAddress'), value: <ShortAddress address={item.address} /> },
                    { label: t('operators.changeWhat'), value: what(item), strong: true },
                    { label: t('operators.requestedBy'), value: <ShortAddress address={item.requestedBy} /> },
                    { label: t('operators.requestedAt'), value: formatDateTime(item.requestedAt, locale) },
                  ]}
                />
                {sameAddress(item.requestedBy, operator?.address) ? <p className="desk-muted">{t('operators.yours')}</p> : null}
                <div className="desk-actions">
                  {sameAddress(item.requestedBy, operator?.address) ? null : (
                    <Button color="primary" shape="rounded" disabled={busy} onClick={() => runAct(confirm, { id: item.id })}>
                      {t('operators.confirm', { id: item.id })}
                    </Button>
                  )}
                  <Button fill="outline" shape="rounded" disabled={busy} onClick={() => runAct(cancel, { id: item.id })}>
                    {t('operators.cancel', { id: item.id })}
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </ReadState>
    </section>
  );
}

/** What a change's answer says: waiting for a second admin, done (with what a removal ended), or withdrawn. */
export function DecidedText({ result }: { result: OpsResult<'opsOperatorConfirm'> | null }) {
  const { t } = useTranslation('ops');
  if (!result) return null;
  if (result.removed) return <p>{t('operators.removed', { sessions: result.removed.sessionsEnded, keys: result.removed.keysRevoked })}</p>;
  return <p>{t(`operators.status.${result.status}`, { id: result.id })}</p>;
}
