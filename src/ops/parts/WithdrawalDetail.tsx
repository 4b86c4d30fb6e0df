/**
 * One withdrawal beside the queue (src/ops/screens/withdrawals.tsx): its fields, approvals and payment, the decision
 * (machines/ops/withdrawalDecisionMachine.ts: approve, a second approver above the quorum, or fail with a reason)
 * and its member with their history.
 */
import { useSelector } from '@xstate/react';
import Button from 'antd-mobile/es/components/button';
import { useTranslation } from 'react-i18next';
import { selectApprovalCount, selectWithdrawalStanding } from '../../../machines/ops/opsSelectors';
import { createWithdrawalDecisionMachine, maxReasonLength } from '../../../machines/ops/withdrawalDecisionMachine';
import { selectDecisionAct, selectDecisionError, selectDecisionForm, selectDecisionStage, selectDecisionSubject } from '../../../machines/shared/deskDecisionSelectors';
import { AmountText } from '../../components/AmountText';
import { StatusPanel } from '../../components/StatusPanel';
import { SummaryList } from '../../components/SummaryList';
import { TransactionLink } from '../../components/TransactionLink';
import { formatDateTime } from '../../components/dateFormat';
import type { OpsItem } from '../api/opsContract';
import { useExplorer } from '../deskChain';
import { useDeskDecision } from '../deskHooks';
import { MemberCard } from './MemberCard';
import { Refused } from './Refused';

export type Withdrawal = OpsItem<'opsWithdrawals'>;

