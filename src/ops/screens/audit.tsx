/**
 * The audit log (admin): every operator act, who (address, roles, how signed in), what (action, target, before and
 * after), when, the request id and the client address; filtered, and exported as CSV with the same filters
 * (GET /api/admin/audit.csv, fetched with the operator's session). On a phone a list with a filter form; from 900 px
 * a table (parts/DeskTable.tsx) with its filters in one row, applied as soon as the API would take them, page size
 * and total, and the act opened beside it.
 */
import Button from 'antd-mobile/es/components/button';
import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorText } from '../../components/ErrorText';
import { FormField } from '../../components/FormField';
import { auditQuerySchema } from '../../../api-schema/ops';
import type { OpsQuery } from '../api/opsContract';
import { useDesk } from '../DeskContext';
import { useDeskRead } from '../deskHooks';
import { AuditDetail, AuditList, AuditTable } from '../parts/AuditParts';
import { ListFooter, PageButtons } from '../parts/PageButtons';
import { PageSize, pageSizeOf } from '../parts/PageSize';
import { ReadState } from '../parts/ReadState';
import { useWide } from '../useWide';

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

/** The first text filter, as typed, that the API's own schema refuses (api-schema/ops.ts, auditQuerySchema). */
function invalidFilter(filters: Filters): keyof Filters | null {
  const refused = (['actor', 'action', 'target'] as const).find((name) => {
    const typed = filters[name].trim();
    return typed !== '' && !auditQuerySchema.shape[name].safeParse(typed).success;
  });
  return refused ?? null;
}

export function Screen() {
  const { t } = useTranslation('ops');
  const { api } = useDesk();
  const wide = useWide();
  const [filters, setFilters] = useState<Filters>(empty);
  const [limit, setLimit] = useState<number>(pageSizeOf(null));
  const [openId, setOpenId] = useState<string | null>(null);
  const [exportFailed, setExportFailed] = useState(false);
  const audit = useDeskRead('opsAudit', {} as OpsQuery<'opsAudit'>);
  const nextCursor = useSelector(audit, (snapshot) => snapshot.context.value?.nextCursor ?? null);
  const opened = useSelector(audit, (snapshot) => snapshot.context.value?.list.find((row) => row.id === openId) ?? null);
  const invalid = invalidFilter(filters);
  const read = (next: Filters, size: number) => audit.send({ type: 'user.changeQuery', query: { ...queryOf(next), limit: size } as OpsQuery<'opsAudit'> });
  // The table's filters apply as they change, once the API would take every one of them.
  const change = (next: Filters) => {
    setFilters(next);
    if (invalidFilter(next) === null) read(next, limit);
  };
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
  const exportButton = (
    <Button fill="outline" shape="rounded" onClick={() => void exportCsv()}>
      {t('audit.export')}
    </Button>
  );
  const exportError = exportFailed ? <ErrorText text={t('audit.exportFailed')} /> : null;
  const field = (name: keyof Filters, type = 'text') => (
    <FormField id={`audit-${name}`} label={t(`audit.filters.${name}`)} error={null} type={type} value={filters[name]} onChange={(event) => setFilters({ ...filters, [name]: event.target.value })} />
  );

  if (!wide) {
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
            read(filters, limit);
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
            {exportButton}
          </div>
          {exportError}
        </form>
        <ReadState actor={audit} isEmpty={(value) => value.list.length === 0} emptyTitle={t('audit.empty')}>
          {(value) => <AuditList rows={value.list} />}
        </ReadState>
        <PageButtons actor={audit} nextCursor={nextCursor} />
      </section>
    );
  }
  return (
    <section aria-labelledby="audit-title">
      <div className="desk-row">
        <h2 id="audit-title" className="desk-screen-title desk-row-main">
          {t('screens.audit')}
        </h2>
        {exportButton}
      </div>
      <div className="desk-filters" role="search">
        {(['actor', 'action', 'target'] as const).map((name) => (
          <label key={name} className="desk-filter">
            <span className="field-label">{t(`audit.filters.${name}`)}</span>
            <input value={filters[name]} aria-invalid={invalid === name || undefined} onChange={(event) => change({ ...filters, [name]: event.target.value })} />
          </label>
        ))}
        {(['from', 'to'] as const).map((name) => (
          <label key={name} className="desk-filter">
            <span className="field-label">{t(`audit.filters.${name}`)}</span>
            <input type="datetime-local" value={filters[name]} onChange={(event) => change({ ...filters, [name]: event.target.value })} />
          </label>
        ))}
        <PageSize
          value={limit}
          onChange={(size) => {
            setLimit(size);
            if (invalid === null) read(filters, size);
          }}
        />
        {invalid ? <p className="desk-filter-error">{t('audit.filterInvalid', { filter: t(`audit.filters.${invalid}`) })}</p> : null}
        {exportError}
      </div>
      <div className="desk-columns">
        <div>
          <ReadState actor={audit} isEmpty={(value) => value.list.length === 0} emptyTitle={t('audit.empty')}>
            {(value) => <AuditTable rows={value.list} openId={openId} onOpen={(row) => setOpenId(row.id)} />}
          </ReadState>
          <ListFooter actor={audit} />
        </div>
        <div>{opened ? <AuditDetail row={opened} onClose={() => setOpenId(null)} /> : <p className="desk-muted">{t('audit.pick')}</p>}</div>
      </div>
    </section>
  );
}
