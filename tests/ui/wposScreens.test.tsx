/**
 * The WPOS screens' own states through the rendered pages: the share pools (loading, error with retry, empty, loaded
 * with a countdown that follows the clock), the WPOS records with the other member of a transfer, /me/wpos/profit's
 * totals and records, and the transfer sheet's team list (its error and retry, the picker, each recipient error).
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stranger, teamMembers, wrongChecksum } from '../../scripts/machineGraph/transfer.model';
import { STORAGE_KEYS } from '../../src/storage/keys';
import { testMeInfo } from '../support/fakeApi';
import { pretendTheListEndIsInView } from './support/listEnd';
import { renderApp } from './support/renderApp';
import { expectAlert, translated } from './support/screenQueries';

const member = { ...testMeInfo(), wposBalance: '30' };
const signedIn = { [STORAGE_KEYS.token]: '"token-bound"', [STORAGE_KEYS.userInfo]: JSON.stringify(member) };
const emptyPage = { list: [], total: 0, page: 1, pageSize: 20 };
const pool = (id: string, name: string, nextDistributionAt: string) => ({ id, name, totalAmount: '1000', minHolding: '1', myShare: '12.5', nextDistributionAt });

afterEach(() => {
  vi.useRealTimers();
});

describe('/me/wpos', () => {
  it('shows both balances, the entries, and the pools after their loading, failure and retry', async () => {
    const app = await renderApp({
      path: '/me/wpos',
      stored: signedIn,
      api: (api) => {
        api.answer('meInfo', { code: 0, result: member });
        api.hold('getSharePools', { once: true });
        api.answer('wposRecord', { code: 0, result: emptyPage });
      },
    });
    const t = translated(app);
    await screen.findByRole('heading', { level: 1, name: 'WPOS' });
    const balances = screen.getByRole('region', { name: t('wpos:balances.title') });
    expect(within(balances).getByText('30.00')).toBeTruthy();
    const entries = screen.getByRole('navigation', { name: t('wpos:entries.label') });
    expect(within(entries).getByRole('link', { name: t('wpos:entries.profit') }).getAttribute('href')).toBe('/me/wpos/profit');
    const pools = screen.getByRole('region', { name: t('wpos:pools.title') });
    expect(within(pools).getAllByRole('status').map((element) => element.textContent)).toContain(t('wpos:pools.loading'));
    (await app.api.next('getSharePools')).failNetwork();
    expect((await within(pools).findByRole('alert')).textContent).toBe(t('common:Common.-1'));
    app.api.answer('getSharePools', { code: 0, result: { list: [pool('1', 'Starter', '2030-01-01T00:00:00.000Z')] } });
    await app.user.click(within(pools).getByRole('button', { name: t('common:actions.retry') }));
    const card = await within(pools).findByRole('listitem', { name: 'Starter' });
    expect(within(card).getByText(t('wpos:pools.myShare')).nextSibling?.textContent).toBe('12.50 WPOS');
    expect(within(card).getByText(t('wpos:pools.minHolding')).nextSibling?.textContent).toBe('1.00 WPOS');
    expect(await screen.findByText(t('wpos:records.empty'))).toBeTruthy();
  });

  it('counts down to the next payout from the clock, and reads the pools again once it is due', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, now: Date.parse('2026-11-24T23:59:50.000Z') });
    const app = await renderApp({
      path: '/me/wpos',
      stored: signedIn,
      api: (api) => {
        api.answer('getSharePools', { code: 0, result: { list: [pool('1', 'Starter', '2026-11-25T00:00:00.000Z')] } });
        api.answer('wposRecord', { code: 0, result: emptyPage });
      },
    });
    const t = translated(app);
    const card = await screen.findByRole('listitem', { name: 'Starter' });
    expect(within(card).getByText(t('wpos:pools.next')).nextSibling?.textContent).toMatch(/^00:00:(10|09)$/);
    // A phone that slept for 8 s: the countdown is read from the clock, not counted down by the timer.
    vi.setSystemTime(Date.parse('2026-11-24T23:59:58.000Z'));
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(within(card).getByText(t('wpos:pools.next')).nextSibling?.textContent).toMatch(/^00:00:0[01]$/);
    app.api.answer('getSharePools', { code: 0, result: { list: [pool('1', 'Starter', '2026-11-26T00:00:00.000Z')] } });
    await act(() => vi.advanceTimersByTimeAsync(2000));
    expect(within(card).getByText(t('wpos:pools.next')).nextSibling?.textContent).toBe(t('wpos:pools.due'));
    // A few seconds after the payout the pools are read again, with the next one.
    await act(() => vi.advanceTimersByTimeAsync(6000));
    await waitFor(() => expect(app.api.callsTo('getSharePools')).toHaveLength(2));
    const next = await screen.findByRole('listitem', { name: 'Starter' });
    await waitFor(() => expect(within(next).getByText(t('wpos:pools.next')).nextSibling?.textContent).toMatch(/^2[34]:5\d:\d\d$/));
  });

  it('says when there are no pools, and lists records with the other member of a transfer', async () => {
    const records = [
      { id: '3', type: 'transfer', amount: '-2.5', balanceAfter: '27.5', counterparty: teamMembers[0], createdAt: '2026-11-24T10:00:00.000Z' },
      { id: '2', type: 'distribution', amount: '1.25', balanceAfter: '30', createdAt: '2026-11-24T00:00:01.000Z' },
    ];
    const app = await renderApp({
      path: '/me/wpos',
      stored: signedIn,
      api: (api) => {
        api.answer('getSharePools', { code: 0, result: { list: [] } });
        api.answer('wposRecord', { code: 0, result: { list: records, total: 2, page: 1, pageSize: 20 } });
      },
    });
    const t = translated(app);
    expect(await screen.findByText(t('wpos:pools.empty'))).toBeTruthy();
    expect(await screen.findByText(/To 0x5aAe…eAed/)).toBeTruthy();
    expect(screen.getAllByText(t('wpos:records.type.distribution'))).toHaveLength(2);
    const filters = screen.getByRole('group', { name: t('wpos:records.filter.label') });
    await app.user.click(within(filters).getByRole('button', { name: t('wpos:records.type.transfer') }));
    await waitFor(() => expect(app.api.callsTo('wposRecord').at(-1)?.query.get('type')).toBe('transfer'));
  });
});

describe('/me/wpos/profit', () => {
  it('shows the totals and the records by pool, or says there is no profit yet', async () => {
    const list = [{ id: '9', amount: '1.25', source: 'Starter', createdAt: '2026-11-24T00:00:01.000Z' }];
    const app = await renderApp({
      path: '/me/wpos/profit',
      stored: signedIn,
      api: (api) => api.answer('wposProfit', { code: 0, result: { list, total: 1, page: 1, pageSize: 20, totalProfit: '3.75', todayProfit: '1.25' } }),
    });
    const t = translated(app);
    await screen.findByRole('heading', { level: 1, name: t('wpos:profit.title') });
    expect((await screen.findByText(t('wpos:profit.total'))).nextSibling?.textContent).toBe('3.75 WPOS');
    expect(screen.getByText(t('wpos:profit.today')).nextSibling?.textContent).toBe('1.25 WPOS');
    expect(await screen.findByText('Starter')).toBeTruthy();
  });

  it('asks for the next page of profit after the last record it shows (keyset)', async () => {
    const restore = pretendTheListEndIsInView();
    try {
      const profitOf = (id: number) => ({ id: String(id), amount: '1', source: 'Starter', createdAt: '2026-11-24T00:00:01.000Z' });
      const first = { code: 0, result: { list: Array.from({ length: 20 }, (_, index) => profitOf(100 - index)), total: 21, page: 1, pageSize: 20, totalProfit: '21', todayProfit: '1' } };
      const app = await renderApp({
        path: '/me/wpos/profit',
        stored: signedIn,
        api: (api) => {
          // The totals card and the list each read a first page.
          api.answer('wposProfit', first, { once: true });
          api.answer('wposProfit', first, { once: true });
          api.answer('wposProfit', { code: 0, result: { list: [profitOf(80)], total: 21, page: 2, pageSize: 20, totalProfit: '21', todayProfit: '1' } });
        },
      });
      const t = translated(app);
      expect(await screen.findByText(t('common:list.noMore'))).toBeTruthy();
      const listCalls = app.api.callsTo('wposProfit').filter((call) => call.query.get('pageSize') === '20');
      expect(listCalls.map((call) => [call.query.get('page'), call.query.get('before')])).toEqual([
        ['1', null],
        ['2', '81'],
      ]);
    } finally {
      restore();
    }
  });

  it('shows an error with a retry for the totals and the list, then the empty list', async () => {
    const app = await renderApp({ path: '/me/wpos/profit', stored: signedIn, api: (api) => api.failNetwork('wposProfit') });
    const t = translated(app);
    await waitFor(() => expect(screen.getAllByRole('button', { name: t('common:actions.retry') })).toHaveLength(2));
    app.api.answer('wposProfit', { code: 0, result: { ...emptyPage, totalProfit: '0', todayProfit: '0' } });
    for (const retry of screen.getAllByRole('button', { name: t('common:actions.retry') })) await app.user.click(retry);
    expect(await screen.findByText(t('wpos:profit.empty'))).toBeTruthy();
    expect((await screen.findByText(t('wpos:profit.total'))).nextSibling?.textContent).toBe('0.00 WPOS');
  });
});

describe('/me/wpos?sheet=transfer', () => {
  it('loads the team first (with its error and retry), then picks a member and checks each recipient as typed', async () => {
    const app = await renderApp({
      path: '/me/wpos?sheet=transfer',
      stored: signedIn,
      api: (api) => {
        api.answer('getSharePools', { code: 0, result: { list: [] } });
        api.answer('wposRecord', { code: 0, result: emptyPage });
        api.failNetwork('getRentValidBindMemberAddress', { once: true });
        api.answer('getRentValidBindMemberAddress', { code: 0, result: { list: [...teamMembers] } });
      },
    });
    const t = translated(app);
    const sheet = await screen.findByRole('dialog', { name: t('wpos:transfer.title') });
    expect(await within(sheet).findByText(t('wpos:transfer.loadFailed'))).toBeTruthy();
    await app.user.click(within(sheet).getByRole('button', { name: t('common:actions.retry') }));
    const field = await within(sheet).findByLabelText<HTMLInputElement>(t('wpos:transfer.recipient.label'));
    const picker = within(sheet).getByRole('region', { name: t('wpos:transfer.recipient.pick') });
    expect(within(picker).getAllByRole('button')).toHaveLength(2);
    await app.user.click(within(picker).getByRole('button', { name: /0xfB69/ }));
    expect(field.value).toBe(teamMembers[1]);
    expect(within(sheet).queryByRole('region', { name: t('wpos:transfer.recipient.pick') })).toBeNull();
    for (const [value, error] of [
      ['0x12', 'format'],
      [wrongChecksum, 'checksum'],
      [member.address, 'self'],
      [stranger, 'notInTeam'],
    ] as const) {
      await app.user.clear(field);
      await app.user.type(field, value);
      expectAlert(t(`wpos:transfer.recipient.errors.${error}`));
      expect(field.getAttribute('aria-invalid')).toBe('true');
    }
    expect(app.api.callsTo('transferWpos')).toEqual([]);
  });
});
