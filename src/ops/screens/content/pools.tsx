/**
 * The Content screen's share pools: each pool's name, daily amount and minimum holding (WPOS), changed from the next
 * payout on; a new pool. From 900 px the list is a table with its total, the opened pool's editor beside it, the new
 * pool's form under that.
 */
import { useSelector } from '@xstate/react';
import Button from 'antd-mobile/es/components/button';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { amountPattern } from '../../../../api-schema/amount';
import { AmountText } from '../../../components/AmountText';
import { FormField } from '../../../components/FormField';
import type { OpsBody, OpsItem, OpsResult } from '../../api/opsContract';
import { useDesk } from '../../DeskContext';
import { useDeskAction, useDeskRead } from '../../deskHooks';
import { ActionState } from '../../parts/ActionState';
import { readAgain } from '../../parts/ReadState';
import { useWide } from '../../useWide';
import { KeptRead } from './keptRead';
import { PoolsTable } from './poolsTable';
import { Saved } from './saved';
import { SaveButtons } from '../../parts/SaveButtons';
import { runAct } from '../../../../machines/ops/opsActionMachine';

type Pool = OpsItem<'opsPools'>;
type PoolForm = { name: string; totalAmount: string; minHolding: string };
const positive = (value: string) => amountPattern.test(value) && /[1-9]/.test(value);
const formValid = (form: PoolForm) => form.name.trim() !== '' && positive(form.totalAmount) && amountPattern.test(form.minHolding);

export function Pools() {
  const { t } = useTranslation('ops');
  const wide = useWide();
  const pools = useDeskRead('opsPools', undefined);
  const list = useSelector(pools, (snapshot) => snapshot.context.value?.list ?? null);
  const [openId, setOpenId] = useState<string | null>(null);
  const opened = list?.find((pool) => pool.id === openId) ?? null;
  const onSaved = () => readAgain(pools);
  const newPool = <PoolEditor title={t('content.pools.newTitle')} idPrefix="pool-new" start={{ name: '', totalAmount: '', minHolding: '0' }} onSaved={onSaved} />;
  if (wide) {
    return (
      <div className="desk-columns">
        <div>
          <KeptRead actor={pools} isEmpty={(value) => value.list.length === 0} emptyTitle={t('content.pools.empty')}>
            {(value) => <PoolsTable rows={value.list} openId={openId} onOpen={(pool) => setOpenId(pool.id)} />}
          </KeptRead>
          {list ? <p className="desk-muted">{t('table.total', { count: list.length })}</p> : null}
        </div>
        <div className="desk-form">
          {opened ? (
            <PoolEditor key={opened.id} id={opened.id} title={t('content.editNamed', { name: opened.name })} idPrefix={`pool-${opened.id}`} start={opened} onSaved={onSaved} onClose={() => setOpenId(null)} />
          ) : (
            <p className="desk-muted">{t('content.pick')}</p>
          )}
          {newPool}
        </div>
      </div>
    );
  }
  return (
    <div className="desk-columns">
      <KeptRead actor={pools} isEmpty={(value) => value.list.length === 0} emptyTitle={t('content.pools.empty')}>
        {(value) => (
          <ul className="desk-list" aria-label={t('content.pools.list')}>
            {value.list.map((pool) => (
              <PoolRow key={pool.id} pool={pool} onSaved={onSaved} />
            ))}
          </ul>
        )}
      </KeptRead>
      {newPool}
    </div>
  );
}

function PoolRow({ pool, onSaved }: { pool: Pool; onSaved: () => void }) {
  const { t, i18n } = useTranslation('ops');
  const locale = i18n.resolvedLanguage ?? 'zh';
  const [open, setOpen] = useState(false);
  return (
    <li className="desk-item desk-form">
      <div className="desk-row">
        <span className="desk-row-main">
          <strong>{pool.name}</strong>
          <br />
          {t('content.pools.daily')} <AmountText amount={pool.totalAmount} symbol="WPOS" locale={locale} /> · {t('content.pools.minHolding')} <AmountText amount={pool.minHolding} symbol="WPOS" locale={locale} />
        </span>
        {open ? null : (
          <Button size="small" fill="outline" shape="rounded" onClick={() => setOpen(true)}>
            {t('content.editNamed', { name: pool.name })}
          </Button>
        )}
      </div>
      {open ? <PoolEditor id={pool.id} idPrefix={`pool-${pool.id}`} start={pool} onSaved={onSaved} onClose={() => setOpen(false)} /> : null}
    </li>
  );
}

interface PoolEditorProps {
  /** The pool edited; none adds one. */
  id?: string;
  title?: string;
  idPrefix: string;
  start: PoolForm;
  onSaved: () => void;
  onClose?: () => void;
}

function PoolEditor({ id, title, idPrefix, start, onSaved, onClose }: PoolEditorProps) {
  const { t } = useTranslation('ops');
  const { api } = useDesk();
  const [form, setForm] = useState<PoolForm>({ name: start.name, totalAmount: start.totalAmount, minHolding: start.minHolding });
  const save = useDeskAction((request: OpsBody<'opsPoolPut'>) => api.call('opsPoolPut', { body: request }));
  const body = (
    <>
      <form
        className="desk-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (formValid(form)) runAct(save, { ...(id ? { id } : {}), name: form.name.trim(), totalAmount: form.totalAmount, minHolding: form.minHolding });
        }}
      >
        <FormField id={`${idPrefix}-name`} label={t('content.pools.name')} error={null} maxLength={100} value={form.name} onChange={(event) => setForm({ ...form, name: event.target.value })} />
        <FormField
          id={`${idPrefix}-total`}
          label={t('content.pools.daily')}
          hint={t('content.pools.dailyHint')}
          error={form.totalAmount !== '' && !positive(form.totalAmount) ? t('content.amountInvalid') : null}
          inputMode="decimal"
          value={form.totalAmount}
          onChange={(event) => setForm({ ...form, totalAmount: event.target.value.trim() })}
        />
        <FormField
          id={`${idPrefix}-min`}
          label={t('content.pools.minHolding')}
          error={form.minHolding !== '' && !amountPattern.test(form.minHolding) ? t('content.amountInvalid') : null}
          inputMode="decimal"
          value={form.minHolding}
          onChange={(event) => setForm({ ...form, minHolding: event.target.value.trim() })}
        />
        <SaveButtons label={id ? t('content.save') : t('content.pools.add')} disabled={!formValid(form)} onClose={onClose} />
      </form>
      <ActionState actor={save} busyText={t('content.saving')} done={(_: OpsResult<'opsPoolPut'> | null) => <Saved onShown={onSaved} />} />
    </>
  );
  if (!title) return body;
  return (
    <section className="card desk-form" aria-labelledby={`${idPrefix}-title`}>
      <h3 id={`${idPrefix}-title`} className="card-title">
        {title}
      </h3>
      {body}
    </section>
  );
}
