/**
 * Orders (issue 43, role support): the orders by status (paid: to ship; shipped; cancelled), filtered by member; each
 * with its goods, quantity, amount and delivery address; a paid one shipped with its carrier and tracking number (the
 * member then sees them) or cancelled with a reason and refunded once (machines/ops/orderShippingMachine.ts).
 */
import { useSelector } from '@xstate/react';
import Button from 'antd-mobile/es/components/button';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { selectDecisionAct, selectDecisionError, selectDecisionForm, selectDecisionStage, selectDecisionSubject } from '../../../machines/shared/deskDecisionSelectors';
import { carrierProblem, createOrderShippingMachine, maxCancelReasonLength, maxCarrierLength, trackingProblem } from '../../../machines/ops/orderShippingMachine';
import { AmountText } from '../../components/AmountText';
import { FilterChips } from '../../components/FilterChips';
import { FormField } from '../../components/FormField';
import { ShortAddress } from '../../components/ShortAddress';
import { StatusPanel } from '../../components/StatusPanel';
import { SummaryList } from '../../components/SummaryList';
import { formatDateTime } from '../../components/dateFormat';
import type { OpsItem, OpsQuery } from '../api/opsContract';
import { useDeskDecision, useDeskRead } from '../deskHooks';
import { PageButtons } from '../parts/PageButtons';
import { ReadState } from '../parts/ReadState';
import { Refused } from '../parts/Refused';
import { useDraft } from '../useDraft';

type Order = OpsItem<'opsOrders'>;
type OrderStatus = NonNullable<OpsQuery<'opsOrders'>['status']>;
const statuses: readonly OrderStatus[] = ['paid', 'shipped', 'cancelled'];
const isStatus = (value: string | null): value is OrderStatus => statuses.includes(value as OrderStatus);
const addressPattern = /^0x[0-9a-fA-F]{40}$/;

export function Screen() {
  const { t } = useTranslation('ops');
  const [params, setParams] = useSearchParams();
  const status: OrderStatus = isStatus(params.get('status')) ? (params.get('status') as OrderStatus) : 'paid';
  const member = params.get('address') ?? '';
  const [memberText, setMemberText] = useDraft(member);
  const ordersQuery = { status, ...(member ? { address: member } : {}) };
  const orders = useDeskRead('opsOrders', ordersQuery);
  const nextCursor = useSelector(orders, (snapshot) => snapshot.context.value?.nextCursor ?? null);

  const setQuery = (next: { status?: OrderStatus; address?: string }) => {
    const query = { status: next.status ?? status, address: next.address ?? member };
    const search = new URLSearchParams({ status: query.status });
    if (query.address) search.set('address', query.address);
    setParams(search);
    // The member filter sent again as it is reads the first page again; a changed one is read as the address changes.
    if (next.address !== undefined && query.status === status && query.address === member) orders.send({ type: 'user.changeQuery', query: ordersQuery });
  };
  const filter = (event: FormEvent) => {
    event.preventDefault();
    const address = memberText.trim();
    if (address === '' || addressPattern.test(address)) setQuery({ address });
  };
  const memberError = memberText.trim() !== '' && !addressPattern.test(memberText.trim()) ? t('orders.memberInvalid') : null;

  return (
    <section aria-labelledby="orders-title">
      <h2 id="orders-title" className="desk-screen-title">
        {t('screens.orders')}
      </h2>
      <FilterChips label={t('orders.statusLabel')} options={statuses.map((value) => ({ value, label: t(`orders.status.${value}`) }))} value={status} onChange={(value) => setQuery({ status: value })} />
      <form className="desk-form" onSubmit={filter} role="search">
        <FormField id="orders-member" label={t('orders.member')} error={memberError} value={memberText} placeholder="0x…" onChange={(event) => setMemberText(event.target.value)} />
        <div className="desk-actions">
          <Button type="submit" color="primary" fill="outline" shape="rounded">
            {t('actions.filter')}
          </Button>
          {member ? (
            <Button
              shape="rounded"
              fill="none"
              onClick={() => {
                setMemberText('');
                setQuery({ address: '' });
              }}
            >
              {t('actions.clearFilter')}
            </Button>
          ) : null}
        </div>
      </form>
      <ReadState actor={orders} isEmpty={(value) => value.list.length === 0} emptyTitle={t('orders.empty', { status: t(`orders.status.${status}`) })}>
        {(value) => (
          <ul className="desk-list" aria-label={t('orders.list')}>
            {value.list.map((order) => (
              <OrderItem key={order.id} order={order} />
            ))}
          </ul>
        )}
      </ReadState>
      <PageButtons actor={orders} nextCursor={nextCursor} />
    </section>
  );
}

