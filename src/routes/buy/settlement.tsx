import { useActorRef, useSelector } from '@xstate/react';
import './buy.css';
import Button from 'antd-mobile/es/components/button';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import type { ActorRefFrom } from 'xstate';
import { settlementMachine } from '../../../machines/buy/settlementMachine';
import {
  selectBalance,
  selectCanCancel,
  selectCanConfirm,
  selectCanDecrement,
  selectCanIncrement,
  selectCanRestart,
  selectCanRetry,
  selectChanged,
  selectChosenAddress,
  selectGoods,
  selectNeedsAddress,
  selectOrder,
  selectQuantity,
  selectQuantityLimit,
  selectRefusal,
  selectSettlementError,
  selectSettlementView,
  selectShortfall,
  selectSoldOut,
  selectTotal,
} from '../../../machines/buy/settlementSelectors';
import { settlementActors } from '../../actors/buyActors';
import { useRootActors } from '../../app/RootActorsContext';
import { errorKey } from '../../app/errorKey';
import { paths } from '../../app/paths';
import { selectDappParam } from '../../app/selectors';
import { AmountText } from '../../components/AmountText';
import { ErrorText } from '../../components/ErrorText';
import { ListState } from '../../components/ListState';
import { QuantityStepper } from '../../components/QuantityStepper';
import { SummaryList } from '../../components/SummaryList';
import { Screen } from '../shared/Screen';
import { withReturn } from './returnPath';
import { newRequestId } from '../../api/requestId';

type SettlementActor = ActorRefFrom<typeof settlementMachine>;

/** The chosen address, or the ways to get one. */
function AddressCard({ actor, returnTo }: { actor: SettlementActor; returnTo: string }) {
  const { t } = useTranslation(['buy']);
  const navigate = useNavigate();
  const address = useSelector(actor, selectChosenAddress);
  const needsAddress = useSelector(actor, selectNeedsAddress);
  return (
    <section className="card" aria-label={t('buy:settlement.address')}>
      <h2 className="section-title">{t('buy:settlement.address')}</h2>
      {address ? (
        <p className="address-where" data-testid="settlement-address">
          <strong>{address.name}</strong> {address.phone}
          <br />
          {address.region} {address.detail}
        </p>
      ) : (
        <p>{t('buy:settlement.noAddress')}</p>
      )}
      <div className="row-actions">
        {needsAddress && !address ? (
          <Button color="primary" onClick={() => void navigate(withReturn(paths.shippingAddressAdd.href(), returnTo))}>
            {t('buy:book.add')}
          </Button>
        ) : null}
        <Button onClick={() => void navigate(withReturn(paths.shippingAddress.href(), returnTo))}>{t('buy:settlement.changeAddress')}</Button>
      </div>
    </section>
  );
}

