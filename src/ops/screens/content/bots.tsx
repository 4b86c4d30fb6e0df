/**
 * The Content screen's bots: each bot's name, status (running, paused, stopped) and profit rate (percent, signed),
 * newest first; a new bot. From 900 px the list is a table with its total, the opened bot's editor beside it, the new
 * bot's form under that.
 */
import { useSelector } from '@xstate/react';
import Button from 'antd-mobile/es/components/button';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormField } from '../../../components/FormField';
import { formatDateTime } from '../../../components/dateFormat';
import type { OpsBody, OpsItem, OpsResult } from '../../api/opsContract';
import { useDesk } from '../../DeskContext';
import { useDeskAction, useDeskRead } from '../../deskHooks';
import { ActionState } from '../../parts/ActionState';
import { readAgain } from '../../parts/ReadState';
import { useWide } from '../../useWide';
import { BotStatusBadge, BotsTable } from './botsTable';
import { KeptRead } from './keptRead';
import { Saved } from './saved';
import { SaveButtons } from '../../parts/SaveButtons';
import { runAct } from '../../../../machines/ops/opsActionMachine';

type Bot = OpsItem<'opsBots'>;
type BotStatus = Bot['status'];
type BotForm = { id: string; name: string; status: BotStatus; profitRate: string };
const statuses: readonly BotStatus[] = ['running', 'paused', 'stopped'];
const idPattern = /^[A-Za-z0-9_-]{1,64}$/;
const ratePattern = /^-?(0|[1-9]\d{0,11})(\.\d{1,6})?$/;
const formValid = (form: BotForm) => idPattern.test(form.id) && form.name.trim() !== '' && ratePattern.test(form.profitRate);

export function Bots() {
  const { t } = useTranslation('ops');
  const wide = useWide();
  const bots = useDeskRead('opsBots', undefined);
  const list = useSelector(bots, (snapshot) => snapshot.context.value?.list ?? null);
  const [openId, setOpenId] = useState<string | null>(null);
  const opened = list?.find((bot) => bot.id === openId) ?? null;
  const onSaved = () => readAgain(bots);
  const newBot = (
    <section className="card desk-form" aria-labelledby="bot-new-title">
      <h3 id="bot-new-title" className="card-title">
        {t('content.bots.newTitle')}
      </h3>
      <BotEditor isNew start={{ id: '', name: '', status: 'paused', profitRate: '0' }} onSaved={onSaved} />
    </section>
  );
  if (wide) {
    return (
      <div className="desk-columns">
        <div>
          <KeptRead actor={bots} isEmpty={(value) => value.list.length === 0} emptyTitle={t('content.bots.empty')}>
            {(value) => <BotsTable rows={value.list} openId={openId} onOpen={(bot) => setOpenId(bot.id)} />}
          </KeptRead>
          {list ? <p className="desk-muted">{t('table.total', { count: list.length })}</p> : null}
        </div>
        <div className="desk-form">
          {opened ? (
            <section key={opened.id} className="card desk-form" aria-labelledby={`bot-${opened.id}-title`}>
              <h3 id={`bot-${opened.id}-title`} className="card-title">
                {t('content.editNamed', { name: opened.name })}
              </h3>
              <BotEditor start={opened} onSaved={onSaved} onClose={() => setOpenId(null)} />
            </section>
          ) : (
            <p className="desk-muted">{t('content.pick')}</p>
          )}
          {newBot}
        </div>
      </div>
    );
  }
  return (
    <div className="desk-columns">
      <KeptRead actor={bots} isEmpty={(value) => value.list.length === 0} emptyTitle={t('content.bots.empty')}>
        {(value) => (
          <ul className="desk-list" aria-label={t('content.bots.list')}>
            {value.list.map((bot) => (
              <BotRow key={bot.id} bot={bot} onSaved={onSaved} />
            ))}
          </ul>
        )}
      </KeptRead>
      {newBot}
    </div>
  );
}

function BotRow({ bot, onSaved }: { bot: Bot; onSaved: () => void }) {
  const { t, i18n } = useTranslation('ops');
  const locale = i18n.resolvedLanguage ?? 'zh';
  const [open, setOpen] = useState(false);
  return (
    <li className="desk-item desk-form">
      <div className="desk-row">
        <span className="desk-row-main">
          <strong>{bot.name}</strong>
          <span className="desk-muted"> {bot.id}</span>
          <br />
          <span>{t('content.bots.rate', { rate: bot.profitRate })}</span> · <span className="desk-muted">{formatDateTime(bot.createdAt, locale)}</span>
        </span>
        <BotStatusBadge status={bot.status} />
        {open ? null : (
          <Button size="small" fill="outline" shape="rounded" onClick={() => setOpen(true)}>
            {t('content.editNamed', { name: bot.name })}
          </Button>
        )}
      </div>
      {open ? <BotEditor start={bot} onSaved={onSaved} onClose={() => setOpen(false)} /> : null}
    </li>
  );
}

function BotEditor({ isNew = false, start, onSaved, onClose }: { isNew?: boolean; start: BotForm; onSaved: () => void; onClose?: () => void }) {
  const { t } = useTranslation('ops');
  const { api } = useDesk();
  const [form, setForm] = useState<BotForm>({ id: start.id, name: start.name, status: start.status, profitRate: start.profitRate });
  const save = useDeskAction((request: OpsBody<'opsBotPut'>) => api.call('opsBotPut', { body: request }));
  const prefix = isNew ? 'bot-new' : `bot-${start.id}`;
  return (
    <>
      <form
        className="desk-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (formValid(form)) runAct(save, { ...form, name: form.name.trim() });
        }}
      >
        {isNew ? (
          <FormField id={`${prefix}-id`} label={t('content.id')} hint={t('content.idHint')} error={form.id !== '' && !idPattern.test(form.id) ? t('content.idInvalid') : null} maxLength={64} value={form.id} onChange={(event) => setForm({ ...form, id: event.target.value.trim() })} />
        ) : null}
        <FormField id={`${prefix}-name`} label={t('content.bots.name')} error={null} maxLength={100} value={form.name} onChange={(event) => setForm({ ...form, name: event.target.value })} />
        <label htmlFor={`${prefix}-status`} className="field-label">
          {t('content.bots.statusLabel')}
        </label>
        <select id={`${prefix}-status`} value={form.status} onChange={(event) => setForm({ ...form, status: statuses.find((status) => status === event.target.value) ?? form.status })}>
          {statuses.map((status) => (
            <option key={status} value={status}>
              {t(`content.bots.status.${status}`)}
            </option>
          ))}
        </select>
        <FormField
          id={`${prefix}-rate`}
          label={t('content.bots.profitRate')}
          hint={t('content.bots.profitRateHint')}
          error={form.profitRate !== '' && !ratePattern.test(form.profitRate) ? t('content.bots.rateInvalid') : null}
          inputMode="decimal"
          value={form.profitRate}
          onChange={(event) => setForm({ ...form, profitRate: event.target.value.trim() })}
        />
        <SaveButtons label={isNew ? t('content.bots.add') : t('content.save')} disabled={!formValid(form)} onClose={onClose} />
      </form>
      <ActionState actor={save} busyText={t('content.saving')} done={(_: OpsResult<'opsBotPut'> | null) => <Saved onShown={onSaved} />} />
    </>
  );
}