export function WithdrawalDetail({ withdrawal, onDecided, onClose }: { withdrawal: Withdrawal; onDecided: () => void; onClose: () => void }) {
  const { t, i18n } = useTranslation('ops');
  const decision = useDeskDecision(
    createWithdrawalDecisionMachine,
    withdrawal,
    ({ act, subject, form }, api) =>
      api.call('opsWithdrawalDecide', { body: act === 'approve' ? { id: subject.id, status: 'approved' } : { id: subject.id, status: 'failed', reason: form.reason ?? '' } }),
    onDecided,
  );
  const stage = useSelector(decision, selectDecisionStage);
  const act = useSelector(decision, selectDecisionAct);
  const standing = useSelector(decision, selectWithdrawalStanding);
  const reason = useSelector(decision, selectDecisionForm).reason ?? '';
  const error = useSelector(decision, selectDecisionError);
  const decided = useSelector(decision, selectDecisionSubject).status;
  const count = useSelector(decision, selectApprovalCount);
  const explorer = useExplorer();
  const locale = i18n.resolvedLanguage ?? 'zh';
  const canApprove = useSelector(decision, (snapshot) => snapshot.can({ type: 'user.choose', act: 'approve' }));
  const canConfirm = useSelector(decision, (snapshot) => snapshot.can({ type: 'user.confirm', requestId: '' }));
  const confirm = () => decision.send({ type: 'user.confirm', requestId: crypto.randomUUID() });

  return (
    <article className="card" aria-labelledby="withdrawal-title">
      <div className="desk-row">
        <h3 id="withdrawal-title" className="card-title desk-row-main">
          {t('withdrawals.detailTitle', { id: withdrawal.id })}
        </h3>
        <Button size="small" fill="none" onClick={onClose}>
          {t('actions.close')}
        </Button>
      </div>
      <SummaryList
        rows={[
          { label: t('withdrawals.fields.member'), value: withdrawal.address },
          { label: t('withdrawals.fields.amount'), value: <AmountText amount={withdrawal.amount} symbol="CREDIT" locale={locale} /> },
          { label: t('withdrawals.fields.fee'), value: <AmountText amount={withdrawal.fee} symbol="CREDIT" locale={locale} /> },
          { label: t('withdrawals.fields.status'), value: t(`withdrawals.status.${decided}`) },
          { label: t('withdrawals.fields.createdAt'), value: formatDateTime(withdrawal.createdAt, locale) },
          ...(withdrawal.decidedAt ? [{ label: t('withdrawals.fields.decidedAt'), value: formatDateTime(withdrawal.decidedAt, locale) }] : []),
          { label: t('withdrawals.fields.approvals'), value: `${String(count.have)} / ${String(count.need)}` },
          ...withdrawal.approvals.map((approval, index) => ({
            label: t('withdrawals.fields.approver', { n: index + 1 }),
            value: `${approval.address} · ${formatDateTime(approval.approvedAt, locale)}`,
          })),
          ...(withdrawal.note ? [{ label: t('withdrawals.fields.note'), value: withdrawal.note }] : []),
          ...(withdrawal.reason ? [{ label: t('withdrawals.fields.reason'), value: t(`withdrawals.failure.${withdrawal.reason}`) }] : []),
        ]}
      />
      {withdrawal.txHash ? <TransactionLink label={t('withdrawals.fields.payment')} hash={withdrawal.txHash} explorer={explorer} /> : null}
      <div className="desk-form" aria-live="polite">
        {stage === 'ready' ? (
          <>
            {standing === 'open' && count.need > 1 ? <p className="desk-muted">{t('withdrawals.quorum', { need: count.need })}</p> : null}
            {standing === 'awaitingSecond' || standing === 'approved' ? (
              <p role="status" className="desk-badge" data-tone="warning">
                {standing === 'awaitingSecond' ? t('withdrawals.awaitingSecond', { have: count.have, need: count.need }) : t('withdrawals.approvedWaitsPayer')}
              </p>
            ) : null}
            <div className="desk-actions">
              {canApprove ? (
                <Button color="primary" shape="rounded" onClick={() => decision.send({ type: 'user.choose', act: 'approve' })}>
                  {t('withdrawals.approve')}
                </Button>
              ) : null}
              <Button color="danger" fill="outline" shape="rounded" onClick={() => decision.send({ type: 'user.choose', act: 'fail' })}>
                {t('withdrawals.fail')}
              </Button>
            </div>
          </>
        ) : null}
        {stage === 'form' && act === 'approve' ? (
          <>
            <p>{t('withdrawals.approveText', { id: withdrawal.id })}</p>
            <div className="desk-actions">
              <Button color="primary" shape="rounded" onClick={confirm}>
                {t('withdrawals.confirmApprove')}
              </Button>
              <Button fill="outline" shape="rounded" onClick={() => decision.send({ type: 'user.cancel' })}>
                {t('common:wallet.actions.cancel')}
              </Button>
            </div>
          </>
        ) : null}
        {stage === 'form' && act === 'fail' ? (
          <form
            className="desk-form"
            onSubmit={(event) => {
              event.preventDefault();
              confirm();
            }}
          >
            <label htmlFor="fail-reason" className="field-label">
              {t('withdrawals.failReason')}
            </label>
            <textarea
              id="fail-reason"
              maxLength={maxReasonLength}
              rows={3}
              value={reason}
              onChange={(event) => decision.send({ type: 'field.change', field: 'reason', value: event.target.value })}
            />
            <p className="desk-muted">{t('withdrawals.failRefunds')}</p>
            <div className="desk-actions">
              <Button type="submit" color="danger" shape="rounded" disabled={!canConfirm}>
                {t('withdrawals.confirmFail')}
              </Button>
              <Button fill="outline" shape="rounded" onClick={() => decision.send({ type: 'user.cancel' })}>
                {t('common:wallet.actions.cancel')}
              </Button>
            </div>
          </form>
        ) : null}
        {stage === 'busy' ? <StatusPanel message={t(act === 'approve' ? 'withdrawals.approving' : 'withdrawals.failing')} /> : null}
        {stage === 'refused' ? (
          <Refused error={error} onRetry={() => decision.send({ type: 'user.retry' })} onLeave={() => decision.send({ type: 'user.cancel' })} leaveLabel={t('actions.back')} />
        ) : null}
        {stage === 'closed' ? <p className="desk-muted">{t('withdrawals.closed', { status: t(`withdrawals.status.${decided}`) })}</p> : null}
      </div>
      <MemberCard address={withdrawal.address} />
    </article>
  );
}
