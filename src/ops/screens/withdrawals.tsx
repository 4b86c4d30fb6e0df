/**
 * Withdrawals (issue 43): the queue by status, filtered by member; one withdrawal beside it with its member and
 * their history; approve (a second, different approver above the quorum threshold), fail with a reason, or approve
 * several at once; each payment linked to the block explorer.
 */
import { useSelector } from '@xstate/react';
import Button from 'antd-mobile/es/components/button';
import { useEffect, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { selectApprovalCount, selectWithdrawalStanding } from '../../../machines/ops/opsSelectors';
import { createWithdrawalDecisionMachine, maxReasonLength } from '../../../machines/ops/withdrawalDecisionMachine';
import { selectDecisionAct, selectDecisionError, selectDecisionForm, selectDecisionStage, selectDecisionSubject } from '../../../machines/shared/deskDecisionSelectors';
import { AmountText } from '../../components/AmountText';
import { ErrorText } from '../../components/ErrorText';
import { FilterChips } from '../../components/FilterChips';
import { FormField } from '../../components/FormField';
import { ShortAddress } from '../../components/ShortAddress';
import { StatusPanel } from '../../components/StatusPanel';
import { SummaryList } from '../../components/SummaryList';
import { TransactionLink } from '../../components/TransactionLink';
import { formatDateTime } from '../../components/dateFormat';
import type { OpsItem, OpsQuery, OpsResult } from '../api/opsContract';
import { useDesk } from '../DeskContext';
import { useExplorer } from '../deskChain';
import { deskErrorText } from '../deskErrors';
import { useDeskAction, useDeskDecision, useDeskRead } from '../deskHooks';
import { ActionState } from '../parts/ActionState';
import { MemberCard } from '../parts/MemberCard';
import { PageButtons } from '../parts/PageButtons';
import { Refused } from '../parts/Refused';
import { ReadState, readAgain } from '../parts/ReadState';
import { useDraft, useStateFor } from '../useDraft';

type Withdrawal = OpsItem<'opsWithdrawals'>;
type QueueStatus = NonNullable<OpsQuery<'opsWithdrawals'>['status']>;
const statuses: readonly QueueStatus[] = ['pending', 'approved', 'sent', 'stuck', 'failed', 'lost', 'paid'];
const isStatus = (value: string | null): value is QueueStatus => statuses.includes(value as QueueStatus);
const addressPattern = /^0x[0-9a-fA-F]{40}$/;

export function Screen() {
  const { t, i18n } = useTranslation('ops');
  const { api } = useDesk();
  const [params, setParams] = useSearchParams();
  const status: QueueStatus = isStatus(params.get('status')) ? (params.get('status') as QueueStatus) : 'pending';
  const member = params.get('address') ?? '';
  const selectedId = params.get('id');
  const [memberText, setMemberText] = useDraft(member);
  // The ticks belong to the list they were made on: another tab or member (a filter, Back, Forward) starts with none.
  const [checked, setChecked] = useStateFor<readonly string[]>(`${status} ${member}`, []);
  const queueQuery = { status, ...(member ? { address: member } : {}) };
  const queue = useDeskRead('opsWithdrawals', queueQuery);
  // Only what the operator sees is approved: a tick on another page, or on one that left the tab, is not sent.
  const shownIds = useSelector(queue, (snapshot) => (snapshot.context.value?.list ?? []).map((item) => item.id).join(' ')).split(' ');
  const chosen = checked.filter((id) => shownIds.includes(id));
  const bulk = useDeskAction((request: { ids: string[] }) => api.call('opsWithdrawalsApprove', { body: request }));
  const listed = useSelector(queue, (snapshot) => snapshot.context.value?.list.find((item) => item.id === selectedId) ?? null);
  // A decided withdrawal leaves its tab when the queue is read again; its detail stays open with what was decided.
  const [pinned, setPinned] = useState<Withdrawal | null>(null);
  if (listed && listed !== pinned) setPinned(listed);
  const selected = listed ?? (pinned?.id === selectedId ? pinned : null);
  const nextCursor = useSelector(queue, (snapshot) => snapshot.context.value?.nextCursor ?? null);
  const locale = i18n.resolvedLanguage ?? 'zh';

  const setQuery = (next: { status?: QueueStatus; address?: string; id?: string | null }) => {
    const query = { status: next.status ?? status, address: next.address ?? member };
    const search = new URLSearchParams({ status: query.status });
    if (query.address) search.set('address', query.address);
    if (next.id) search.set('id', next.id);
    setParams(search);
    // The member filter sent again as it is reads the first page again; a changed one is read as the address changes.
    if (next.address !== undefined && query.status === status && query.address === member) queue.send({ type: 'user.changeQuery', query: queueQuery });
  };
  const filter = (event: FormEvent) => {
    event.preventDefault();
    const address = memberText.trim();
    if (address === '' || addressPattern.test(address)) setQuery({ address });
  };
  const memberError = memberText.trim() !== '' && !addressPattern.test(memberText.trim()) ? t('withdrawals.memberInvalid') : null;

  return (
    <section aria-labelledby="withdrawals-title">
      <h2 id="withdrawals-title" className="desk-screen-title">
        {t('screens.withdrawals')}
      </h2>
      <FilterChips label={t('withdrawals.statusLabel')} options={statuses.map((value) => ({ value, label: t(`withdrawals.status.${value}`) }))} value={status} onChange={(value) => setQuery({ status: value })} />
      <form className="desk-form" onSubmit={filter} role="search">
        <FormField id="withdrawals-member" label={t('withdrawals.member')} error={memberError} value={memberText} placeholder="0x…" onChange={(event) => setMemberText(event.target.value)} />
        <div className="desk-actions">
          <Button type="submit" color="primary" fill="outline" shape="rounded">
            {t('actions.filter')}
          </Button>
          {member ? (
            <Button
              shape="rounded"
              fill="none"
              onClick={() => {
                setMemberText('');
                setQuery({ address: '' });
              }}
            >
              {t('actions.clearFilter')}
            </Button>
          ) : null}
        </div>
      </form>
      <div className="desk-columns">
        <div>
          {status === 'pending' ? (
            <div className="desk-actions">
              <Button color="primary" shape="rounded" disabled={chosen.length === 0} onClick={() => bulk.send({ type: 'user.run', request: { ids: chosen } })}>
                {t('withdrawals.bulkApprove', { count: chosen.length })}
              </Button>
            </div>
          ) : null}
          <ActionState
            actor={bulk}
            busyText={t('withdrawals.approving')}
            done={(result: OpsResult<'opsWithdrawalsApprove'> | null) => {
              const results = result?.results ?? [];
              return (
                <BulkSummary
                  approved={results.filter((item) => item.code === 0 && !item.waitsForSecondApproval).length}
                  waiting={results.filter((item) => item.code === 0 && item.waitsForSecondApproval).length}
                  refused={results.filter((item) => item.code !== 0).map((item) => `#${item.id}: ${deskErrorText(t, (key) => i18n.exists(key), { name: 'ApiError', code: item.code })}`)}
                  onShown={() => {
                    setChecked([]);
                    readAgain(queue);
                  }}
                />
              );
            }}
          />
          <ReadState actor={queue} isEmpty={(value) => value.list.length === 0} emptyTitle={t('withdrawals.empty', { status: t(`withdrawals.status.${status}`) })}>
            {(value) => (
              <ul className="desk-list" aria-label={t('withdrawals.queue')}>
                {value.list.map((item) => (
                  <li key={item.id} className="desk-item" aria-current={item.id === selectedId}>
                    <div className="desk-row">
                      {status === 'pending' ? (
                        <label className="desk-check">
                          <input
                            type="checkbox"
                            checked={checked.includes(item.id)}
                            onChange={(event) => setChecked(event.target.checked ? [...checked, item.id] : checked.filter((id) => id !== item.id))}
                          />
                          <span className="visually-hidden">{t('withdrawals.select', { id: item.id })}</span>
                        </label>
                      ) : null}
                      <button type="button" className="desk-item-button desk-row-main" onClick={() => setQuery({ id: item.id })}>
                        <span className="desk-row">
                          <strong>#{item.id}</strong>{' '}
                          <AmountText amount={item.amount} symbol="CREDIT" locale={locale} />
                          <ShortAddress address={item.address} />
                          <ApprovalBadge have={item.approvals.length} need={item.approvalsNeeded} status={item.status} />
                        </span>
                        <span className="desk-muted">{formatDateTime(item.createdAt, locale)}</span>
                      </button>
                    </div>
                  </li>
                ))}
              </ul>
            )}
          </ReadState>
          <PageButtons actor={queue} nextCursor={nextCursor} />
        </div>
        <div>
          {selected ? (
            <WithdrawalDetail key={selected.id} withdrawal={selected} onDecided={() => readAgain(queue)} onClose={() => setQuery({ id: null })} />
          ) : (
            <p className="desk-muted">{t('withdrawals.pick')}</p>
          )}
        </div>
      </div>
    </section>
  );
}

function BulkSummary({ approved, waiting, refused, onShown }: { approved: number; waiting: number; refused: readonly string[]; onShown: () => void }) {
  const { t } = useTranslation('ops');
  // The queue is read again once, when the answer shows, so approved ones leave the pending tab.
  const shown = useRef(onShown);
  useEffect(() => shown.current(), []);
  return (
    <>
      <p>{t('withdrawals.bulkDone', { approved, waiting })}</p>
      {refused.map((line) => (
        <ErrorText key={line} text={line} />
      ))}
    </>
  );
}

function ApprovalBadge({ have, need, status }: { have: number; need: number; status: string }) {
  const { t } = useTranslation('ops');
  if (status !== 'pending') return <span className="desk-badge">{t(`withdrawals.status.${status}`)}</span>;
  if (need > 1) return <span className="desk-badge" data-tone="warning">{t('withdrawals.approvals', { have, need })}</span>;
  return <span className="desk-badge">{t('withdrawals.status.pending')}</span>;
}

function WithdrawalDetail({ withdrawal, onDecided, onClose }: { withdrawal: Withdrawal; onDecided: () => void; onClose: () => void }) {
  const { t, i18n } = useTranslation('ops');
  const decision = useDeskDecision(
    createWithdrawalDecisionMachine,
    withdrawal,
    ({ act, subject, form }, api) =>
      api.call('adminWithdrawalDecide', { body: act === 'approve' ? { id: subject.id, status: 'approved' } : { id: subject.id, status: 'failed', reason: form.reason ?? '' } }),
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
