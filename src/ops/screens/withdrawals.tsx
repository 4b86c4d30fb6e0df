/**
 * Withdrawals: the queue by status, filtered by member or to the ones waiting for this operator's approval; one
 * withdrawal beside it with its member and their history (parts/WithdrawalDetail.tsx); approve several at once after
 * confirming how many (parts/WithdrawalBulk.tsx). On a phone a list of cards with its filter form; from 900 px a table
 * (parts/DeskTable.tsx) whose filters apply as they change, with page size, total and the keyboard: `a` approves the
 * ticked rows, or the focused one when none is ticked.
 */
import { useSelector } from '@xstate/react';
import Button from 'antd-mobile/es/components/button';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { createWithdrawalBulkApprovalMachine } from '../../../machines/ops/withdrawalBulkApprovalMachine';
import { AmountText } from '../../components/AmountText';
import { FilterChips } from '../../components/FilterChips';
import { ShortAddress } from '../../components/ShortAddress';
import { formatDateTime } from '../../components/dateFormat';
import type { OpsQuery } from '../api/opsContract';
import { useDeskDecision, useDeskRead, useOperator } from '../deskHooks';
import { formatAge } from '../formatAge';
import { DeskTable, byDecimal, byText, byTime } from '../parts/DeskTable';
import type { DeskColumn } from '../parts/DeskTable';
import { ListFooter } from '../parts/PageButtons';
import { pageSizeOf } from '../parts/PageSize';
import { MemberFilterForm, useMemberFilter } from '../parts/MemberFilter';
import { QueueFilters } from '../parts/QueueFilters';
import { ReadState, readAgain } from '../parts/ReadState';
import { ApprovalBadge, BulkApprovalPanel, startBulkApproval } from '../parts/WithdrawalBulk';
import { WithdrawalDetail } from '../parts/WithdrawalDetail';
import type { Withdrawal } from '../parts/WithdrawalDetail';
import { useKeptItem, useStateFor } from '../useDraft';
import { useNow } from '../useNow';
import { useWide } from '../useWide';

type QueueStatus = NonNullable<OpsQuery<'opsWithdrawals'>['status']>;
const statuses: readonly QueueStatus[] = ['pending', 'approved', 'sent', 'stuck', 'failed', 'lost', 'paid'];
const isStatus = (value: string | null): value is QueueStatus => statuses.includes(value as QueueStatus);

interface QueueAddress {
  status: QueueStatus;
  address: string;
  awaitingMe: boolean;
  limit: number;
  id: string | null;
}

