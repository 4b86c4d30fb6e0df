/**
 * The Content screen's goods: every item, unlisted ones too, with its price, the stock members can still buy and the
 * units paid orders hold; an item's names, price, stock and listing edited (a sale meanwhile refuses the stock
 * change, 3006, rather than overwrite it); a new item added last. From 900 px the list is a table with its total,
 * the opened item's editor beside it, the new item's form under that.
 */
import { useSelector } from '@xstate/react';
import Button from 'antd-mobile/es/components/button';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { amountPattern } from '../../../../api-schema/amount';
import { ApiCode } from '../../../../api-schema/codes';
import { selectActionError } from '../../../../machines/ops/opsSelectors';
import { AmountText } from '../../../components/AmountText';
import { FormField } from '../../../components/FormField';
import type { OpsBody, OpsItem, OpsResult } from '../../api/opsContract';
import { useDesk } from '../../DeskContext';
import { useDeskAction, useDeskRead } from '../../deskHooks';
import { ActionState } from '../../parts/ActionState';
import { readAgain } from '../../parts/ReadState';
import { useWide } from '../../useWide';
import { GoodsTable, ListedBadge } from './goodsTable';
import { KeptRead } from './keptRead';
import { Saved } from './saved';
import { SaveButtons } from '../../parts/SaveButtons';
import { runAct } from '../../../../machines/ops/opsActionMachine';

type GoodsItem = OpsItem<'opsGoods'>;
type GoodsForm = { nameZh: string; nameEn: string; price: string; stock: string; listed: boolean };
const stockPattern = /^(0|[1-9]\d{0,9})$/;
const idPattern = /^[A-Za-z0-9_-]{1,64}$/;
const imagePattern = /^\/media\/goods\/[a-z0-9][a-z0-9-]{0,63}\.(svg|png|jpg|webp)$/;
const formOf = (item: GoodsItem): GoodsForm => ({ nameZh: item.nameZh, nameEn: item.nameEn, price: item.price, stock: String(item.stock), listed: item.listed });
const priceValid = (price: string) => amountPattern.test(price) && /[1-9]/.test(price);
const formValid = (form: GoodsForm) =>
  form.nameZh.trim() !== '' && form.nameEn.trim() !== '' && priceValid(form.price) && stockPattern.test(form.stock) && Number(form.stock) <= 1_000_000_000;

export function Goods() {
  const { t } = useTranslation('ops');
  const wide = useWide();
  const goods = useDeskRead('opsGoods', undefined);
  const list = useSelector(goods, (snapshot) => snapshot.context.value?.list ?? null);
  const [openId, setOpenId] = useState<string | null>(null);
  const opened = list?.find((item) => item.id === openId) ?? null;
  const onSaved = () => readAgain(goods);
  if (wide) {
    return (
      <div className="desk-columns">
        <div>
          <KeptRead actor={goods} isEmpty={(value) => value.list.length === 0} emptyTitle={t('content.goods.empty')}>
            {(value) => <GoodsTable rows={value.list} openId={openId} onOpen={(item) => setOpenId(item.id)} />}
          </KeptRead>
          {list ? <p className="desk-muted">{t('table.total', { count: list.length })}</p> : null}
        </div>
        <div className="desk-form">
          {opened ? <GoodsRow key={opened.id} item={opened} onSaved={onSaved} onClose={() => setOpenId(null)} /> : <p className="desk-muted">{t('content.pick')}</p>}
          <NewGoods onSaved={onSaved} />
        </div>
      </div>
    );
  }
  return (
    <div className="desk-columns">
      <KeptRead actor={goods} isEmpty={(value) => value.list.length === 0} emptyTitle={t('content.goods.empty')}>
        {(value) => (
          <ul className="desk-list" aria-label={t('content.goods.list')}>
            {value.list.map((item) => (
              <GoodsRow key={item.id} item={item} onSaved={onSaved} />
            ))}
          </ul>
        )}
      </KeptRead>
      <NewGoods onSaved={onSaved} />
    </div>
  );
}

function GoodsFields({ id, form, onChange }: { id: string; form: GoodsForm; onChange: (form: GoodsForm) => void }) {
  const { t } = useTranslation('ops');
  return (
    <>
      <FormField id={`${id}-name-zh`} label={t('content.goods.nameZh')} error={null} maxLength={100} value={form.nameZh} onChange={(event) => onChange({ ...form, nameZh: event.target.value })} />
      <FormField id={`${id}-name-en`} label={t('content.goods.nameEn')} error={null} maxLength={100} value={form.nameEn} onChange={(event) => onChange({ ...form, nameEn: event.target.value })} />
      <FormField
        id={`${id}-price`}
        label={t('content.goods.price')}
        error={form.price !== '' && !priceValid(form.price) ? t('content.amountInvalid') : null}
        inputMode="decimal"
        value={form.price}
        onChange={(event) => onChange({ ...form, price: event.target.value.trim() })}
      />
      <FormField
        id={`${id}-stock`}
        label={t('content.goods.stock')}
        hint={t('content.goods.stockHint')}
        error={form.stock !== '' && !stockPattern.test(form.stock) ? t('content.goods.stockInvalid') : null}
        inputMode="numeric"
        value={form.stock}
        onChange={(event) => onChange({ ...form, stock: event.target.value.trim() })}
      />
      <label className="desk-check">
        <input type="checkbox" checked={form.listed} onChange={(event) => onChange({ ...form, listed: event.target.checked })} />
        {t('content.goods.listed')}
      </label>
    </>
  );
}