/** The goods, the quantity, the address and the figures, and the way to pay. */
function Ready({ actor, returnTo }: { actor: SettlementActor; returnTo: string }) {
  const { t, i18n } = useTranslation(['buy', 'common']);
  const navigate = useNavigate();
  const locale = i18n.resolvedLanguage ?? 'zh';
  const goods = useSelector(actor, selectGoods);
  const quantity = useSelector(actor, selectQuantity);
  const limit = useSelector(actor, selectQuantityLimit);
  const total = useSelector(actor, selectTotal);
  const balance = useSelector(actor, selectBalance);
  const shortfall = useSelector(actor, selectShortfall);
  const soldOut = useSelector(actor, selectSoldOut);
  const changed = useSelector(actor, selectChanged);
  const canConfirm = useSelector(actor, selectCanConfirm);
  const canIncrement = useSelector(actor, selectCanIncrement);
  const canDecrement = useSelector(actor, selectCanDecrement);
  const error = useSelector(actor, selectSettlementError);
  const busy = useSelector(actor, (snapshot) => snapshot.hasTag('busy'));
  const { config } = useRootActors();
  // Where the server names the token that backs credit, the shortfall can be topped up from the wallet.
  const canTopUp = useSelector(config, selectDappParam)?.token !== undefined;
  if (!goods) return null;
  return (
    <>
      <section className="card goods-summary" aria-label={goods.name}>
        <img src={goods.image} alt="" width={96} height={96} className="goods-thumb" />
        <div>
          <h2 className="goods-name">{goods.name}</h2>
          <AmountText amount={goods.price} symbol="CREDIT" locale={locale} />
          <p className="goods-stock">{soldOut ? t('buy:goods.soldOut') : t('buy:goods.stock', { count: goods.stock })}</p>
        </div>
      </section>
      {changed ? (
        <p className="card" role="status">
          {t('buy:settlement.changed')}
        </p>
      ) : null}
      {!soldOut && limit !== null ? (
        <section className="card">
          <QuantityStepper
            id="settlement-quantity"
            label={t('buy:settlement.quantity')}
            value={quantity}
            max={limit}
            canIncrement={canIncrement}
            canDecrement={canDecrement}
            increaseLabel={t('buy:settlement.more')}
            decreaseLabel={t('buy:settlement.fewer')}
            disabled={busy}
            onIncrement={() => actor.send({ type: 'quantity.inc' })}
            onDecrement={() => actor.send({ type: 'quantity.dec' })}
            onSet={(value) => actor.send({ type: 'quantity.set', quantity: value })}
          />
        </section>
      ) : null}
      <AddressCard actor={actor} returnTo={returnTo} />
      <section className="card" aria-label={t('buy:settlement.summary')}>
        <SummaryList
          rows={[
            { label: t('buy:settlement.total'), value: total ? <AmountText amount={total} symbol="CREDIT" locale={locale} /> : '—', strong: true },
            { label: t('buy:settlement.balance'), value: balance ? <AmountText amount={balance} symbol="CREDIT" locale={locale} /> : '—' },
          ]}
        />
        {shortfall ? (
          <div role="status">
            <ErrorText text={t('buy:settlement.short', { amount: shortfall })} />
            {canTopUp ? (
              <Button color="primary" fill="outline" onClick={() => void navigate(`${paths.me.href()}?sheet=topUp`)}>
                {t('buy:settlement.topUp')}
              </Button>
            ) : null}
            <Button onClick={() => void navigate(`${paths.wpos.href()}?sheet=exchange`)}>{t('buy:settlement.getCredit')}</Button>
          </div>
        ) : null}
        {error ? <ErrorText text={t(`common:${errorKey(error)}`)} /> : null}
      </section>
      <Button color="primary" block size="large" disabled={!canConfirm} loading={busy} onClick={() => actor.send({ type: 'user.confirm', requestId: newRequestId() })}>
        {t('buy:settlement.pay')}
      </Button>
    </>
  );
}

