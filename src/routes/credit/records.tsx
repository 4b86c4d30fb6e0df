import { useSelector } from '@xstate/react';
import List from 'antd-mobile/es/components/list';
import Tag from 'antd-mobile/es/components/tag';
import { useTranslation } from 'react-i18next';
import { selectQuery } from '../../../machines/list/pagedListSelectors';
import type { ItemOf } from '../../api/answer';
import { fetchCreditRecords } from '../../api/screenCalls';
import { useRootActors } from '../../app/RootActorsContext';
import { paths } from '../../app/paths';
import { selectDappParam } from '../../app/selectors';
import { TransactionLink } from '../../components/TransactionLink';
import { AmountText } from '../../components/AmountText';
import { FilterChips } from '../../components/FilterChips';
import type { FilterOption } from '../../components/FilterChips';
import { formatAmount } from '../../components/amountFormat';
import { formatDateTime } from '../../components/dateFormat';
import { PagedListView } from '../shared/PagedListView';
import { Screen } from '../shared/Screen';
import { recordsPageQuery, usePagedList } from '../shared/usePagedList';

/** The record types of docs/API.md "Member" creditRecord, and "all" (no type sent). */
const recordTypes = ['withdraw', 'exchange', 'order', 'reward', 'transfer', 'topUp'] as const;
type RecordType = (typeof recordTypes)[number];
type RecordFilter = RecordType | 'all';
interface RecordsQuery {
  type: RecordFilter;
}

const statusColor = { pending: 'warning', approved: 'primary', sent: 'primary', done: 'success', failed: 'danger' } as const;

/**
 * /me/credit-records (added to the spec's routes) — the member's credit records, newest first, with a
 * type filter; each row is the type, the signed amount, the balance after it, its status, its date and time on the
 * member's clock (src/components/dateFormat.ts), and a top-up's transaction linked to the block explorer. A failed
 * withdrawal's refund is a second, positive withdraw record (docs/API.md "Money").
 */
export function Component() {
  const { t, i18n } = useTranslation(['credit', 'common']);
  const { api, config } = useRootActors();
  const records = usePagedList<ItemOf<'creditRecord'>, RecordsQuery>(
    (input) => fetchCreditRecords(api, { ...recordsPageQuery(input), ...(input.query.type === 'all' ? {} : { type: input.query.type }) }),
    { type: 'all' },
  );
  const filter = useSelector(records, (snapshot) => selectQuery(snapshot).type);
  const explorer = useSelector(config, selectDappParam)?.chain.blockExplorerUrls?.[0];
  const locale = i18n.resolvedLanguage ?? 'zh';
  const options: FilterOption<RecordFilter>[] = [
    { value: 'all', label: t('credit:records.filter.all') },
    ...recordTypes.map((type) => ({ value: type, label: t(`credit:records.type.${type}`) })),
  ];

  return (
    <Screen title={t('credit:records.title')} parent={paths.me.href()}>
      <PagedListView
        actor={records}
        emptyTitle={t('credit:records.empty')}
        toolbar={
          <FilterChips label={t('credit:records.filter.label')} options={options} value={filter} onChange={(type) => records.send({ type: 'user.changeQuery', query: { type } })} />
        }
        renderItems={(items) => (
          <List mode="card" className="rows credit-records">
            {items.map((record) => (
              <List.Item
                key={record.id}
                title={t(`credit:records.type.${record.type}`)}
                description={
                  <>
                    <span>{t('credit:records.balanceAfter', { amount: formatAmount(record.balanceAfter, { locale }) })}</span>
                    <span className="row-date">
                      {' · '}
                      <time dateTime={record.createdAt}>{formatDateTime(record.createdAt, locale)}</time>
                    </span>
                    {record.reason ? (
                      <>
                        <br />
                        <span className="record-reason">{t(`credit:records.reason.${record.reason}`)}</span>
                      </>
                    ) : null}
                    {record.txHash ? (
                      <>
                        <br />
                        <TransactionLink label={t(record.type === 'withdraw' ? 'credit:records.payment' : 'credit:topUp.hash')} hash={record.txHash} explorer={explorer} />
                      </>
                    ) : null}
                  </>
                }
                extra={
                  <span className="record-extra">
                    <AmountText amount={record.amount} locale={locale} signed />
                    <Tag color={statusColor[record.status]} fill="outline">
                      {t(`credit:records.${record.type === 'withdraw' && record.amount.startsWith('-') ? 'withdrawalStatus' : 'status'}.${record.status}`)}
                    </Tag>
                  </span>
                }
              />
            ))}
          </List>
        )}
      />
    </Screen>
  );
}
