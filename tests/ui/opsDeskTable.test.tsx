/**
 * The withdrawals queue as a table at a desktop's width (src/ops/parts/DeskTable.tsx): columns that sort (amounts
 * exactly, as decimals), filters that apply as they change, page size and total, and the keyboard through the rows
 * to the approval of the ticked ones (or the focused one) after a confirmation, Enter confirming.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderDesk } from './support/renderDesk';
import type { DeskCall } from './support/renderDesk';

const member = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const other = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';

const withdrawal = (id: string, amount: string, createdAt: string, extra: Record<string, unknown> = {}) => ({
  id,
  address: member,
  amount,
  fee: '1',
  status: 'pending',
  createdAt,
  decidedAt: null,
  approvals: [],
  approvalsNeeded: 1,
  ...extra,
});

// Three rows whose amounts sort differently as text ("15.5" < "2500" < "300") and as numbers.
const rows = [
  withdrawal('43', '300', '2026-11-27T09:30:00.000Z', { address: other }),
  withdrawal('42', '15.5', '2026-11-27T09:00:00.000Z'),
  withdrawal('41', '2500', '2026-11-27T08:00:00.000Z', { approvalsNeeded: 2 }),
];

const reads = (calls: readonly DeskCall[]) => calls.filter((call) => call.key === 'GET /api/admin/withdrawals').map((call) => Object.fromEntries(call.query));
const shownIds = () =>
  within(screen.getByRole('table', { name: 'Withdrawals' }))
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('button')[0]?.textContent);

async function renderQueue(answer: (query: URLSearchParams) => unknown = () => ({ list: rows, nextCursor: null, total: 3 })) {
  const desk = await renderDesk({
    path: '/ops/withdrawals',
    signedInAs: { roles: ['finance'] },
    wide: true,
    handlers: {
      'GET /api/admin/withdrawals': ({ query }) => ({ code: 0, result: answer(query) }),
      'POST /api/admin/withdrawals/approve': ({ body }) => ({
        code: 0,
        result: { results: (body as { ids: string[] }).ids.map((id) => ({ id, code: 0, waitsForSecondApproval: id === '41' })) },
      }),
    },
  });
  await screen.findByRole('table', { name: 'Withdrawals' });
  return desk;
}

describe('the desk: the withdrawals table', { timeout: 15_000 }, () => {
  it('behavior: a column sorts its rows ascending, then descending; amounts as decimals, not as text', async () => {
    const desk = await renderQueue();
    expect(shownIds()).toEqual(['#43', '#42', '#41']);
    const amount = screen.getByRole('columnheader', { name: /Amount/ });
    await desk.user.click(within(amount).getByRole('button'));
    expect(amount.getAttribute('aria-sort')).toBe('ascending');
    expect(shownIds()).toEqual(['#42', '#43', '#41']);
    await desk.user.click(within(amount).getByRole('button'));
    expect(amount.getAttribute('aria-sort')).toBe('descending');
    expect(shownIds()).toEqual(['#41', '#43', '#42']);
    // Age: the youngest first, ascending.
    await desk.user.click(within(screen.getByRole('columnheader', { name: /Age/ })).getByRole('button'));
    expect(shownIds()).toEqual(['#43', '#42', '#41']);
    // Amounts are right-aligned in tabular figures.
    expect(amount.hasAttribute('data-numeric')).toBe(true);
  });

  it('behavior: filters apply as they change, in one row; page size and total', async () => {
    const desk = await renderQueue((query) => ({ list: query.get('status') === 'paid' ? [] : rows, nextCursor: null, total: query.get('status') === 'paid' ? 0 : 120 }));
    expect(await screen.findByText('In all: 120')).toBeTruthy();
    await desk.user.selectOptions(screen.getByLabelText('Withdrawals by status'), 'paid');
    expect(await screen.findByText('No withdrawals are Paid.')).toBeTruthy();
    await desk.user.selectOptions(screen.getByLabelText('Withdrawals by status'), 'pending');
    // A member's address applies once it is one; half of it reads nothing and says why.
    await desk.user.type(screen.getByLabelText('Member address'), member.slice(0, 20));
    expect(screen.getByText('Type 0x and 40 hex digits.')).toBeTruthy();
    await desk.user.type(screen.getByLabelText('Member address'), member.slice(20));
    await desk.user.click(screen.getByLabelText('Waiting for my approval'));
    await desk.user.selectOptions(screen.getByLabelText('Rows per page'), '100');
    await waitFor(() => expect(reads(desk.calls).at(-1)).toEqual({ status: 'pending', address: member, awaiting: 'me', limit: '100' }));
    expect(reads(desk.calls).map((query) => query.status)).toEqual(['pending', 'paid', 'pending', 'pending', 'pending', 'pending']);
    expect(reads(desk.calls).some((query) => query.address !== undefined && query.address !== member)).toBe(false);
    expect(desk.router.state.location.search).toBe(`?status=pending&address=${member}&awaiting=me&limit=100`);
  });

  it('behavior: the keyboard moves through the rows, opens one, ticks, and approves the ticked ones after Enter confirms', async () => {
    const desk = await renderQueue();
    // Nothing focused: j enters the table at its first row.
    await desk.user.keyboard('j');
    expect(document.activeElement?.textContent).toBe('#43');
    await desk.user.keyboard('j');
    await desk.user.keyboard('{ArrowDown}');
    expect(document.activeElement?.textContent).toBe('#41');
    await desk.user.keyboard('k');
    expect(document.activeElement?.textContent).toBe('#42');
    await desk.user.keyboard('{Enter}');
    expect(await screen.findByRole('article', { name: 'Withdrawal #42' })).toBeTruthy();
    expect(desk.router.state.location.search).toBe('?status=pending&id=42');
    // The open row keeps the focus: x ticks it, and Shift+X ticks all, then none, then all.
    await desk.user.keyboard('x');
    expect(screen.getByRole('button', { name: 'Approve selected (1)' })).toBeTruthy();
    await desk.user.keyboard('X');
    expect(screen.getByRole('button', { name: 'Approve selected (3)' })).toBeTruthy();
    await desk.user.keyboard('X');
    expect(screen.getByRole('button', { name: 'Approve selected (0)' })).toBeTruthy();
    await desk.user.keyboard('X');
    // a asks to approve the three; the confirmation takes the focus, and nothing is sent before Enter.
    await desk.user.keyboard('a');
    const confirm = await screen.findByRole('button', { name: 'Confirm: approve 3' });
    await waitFor(() => expect(document.activeElement).toBe(confirm));
    expect(desk.calls.some((call) => call.key === 'POST /api/admin/withdrawals/approve')).toBe(false);
    await desk.user.keyboard('{Enter}');
    expect(await screen.findByText('2 approved; 1 waits for a second approver.')).toBeTruthy();
    expect(desk.calls.filter((call) => call.key === 'POST /api/admin/withdrawals/approve').map((call) => call.body)).toEqual([{ ids: ['43', '42', '41'] }]);
    // The queue is read again and the ticks are gone.
    await waitFor(() => expect(reads(desk.calls)).toHaveLength(2));
    expect(screen.getByRole('button', { name: 'Approve selected (0)' })).toBeTruthy();
  });

  it('behavior: a with nothing ticked approves the focused row; a cancelled confirmation sends nothing', async () => {
    const desk = await renderQueue();
    await desk.user.keyboard('jj');
    await desk.user.keyboard('a');
    await desk.user.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(desk.calls.some((call) => call.key === 'POST /api/admin/withdrawals/approve')).toBe(false);
    await desk.user.click(screen.getAllByRole('button', { name: /^#41 / })[0] ?? document.body);
    await desk.user.keyboard('a');
    await desk.user.click(await screen.findByRole('button', { name: 'Confirm: approve 1' }));
    expect(await screen.findByText('0 approved; 1 waits for a second approver.')).toBeTruthy();
    expect(desk.calls.find((call) => call.key === 'POST /api/admin/withdrawals/approve')?.body).toEqual({ ids: ['41'] });
  });

  it('behavior: a paid tab has no ticks and no approval; its keys only move and open', async () => {
    const desk = await renderQueue((query) => ({ list: query.get('status') === 'paid' ? [withdrawal('40', '12', '2026-11-26T08:00:00.000Z', { status: 'paid' })] : rows, nextCursor: null, total: 1 }));
    await desk.user.selectOptions(screen.getByLabelText('Withdrawals by status'), 'paid');
    await screen.findByRole('button', { name: /^#40 / });
    expect(screen.queryByRole('checkbox', { name: 'Select all on this page' })).toBeNull();
    await desk.user.click(screen.getByRole('button', { name: /^#40 / }));
    await desk.user.keyboard('a');
    expect(screen.queryByRole('button', { name: /Confirm: approve/ })).toBeNull();
    expect(screen.getByText('Keys: ↓ or j, ↑ or k to move; Enter opens.')).toBeTruthy();
  });
});
