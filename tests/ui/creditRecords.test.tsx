/**
 * /me/credit-records through the rendered page: the paged-list machine's loading, empty, error-with-retry and
 * loaded states, each row's type, signed amount, balance after, status and local date and time (on a phone set to
 * Beijing time; tests/ui/memberClock.test.tsx compares two zones), and the type filter.
 */
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '../../src/storage/keys';
import { testDappParam, testMeInfo } from '../support/fakeApi';
import { pretendTheListEndIsInView } from './support/listEnd';
import { renderApp } from './support/renderApp';
import { inTimeZone } from './support/timeZone';

const signedIn = { [STORAGE_KEYS.token]: '"token-bound"', [STORAGE_KEYS.userInfo]: JSON.stringify(testMeInfo()) };
const pageOf = (list: unknown[], total: number) => ({ code: 0, result: { list, total, page: 1, pageSize: 20 } });
const record = (id: string, type: string, amount: string, balanceAfter: string, status: string) => ({
  id,
  type,
  amount,
  balanceAfter,
  status,
  createdAt: '2026-11-22T08:00:00.000Z',
});

describe('/me/credit-records', () => {
  inTimeZone('Asia/Shanghai');

  it('shows a skeleton, then each record with its type, signed amount, balance after, status, date and time', async () => {
    const app = await renderApp({ path: '/me/credit-records', stored: signedIn, api: (api) => api.hold('creditRecord', { once: true }) });
    expect(await screen.findByRole('heading', { level: 1, name: 'Credit records' })).toBeTruthy();
    expect(screen.getAllByRole('status').map((element) => element.textContent)).toContain('Loading…');
    (await app.api.next('creditRecord')).answer(
      pageOf(
        [
          record('3', 'withdraw', '12.5', '120.5', 'failed'),
          record('2', 'withdraw', '-12.5', '108', 'pending'),
          record('1', 'reward', '120.5', '120.5', 'done'),
        ],
        3,
      ),
    );
    await screen.findByText('Balance 108.00');
    const texts = [...document.querySelectorAll('.credit-records .adm-list-item')].map((row) => row.textContent);
    expect(texts[0]).toBe('WithdrawalBalance 120.50 · Nov 22, 2026, 16:00+12.50Failed');
    expect(texts[1]).toBe('WithdrawalBalance 108.00 · Nov 22, 2026, 16:00-12.50Waiting for approval');
    expect(texts[2]).toBe('RewardBalance 120.50 · Nov 22, 2026, 16:00+120.50Done');
    expect(app.api.callsTo('creditRecord')[0]?.query.get('type')).toBeNull();
  });

  it('asks for the next page after the last record it shows (keyset), not by offset alone', async () => {
    const restore = pretendTheListEndIsInView();
    try {
      const first = Array.from({ length: 20 }, (_, index) => record(String(100 - index), 'reward', '1', String(100 - index), 'done'));
      const app = await renderApp({
        path: '/me/credit-records',
        stored: signedIn,
        api: (api) => {
          api.answer('creditRecord', pageOf(first, 21), { once: true });
          api.answer('creditRecord', { code: 0, result: { list: [record('80', 'reward', '1', '80', 'done')], total: 21, page: 2, pageSize: 20 } });
        },
      });
      expect(await screen.findByText('No more')).toBeTruthy();
      expect(app.api.callsTo('creditRecord').map((call) => [call.query.get('page'), call.query.get('before')])).toEqual([
        ['1', null],
        ['2', '81'],
      ]);
    } finally {
      restore();
    }
  });

  it('says when there are none', async () => {
    await renderApp({ path: '/me/credit-records', stored: signedIn, api: (api) => api.answer('creditRecord', pageOf([], 0)) });
    expect(await screen.findByText('No records yet')).toBeTruthy();
  });

  it('shows the error with a retry that loads the records', async () => {
    const app = await renderApp({ path: '/me/credit-records', stored: signedIn, api: (api) => api.answer('creditRecord', { code: 5000 }, { once: true }) });
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', 'The server is busy. Please try again later.');
    app.api.answer('creditRecord', pageOf([record('1', 'reward', '5', '5', 'done')], 1));
    await app.user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Balance 5.00')).toBeTruthy();
  });

  it('filters by type: the list starts again with the type sent', async () => {
    const app = await renderApp({ path: '/me/credit-records', stored: signedIn, api: (api) => api.answer('creditRecord', pageOf([record('1', 'reward', '5', '5', 'done')], 1)) });
    const filters = await screen.findByRole('group', { name: 'Record type' });
    expect(within(filters).getAllByRole('button').map((button) => [button.textContent, button.getAttribute('aria-pressed')])).toEqual([
      ['All', 'true'],
      ['Withdrawal', 'false'],
      ['Exchange', 'false'],
      ['Order', 'false'],
      ['Reward', 'false'],
      ['Transfer', 'false'],
      ['Top-up', 'false'],
    ]);
    app.api.answer('creditRecord', pageOf([record('2', 'withdraw', '-12.5', '108', 'pending')], 1));
    await app.user.click(within(filters).getByRole('button', { name: 'Withdrawal' }));
    expect(await screen.findByText('Waiting for approval')).toBeTruthy();
    expect(within(filters).getByRole('button', { name: 'Withdrawal' }).getAttribute('aria-pressed')).toBe('true');
    expect(app.api.callsTo('creditRecord').map((call) => call.query.get('type'))).toEqual([null, 'withdraw']);
  });

  it("shows a top-up's transaction, linked to the chain's block explorer", async () => {
    const hash = `0x${'d4'.repeat(32)}`;
    await renderApp({
      path: '/me/credit-records',
      stored: signedIn,
      api: (api) => api.answer('creditRecord', pageOf([{ ...record('4', 'topUp', '25', '25', 'done'), txHash: hash }], 1)),
    });
    const link = await screen.findByRole('link', { name: `${hash.slice(0, 10)}…${hash.slice(-8)}, Transaction ${hash}` });
    expect(link.textContent).toBe('0xd4d4d4d4…d4d4d4d4');
    expect(link.getAttribute('href')).toBe(`${testDappParam.chain.blockExplorerUrls?.[0] ?? ''}/tx/${hash}`);
    expect(document.querySelector('.credit-records .adm-list-item')?.textContent).toContain('Top-up');
  });
});
