/**
 * The share pools as a table from 900 px (parts/DeskTable.tsx): name, daily amount and minimum holding; a row opens
 * its editor beside the table (pools.tsx).
 */
import { useTranslation } from 'react-i18next';
import { AmountText } from '../../../components/AmountText';
import type { OpsItem } from '../../api/opsContract';
import { DeskTable, byDecimal, byText } from '../../parts/DeskTable';
import type { DeskColumn } from '../../parts/DeskTable';

type Pool = OpsItem<'opsPools'>;

export function PoolsTable({ rows, openId, onOpen }: { rows: readonly Pool[]; openId: string | null; onOpen: (pool: Pool) => void }) {
  const { t, i18n } = useTranslation('ops');
  const locale = i18n.resolvedLanguage ?? 'zh';
  const columns: DeskColumn<Pool>[] = [
    { id: 'name', header: t('content.pools.name'), cell: (pool) => pool.name, compare: byText((pool) => pool.name) },
    { id: 'daily', header: t('content.pools.daily'), cell: (pool) => <AmountText amount={pool.totalAmount} locale={locale} />, compare: byDecimal((pool) => pool.totalAmount), numeric: true },
    { id: 'minHolding', header: t('content.pools.minHolding'), cell: (pool) => <AmountText amount={pool.minHolding} locale={locale} />, compare: byDecimal((pool) => pool.minHolding), numeric: true },
  ];
  return <DeskTable label={t('content.pools.list')} rows={rows} columns={columns} rowId={(pool) => pool.id} rowName={(pool) => pool.name} openId={openId} onOpen={onOpen} />;
}