function OrderItem({ order }: { order: Order }) {
  const { t, i18n } = useTranslation('ops');
  const locale = i18n.resolvedLanguage ?? 'zh';
  const shipping = useShipping(order);
  const stage = useSelector(shipping, selectDecisionStage);
  const act = useSelector(shipping, selectDecisionAct);
  // The order as the last answer has it: shipped with its carrier, or cancelled with its reason.
  const now = useSelector(shipping, selectDecisionSubject);
  const goods = locale === 'en' ? order.goods.name.en : order.goods.name.zh;
  const { delivery } = order;
  return (
    <li className="desk-item">
      <article aria-labelledby={`order-${order.id}`} className="desk-form">
        <h3 className="card-title desk-row">
          <span id={`order-${order.id}`} className="desk-row-main">
            {t('orders.title', { id: order.id, goods, quantity: order.quantity })}
          </span>
          <span className="desk-badge" data-tone={now.status === 'paid' ? 'warning' : now.status === 'shipped' ? 'success' : undefined}>
            {t(`orders.status.${now.status}`, { defaultValue: now.status })}
          </span>
        </h3>
        <SummaryList
          rows={[
            { label: t('orders.fields.member'), value: <ShortAddress address={order.address} /> },
            { label: t('orders.fields.goods'), value: goods },
            { label: t('orders.fields.quantity'), value: String(order.quantity) },
            { label: t('orders.fields.amount'), value: <AmountText amount={order.amount} symbol="CREDIT" locale={locale} />, strong: true },
            { label: t('orders.fields.recipient'), value: `${delivery.name} · ${delivery.phone}` },
            { label: t('orders.fields.delivery'), value: `${delivery.region} ${delivery.detail}` },
            { label: t('orders.fields.createdAt'), value: formatDateTime(order.createdAt, locale) },
            ...(now.carrier ? [{ label: t('orders.fields.carrier'), value: now.carrier }] : []),
            ...(now.trackingNumber ? [{ label: t('orders.fields.trackingNumber'), value: now.trackingNumber }] : []),
            ...(now.shippedAt ? [{ label: t('orders.fields.shippedAt'), value: formatDateTime(now.shippedAt, locale) }] : []),
            ...(now.cancelledAt ? [{ label: t('orders.fields.cancelledAt'), value: formatDateTime(now.cancelledAt, locale) }] : []),
            ...(now.cancelReason ? [{ label: t('orders.fields.cancelReason'), value: now.cancelReason }] : []),
          ]}
        />
        <div className="desk-form" aria-live="polite">
          {stage === 'ready' ? (
            <div className="desk-actions">
              <Button color="primary" shape="rounded" onClick={() => shipping.send({ type: 'user.choose', act: 'ship' })}>
                {t('orders.ship')}
              </Button>
              <Button color="danger" fill="outline" shape="rounded" onClick={() => shipping.send({ type: 'user.choose', act: 'refund' })}>
                {t('orders.cancel')}
              </Button>
            </div>
          ) : null}
          {stage === 'form' && act === 'ship' ? <ShipForm id={order.id} actor={shipping} /> : null}
          {stage === 'form' && act === 'refund' ? <RefundForm id={order.id} amount={order.amount} actor={shipping} /> : null}
          {stage === 'busy' ? <StatusPanel message={t(act === 'ship' ? 'orders.shipping' : 'orders.refunding')} /> : null}
          {stage === 'refused' ? <OrderRefused actor={shipping} /> : null}
          {stage === 'closed' && order.status === 'paid' && now.status === 'shipped' ? (
            <p role="status" className="desk-badge" data-tone="success">
              {t('orders.shippedNow', { carrier: now.carrier ?? '', trackingNumber: now.trackingNumber ?? '' })}
            </p>
          ) : null}
          {stage === 'closed' && order.status === 'paid' && now.status !== 'shipped' ? (
            <p role="status" className="desk-badge">
              {t('orders.cancelledNow')}
            </p>
          ) : null}
        </div>
      </article>
    </li>
  );
}

