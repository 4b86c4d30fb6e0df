/**
 * Orders (role support): the orders by status (paid: to ship; shipped; cancelled), filtered by member; each with its
 * goods, quantity, amount and delivery address; a paid one shipped with its carrier and tracking number (the member
 * then sees them) or cancelled with a reason and refunded once (machines/ops/orderShippingMachine.ts). On a phone a
 * list of cards, each with its decision, staying in its tab; from 900 px a table (parts/DeskTable.tsx) whose filters
 * apply as they change, with page size and total, the opened order beside it, and the table read again after a
 * decision (the order keeps its card beside the table, saying what was done).
 */
import { useSelector } from '@xstate/react';
import Button from 'antd-mobile/es/components/button';
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
import { DeskTable, byDecimal, byText, byTime } from '../parts/DeskTable';
import type { DeskColumn } from '../parts/DeskTable';
import { ListFooter, PageButtons } from '../parts/PageButtons';
import { pageSizeOf } from '../parts/PageSize';
import { MemberFilterForm, useMemberFilter } from '../parts/MemberFilter';
import { QueueFilters } from '../parts/QueueFilters';
import { ReadState, readAgain } from '../parts/ReadState';
import { Refused } from '../parts/Refused';
import { useKeptItem } from '../useDraft';
import { useWide } from '../useWide';

type Order = OpsItem<'opsOrders'>;
type OrderStatus = NonNullable<OpsQuery<'opsOrders'>['status']>;
const statuses: readonly OrderStatus[] = ['paid', 'shipped', 'cancelled'];
const isStatus = (value: string | null): value is OrderStatus => statuses.includes(value as OrderStatus);

