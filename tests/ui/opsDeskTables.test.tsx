/**
 * The desk's other lists as tables at a desktop's width (src/ops/parts/DeskTable.tsx): the audit log (five filters
 * in one row, each applied once the API would take it), held top-ups and orders (state or status, page size, total,
 * the opened item's decision beside the table), API keys and operators (their acts in the row).
 */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { financeAddress, renderDesk } from './support/renderDesk';
import type { DeskCall } from './support/renderDesk';

const member = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const second = '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65';

const page = (list: readonly unknown[], total = list.length, nextCursor: string | null = null) => ({ code: 0, result: { list, nextCursor, total } });
const reads = (calls: readonly DeskCall[], key: string) => calls.filter((call) => call.key === key).map((call) => Object.fromEntries(call.query));
const firstCells = (name: string) =>
  within(screen.getByRole('table', { name }))
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[0]?.textContent);

const auditRow = (id: string, action: string, at: string, extra: Record<string, unknown> = {}) => ({
  id,
  at,
  actorAddress: financeAddress,
  actorRoles: ['finance'],
  via: 'session',
  action,
  target: '41',
  before: { status: 'pending' },
  after: { status: 'approved' },
  requestId: null,
  clientAddress: '203.0.113.7',
  ...extra,
});

describe('the desk: tables of the other lists', { timeout: 15_000 }, () => {
  it('behavior: the audit log filters in one row as each filter becomes valid; an act opens beside the table', async () => {
    const rows = [auditRow('9', 'opsWithdrawalsApprove', '2026-11-27T10:00:00.000Z'), auditRow('8', 'opsGrant', '2026-11-27T11:00:00.000Z', { target: member })];
    const desk = await renderDesk({ path: '/ops/audit', signedInAs: { roles: ['admin'] }, wide: true, handlers: { 'GET /api/admin/audit': () => page(rows, 240, '8') } });
    await screen.findByRole('table', { name: 'Audit log' });
    expect(screen.getByText('In all: 240')).toBeTruthy();
    // A half-typed operator address is not sent, and says why; the whole one is.
    await desk.user.type(screen.getByLabelText('Operator address'), second.slice(0, 10));
    expect(screen.getByText('Operator address: not a value the log can be filtered by yet.')).toBeTruthy();
    const sentBefore = reads(desk.calls, 'GET /api/admin/audit').length;
    await desk.user.type(screen.getByLabelText('Operator address'), second.slice(10));
    await desk.user.selectOptions(screen.getByLabelText('Rows per page'), '100');
    await waitFor(() => expect(reads(desk.calls, 'GET /api/admin/audit').at(-1)).toEqual({ actor: second, limit: '100' }));
    expect(reads(desk.calls, 'GET /api/admin/audit').slice(sentBefore).every((query) => query.actor === second)).toBe(true);
    // Sorted by when: the older first.
    await desk.user.click(within(screen.getByRole('columnheader', { name: /When/ })).getByRole('button'));
    expect(firstCells('Audit log')[0]).toContain('10:00');
    await desk.user.click(screen.getByRole('button', { name: /opsGrant/ }));
    const detail = await screen.findByRole('article', { name: 'opsGrant' });
    expect(within(detail).getByText('203.0.113.7')).toBeTruthy();
    expect(within(detail).getByText(/"approved"/)).toBeTruthy();
  });

  it('behavior: held top-ups by state and page size; the opened one is released beside the table', async () => {
    const held = (hash: string, amount: string) => ({ txHash: `0x${hash.repeat(32)}`, logPosition: 0, from: second, amount, blockNumber: '120', seenAt: '2026-11-27T08:00:00.000Z', senderIsContract: false, reorged: false, state: 'held' });
    const desk = await renderDesk({
      path: '/ops/top-ups',
      signedInAs: { roles: ['finance'] },
      wide: true,
      handlers: {
        'GET /api/admin/topUps/held': ({ query }) => page(query.get('state') === 'held' ? [held('ab', '25'), held('cd', '7.5')] : []),
        'POST /api/admin/topUps/release': ({ body }) => ({ code: 0, result: { ...held('ab', '25'), state: 'released', releasedTo: (body as { address: string }).address } }),
      },
    });
    await screen.findByRole('table', { name: 'Held top-ups' });
    expect(screen.getByText('In all: 2')).toBeTruthy();
    await desk.user.click(within(screen.getByRole('columnheader', { name: /Amount/ })).getByRole('button'));
    expect(within(screen.getByRole('table', { name: 'Held top-ups' })).getAllByRole('row')[1]?.textContent).toContain('7.50');
    const rows = within(screen.getByRole('table', { name: 'Held top-ups' })).getAllByRole('row');
    await desk.user.click(within(rows[2] ?? document.body).getAllByRole('button', { name: second })[0] ?? document.body);
    const detail = await screen.findByRole('article', { name: `Top-up from ${second}` });
    await desk.user.click(within(detail).getByRole('button', { name: 'Release to a member…' }));
    await desk.user.type(within(detail).getByLabelText('Member address'), member);
    await desk.user.click(within(detail).getByRole('button', { name: 'Release' }));
    await waitFor(() => expect(desk.calls.find((call) => call.key === 'POST /api/admin/topUps/release')?.body).toMatchObject({ address: member, logPosition: 0, txHash: `0x${'ab'.repeat(32)}` }));
    await desk.user.selectOptions(screen.getByLabelText('Held top-ups by state'), 'returned');
    expect(await screen.findByText('No top-ups are Returned.')).toBeTruthy();
    expect(reads(desk.calls, 'GET /api/admin/topUps/held').at(-1)).toEqual({ state: 'returned', limit: '50' });
  });

  it('behavior: orders by status and member; the opened one is shipped beside the table, which is read again', async () => {
    const order = (id: string, amount: string) => ({
      id,
      address: member,
      goods: { id: 'tea', name: { zh: '大红袍礼盒', en: 'Da Hong Pao gift box' }, image: '/goods/tea.webp' },
      quantity: 2,
      amount,
      status: 'paid',
      delivery: { deliveryId: 'd1', name: '李雷', phone: '138 0013 8000', region: '浙江省 / 杭州市 / 西湖区', detail: '文三路 100 号', isDefault: true },
      createdAt: '2026-11-27T09:00:00.000Z',
    });
    const desk = await renderDesk({
      path: '/ops/orders',
      signedInAs: { roles: ['support'] },
      wide: true,
      handlers: {
        'GET /api/admin/orders': () => page([order('1207', '199'), order('1206', '1000')]),
        'POST /api/admin/orders/ship': ({ body }) => ({ code: 0, result: { ...order('1207', '199'), status: 'shipped', ...(body as object), shippedAt: '2026-11-27T10:00:00.000Z' } }),
      },
    });
    await screen.findByRole('table', { name: 'Orders' });
    await desk.user.type(screen.getByLabelText('Member address (optional)'), member);
    await waitFor(() => expect(reads(desk.calls, 'GET /api/admin/orders').at(-1)).toEqual({ status: 'paid', address: member, limit: '50' }));
    await desk.user.click(screen.getByRole('button', { name: /^#1207 / }));
    const detail = await screen.findByRole('article', { name: /^#1207 / });
    await desk.user.click(within(detail).getByRole('button', { name: 'Ship…' }));
    await desk.user.type(within(detail).getByLabelText('Carrier'), 'SF Express');
    await desk.user.type(within(detail).getByLabelText('Tracking number'), 'SF1234567890');
    const readsBefore = reads(desk.calls, 'GET /api/admin/orders').length;
    await desk.user.click(within(detail).getByRole('button', { name: 'Ship it' }));
    expect(await within(detail).findByRole('status')).toHaveProperty('textContent', expect.stringContaining('SF Express'));
    await waitFor(() => expect(reads(desk.calls, 'GET /api/admin/orders').length).toBe(readsBefore + 1));
  });

  it('behavior: the members table filters by the start of an address or code as typed, frozen only; a row opens the member beside it', async () => {
    const listed = (address: string, inviteCode: string, extra: Record<string, unknown> = {}) => ({ address, inviteCode, recommender: null, createdAt: '2026-11-20T09:00:00.000Z', credit: '120.5', frozen: false, ...extra });
    const desk = await renderDesk({
      path: '/ops/members',
      signedInAs: { roles: ['support'] },
      wide: true,
      handlers: {
        'GET /api/admin/members': ({ query }) => page(query.get('frozen') ? [listed(second, 'FROZEN01', { frozen: true })] : [listed(member, 'AB12CD34'), listed(second, 'FROZEN01', { frozen: true })], query.get('frozen') ? 1 : 1_000_000),
        'GET /api/admin/member': ({ query }) => ({
          code: 0,
          result: { address: query.get('q'), inviteCode: 'AB12CD34', recommender: null, createdAt: '2026-11-20T09:00:00.000Z', balances: { CREDIT: '120.5', WPOS: '3' }, team: { direct: 0, total: 0 }, sessions: 1, frozen: null, records: [] },
        }),
      },
    });
    await screen.findByRole('table', { name: 'Members' });
    expect(screen.getByText('In all: 1000000')).toBeTruthy();
    await desk.user.type(screen.getByLabelText('Address or invite code starts with'), '0x7099');
    await waitFor(() => expect(reads(desk.calls, 'GET /api/admin/members').at(-1)).toEqual({ q: '0x7099', limit: '50' }));
    // Not the start of either: not sent, and said.
    await desk.user.type(screen.getByLabelText('Address or invite code starts with'), '-');
    expect(screen.getByText('Type the start of an address (0x…) or of an invite code.')).toBeTruthy();
    expect(reads(desk.calls, 'GET /api/admin/members').some((query) => query.q === '0x7099-')).toBe(false);
    await desk.user.clear(screen.getByLabelText('Address or invite code starts with'));
    await desk.user.click(screen.getByLabelText('Frozen withdrawals only'));
    await waitFor(() => expect(reads(desk.calls, 'GET /api/admin/members').at(-1)).toEqual({ frozen: 'true', limit: '50' }));
    expect(await screen.findByText('In all: 1')).toBeTruthy();
    await desk.user.click(screen.getByRole('button', { name: second }));
    await waitFor(() => expect(reads(desk.calls, 'GET /api/admin/member').at(-1)).toEqual({ q: second }));
    expect(desk.router.state.location.search).toBe(`?q=${second}`);
  });

  it('behavior: API keys and operators are tables whose rows act: revoke, edit', async () => {
    const key = { id: '0123456789abcdef', label: 'payouts', roles: ['finance'], createdBy: financeAddress, createdAt: '2026-11-27T09:00:00.000Z', lastUsedAt: null, revokedAt: null };
    const desk = await renderDesk({
      path: '/ops/keys',
      signedInAs: { roles: ['admin'] },
      wide: true,
      handlers: {
        'GET /api/admin/keys': () => ({ code: 0, result: { keys: [key, { ...key, id: 'fedcba9876543210', label: 'old', revokedAt: '2026-11-27T09:30:00.000Z' }] } }),
        'POST /api/admin/keys/revoke': () => ({ code: 0, result: { ...key, revokedAt: '2026-11-27T10:00:00.000Z' } }),
        'GET /api/admin/operators': () => ({ code: 0, result: { operators: [{ address: second, roles: ['finance', 'support'], addedAt: '2026-11-21T09:00:00.000Z', addedBy: financeAddress }] } }),
        'GET /api/admin/operators/changes': () => ({ code: 0, result: { changes: [] } }),
      },
    });
    const keys = await screen.findByRole('table', { name: 'API keys' });
    expect(screen.getByText('In all: 2')).toBeTruthy();
    // The keyboard enters the table on the first row's own control: the live key's Revoke.
    await desk.user.keyboard('j');
    expect(document.activeElement?.textContent).toBe('Revoke payouts');
    await desk.user.keyboard('{Enter}');
    await waitFor(() => expect(desk.calls.find((call) => call.key === 'POST /api/admin/keys/revoke')?.body).toEqual({ id: key.id }));
    expect(within(keys).getByText('Revoked')).toBeTruthy();
    await desk.router.navigate('/ops/operators');
    const operators = await screen.findByRole('table', { name: 'Operators' });
    await desk.user.click(within(operators).getByRole('button', { name: 'Edit roles' }));
    expect((screen.getByLabelText('Operator address') as HTMLInputElement).value).toBe(second);
  });
});
