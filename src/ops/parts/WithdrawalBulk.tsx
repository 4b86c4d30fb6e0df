/**
 * The withdrawals queue's shared parts: a row's approval badge, and the approval of several at once
 * (machines/ops/withdrawalBulkApprovalMachine.ts) as the screen shows it: the confirmation (focused, so Enter
 * confirms from the keyboard), the work, the refusal with its retry, and the answer per withdrawal.
 */
import { useSelector } from '@xstate/react';
import Button from 'antd-mobile/es/components/button';
import type { ButtonRef } from 'antd-mobile/es/components/button';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import { bulkIdsOf } from '../../../machines/ops/withdrawalBulkApprovalMachine';
import type { withdrawalBulkApprovalMachine } from '../../../machines/ops/withdrawalBulkApprovalMachine';
import { selectDecisionError, selectDecisionForm, selectDecisionStage, selectDecisionSubject } from '../../../machines/shared/deskDecisionSelectors';
import { ErrorText } from '../../components/ErrorText';
import { StatusPanel } from '../../components/StatusPanel';
import { deskErrorText } from '../deskErrors';
import { Refused } from './Refused';

export type BulkApprovalActor = ActorRefFrom<typeof withdrawalBulkApprovalMachine>;

/**
 * Asks for the approval of these withdrawals: the confirmation opens, or, open already, counts them instead.
 *
 * @example startBulkApproval(bulk, ['42', '41']);
 */
export function startBulkApproval(bulk: BulkApprovalActor, ids: readonly string[]): void {
  bulk.send({ type: 'user.choose', act: 'approve' });
  bulk.send({ type: 'field.change', field: 'ids', value: ids.join(' ') });
}

export function BulkApprovalPanel({ bulk }: { bulk: BulkApprovalActor }) {
  const { t, i18n } = useTranslation('ops');
  const stage = useSelector(bulk, selectDecisionStage);
  const count = useSelector(bulk, (snapshot) => bulkIdsOf(selectDecisionForm(snapshot)).length);
  const results = useSelector(bulk, (snapshot) => selectDecisionSubject(snapshot).results);
  const error = useSelector(bulk, selectDecisionError);
  const canConfirm = useSelector(bulk, (snapshot) => snapshot.can({ type: 'user.confirm', requestId: '' }));
  if (stage === 'form') {
    return (
      <div className="card desk-form" role="group" aria-label={t('withdrawals.bulkTitle')}>
        <p>{t('withdrawals.bulkConfirmText', { count })}</p>
        <div className="desk-actions">
          <ConfirmButton disabled={!canConfirm} onClick={() => bulk.send({ type: 'user.confirm', requestId: crypto.randomUUID() })}>
            {t('withdrawals.bulkConfirm', { count })}
          </ConfirmButton>
          <Button fill="outline" shape="rounded" onClick={() => bulk.send({ type: 'user.cancel' })}>
            {t('common:wallet.actions.cancel')}
          </Button>
        </div>
      </div>
    );
  }
  if (stage === 'busy') return <StatusPanel message={t('withdrawals.approving')} />;
  if (stage === 'refused') {
    return <Refused error={error} onRetry={() => bulk.send({ type: 'user.retry' })} onLeave={() => bulk.send({ type: 'user.cancel' })} leaveLabel={t('actions.back')} />;
  }
  if (!results) return null;
  const approved = results.filter((item) => item.code === 0 && !item.waitsForSecondApproval).length;
  const waiting = results.filter((item) => item.code === 0 && item.waitsForSecondApproval).length;
  const refused = results.filter((item) => item.code !== 0).map((item) => `#${item.id}: ${deskErrorText(t, (key) => i18n.exists(key), { name: 'ApiError', code: item.code })}`);
  return (
    <div role="status">
      <p>{t('withdrawals.bulkDone', { approved, waiting })}</p>
      {refused.map((line) => (
        <ErrorText key={line} text={line} />
      ))}
    </div>
  );
}

/** The confirmation's button, focused as it shows: the keyboard's `a` then Enter approves. */
function ConfirmButton({ disabled, onClick, children }: { disabled: boolean; onClick: () => void; children: string }) {
  const button = useRef<ButtonRef>(null);
  useEffect(() => button.current?.nativeElement?.focus(), []);
  return (
    <Button ref={button} color="primary" shape="rounded" disabled={disabled} onClick={onClick}>
      {children}
    </Button>
  );
}

export function ApprovalBadge({ have, need, status }: { have: number; need: number; status: string }) {
  const { t } = useTranslation('ops');
  if (status !== 'pending') return <span className="desk-badge">{t(`withdrawals.status.${status}`)}</span>;
  if (need > 1) return <span className="desk-badge" data-tone="warning">{t('withdrawals.approvals', { have, need })}</span>;
  return <span className="desk-badge">{t('withdrawals.status.pending')}</span>;
}