/**
 * One item with its editor: a row of the phone's list (the editor opened by its button), or, with `onClose`, the
 * item opened beside the table (a card, its editor open).
 */
function GoodsRow({ item, onSaved, onClose }: { item: GoodsItem; onSaved: () => void; onClose?: () => void }) {
  const { t, i18n } = useTranslation('ops');
  const locale = i18n.resolvedLanguage ?? 'zh';
  const { api } = useDesk();
  const [form, setForm] = useState<GoodsForm | null>(onClose ? formOf(item) : null);
  const save = useDeskAction((request: OpsBody<'opsGoodsPut'>) => api.call('opsGoodsPut', { body: request }));
  const name = locale.startsWith('en') ? item.nameEn : item.nameZh;
  // A sale since the stock was read (3006): the list is read again, so saving again sends the stock as it is now.
  const soldMeanwhile = useSelector(save, (snapshot) => selectActionError(snapshot)?.code === ApiCode.alreadyDecided);
  const saved = useRef(onSaved);
  useEffect(() => {
    if (soldMeanwhile) saved.current();
  }, [soldMeanwhile]);
  const editor = (
    <>
      {form ? (
        <form
          className="desk-form"
          onSubmit={(event) => {
            event.preventDefault();
            const stock = Number(form.stock);
            if (!formValid(form)) return;
            // A refusal shown (a sale meanwhile) is left for the new request, with the stock as read again.
            save.send({ type: 'user.cancel' });
            runAct(save, { id: item.id, nameZh: form.nameZh.trim(), nameEn: form.nameEn.trim(), price: form.price, stock, stockWas: item.stock, listed: form.listed });
          }}
        >
          <GoodsFields id={`goods-${item.id}`} form={form} onChange={setForm} />
          <SaveButtons label={t('content.save')} disabled={!formValid(form)} onClose={onClose ?? (() => setForm(null))} />
        </form>
      ) : null}
      {soldMeanwhile ? <p className="desk-muted">{t('content.goods.soldMeanwhile', { stock: item.stock })}</p> : null}
      <ActionState actor={save} busyText={t('content.saving')} done={(_: OpsResult<'opsGoodsPut'> | null) => <Saved onShown={onSaved} />} />
    </>
  );
  if (onClose) {
    return (
      <section className="card desk-form" aria-labelledby={`goods-${item.id}-title`}>
        <h3 id={`goods-${item.id}-title`} className="card-title">
          {t('content.editNamed', { name })}
        </h3>
        {editor}
      </section>
    );
  }
  return (
    <li className="desk-item desk-form">
      <div className="desk-row">
        <img src={item.image} alt="" width={44} height={44} />
        <span className="desk-row-main">
          <strong>{name}</strong>
          <span className="desk-muted"> {item.id}</span>
          <br />
          <AmountText amount={item.price} symbol="CREDIT" locale={locale} /> · <span>{t('content.goods.stockHeld', { stock: item.stock, held: item.held })}</span>
        </span>
        <ListedBadge listed={item.listed} />
        {form ? null : (
          <Button size="small" fill="outline" shape="rounded" onClick={() => setForm(formOf(item))}>
            {t('content.editNamed', { name })}
          </Button>
        )}
      </div>
      {editor}
    </li>
  );
}

function NewGoods({ onSaved }: { onSaved: () => void }) {
  const { t } = useTranslation('ops');
  const { api } = useDesk();
  const [id, setId] = useState('');
  const [image, setImage] = useState('');
  const [form, setForm] = useState<GoodsForm>({ nameZh: '', nameEn: '', price: '', stock: '0', listed: false });
  const save = useDeskAction((request: OpsBody<'opsGoodsPut'>) => api.call('opsGoodsPut', { body: request }));
  const valid = idPattern.test(id) && imagePattern.test(image) && formValid(form);
  return (
    <section className="card desk-form" aria-labelledby="goods-new-title">
      <h3 id="goods-new-title" className="card-title">
        {t('content.goods.newTitle')}
      </h3>
      <form
        className="desk-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (valid) runAct(save, { id, image, nameZh: form.nameZh.trim(), nameEn: form.nameEn.trim(), price: form.price, stock: Number(form.stock), listed: form.listed });
        }}
      >
        <FormField id="goods-new-id" label={t('content.id')} hint={t('content.idHint')} error={id !== '' && !idPattern.test(id) ? t('content.idInvalid') : null} maxLength={64} value={id} onChange={(event) => setId(event.target.value.trim())} />
        <FormField
          id="goods-new-image"
          label={t('content.goods.image')}
          hint={t('content.goods.imageHint')}
          error={image !== '' && !imagePattern.test(image) ? t('content.goods.imageInvalid') : null}
          placeholder="/media/goods/…"
          value={image}
          onChange={(event) => setImage(event.target.value.trim())}
        />
        <GoodsFields id="goods-new" form={form} onChange={setForm} />
        <Button type="submit" color="primary" shape="rounded" disabled={!valid}>
          {t('content.goods.add')}
        </Button>
      </form>
      <ActionState actor={save} busyText={t('content.saving')} done={(_: OpsResult<'opsGoodsPut'> | null) => <Saved onShown={onSaved} />} />
    </section>
  );
}
