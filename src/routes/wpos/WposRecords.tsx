import { useSelector } from '@xstate/react';
import List from 'antd-mobile/es/components/list';
import { useTranslation } from 'react-i18next';
import { selectQuery } from '../../../machines/list/pagedListSelectors';
import type { ItemOf } from '../../api/answer';
import { fetchWposRecords } from '../../api/screenCalls';
import { useRootActors } from '../../app/RootActorsContext';
import { AmountText } from '../../components/AmountText';
import { FilterChips, type FilterOption } from '../../components/FilterChips';
import { shortAddress } from '../../components/ShortAddress';
import { formatAmount } from '../../components/amountFormat';
import { formatDateTime } from '../../components/dateFormat';
import { PagedListView } from '../shared/PagedListView';
import { recordsPageQuery, usePagedList } from '../shared/usePagedList';

type RecordType = ItemOf<'wposRecord'>['type'];
/** The record types of docs/API.md "WPOS" wposRecord (the contract's enum, checked against it by the type). */
const recordTypes = ['transfer', 'exchange', 'reward', 'distribution'] as const satisfies readonly RecordType[];
type RecordFilter = RecordType | 'all';
interface RecordsQuery {
  type: RecordFilter;
}

/**
 * /me/wpos's records, newest first: all of them as the member scrolls, filtered by type; a transfer names the other
 * member (docs/API.md "WPOS" wposRecord).
 */
export function WposRecords() {
  const { t, i18n } = useTranslation(['wpos', 'common']);
  const { api } = useRootActors();
  const records = usePagedList<ItemOf<'wposRecord'>, RecordsQuery>(
    (input) => fetchWposRecords(api, { ...recordsPageQuery(input), ...(input.query.type === 'all' ? {} : { type: input.query.type }) }),
    { type: 'all' },
  );
  const filter = useSelector(records, (snapshot) => selectQuery(snapshot).type);
  const locale = i18n.resolvedLanguage ?? 'zh';
  const options: FilterOption<RecordFilter>[] = [
    { value: 'all', label: t('wpos:records.filter.all') },
    ...recordTypes.map((type) => ({ value: type, label: t(`wpos:records.type.${type}`) })),
  ];

  return (
    <section aria-labelledby="wpos-records-title" className="wpos-records">
      <h2 id="wpos-records-title" className="section-title">
        {t('wpos:records.title')}
      </h2>
      <PagedListView
        actor={records}
        emptyTitle={t('wpos:records.empty')}
        toolbar={
          <FilterChips label={t('wpos:records.filter.label')} options={options} value={filter} onChange={(type) => records.send({ type: 'user.changeQuery', query: { type } })} />
        }
        renderItems={(items) => (
          <List mode="card" className="rows credit-records">
            {items.map((record) => (
              <List.Item
                key={record.id}
                title={t(`wpos:records.type.${record.type}`)}
                description={
                  <>
                    {record.counterparty ? (
                      <span>{t(record.amount.startsWith('-') ? 'wpos:records.to' : 'wpos:records.from', { address: shortAddress(record.counterparty) })} · </span>
                    ) : null}
                    <span>{t('wpos:records.balanceAfter', { amount: formatAmount(record.balanceAfter, { locale }) })}</span>
                    <span className="row-date">
                      {' · '}
                      <time dateTime={record.createdAt}>{formatDateTime(record.createdAt, locale)}</time>
                    </span>
                  </>
                }
                extra={<AmountText amount={record.amount} locale={locale} signed />}
              />
            ))}
          </List>
        )}
      />
    </section>
  );
}
