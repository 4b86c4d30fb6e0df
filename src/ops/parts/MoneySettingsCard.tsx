import { useSelector } from '@xstate/react';
import Button from 'antd-mobile/es/components/button';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AmountText } from '../../components/AmountText';
import { FormField } from '../../components/FormField';
import { ShortAddress } from '../../components/ShortAddress';
import { SummaryList } from '../../components/SummaryList';
import { moneySettingFields, moneySettingsSchema } from '../../../api-schema/opsPolicy';
import type { OpsResult } from '../api/opsContract';
import { useDesk } from '../DeskContext';
import { useDeskAction, useDeskRead, useOperator } from '../deskHooks';
import { ActionState } from './ActionState';
import { ReadState, readAgain } from './ReadState';
import { runAct } from '../../../machines/ops/opsActionMachine';

type Settings = OpsResult<'opsMoneySettings'>['current'];
/** A field as typed, by the contract's own schema of it (an amount, or for the fee a balance: 0 allowed). */
const fieldOk = (field: keyof Settings, text: string) => moneySettingsSchema.shape[field].safeParse(text).success;

/**
 * The money settings (opsMoneySettings; docs/API.md, "Money settings"): the values in force, a change another
 * finance operator asked for with its Confirm, and the form to ask for one. The server decides (the policy's
 * `moneySettings`, never alone); the form only keeps what is typed.
 */
export function MoneySettingsCard() {
  const { t } = useTranslation('ops');
  const settings = useDeskRead('opsMoneySettings', undefined);
  return (
    <section className="card desk-form" aria-labelledby="money-settings-title">
      <h3 id="money-settings-title" className="card-title">
        {t('money.title')}
      </h3>
      <p className="desk-muted">{t('money.lead')}</p>
      <ReadState actor={settings} isEmpty={() => false} emptyTitle="">
        {(value) => <MoneySettingsView value={value} onChanged={() => readAgain(settings)} />}
      </ReadState>
    </section>
  );
}

function MoneySettingsView({ value, onChanged }: { value: OpsResult<'opsMoneySettings'>; onChanged: () => void }) {
  const { t, i18n } = useTranslation('ops');
  const locale = i18n.resolvedLanguage ?? 'zh';
  const { api } = useDesk();
  const operator = useOperator();
  const [draft, setDraft] = useState<Settings>(value.current);
  const change = useDeskAction((request: Settings & { requestId: string }) => api.call('opsMoneySettingsPut', { body: request }));
  const busy = useSelector(change, (snapshot) => snapshot.hasTag('busy'));
  const send = (values: Settings) => runAct(change, { ...values, requestId: crypto.randomUUID() });
  const rows = (settings: Settings) => moneySettingFields.map((field) => ({ label: t(`money.fields.${field}`), value: <AmountText amount={settings[field]} locale={locale} /> }));
  const invalid = moneySettingFields.filter((field) => !fieldOk(field, draft[field].trim()));
  const mine = value.pending && operator && value.pending.requestedBy.toLowerCase() === operator.address.toLowerCase();
  return (
    <>
      <SummaryList label={t('money.current')} rows={rows(value.current)} />
      {value.pending ? (
        <div className="desk-form" role="status">
          <p>
            {t('money.pending')} <ShortAddress address={value.pending.requestedBy} />
          </p>
          <SummaryList label={t('money.pending')} rows={rows(value.pending.values)} />
          {mine ? (
            <p className="desk-muted">{t('money.pendingMine')}</p>
          ) : (
            <Button color="primary" shape="rounded" disabled={busy} onClick={() => {
                if (value.pending) send(value.pending.values);
              }}>
              {t('money.confirm')}
            </Button>
          )}
        </div>
      ) : null}
      <form
        className="desk-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (invalid.length === 0) send(Object.fromEntries(moneySettingFields.map((field) => [field, draft[field].trim()])) as Settings);
        }}
      >
        {moneySettingFields.map((field) => (
          <FormField
            key={field}
            id={`money-${field}`}
            label={t(`money.fields.${field}`)}
            inputMode="decimal"
            error={invalid.includes(field) ? t('money.invalid') : null}
            value={draft[field]}
            onChange={(event) => setDraft({ ...draft, [field]: event.target.value })}
          />
        ))}
        <Button type="submit" color="primary" fill="outline" shape="rounded" disabled={busy || invalid.length > 0}>
          {t('money.ask')}
        </Button>
      </form>
      <ActionState
        actor={change}
        busyText={t('money.saving')}
        done={(result: OpsResult<'opsMoneySettingsPut'> | null) => (
          <p>
            {result?.applied ? t('money.applied') : t('money.waits')}{' '}
            <Button size="small" fill="outline" shape="rounded" onClick={onChanged}>
              {t('actions.readAgain')}
            </Button>
          </p>
        )}
      />
    </>
  );
}
