/**
 * The audit log (issue 43, admin): every operator act, who (address, roles, how signed in), what (action, target,
 * before and after), when, the request id and the client address; filtered, and exported as CSV with the same
 * filters (GET /api/admin/audit.csv, fetched with the operator's token).
 */
import Button from 'antd-mobile/es/components/button';
import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorText } from '../../components/ErrorText';
import { FormField } from '../../components/FormField';
import { formatDateTime } from '../../components/dateFormat';
import type { OpsQuery } from '../api/opsContract';
import { useDesk } from '../DeskContext';
import { useDeskRead } from '../deskHooks';
import { PageButtons } from '../parts/PageButtons';
import { ReadState } from '../parts/ReadState';

type Filters = { actor: string; action: string; target: string; from: string; to: string };
const empty: Filters = { actor: '', action: '', target: '', from: '', to: '' };

/** The filters as the API takes them: empty ones left out, dates as ISO times (from inclusive, to exclusive). */
function queryOf(filters: Filters): Record<string, string> {
  const query: Record<string, string> = {};
  if (filters.actor.trim()) query.actor = filters.actor.trim();
  if (filters.action.trim()) query.action = filters.action.trim();
  if (filters.target.trim()) query.target = filters.target.trim();
  if (filters.from) query.from = new Date(filters.from).toISOString();
  if (filters.to) query.to = new Date(filters.to).toISOString();
  return query;
}

export function Screen() {
  const { t, i18n } = useTranslation('ops');
  const locale = i18n.resolvedLanguage ?? 'zh';
  const { api } = useDesk();
  const [filters, setFilters] = useState<Filters>(empty);
  const [exportFailed, setExportFailed] = useState(false);
  const audit = useDeskRead('opsAudit', {} as OpsQuery<'opsAudit'>);
  const nextCursor = useSelector(audit, (snapshot) => snapshot.context.value?.nextCursor ?? null);
  const apply = () => audit.send({ type: 'user.changeQuery', query: queryOf(filters) as OpsQuery<'opsAudit'> });
  const exportCsv = async () => {
    const blob = await api.download('/api/admin/audit.csv', queryOf(filters));
    setExportFailed(blob === null);
    if (!blob) return;
    const link = document.createElement('a');
    link.href = URL.createObjectURL(blob);
    link.download = `audit-${new Date().toISOString().slice(0, 10)}.csv`;
    link.click();
    URL.revokeObjectURL(link.href);
  };
  const field = (name: keyof Filters, type = 'text') => (
    <FormField id={`audit-${name}`} label={t(`audit.filters.${name}`)} error={null} type={type} value={filters[name]} onChange={(event) => setFilters({ ...filters, [name]: event.target.value })} />
  );
  return (
    <section aria-labelledby="audit-title">
      <h2 id="audit-title" className="desk-screen-title">
        {t('screens.audit')}
      </h2>
      <form
        className="desk-form"
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          apply();
        }}
      >
        {field('actor')}
        {field('action')}
        {field('target')}
        {field('from', 'datetime-local')}
        {field('to', 'datetime-local')}
        <div className="desk-actions">
          <Button type="submit" color="primary" shape="rounded">
            {t('actions.filter')}
          </Button>
          <Button fill="outline" shape="rounded" onClick={() => void exportCsv()}>
            {t('audit.export')}
          </Button>
        </div>
        {exportFailed ? <ErrorText text={t('audit.exportFailed')} /> : null}
      </form>
      <ReadState actor={audit} isEmpty={(value) => value.list.length === 0} emptyTitle={t('audit.empty')}>
        {(value) => (
          <ul className="desk-list" aria-label={t('audit.list')}>
            {value.list.map((row) => (
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
                  <pre className="desk-secret">{JSON.stringify({ before: row.before, after: row.after }, null, 2)}</pre>
                </details>
              </li>
            ))}
          </ul>
        )}
      </ReadState>
      <PageButtons actor={audit} nextCursor={nextCursor} />
    </section>
  );
}
