import Button from 'antd-mobile/es/components/button';
import { useTranslation } from 'react-i18next';
import { ShortAddress } from '../../components/ShortAddress';
import { formatDateTime } from '../../components/dateFormat';
import type { OpsResult } from '../api/opsContract';
import { DeskTable, byText, byTime } from './DeskTable';
import type { DeskColumn } from './DeskTable';

type ApiKey = OpsResult<'opsKeys'>['keys'][number];

/** The API keys from 900 px (src/ops/screens/keys.tsx): label, roles, who made it and when, last use, revoke. */
export function KeysTable({ keys, onRevoke }: { keys: readonly ApiKey[]; onRevoke: (id: string) => void }) {
  const { t, i18n } = useTranslation('ops');
  const locale = i18n.resolvedLanguage ?? 'zh';
  const columns: DeskColumn<ApiKey>[] = [
    { id: 'label', header: t('keys.label'), cell: (key) => <strong>{key.label}</strong>, compare: byText((key) => key.label) },
    { id: 'roles', header: t('keys.roles'), cell: (key) => key.roles.map((role) => t(`roles.${role}`)).join(', ') },
    { id: 'madeBy', header: t('keys.columns.madeBy'), cell: (key) => <ShortAddress address={key.createdBy} />, compare: byText((key) => key.createdBy.toLowerCase()) },
    { id: 'createdAt', header: t('keys.columns.createdAt'), cell: (key) => formatDateTime(key.createdAt, locale), compare: byTime((key) => key.createdAt) },
    {
      id: 'lastUsed',
      header: t('keys.columns.lastUsed'),
      cell: (key) => (key.lastUsedAt ? formatDateTime(key.lastUsedAt, locale) : t('keys.neverUsed')),
      compare: byTime((key) => key.lastUsedAt ?? ''),
    },
    {
      id: 'state',
      header: t('keys.columns.state'),
      cell: (key) =>
        key.revokedAt ? (
          <span className="desk-badge" data-tone="danger">
            {t('keys.revoked')}
          </span>
        ) : (
          <Button size="small" color="danger" fill="outline" shape="rounded" onClick={() => onRevoke(key.id)}>
            {t('keys.revoke', { label: key.label })}
          </Button>
        ),
      compare: byText((key) => (key.revokedAt ? '1' : '0')),
    },
  ];
  return <DeskTable label={t('keys.list')} rows={keys} columns={columns} rowId={(key) => key.id} />;
}