/** The order's shipment or cancellation; the order stays in its tab with what was done (its badge and fields say). */
function useShipping(order: Order) {
  return useDeskDecision(
    createOrderShippingMachine,
    order,
    ({ act, subject, form, requestId }, api) =>
      act === 'ship'
        ? api.call('opsOrderShip', { body: { id: subject.id, carrier: form.carrier ?? '', trackingNumber: form.trackingNumber ?? '' } })
        : api.call('opsOrderCancel', { body: { id: subject.id, reason: form.reason ?? '', requestId } }),
    () => undefined,
  );
}

type ShippingActor = ReturnType<typeof useShipping>;

function ShipForm({ id, actor }: { id: string; actor: ShippingActor }) {
  const { t } = useTranslation('ops');
  const form = useSelector(actor, selectDecisionForm);
  const canConfirm = useSelector(actor, (snapshot) => snapshot.can({ type: 'user.confirm', requestId: '' }));
  const carrier = form.carrier ?? '';
  const trackingNumber = form.trackingNumber ?? '';
  const carrierError = carrier === '' ? null : carrierProblem(carrier);
  const trackingError = trackingNumber === '' ? null : trackingProblem(trackingNumber);
  return (
    <form
      className="desk-form"
      aria-label={t('orders.shipTitle', { id })}
      onSubmit={(event) => {
        event.preventDefault();
        actor.send({ type: 'user.confirm', requestId: '' });
      }}
    >
      <FormField
        id={`carrier-${id}`}
        label={t('orders.carrier')}
        hint={t('orders.carrierHint')}
        error={carrierError ? t(`orders.carrierError.${carrierError}`) : null}
        maxLength={maxCarrierLength}
        value={carrier}
        onChange={(event) => actor.send({ type: 'field.change', field: 'carrier', value: event.target.value })}
      />
      <FormField
        id={`tracking-${id}`}
        label={t('orders.trackingNumber')}
        error={trackingError ? t(`orders.trackingError.${trackingError}`) : null}
        maxLength={40}
        autoCapitalize="characters"
        spellCheck={false}
        value={trackingNumber}
        onChange={(event) => actor.send({ type: 'field.change', field: 'trackingNumber', value: event.target.value })}
      />
      <div className="desk-actions">
        <Button type="submit" color="primary" shape="rounded" disabled={!canConfirm}>
          {t('orders.confirmShip')}
        </Button>
        <Button fill="outline" shape="rounded" onClick={() => actor.send({ type: 'user.cancel' })}>
          {t('common:wallet.actions.cancel')}
        </Button>
      </div>
    </form>
  );
}

function RefundForm({ id, amount, actor }: { id: string; amount: string; actor: ShippingActor }) {
  const { t, i18n } = useTranslation('ops');
  const form = useSelector(actor, selectDecisionForm);
  const canConfirm = useSelector(actor, (snapshot) => snapshot.can({ type: 'user.confirm', requestId: '' }));
  return (
    <form
      className="desk-form"
      aria-label={t('orders.cancelTitle', { id })}
      onSubmit={(event) => {
        event.preventDefault();
        // One request id per confirmation: its retries refund at most once.
        actor.send({ type: 'user.confirm', requestId: crypto.randomUUID() });
      }}
    >
      <label htmlFor={`cancel-reason-${id}`} className="field-label">
        {t('orders.cancelReason')}
      </label>
      <textarea id={`cancel-reason-${id}`} rows={3} maxLength={maxCancelReasonLength} value={form.reason ?? ''} onChange={(event) => actor.send({ type: 'field.change', field: 'reason', value: event.target.value })} />
      <p className="desk-muted">
        {t('orders.cancelRefunds')} <AmountText amount={amount} symbol="CREDIT" locale={i18n.resolvedLanguage ?? 'zh'} />
      </p>
      <div className="desk-actions">
        <Button type="submit" color="danger" shape="rounded" disabled={!canConfirm}>
          {t('orders.confirmCancel')}
        </Button>
        <Button fill="outline" shape="rounded" onClick={() => actor.send({ type: 'user.cancel' })}>
          {t('actions.back')}
        </Button>
      </div>
    </form>
  );
}

function OrderRefused({ actor }: { actor: ShippingActor }) {
  const { t } = useTranslation('ops');
  const error = useSelector(actor, selectDecisionError);
  return <Refused error={error} onRetry={() => actor.send({ type: 'user.retry' })} onLeave={() => actor.send({ type: 'user.cancel' })} leaveLabel={t('actions.back')} />;
}
