/**
 * The audit log's views (src/ops/screens/audit.tsx): the phone's list of acts, the table from 900 px and one act
 * opened beside it.
 */
import Button from 'antd-mobile/es/components/button';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ShortAddress } from '../../components/ShortAddress';
import { SummaryList } from '../../components/SummaryList';
import { formatDateTime } from '../../components/dateFormat';
import type { OpsItem } from '../api/opsContract';
import { DeskTable, byText, byTime } from './DeskTable';
import type { DeskColumn } from './DeskTable';

export type AuditRow = OpsItem<'opsAudit'>;

const change = (row: AuditRow) => JSON.stringify({ before: row.before, after: row.after }, null, 2);

/** The phone's list: each act with who, on what, and its change folded. */
export function AuditList({ rows }: { rows: readonly AuditRow[] }) {
  const { t, i18n } = useTranslation('ops');
  const locale = i18n.resolvedLanguage ?? 'zh';
  return (
    <ul className="desk-list" aria-label={t('audit.list')}>
      {rows.map((row) => (
        <li key={row.id} className="desk-item">
          <p className="desk-row">
            <strong className="desk-row-main">{row.action}</strong>
            <span className="desk-muted">{formatDateTime(row.at, locale)}</span>
          </p>
          <p className="desk-muted">
            {t('audit.who', { actor: row.actorAddress ?? t('operators.bootstrap'), roles: row.actorRoles.join(', '), via: row.via })}
            {row.target ? ` · ${t('audit.target', { target: row.target })}` : ''}
            {row.requestId ? ` · ${t('audit.requestId', { id: row.requestId })}` : ''}
            {row.clientAddress ? ` · ${t('audit.client', { address: row.clientAddress })}` : ''}
          </p>
          <details>
            <summary>{t('audit.change')}</summary>
            <pre className="desk-secret">{change(row)}</pre>
          </details>
        </li>
      ))}
    </ul>
  );
}

/** The table's columns: when, what, who, on what, how signed in; each sortable but the last. */
export function AuditTable({ rows, openId, onOpen }: { rows: readonly AuditRow[]; openId: string | null; onOpen: (row: AuditRow) => void }) {
  const { t, i18n } = useTranslation('ops');
  const locale = i18n.resolvedLanguage ?? 'zh';
  const actorOf = (row: AuditRow) => row.actorAddress ?? t('operators.bootstrap');
  const columns: DeskColumn<AuditRow>[] = [
    { id: 'at', header: t('audit.columns.at'), cell: (row) => formatDateTime(row.at, locale), compare: byTime((row) => row.at) },
    { id: 'action', header: t('audit.filters.action'), cell: (row) => row.action, compare: byText((row) => row.action) },
    { id: 'actor', header: t('audit.filters.actor'), cell: (row) => (row.actorAddress ? <ShortAddress address={row.actorAddress} /> : <span className="desk-table-clip">{actorOf(row)}</span>), compare: byText(actorOf) },
    { id: 'target', header: t('audit.filters.target'), cell: (row) => <span className="desk-table-clip">{row.target ?? ''}</span>, compare: byText((row) => row.target ?? '') },
    { id: 'via', header: t('audit.columns.via'), cell: (row) => row.via },
  ];
  return (
    <DeskTable
      label={t('audit.list')}
      rows={rows}
      columns={columns}
      rowId={(row) => row.id}
      rowName={(row) => `${formatDateTime(row.at, locale)} ${row.action} ${actorOf(row)}`}
      openId={openId}
      onOpen={onOpen}
    />
  );
}

/** One act beside the table: who, what, the request and the change. */
export function AuditDetail({ row, onClose }: { row: AuditRow; onClose: () => void }) {
  const { t, i18n } = useTranslation('ops');
  const locale = i18n.resolvedLanguage ?? 'zh';
  const fields: { label: string; value: ReactNode }[] = [
    { label: t('audit.columns.at'), value: formatDateTime(row.at, locale) },
    { label: t('audit.filters.actor'), value: row.actorAddress ?? t('operators.bootstrap') },
    { label: t('audit.columns.roles'), value: row.actorRoles.join(', ') },
    { label: t('audit.columns.via'), value: row.via },
    ...(row.target ? [{ label: t('audit.filters.target'), value: row.target }] : []),
    ...(row.requestId ? [{ label: t('audit.columns.requestId'), value: row.requestId }] : []),
    ...(row.clientAddress ? [{ label: t('audit.columns.client'), value: row.clientAddress }] : []),
  ];
  return (
    <article className="card" aria-labelledby="audit-detail-title">
      <div className="desk-row">
        <h3 id="audit-detail-title" className="card-title desk-row-main">
          {row.action}
        </h3>
        <Button size="small" fill="none" onClick={onClose}>
          {t('actions.close')}
        </Button>
      </div>
      <SummaryList rows={fields} />
      <p className="field-label">{t('audit.change')}</p>
      <pre className="desk-secret">{change(row)}</pre>
    </article>
  );
}