export function Screen() {
  const { t } = useTranslation('ops');
  const [params, setParams] = useSearchParams();
  const status: OrderStatus = isStatus(params.get('status')) ? (params.get('status') as OrderStatus) : 'paid';
  const member = params.get('address') ?? '';
  const limit = pageSizeOf(params.get('limit'));
  const openId = params.get('id');
  const wide = useWide();
  const ordersQuery = { status, limit, ...(member ? { address: member } : {}) };
  const orders = useDeskRead('opsOrders', ordersQuery);
  const nextCursor = useSelector(orders, (snapshot) => snapshot.context.value?.nextCursor ?? null);
  const listed = useSelector(orders, (snapshot) => snapshot.context.value?.list.find((order) => order.id === openId) ?? null);
  // A decided order leaves its tab when the table is read again; its card stays open beside it with what was done.
  const opened = useKeptItem(openId ?? '', listed);

  const setQuery = (next: { status?: OrderStatus; address?: string; limit?: number; id?: string | null }) => {
    const query = { status: next.status ?? status, address: next.address ?? member, limit: next.limit ?? limit, id: next.id ?? null };
    const search = new URLSearchParams({ status: query.status });
    if (query.address) search.set('address', query.address);
    if (query.limit !== pageSizeOf(null)) search.set('limit', String(query.limit));
    if (query.id) search.set('id', query.id);
    setParams(search);
    // The member filter sent again as it is reads the first page again; a changed one is read as the address changes.
    if (next.address !== undefined && query.status === status && query.address === member) orders.send({ type: 'user.changeQuery', query: ordersQuery });
  };
  const memberFilter = useMemberFilter(member, (address) => setQuery({ address }), t('orders.memberInvalid'));
  const statusOptions = statuses.map((value) => ({ value, label: t(`orders.status.${value}`) }));

  if (wide) {
    return (
      <section aria-labelledby="orders-title">
        <h2 id="orders-title" className="desk-screen-title">
          {t('screens.orders')}
        </h2>
        <QueueFilters
          status={{ label: t('orders.statusLabel'), options: statusOptions, value: status, onChange: (value) => setQuery({ status: value }) }}
          member={{ label: t('orders.member'), text: memberFilter.text, error: memberFilter.error, onChange: memberFilter.typeAndApply }}
          limit={limit}
          onLimit={(size) => setQuery({ limit: size })}
        />
        <div className="desk-columns">
          <div>
            <ReadState actor={orders} isEmpty={(value) => value.list.length === 0} emptyTitle={t('orders.empty', { status: t(`orders.status.${status}`) })}>
              {(value) => <OrdersTable rows={value.list} openId={openId} onOpen={(order) => setQuery({ id: order.id })} />}
            </ReadState>
            <ListFooter actor={orders} />
          </div>
          <div>
            {opened ? (
              <div className="card">
                <OrderItem key={opened.id} order={opened} as="div" onDecided={() => readAgain(orders)} onClose={() => setQuery({ id: null })} />
              </div>
            ) : (
              <p className="desk-muted">{t('orders.pick')}</p>
            )}
          </div>
        </div>
      </section>
    );
  }
  return (
    <section aria-labelledby="orders-title">
      <h2 id="orders-title" className="desk-screen-title">
        {t('screens.orders')}
      </h2>
      <FilterChips label={t('orders.statusLabel')} options={statusOptions} value={status} onChange={(value) => setQuery({ status: value })} />
      <MemberFilterForm id="orders-member" label={t('orders.member')} filter={memberFilter} />
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

/** The orders' columns: number, goods, quantity, amount, member, when ordered; each sortable. */
function OrdersTable({ rows, openId, onOpen }: { rows: readonly Order[]; openId: string | null; onOpen: (order: Order) => void }) {
  const { t, i18n } = useTranslation('ops');
  const locale = i18n.resolvedLanguage ?? 'zh';
  const goodsOf = (order: Order) => (locale === 'en' ? order.goods.name.en : order.goods.name.zh);
  const columns: DeskColumn<Order>[] = [
    { id: 'id', header: t('orders.columns.id'), cell: (order) => `#${order.id}`, compare: byDecimal((order) => order.id), numeric: true },
    { id: 'goods', header: t('orders.fields.goods'), cell: (order) => <span className="desk-table-clip">{goodsOf(order)}</span>, compare: byText(goodsOf) },
    { id: 'quantity', header: t('orders.fields.quantity'), cell: (order) => String(order.quantity), compare: (a, b) => a.quantity - b.quantity, numeric: true },
    { id: 'amount', header: t('orders.fields.amount'), cell: (order) => <AmountText amount={order.amount} symbol="CREDIT" locale={locale} />, compare: byDecimal((order) => order.amount), numeric: true },
    { id: 'member', header: t('orders.fields.member'), cell: (order) => <ShortAddress address={order.address} />, compare: byText((order) => order.address.toLowerCase()) },
    { id: 'createdAt', header: t('orders.fields.createdAt'), cell: (order) => formatDateTime(order.createdAt, locale), compare: byTime((order) => order.createdAt) },
  ];
  return (
    <DeskTable
      label={t('orders.list')}
      rows={rows}
      columns={columns}
      rowId={(order) => order.id}
      rowName={(order) => `#${order.id} ${goodsOf(order)} ×${String(order.quantity)} ${order.amount} CREDIT`}
      openId={openId}
      onOpen={onOpen}
    />
  );
}

/**
 * One order with its decision: a card of the phone's list (staying in its tab), or, with `onClose`, the one opened
 * beside the table (`onDecided` reads the table again).
 */
function OrderItem({ order, as: Item = 'li', onDecided, onClose }: { order: Order; as?: 'li' | 'div'; onDecided?: () => void; onClose?: () => void }) {
  const { t, i18n } = useTranslation('ops');
  const locale = i18n.resolvedLanguage ?? 'zh';
  const shipping = useShipping(order, onDecided);
  const stage = useSelector(shipping, selectDecisionStage);
  const act = useSelector(shipping, selectDecisionAct);
  // The order as the last answer has it: shipped with its carrier, or cancelled with its reason.
  const now = useSelector(shipping, selectDecisionSubject);
  const goods = locale === 'en' ? order.goods.name.en : order.goods.name.zh;
  const { delivery } = order;
  return (
    <Item className={Item === 'li' ? 'desk-item' : undefined}>
      <article aria-labelledby={`order-${order.id}`} className="desk-form">
        <h3 className="card-title desk-row">
          <span id={`order-${order.id}`} className="desk-row-main">
            {t('orders.title', { id: order.id, goods, quantity: order.quantity })}
          </span>
          <span className="desk-badge" data-tone={now.status === 'paid' ? 'warning' : now.status === 'shipped' ? 'success' : undefined}>
            {t(`orders.status.${now.status}`, { defaultValue: now.status })}
          </span>
          {onClose ? (
            <Button size="small" fill="none" onClick={onClose}>
              {t('actions.close')}
            </Button>
          ) : null}
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
    </Item>
  );
}

/** The order's shipment or cancellation; on the phone the order stays in its tab with what was done (its badge and fields say). */
function useShipping(order: Order, onDecided: () => void = () => undefined) {
  return useDeskDecision(
    createOrderShippingMachine,
    order,
    ({ act, subject, form, requestId }, api) =>
      act === 'ship'
        ? api.call('opsOrderShip', { body: { id: subject.id, carrier: form.carrier ?? '', trackingNumber: form.trackingNumber ?? '' } })
        : api.call('opsOrderCancel', { body: { id: subject.id, reason: form.reason ?? '', requestId } }),
    onDecided,
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
