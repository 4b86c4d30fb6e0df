/**
 * The member's orders: a shipped order shows its carrier and tracking
 * number, a cancelled one says it was refunded, in en and zh, on the phone's clock (Asia/Shanghai here).
 */
import { act, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '../../src/storage/keys';
import { testMeInfo } from '../support/fakeApi';
import { renderApp, type RenderedApp } from './support/renderApp';
import { inTimeZone } from './support/timeZone';

const signedIn = { [STORAGE_KEYS.token]: '"token-bound"', [STORAGE_KEYS.userInfo]: JSON.stringify(testMeInfo()) };
const zhFiles = import.meta.glob<Record<string, unknown>>('../../locales/zh/*.json', { eager: true, import: 'default' });

async function inChinese(app: RenderedApp): Promise<void> {
  for (const [file, texts] of Object.entries(zhFiles)) app.i18n.addResourceBundle('zh', /([^/]+)\.json$/.exec(file)?.[1] ?? file, texts);
  await act(() => app.i18n.changeLanguage('zh'));
}

const goods = { id: 'longjing-tea', name: 'West Lake Longjing tea, 250 g', image: '/media/goods/longjing-tea.svg', price: '88', stock: 499 };
const address = { deliveryId: '1', name: 'Li Lei', phone: '138 0013 8000', region: 'Hangzhou', detail: '100 Wensan Road', isDefault: true };
const order = { goods, quantity: 1, amount: '88', address, createdAt: '2026-11-22T02:00:00.000Z' };
const orders = [
  { ...order, orderId: '3', status: 'shipped', carrier: 'SF Express', trackingNumber: 'SF1234567890', shippedAt: '2026-11-23T01:00:00.000Z' },
  { ...order, orderId: '2', status: 'cancelled', cancelledAt: '2026-11-23T02:00:00.000Z' },
  { ...order, orderId: '1', status: 'paid' },
];

describe('/buy-list?tab=orders', () => {
  inTimeZone('Asia/Shanghai');

  it('shows a shipped order with its carrier and tracking number, and a cancelled one refunded, in en and zh', async () => {
    const app = await renderApp({
      path: '/buy-list?tab=orders',
      stored: signedIn,
      api: (api) => api.answer('orderList', { code: 0, result: { list: orders, total: 3, page: 1, pageSize: 20 } }),
    });
    expect(await screen.findByText('Shipped Nov 23, 2026 by SF Express, tracking number SF1234567890')).toBeTruthy();
    expect(screen.getByText('Cancelled Nov 23, 2026; the amount is back in your credit')).toBeTruthy();
    const tags = [...document.querySelectorAll('.orders .adm-tag')].map((tag) => tag.textContent);
    expect(tags).toEqual(['Shipped', 'Cancelled', 'Paid']);
    expect(document.querySelectorAll('.order-shipment')).toHaveLength(2);

    await inChinese(app);
    expect(await screen.findByText('2026年11月23日 由 SF Express 发出，运单号 SF1234567890')).toBeTruthy();
    expect(screen.getByText('2026年11月23日 已取消，金额已退回您的积分')).toBeTruthy();
    expect([...document.querySelectorAll('.orders .adm-tag')].map((tag) => tag.textContent)).toEqual(['已发货', '已取消', '已支付']);
  });
});
