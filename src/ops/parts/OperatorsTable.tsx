import Button from 'antd-mobile/es/components/button';
import { useTranslation } from 'react-i18next';
import { ShortAddress } from '../../components/ShortAddress';
import { formatDateTime } from '../../components/dateFormat';
import type { OpsResult } from '../api/opsContract';
import { DeskTable, byText, byTime } from './DeskTable';
import type { DeskColumn } from './DeskTable';

type Operator = OpsResult<'opsOperators'>['operators'][number];

/** The operators from 900 px (src/ops/screens/operators.tsx): address, roles, when and by whom added, edit, remove. */
export function OperatorsTable({ operators, onEdit, onRemove }: { operators: readonly Operator[]; onEdit: (item: Operator) => void; onRemove: (address: string) => void }) {
  const { t, i18n } = useTranslation('ops');
  const locale = i18n.resolvedLanguage ?? 'zh';
  const addedBy = (item: Operator) => item.addedBy ?? t('operators.bootstrap');
  const columns: DeskColumn<Operator>[] = [
    { id: 'address', header: t('operators.columns.address'), cell: (item) => <ShortAddress address={item.address} />, compare: byText((item) => item.address.toLowerCase()) },
    {
      id: 'roles',
      header: t('operators.roles'),
      cell: (item) => (
        <span className="desk-row">
          {item.roles.map((role) => (
            <span key={role} className="desk-role">
              {t(`roles.${role}`)}
            </span>
          ))}
        </span>
      ),
      compare: byText((item) => item.roles.join(' ')),
    },
    { id: 'addedAt', header: t('operators.columns.addedAt'), cell: (item) => formatDateTime(item.addedAt, locale), compare: byTime((item) => item.addedAt) },
    { id: 'addedBy', header: t('operators.columns.addedBy'), cell: (item) => <span className="desk-table-clip">{addedBy(item)}</span>, compare: byText(addedBy) },
    {
      id: 'acts',
      header: t('operators.columns.acts'),
      cell: (item) => (
        <span className="desk-row">
          <Button size="small" fill="outline" shape="rounded" onClick={() => onEdit(item)}>
            {t('operators.edit')}
          </Button>
          <Button size="small" color="danger" fill="outline" shape="rounded" onClick={() => onRemove(item.address)}>
            {t('operators.remove')}
          </Button>
        </span>
      ),
    },
  ];
  return <DeskTable label={t('operators.list')} rows={operators} columns={columns} rowId={(item) => item.address} />;
}
