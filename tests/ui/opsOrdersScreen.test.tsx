/**
 * The desk's Orders screen (role support): the orders by status with their goods, quantity, amount and
 * delivery address; loading, error with a retry, empty; the member filter and the next page; shipping with carrier
 * and tracking number; cancelling with a reason, its retry with the same request id.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderDesk } from './support/renderDesk';

const member = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

const order = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  address: member,
  goods: { id: 'tea', name: { zh: '大红袍礼盒', en: 'Da Hong Pao gift box' }, image: '/goods/tea.webp' },
  quantity: 2,
  amount: '199',
  status: 'paid',
  delivery: { deliveryId: 'd1', name: '李雷', phone: '138 0013 8000', region: '浙江省 / 杭州市 / 西湖区', detail: '文三路 100 号', isDefault: true },
  createdAt: '2026-11-27T09:00:00.000Z',
  ...extra,
});

const page = (list: unknown[], nextCursor: string | null = null, total = list.length) => ({ code: 0, result: { list, nextCursor, total } });
const item = (id: string) => screen.getByRole('article', { name: new RegExp(`^#${id} `) });

describe('the desk: orders', { timeout: 15_000 }, () => {
  it('behavior: support sees Orders in the menu; loading, an error with a retry, then each order with its delivery address', async () => {
    let answer: (value: { code: number; result?: unknown }) => void = () => undefined;
    const desk = await renderDesk({
      path: '/ops/orders',
      signedInAs: { roles: ['support'] },
      handlers: { 'GET /api/admin/orders': () => new Promise((resolve) => (answer = resolve)) },
    });
    const navigation = await screen.findByRole('navigation', { name: "The desk's screens" });
    expect(within(navigation).getAllByRole('link').map((link) => link.textContent)).toEqual(['Overview', 'Members', 'Orders', 'API keys']);
    expect(await screen.findByText('Loading…')).toBeTruthy();
    answer({ code: -1 });
    await desk.user.click(await screen.findByRole('button', { name: 'Try again' }));
    answer(page([order('1207')]));
    const shown = await screen.findByRole('article', { name: '#1207 · Da Hong Pao gift box × 2' });
    expect(within(shown).getByText('李雷 · 138 0013 8000')).toBeTruthy();
    expect(within(shown).getByText('浙江省 / 杭州市 / 西湖区 文三路 100 号')).toBeTruthy();
    expect(within(shown).getByText('To ship')).toBeTruthy();
    expect(desk.calls.filter((call) => call.key === 'GET /api/admin/orders').map((call) => call.query.get('status'))).toEqual(['paid', 'paid']);
  });

  it('behavior: an empty tab says so; the member filter and the next page ask the API', async () => {
    const desk = await renderDesk({
      path: '/ops/orders?status=cancelled',
      signedInAs: { roles: ['admin'] },
      handlers: {
        'GET /api/admin/orders': ({ query }) => {
          if (query.get('status') === 'cancelled') return page([]);
          return query.get('cursor') === '1207' ? page([order('1206')]) : page([order('1207')], '1207');
        },
      },
    });
    expect(await screen.findByText('No orders are Cancelled.')).toBeTruthy();
    await desk.user.click(screen.getByRole('button', { name: 'Shipped' }));
    await desk.user.type(screen.getByLabelText('Member address (optional)'), member);
    await desk.user.click(screen.getByRole('button', { name: 'Filter' }));
    await desk.user.click(await screen.findByRole('button', { name: 'Next page' }));
    expect(await screen.findByRole('article', { name: /^#1206 / })).toBeTruthy();
    const reads = desk.calls.filter((call) => call.key === 'GET /api/admin/orders').map((call) => Object.fromEntries(call.query));
    expect(reads.at(-1)).toEqual({ status: 'shipped', address: member, cursor: '1207', limit: '50' });
  });

  it('behavior: Back returns the tab and member filter the address names', async () => {
    const desk = await renderDesk({
      path: '/ops/orders',
      signedInAs: { roles: ['support'] },
      handlers: { 'GET /api/admin/orders': ({ query }) => page(query.get('address') ? [order('1205')] : [order('1207')]) },
    });
    await screen.findByRole('article', { name: /^#1207 / });
    await desk.user.type(screen.getByLabelText('Member address (optional)'), member);
    await desk.user.click(screen.getByRole('button', { name: 'Filter' }));
    await screen.findByRole('article', { name: /^#1205 / });
    await act(() => desk.router.navigate(-1));
    await screen.findByRole('article', { name: /^#1207 / });
    expect((screen.getByLabelText('Member address (optional)') as HTMLInputElement).value).toBe('');
    const reads = desk.calls.filter((call) => call.key === 'GET /api/admin/orders').map((call) => call.query.get('address'));
    expect(reads).toEqual([null, member, null]);
  });

  it('behavior: shipping takes a carrier and a valid tracking number, then says what the member sees', async () => {
    const desk = await renderDesk({
      path: '/ops/orders',
      signedInAs: { roles: ['support'] },
      handlers: {
        'GET /api/admin/orders': () => page([order('1207')]),
        'POST /api/admin/orders/ship': ({ body }) => ({ code: 0, result: order('1207', { ...(body as object), status: 'shipped', shippedAt: '2026-11-27T10:00:00.000Z' }) }),
      },
    });
    await screen.findByRole('article', { name: /^#1207 / });
    await desk.user.click(within(item('1207')).getByRole('button', { name: 'Ship…' }));
    const confirm = within(item('1207')).getByRole('button', { name: 'Ship it' });
    await desk.user.type(within(item('1207')).getByLabelText('Carrier'), 'SF Express');
    await desk.user.type(within(item('1207')).getByLabelText('Tracking number'), 'SF 1');
    expect(within(item('1207')).getByText('4 to 40 letters, digits and hyphens.')).toBeTruthy();
    expect(confirm.hasAttribute('disabled')).toBe(true);
    await desk.user.clear(within(item('1207')).getByLabelText('Tracking number'));
    await desk.user.type(within(item('1207')).getByLabelText('Tracking number'), 'SF1234567890');
    await desk.user.click(within(item('1207')).getByRole('button', { name: 'Ship it' }));
    expect(await within(item('1207')).findByText('Shipped by SF Express, tracking number SF1234567890: the member sees it.')).toBeTruthy();
    expect(within(item('1207')).getAllByText('Shipped')).toHaveLength(2);
    expect(desk.calls.find((call) => call.key === 'POST /api/admin/orders/ship')?.body).toEqual({ id: '1207', carrier: 'SF Express', trackingNumber: 'SF1234567890' });
  });

  it('behavior: a cancellation takes a reason; refused, its retry sends the same request id', async () => {
    const answers = [{ code: -1 }, { code: 0, result: order('1207', { status: 'cancelled', cancelReason: 'out of stock', cancelledAt: '2026-11-27T10:00:00.000Z' }) }];
    const desk = await renderDesk({
      path: '/ops/orders',
      signedInAs: { roles: ['support'] },
      handlers: { 'GET /api/admin/orders': () => page([order('1207')]), 'POST /api/admin/orders/cancel': () => answers.shift() ?? { code: 3006 } },
    });
    await screen.findByRole('article', { name: /^#1207 / });
    await desk.user.click(within(item('1207')).getByRole('button', { name: 'Cancel and refund…' }));
    expect(within(item('1207')).getByRole('button', { name: 'Cancel and refund' }).hasAttribute('disabled')).toBe(true);
    await desk.user.type(within(item('1207')).getByLabelText('Reason (kept in the audit log; the member does not see it)'), 'out of stock');
    await desk.user.click(within(item('1207')).getByRole('button', { name: 'Cancel and refund' }));
    await desk.user.click(await within(item('1207')).findByRole('button', { name: 'Try again' }));
    expect(await within(item('1207')).findByText("Cancelled: the member's credit and the stock are back.")).toBeTruthy();
    expect(within(item('1207')).getByText('out of stock')).toBeTruthy();
    const bodies = desk.calls.filter((call) => call.key === 'POST /api/admin/orders/cancel').map((call) => call.body as { id: string; reason: string; requestId: string });
    expect(bodies).toHaveLength(2);
    expect(bodies[0]).toMatchObject({ id: '1207', reason: 'out of stock' });
    expect(bodies[0]?.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(bodies[1]).toEqual(bodies[0]);
    await waitFor(() => expect(within(item('1207')).queryByRole('button', { name: 'Ship…' })).toBeNull());
  });
});
