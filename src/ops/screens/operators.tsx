/**
 * Operators (admin): who holds which role; add one or change their roles, remove one (their sessions end and their
 * keys are revoked). With more than one admin each such change waits for another admin, who confirms it from the list
 * of those waiting; the only admin's change is done at once. From 900 px the operators are a table
 * (parts/OperatorsTable.tsx).
 */
import Button from 'antd-mobile/es/components/button';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { OperatorRole } from '../../../api-schema/endpoint';
import { checkAddress } from '../../../machines/shared/address';
import { FormField } from '../../components/FormField';
import { formatDateTime } from '../../components/dateFormat';
import type { OpsResult } from '../api/opsContract';
import { useDesk } from '../DeskContext';
import { useDeskAction, useDeskRead } from '../deskHooks';
import { ActionState } from '../parts/ActionState';
import { OperatorsTable } from '../parts/OperatorsTable';
import { DecidedText, PendingOperatorChanges } from '../parts/PendingOperatorChanges';
import { ReadState, readAgain } from '../parts/ReadState';
import { RolePicker } from '../parts/RolePicker';
import { useWide } from '../useWide';
import { runAct } from '../../../machines/ops/opsActionMachine';

export function Screen() {
  const { t, i18n } = useTranslation('ops');
  const locale = i18n.resolvedLanguage ?? 'zh';
  const { api } = useDesk();
  const operators = useDeskRead('opsOperators', undefined);
  const changes = useDeskRead('opsOperatorChanges', undefined);
  const readBoth = () => {
    readAgain(operators);
    readAgain(changes);
  };
  const [form, setForm] = useState<{ address: string; roles: OperatorRole[] }>({ address: '', roles: [] });
  const put = useDeskAction((request: { address: string; roles: OperatorRole[] }) => api.call('opsOperatorPut', { body: request }), readBoth);
  const remove = useDeskAction((request: { address: string }) => api.call('opsOperatorRemove', { body: request }), readBoth);
  const addressError = form.address === '' ? null : checkAddress(form.address);
  const wide = useWide();
  return (
    <section aria-labelledby="operators-title">
      <h2 id="operators-title" className="desk-screen-title">
        {t('screens.operators')}
      </h2>
      <div className="desk-columns">
        <div className="desk-form">
          <ReadState actor={operators} isEmpty={(value) => value.operators.length === 0} emptyTitle={t('operators.empty')}>
            {(value) =>
              wide ? (
                <>
                  <OperatorsTable
                    operators={value.operators}
                    onEdit={(item) => setForm({ address: item.address, roles: [...item.roles] })}
                    onRemove={(address) => runAct(remove, { address })}
                  />
                  <p className="desk-muted">{t('table.total', { count: value.operators.length })}</p>
                </>
              ) : (
                <ul className="desk-list" aria-label={t('operators.list')}>
                  {value.operators.map((item) => (
                    <li key={item.address} className="desk-item desk-row">
                      <span className="desk-row-main">
                        <span className="desk-secret">{item.address}</span>
                        <span className="desk-row">
                          {item.roles.map((role) => (
                            <span key={role} className="desk-role">
                              {t(`roles.${role}`)}
                            </span>
                          ))}
                        </span>
                        <span className="desk-muted">
                          {t('operators.added', { at: formatDateTime(item.addedAt, locale), by: item.addedBy ?? t('operators.bootstrap') })}
                        </span>
                      </span>
                      <span className="desk-actions">
                        <Button size="small" fill="outline" shape="rounded" onClick={() => setForm({ address: item.address, roles: [...item.roles] })}>
                          {t('operators.edit')}
                        </Button>
                        <Button size="small" color="danger" fill="outline" shape="rounded" onClick={() => runAct(remove, { address: item.address })}>
                          {t('operators.remove')}
                        </Button>
                      </span>
                    </li>
                  ))}
                </ul>
              )
            }
          </ReadState>
          <ActionState
            actor={remove}
            busyText={t('operators.removing')}
            done={(result: OpsResult<'opsOperatorRemove'> | null) => <DecidedText result={result} />}
          />
        </div>
        <div className="desk-form">
          <section className="card desk-form" aria-labelledby="operator-put-title">
            <h3 id="operator-put-title" className="card-title">
              {t('operators.putTitle')}
            </h3>
            <form
              className="desk-form"
              onSubmit={(event) => {
                event.preventDefault();
                if (checkAddress(form.address) === null && form.roles.length > 0) runAct(put, form);
              }}
            >
              <FormField
                id="operator-address"
                label={t('operators.address')}
                error={addressError ? t(`topUps.addressError.${addressError}`) : null}
                placeholder="0x…"
                value={form.address}
                onChange={(event) => setForm({ ...form, address: event.target.value.trim() })}
              />
              <RolePicker id="operator-roles" label={t('operators.roles')} value={form.roles} onChange={(roles) => setForm({ ...form, roles })} />
              <Button type="submit" color="primary" shape="rounded" disabled={checkAddress(form.address) !== null || form.roles.length === 0}>
                {t('operators.save')}
              </Button>
            </form>
            <ActionState
              actor={put}
              busyText={t('operators.saving')}
              done={(result: OpsResult<'opsOperatorPut'> | null) => <DecidedText result={result} />}
            />
          </section>
          <PendingOperatorChanges changes={changes} onDecided={readBoth} />
        </div>
      </div>
    </section>
  );
}