export function Screen() {
  const { t, i18n } = useTranslation('ops');
  const wide = useWide();
  const operator = useOperator();
  const [params, setParams] = useSearchParams();
  const shownAddress: QueueAddress = {
    status: isStatus(params.get('status')) ? (params.get('status') as QueueStatus) : 'pending',
    address: params.get('address') ?? '',
    awaitingMe: params.get('awaiting') === 'me',
    limit: pageSizeOf(params.get('limit')),
    id: params.get('id'),
  };
  const { status, address: member, awaitingMe, limit, id: selectedId } = shownAddress;
  // The ticks belong to the list they were made on: another tab or member (a filter, Back, Forward) starts with none.
  const [checked, setChecked] = useStateFor<readonly string[]>(`${status} ${member} ${String(awaitingMe)} ${String(limit)}`, []);
  const queueQuery: OpsQuery<'opsWithdrawals'> = { status, limit, ...(member ? { address: member } : {}), ...(awaitingMe ? { awaiting: 'me' as const } : {}) };
  const queue = useDeskRead('opsWithdrawals', queueQuery);
  const bulk = useDeskDecision(
    createWithdrawalBulkApprovalMachine,
    { mayApprove: operator?.roles.includes('finance') ?? false, results: null },
    ({ form }, api) => api.call('opsWithdrawalsApprove', { body: { ids: (form.ids ?? '').split(' ') } }),
    () => {
      setChecked([]);
      readAgain(queue);
    },
  );
  const list = useSelector(queue, (snapshot) => snapshot.context.value?.list ?? null);
  // Only what the operator sees is approved: a tick on another page, or on one that left the tab, is not sent.
  const chosen = checked.filter((id) => list?.some((item) => item.id === id) ?? false);
  // A decided withdrawal leaves its tab when the queue is read again; its detail stays open with what was decided.
  const selected = useKeptItem(selectedId ?? '', list?.find((item) => item.id === selectedId) ?? null);
  const locale = i18n.resolvedLanguage ?? 'zh';
  const approvable = status === 'pending' || awaitingMe;
  const statusOptions = statuses.map((value) => ({ value, label: t(`withdrawals.status.${value}`) }));

  const setQuery = (next: Partial<QueueAddress>) => {
    const query = { ...shownAddress, id: null, ...next };
    const search = new URLSearchParams({ status: query.status });
    if (query.address) search.set('address', query.address);
    if (query.awaitingMe) search.set('awaiting', 'me');
    if (query.limit !== pageSizeOf(null)) search.set('limit', String(query.limit));
    if (query.id) search.set('id', query.id);
    setParams(search);
    // The member filter sent again as it is reads the first page again; a changed one is read as the address changes.
    if (next.address !== undefined && query.address === member && query.status === status) queue.send({ type: 'user.changeQuery', query: queueQuery });
  };
  const memberFilter = useMemberFilter(member, (address) => setQuery({ address }), t('withdrawals.memberInvalid'));
  const rowName = (item: Withdrawal) => `#${item.id} ${item.amount} CREDIT ${item.address} ${t(`withdrawals.status.${item.status}`)}`;
  const approveKey = (key: string, item: Withdrawal) => {
    if (key !== 'a' || !approvable) return false;
    startBulkApproval(bulk, chosen.length > 0 ? chosen : [item.id]);
    return true;
  };

  return (
    <section aria-labelledby="withdrawals-title">
      <h2 id="withdrawals-title" className="desk-screen-title">
        {t('screens.withdrawals')}
      </h2>
      {wide ? (
        <QueueFilters
          status={{ label: t('withdrawals.statusLabel'), options: statusOptions, value: status, onChange: (value) => setQuery({ status: value }) }}
          member={{ label: t('withdrawals.member'), text: memberFilter.text, error: memberFilter.error, onChange: memberFilter.typeAndApply }}
          limit={limit}
          onLimit={(size) => setQuery({ limit: size })}
        >
          <label className="desk-filter desk-filter-check">
            <input type="checkbox" checked={awaitingMe} onChange={(event) => setQuery({ awaitingMe: event.target.checked })} />
            <span>{t('withdrawals.awaitingMe')}</span>
          </label>
        </QueueFilters>
      ) : (
        <>
          <FilterChips label={t('withdrawals.statusLabel')} options={statusOptions} value={status} onChange={(value) => setQuery({ status: value })} />
          <MemberFilterForm id="withdrawals-member" label={t('withdrawals.member')} filter={memberFilter}>
            <label className="desk-check">
              <input type="checkbox" checked={awaitingMe} onChange={(event) => setQuery({ awaitingMe: event.target.checked })} />
              <span>{t('withdrawals.awaitingMe')}</span>
            </label>
          </MemberFilterForm>
        </>
      )}
      <div className="desk-columns">
        <div>
          {approvable ? (
            <div className="desk-actions">
              <Button color="primary" shape="rounded" disabled={chosen.length === 0} onClick={() => startBulkApproval(bulk, chosen)}>
                {t('withdrawals.bulkApprove', { count: chosen.length })}
              </Button>
            </div>
          ) : null}
          <BulkApprovalPanel bulk={bulk} />
          <ReadState actor={queue} isEmpty={(value) => value.list.length === 0} emptyTitle={t(awaitingMe ? 'withdrawals.emptyForMe' : 'withdrawals.empty', { status: t(`withdrawals.status.${status}`) })}>
            {(value) =>
              wide ? (
                <QueueTable
                  rows={value.list}
                  rowName={rowName}
                  openId={selectedId}
                  onOpen={(item) => setQuery({ id: item.id })}
                  selection={approvable ? { ids: chosen, onChange: setChecked, label: (item) => t('withdrawals.select', { id: item.id }) } : undefined}
                  onShortcut={approveKey}
                />
              ) : (
                <ul className="desk-list" aria-label={t('withdrawals.queue')}>
                  {value.list.map((item) => (
                    <li key={item.id} className="desk-item" aria-current={item.id === selectedId}>
                      <div className="desk-row">
                        {approvable ? (
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
                            <strong>#{item.id}</strong> <AmountText amount={item.amount} symbol="CREDIT" locale={locale} />
                            <ShortAddress address={item.address} />
                            <ApprovalBadge have={item.approvals.length} need={item.approvalsNeeded} status={item.status} />
                          </span>
                          <span className="desk-muted">{formatDateTime(item.createdAt, locale)}</span>
                        </button>
                      </div>
                    </li>
                  ))}
                </ul>
              )
            }
          </ReadState>
          <ListFooter actor={queue} />
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

interface QueueTableProps {
  rows: readonly Withdrawal[];
  rowName: (item: Withdrawal) => string;
  openId: string | null;
  onOpen: (item: Withdrawal) => void;
  selection: Parameters<typeof DeskTable<Withdrawal>>[0]['selection'];
  onShortcut: (key: string, item: Withdrawal) => boolean;
}

/** The queue's columns: number, amount, member, age and stage (with its approvals), each sortable. */
function QueueTable(props: QueueTableProps) {
  const { t, i18n } = useTranslation('ops');
  const locale = i18n.resolvedLanguage ?? 'zh';
  const now = useNow();
  const ageOf = (item: Withdrawal) => Math.max(0, (now - Date.parse(item.createdAt)) / 1000);
  const columns: DeskColumn<Withdrawal>[] = [
    { id: 'id', header: t('withdrawals.columns.id'), cell: (item) => `#${item.id}`, compare: byDecimal((item) => item.id), numeric: true },
    { id: 'amount', header: t('withdrawals.fields.amount'), cell: (item) => <AmountText amount={item.amount} symbol="CREDIT" locale={locale} />, compare: byDecimal((item) => item.amount), numeric: true },
    { id: 'member', header: t('withdrawals.fields.member'), cell: (item) => <ShortAddress address={item.address} />, compare: byText((item) => item.address.toLowerCase()) },
    { id: 'age', header: t('withdrawals.columns.age'), cell: (item) => formatAge(ageOf(item), locale), compare: (a, b) => byTime((item: Withdrawal) => item.createdAt)(b, a), numeric: true },
    {
      id: 'stage',
      header: t('withdrawals.fields.status'),
      cell: (item) => <ApprovalBadge have={item.approvals.length} need={item.approvalsNeeded} status={item.status} />,
      compare: byText((item) => `${item.status} ${String(item.approvalsNeeded - item.approvals.length)}`),
    },
  ];
  return <DeskTable label={t('withdrawals.queue')} columns={columns} rowId={(item) => item.id} {...props} />;
}
