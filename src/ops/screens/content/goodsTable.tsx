/**
 * The goods as a table from 900 px (parts/DeskTable.tsx): name, price, stock for sale, units paid orders hold and
 * the listing; a row opens its editor beside the table (goods.tsx).
 */
import { useTranslation } from 'react-i18next';
import { AmountText } from '../../../components/AmountText';
import type { OpsItem } from '../../api/opsContract';
import { DeskTable, byDecimal, byText } from '../../parts/DeskTable';
import type { DeskColumn } from '../../parts/DeskTable';

type GoodsItem = OpsItem<'opsGoods'>;

/** Whether members see the item. */
export function ListedBadge({ listed }: { listed: boolean }) {
  const { t } = useTranslation('ops');
  return (
    <span className="desk-badge" data-tone={listed ? 'success' : 'warning'}>
      {listed ? t('content.goods.isListed') : t('content.goods.notListed')}
    </span>
  );
}

export function GoodsTable({ rows, openId, onOpen }: { rows: readonly GoodsItem[]; openId: string | null; onOpen: (item: GoodsItem) => void }) {
  const { t, i18n } = useTranslation('ops');
  const locale = i18n.resolvedLanguage ?? 'zh';
  const nameOf = (item: GoodsItem) => (locale.startsWith('en') ? item.nameEn : item.nameZh);
  const columns: DeskColumn<GoodsItem>[] = [
    { id: 'name', header: t('content.goods.columns.name'), cell: nameOf, compare: byText(nameOf) },
    { id: 'price', header: t('content.goods.price'), cell: (item) => <AmountText amount={item.price} locale={locale} />, compare: byDecimal((item) => item.price), numeric: true },
    { id: 'stock', header: t('content.goods.stock'), cell: (item) => item.stock, compare: (a, b) => a.stock - b.stock, numeric: true },
    { id: 'held', header: t('content.goods.columns.held'), cell: (item) => item.held, compare: (a, b) => a.held - b.held, numeric: true },
    { id: 'listed', header: t('content.goods.columns.listed'), cell: (item) => <ListedBadge listed={item.listed} />, compare: (a, b) => Number(a.listed) - Number(b.listed) },
  ];
  return <DeskTable label={t('content.goods.list')} rows={rows} columns={columns} rowId={(item) => item.id} rowName={(item) => `${nameOf(item)} ${item.id}`} openId={openId} onOpen={onOpen} />;
}
