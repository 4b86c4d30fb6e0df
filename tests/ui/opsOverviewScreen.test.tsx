/**
 * The desk's overview (src/ops/screens/overview.tsx) over a fake API: each role sees its part with links to the
 * screen where it acts, the money of 30 days as a chart with its table, and a failed read says so with a retry.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { quietOverview, renderDesk } from './support/renderDesk';

const days = Array.from({ length: 30 }, (_, index) => ({ day: `2026-11-${String(index + 1).padStart(2, '0')}`, in: index === 29 ? '1250.5' : '0', out: index === 29 ? '11' : '0' }));
const busy = {
  ...quietOverview,
  money: { days, total: { in: '1250.5', out: '11' } },
  withdrawals: {
    pending: { count: 3, oldestAgeSeconds: 7_200 },
    approved: { count: 1, oldestAgeSeconds: 30 },
    sent: { count: 0, oldestAgeSeconds: 0 },
    approvalsWaiting: { count: 1, oldestAgeSeconds: 600 },
    heldTopUps: { count: 1, amount: '12' },
  },
  runway: { token: '89', gasWei: '1000000000000000', tokenDays: 56.6, gasDays: null },
  alerts: [{ id: '1', rule: 'PayerWaiting', severity: 'warning', summary: 'The payer waits', description: 'x', startedAt: '2026-11-27T09:00:00.000Z', endedAt: null }],
};

describe('the desk: overview', { timeout: 15_000 }, () => {
  it('behavior: finance sees what waits and for how long, each figure linking to where it is acted on', async () => {
    await renderDesk({ path: '/ops', signedInAs: { roles: ['finance'] }, handlers: { 'GET /api/admin/overview': () => ({ code: 0, result: busy }) } });
    const figures = await screen.findByRole('list', { name: 'Figures of the day' });
    const tile = (name: string) => within(figures).getByRole('link', { name: new RegExp(name) });
    expect(tile('Withdrawals to approve').getAttribute('href')).toBe('/ops/withdrawals?status=pending');
    expect(tile('Withdrawals to approve').textContent).toContain('3');
    expect(tile('Withdrawals to approve').textContent).toContain('oldest waits 2 hr');
    expect(tile('Waiting for a second approver').textContent).toContain('10 min');
    expect(tile('Approved, to the payer').getAttribute('href')).toBe('/ops/withdrawals?status=approved');
    expect(tile('Held top-ups').getAttribute('href')).toBe('/ops/top-ups');
    expect(tile('Hot wallet runway').textContent).toContain('56.6 days of payouts');
    expect(tile('Hot wallet runway').textContent).toContain('no payouts this week');
    expect(tile('Alerts firing').textContent).toContain('1');
    expect(tile('Reconcile').textContent).toContain('5 min ago');
    // Orders are support's: not here.
    expect(within(figures).queryByRole('link', { name: /Orders to ship/ })).toBeNull();
    const money = screen.getByRole('region', { name: 'Money across the chain, last 30 days (UTC)' });
    expect(within(money).getByRole('img', { name: /last 30 days/ })).toBeTruthy();
    const rows = within(money).getAllByRole('row');
    expect(rows).toHaveLength(31);
    expect(rows.at(-1)?.textContent).toBe('2026-11-301,250.5011.00');
  });

  it('behavior: support sees the orders to ship and no money; a failed read says so and reads again', async () => {
    const answers = [{ code: 5000 }, { code: 0, result: { ...quietOverview, orders: { toShip: { count: 2, oldestAgeSeconds: 90_000 } } } }];
    const desk = await renderDesk({ path: '/ops/overview', signedInAs: { roles: ['support'] }, handlers: { 'GET /api/admin/overview': () => answers.shift() ?? { code: 5000 } } });
    await desk.user.click(await screen.findByRole('button', { name: 'Try again' }));
    const figures = await screen.findByRole('list', { name: 'Figures of the day' });
    const toShip = within(figures).getByRole('link', { name: /Orders to ship/ });
    expect(toShip.getAttribute('href')).toBe('/ops/orders?status=paid');
    expect(toShip.textContent).toContain('1 day');
    expect(within(figures).queryByRole('link', { name: /Withdrawals to approve/ })).toBeNull();
    expect(screen.queryByRole('region', { name: /Money across the chain/ })).toBeNull();
    await waitFor(() => expect(desk.calls.filter((call) => call.key === 'GET /api/admin/overview')).toHaveLength(2));
  });
});