/** What the flow shows at each step. */
function SettlementFlow({ actor, returnTo }: { actor: SettlementActor; returnTo: string }) {
  const { t, i18n } = useTranslation(['buy', 'common']);
  const navigate = useNavigate();
  const locale = i18n.resolvedLanguage ?? 'zh';
  const view = useSelector(actor, selectSettlementView);
  const error = useSelector(actor, selectSettlementError);
  const refusal = useSelector(actor, selectRefusal);
  const canRetry = useSelector(actor, selectCanRetry);
  const canRestart = useSelector(actor, selectCanRestart);
  const canCancel = useSelector(actor, selectCanCancel);
  const order = useSelector(actor, selectOrder);
  const toShop = <Button onClick={() => void navigate(paths.buyList.href())}>{t('buy:settlement.toShop')}</Button>;
  switch (view) {
    case 'starting':
    case 'loading':
      return <ListState state="loading" loadingLabel={t('common:status.loading')} rows={4} />;
    case 'noGoods':
      return <ListState state="empty" title={t('buy:settlement.noGoods')} description={t('buy:settlement.noGoodsDescription')} action={toShop} />;
    case 'goodsNotFound':
      return <ListState state="empty" title={t('buy:settlement.goodsNotFound')} action={toShop} />;
    case 'loadFailed':
      return (
        <ListState
          state="error"
          title={error ? t(`common:${errorKey(error)}`) : t('common:Common.unknown')}
          retryLabel={t('common:actions.retry')}
          onRetry={() => actor.send({ type: 'user.retry' })}
        />
      );
    case 'paid':
      return (
        <section className="card" aria-label={t('buy:settlement.paid')}>
          <h2 className="section-title" role="status">
            {t('buy:settlement.paid')}
          </h2>
          {order ? (
            <SummaryList
              rows={[
                { label: t('buy:settlement.orderId'), value: order.orderId },
                { label: t('buy:settlement.total'), value: <AmountText amount={order.amount} symbol="CREDIT" locale={locale} />, strong: true },
              ]}
            />
          ) : null}
          <Button color="primary" block onClick={() => void navigate(`${paths.buyList.href()}?tab=orders`)}>
            {t('buy:settlement.toOrders')}
          </Button>
          {toShop}
        </section>
      );
    case 'checking':
    case 'refreshing':
    case 'paying':
      return (
        <>
          <p className="card" role="status">
            {t(view === 'paying' ? 'buy:settlement.paying' : 'buy:settlement.checking')}
          </p>
          {/* While paying, stopping the wait leaves the order to go through or not: the member learns it by trying again. */}
          {canCancel ? (
            <Button onClick={() => actor.send({ type: 'user.cancel' })}>{t(view === 'paying' ? 'buy:settlement.stopWaiting' : 'common:actions.cancel')}</Button>
          ) : null}
        </>
      );
    case 'interrupted':
    case 'failed':
      return (
        <section className="card" role="alert">
          {/* Interrupted is no error: the member stopped waiting, and the order may still go through. */}
          {view === 'interrupted' ? (
            <p>{t('buy:settlement.interrupted')}</p>
          ) : (
            <ErrorText text={refusal ? t(`buy:settlement.refusal.${refusal}`) : error ? t(`common:${errorKey(error)}`) : t('common:Common.unknown')} />
          )}
          <div className="row-actions">
            {canRetry ? <Button color="primary" onClick={() => actor.send({ type: 'user.retry' })}>{t('common:actions.retry')}</Button> : null}
            {canRestart ? <Button onClick={() => actor.send({ type: 'user.restart' })}>{t('buy:settlement.restart')}</Button> : null}
          </div>
        </section>
      );
    case 'ready':
      return <Ready actor={actor} returnTo={returnTo} />;
    default:
      return null;
  }
}

/** The flow of one visit: created with the route's goods and the address chosen on the way back, if any. */
function Settlement({ goodsId, deliveryId }: { goodsId: string | null; deliveryId: string | null }) {
  const { i18n } = useTranslation();
  const { api, auth } = useRootActors();
  const lang = i18n.resolvedLanguage === 'en' ? 'en' : 'zh';
  const [logic] = useState(() =>
    settlementMachine.provide({ actors: settlementActors(api, lang), actions: { reportPaid: () => auth.send({ type: 'app.refreshProfile' }) } }),
  );
  // No balance from the session: the one it stored may be from before a top-up, a grant or a payout; the machine reads it.
  const actor = useActorRef(logic, { input: { goodsId, deliveryId } });
  return <SettlementFlow actor={actor} returnTo={paths.settlement.href(goodsId ?? undefined)} />;
}

/**
 * /buy/settlement/:id? — pay for goods with credit: quantity, shipping address (chosen in the book or added, and
 * back here with it chosen: `?deliveryId=`), the total against the balance, then pay once per confirmation.
 */
export function Component() {
  const { t } = useTranslation(['buy']);
  const { id } = useParams();
  const [searchParams] = useSearchParams();
  const deliveryId = searchParams.get('deliveryId');
  return (
    <Screen title={t('buy:settlement.title')} parent={paths.buyList.href()}>
      <Settlement key={`${id ?? ''}:${deliveryId ?? ''}`} goodsId={id ?? null} deliveryId={deliveryId} />
    </Screen>
  );
}
