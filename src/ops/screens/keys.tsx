/**
 * API keys: an operator's keys for scripts, with roles within their own; the key is shown once, when it is made (the
 * server keeps only its hash); revoke. An admin sees everyone's. From 900 px the keys are a table (parts/KeysTable.tsx).
 */
import Button from 'antd-mobile/es/components/button';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { OperatorRole } from '../../../api-schema/endpoint';
import { operatorRoles } from '../../../api-schema/endpoint';
import { FormField } from '../../components/FormField';
import { ShortAddress } from '../../components/ShortAddress';
import { formatDateTime } from '../../components/dateFormat';
import type { OpsResult } from '../api/opsContract';
import { useDesk } from '../DeskContext';
import { useDeskAction, useDeskRead, useOperator } from '../deskHooks';
import { ActionState } from '../parts/ActionState';
import { KeysTable } from '../parts/KeysTable';
import { ReadState, readAgain } from '../parts/ReadState';
import { RolePicker } from '../parts/RolePicker';
import { useWide } from '../useWide';
import { runAct } from '../../../machines/ops/opsActionMachine';

export function Screen() {
  const { t, i18n } = useTranslation('ops');
  const locale = i18n.resolvedLanguage ?? 'zh';
  const { api } = useDesk();
  const operator = useOperator();
  const keys = useDeskRead('opsKeys', undefined);
  const [form, setForm] = useState<{ label: string; roles: OperatorRole[] }>({ label: '', roles: [] });
  const create = useDeskAction((request: { label: string; roles: OperatorRole[] }) => api.call('opsKeyCreate', { body: request }));
  const revoke = useDeskAction((request: { id: string }) => api.call('opsKeyRevoke', { body: request }));
  const own = operator?.roles.includes('admin') ? operatorRoles : (operator?.roles ?? []);
  const wide = useWide();
  return (
    <section aria-labelledby="keys-title">
      <h2 id="keys-title" className="desk-screen-title">
        {t('screens.keys')}
      </h2>
      <div className="desk-columns">
        <div className="desk-form">
          <ReadState actor={keys} isEmpty={(value) => value.keys.length === 0} emptyTitle={t('keys.empty')}>
            {(value) =>
              wide ? (
                <>
                  <KeysTable keys={value.keys} onRevoke={(id) => runAct(revoke, { id })} />
                  <p className="desk-muted">{t('table.total', { count: value.keys.length })}</p>
                </>
              ) : (
                <ul className="desk-list" aria-label={t('keys.list')}>
                    {value.keys.map((key) => (
                      <li key={key.id} className="desk-item desk-row">
                        <span className="desk-row-main">
                          <strong>{key.label}</strong> · {key.roles.map((role) => t(`roles.${role}`)).join(', ')}
                          <span className="desk-muted">
                            {' '}
                            {t('keys.madeBy')} <ShortAddress address={key.createdBy} /> · {formatDateTime(key.createdAt, locale)} ·{' '}
                            {key.lastUsedAt ? t('keys.lastUsed', { at: formatDateTime(key.lastUsedAt, locale) }) : t('keys.neverUsed')}
                          </span>
                        </span>
                        {key.revokedAt ? (
                          <span className="desk-badge" data-tone="danger">
                            {t('keys.revoked')}
                          </span>
                        ) : (
                          <Button size="small" color="danger" fill="outline" shape="rounded" onClick={() => runAct(revoke, { id: key.id })}>
                            {t('keys.revoke', { label: key.label })}
                          </Button>
                        )}
                      </li>
                    ))}
                </ul>
              )
            }
          </ReadState>
          <ActionState
            actor={revoke}
            busyText={t('keys.revoking')}
            done={() => (
              <>
                <p>{t('keys.revokedNow')}</p>
                <Button size="small" fill="none" onClick={() => readAgain(keys)}>
                  {t('actions.readAgain')}
                </Button>
              </>
            )}
          />
        </div>
        <section className="card desk-form" aria-labelledby="key-create-title">
          <h3 id="key-create-title" className="card-title">
            {t('keys.createTitle')}
          </h3>
          <form
            className="desk-form"
            onSubmit={(event) => {
              event.preventDefault();
              if (form.label.trim() && form.roles.length > 0) runAct(create, { label: form.label.trim(), roles: form.roles });
            }}
          >
            <FormField id="key-label" label={t('keys.label')} error={null} maxLength={100} value={form.label} onChange={(event) => setForm({ ...form, label: event.target.value })} />
            <RolePicker id="key-roles" label={t('keys.roles')} allowed={own} value={form.roles} onChange={(roles) => setForm({ ...form, roles })} />
            <Button type="submit" color="primary" shape="rounded" disabled={form.label.trim() === '' || form.roles.length === 0}>
              {t('keys.create')}
            </Button>
          </form>
          <ActionState
            actor={create}
            busyText={t('keys.creating')}
            done={(result: OpsResult<'opsKeyCreate'> | null) => (
              <>
                <p>
                  <strong>{t('keys.shownOnce')}</strong>
                </p>
                <p className="desk-secret" aria-label={t('keys.secret')}>
                  {result?.key}
                </p>
                <Button size="small" fill="none" onClick={() => readAgain(keys)}>
                  {t('actions.readAgain')}
                </Button>
              </>
            )}
          />
        </section>
      </div>
    </section>
  );
}
