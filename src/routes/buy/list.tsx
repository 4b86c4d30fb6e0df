import { useSelector } from '@xstate/react';
import './buy.css';
import Button from 'antd-mobile/es/components/button';
import List from 'antd-mobile/es/components/list';
import Tag from 'antd-mobile/es/components/tag';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import type { ItemOf } from '../../api/answer';
import { fetchGoodsPage, fetchOrderPage } from '../../api/screenCalls';
import { useRootActors } from '../../app/RootActorsContext';
import { paths } from '../../app/paths';
import { selectAccess } from '../../app/selectors';
import { AmountText } from '../../components/AmountText';
import { FilterChips } from '../../components/FilterChips';
import { ListState } from '../../components/ListState';
import { formatDate } from '../../components/dateFormat';
import { useAppNavigate } from '../shared/useAppNavigate';
import { PagedListView } from '../shared/PagedListView';
import { Screen } from '../shared/Screen';
import { pageQuery, usePagedList } from '../shared/usePagedList';

type Tab = 'goods' | 'orders';
type Lang = 'zh' | 'en';

const langOf = (language: string | undefined): Lang => (language === 'en' ? 'en' : 'zh');

/** The goods as cards: image, name, price, stock or sold out, and the way to buy. */
function GoodsList({ lang }: { lang: Lang }) {
  const { t, i18n } = useTranslation(['buy', 'common']);
  const { api } = useRootActors();
  const navigate = useAppNavigate();
  const goods = usePagedList<ItemOf<'goodsList'>, { lang: Lang }>((input) => fetchGoodsPage(api, { ...pageQuery(input), lang: input.query.lang }), { lang });
  const locale = i18n.resolvedLanguage ?? 'zh';
  return (
    <PagedListView
      actor={goods}
      emptyTitle={t('buy:goods.empty')}
      renderItems={(items) => (
        <ul className="goods-grid" aria-label={t('buy:goods.title')}>
          {items.map((item) => (
            <li key={item.id} className="card goods-card">
              <img src={item.image} alt={item.name} width={160} height={160} loading="lazy" className="goods-image" />
              <h3 className="goods-name">{item.name}</h3>
              <AmountText amount={item.price} symbol="CREDIT" locale={locale} />
              {item.stock > 0 ? (
                <>
                  <span className="goods-stock">{t('buy:goods.stock', { count: item.stock })}</span>
                  <Button color="primary" size="middle" block onClick={() => navigate(paths.settlement.href(item.id))}>
                    {t('buy:goods.buy')}
                  </Button>
                </>
              ) : (
                <Tag color="default" fill="outline" className="goods-sold-out">
                  {t('buy:goods.soldOut')}
                </Tag>
              )}
            </li>
          ))}
        </ul>
      )}
    />
  );
}

/** The member's orders, newest first, each with the address as it was at settlement, and its shipment or refund. */
function OrderList({ lang }: { lang: Lang }) {
  const { t, i18n } = useTranslation(['buy', 'common']);
  const { api } = useRootActors();
  const orders = usePagedList<ItemOf<'orderList'>, { lang: Lang }>((input) => fetchOrderPage(api, { ...pageQuery(input), lang: input.query.lang }), { lang });
  const locale = i18n.resolvedLanguage ?? 'zh';
  return (
    <PagedListView
      actor={orders}
      emptyTitle={t('buy:orders.empty')}
      emptyDescription={t('buy:orders.emptyDescription')}
      renderItems={(items) => (
        <List mode="card" className="rows orders">
          {items.map((order) => (
            <List.Item
              key={order.orderId}
              title={`${order.goods.name} × ${order.quantity}`}
              description={
                <span className="order-address">
                  {order.address.name} {order.address.phone} · {order.address.region} {order.address.detail}
                  <br />
                  <span className="row-date">{formatDate(order.createdAt, locale)}</span>
                  {order.shippedAt !== undefined ? (
                    <>
                      <br />
                      <span className="order-shipment">
                        {t('buy:orders.shipment', { date: formatDate(order.shippedAt, locale), carrier: order.carrier, trackingNumber: order.trackingNumber })}
                      </span>
                    </>
                  ) : null}
                  {order.cancelledAt !== undefined ? (
                    <>
                      <br />
                      <span className="order-shipment">{t('buy:orders.refunded', { date: formatDate(order.cancelledAt, locale) })}</span>
                    </>
                  ) : null}
                </span>
              }
              extra={
                <span className="order-extra">
                  <AmountText amount={order.amount} symbol="CREDIT" locale={locale} />
                  <Tag color={order.status === 'paid' ? 'success' : order.status === 'shipped' ? 'primary' : 'default'} fill="outline">
                    {t(`buy:orders.status.${order.status}`)}
                  </Tag>
                </span>
              }
            />
          ))}
        </List>
      )}
    />
  );
}

/**
 * /buy-list — the goods, paged as the member scrolls, sold-out goods marked; and the member's orders (the `tab`
 * query keeps which one is shown, so back and reload return to it). Goods are public; orders need a session.
 */
export function Component() {
  const { t, i18n } = useTranslation(['buy', 'common']);
  const { auth } = useRootActors();
  const access = useSelector(auth, selectAccess);
  const [searchParams, setSearchParams] = useSearchParams();
  const navigateTo = useNavigate();
  const tab: Tab = searchParams.get('tab') === 'orders' ? 'orders' : 'goods';
  const lang = langOf(i18n.resolvedLanguage);
  return (
    <Screen title={t('buy:title')}>
      <FilterChips
        label={t('buy:tabs.label')}
        value={tab}
        options={[
          { value: 'goods', label: t('buy:tabs.goods') },
          { value: 'orders', label: t('buy:tabs.orders') },
        ]}
        onChange={(next) => setSearchParams(next === 'orders' ? { tab: 'orders' } : {}, { replace: true })}
      />
      {/* Keyed by language: the names come from the server in the member's language. */}
      {tab === 'goods' ? <GoodsList key={lang} lang={lang} /> : null}
      {tab === 'orders' && access === 'member' ? <OrderList key={lang} lang={lang} /> : null}
      {tab === 'orders' && access !== 'member' ? (
        <ListState
          state="empty"
          title={t('buy:orders.signIn')}
          description={t('buy:orders.signInDescription')}
          action={
            <Button color="primary" onClick={() => void navigateTo(paths.login.href(), { state: { from: `${paths.buyList.href()}?tab=orders` } })}>
              {t('buy:orders.signInAction')}
            </Button>
          }
        />
      ) : null}
    </Screen>
  );
}
