/**
 * Dates on the member's own clock: the credit, WPOS and profit records show the date and time of a known
 * instant in the phone's time zone, in en and zh, and the withdrawal sheet says when the daily cap (a UTC day on the
 * server, docs/API.md "Money") starts again, in that zone. Each block sets the runtime's zone
 * (tests/ui/support/timeZone.ts).
 */
import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '../../src/storage/keys';
import { testMeInfo } from '../support/fakeApi';
import { renderApp } from './support/renderApp';
import type { RenderedApp } from './support/renderApp';
import { inTimeZone } from './support/timeZone';

const member = { ...testMeInfo(), creditBalance: '120', wposBalance: '30' };
const signedIn = { [STORAGE_KEYS.token]: '"token-bound"', [STORAGE_KEYS.userInfo]: JSON.stringify(member) };
// A top-up late in the UTC evening: the next morning in Beijing, the same evening in New York.
const lateUtc = '2026-11-22T23:30:00.000Z';
const pageOf = (list: unknown[]) => ({ code: 0, result: { list, total: list.length, page: 1, pageSize: 20 } });

const zhFiles = import.meta.glob<Record<string, unknown>>('../../locales/zh/*.json', { eager: true, import: 'default' });

/** Switches the rendered app to zh, with the bundled zh texts (the harness bundles en only). */
async function inChinese(app: RenderedApp): Promise<void> {
  for (const [file, texts] of Object.entries(zhFiles)) app.i18n.addResourceBundle('zh', /([^/]+)\.json$/.exec(file)?.[1] ?? file, texts);
  await act(() => app.i18n.changeLanguage('zh'));
}

const rowTexts = () => [...document.querySelectorAll('.credit-records .adm-list-item .row-date')].map((date) => date.textContent);

const zones = [
  { zone: 'Asia/Shanghai', en: 'Nov 23, 2026, 07:30', zh: '2026年11月23日 07:30', reset: '08:00' },
  { zone: 'America/New_York', en: 'Nov 22, 2026, 18:30', zh: '2026年11月22日 18:30', reset: '19:00' },
] as const;

describe.each(zones)('on a phone set to $zone', ({ zone, en, zh, reset }) => {
  inTimeZone(zone);
  afterEach(() => {
    vi.useRealTimers();
  });

  it(`shows a credit record of ${lateUtc} at ${en}`, async () => {
    const app = await renderApp({
      path: '/me/credit-records',
      stored: signedIn,
      api: (api) => api.answer('creditRecord', pageOf([{ id: '1', type: 'topUp', amount: '25', balanceAfter: '25', status: 'done', createdAt: lateUtc }])),
    });
    await screen.findByText('Balance 25.00');
    expect(rowTexts()).toEqual([` · ${en}`]);
    await inChinese(app);
    expect(rowTexts()).toEqual([` · ${zh}`]);
  });

  it('shows WPOS and profit records at the same local time', async () => {
    const wpos = await renderApp({
      path: '/me/wpos',
      stored: signedIn,
      api: (api) => {
        api.answer('getSharePools', { code: 0, result: { list: [] } });
        api.answer('wposRecord', pageOf([{ id: '1', type: 'distribution', amount: '1.25', balanceAfter: '30', createdAt: lateUtc }]));
      },
    });
    await screen.findByText('Balance 30.00');
    expect(rowTexts()).toEqual([` · ${en}`]);
    await inChinese(wpos);
    expect(rowTexts()).toEqual([` · ${zh}`]);
    wpos.unmount();

    await renderApp({
      path: '/me/wpos/profit',
      stored: signedIn,
      api: (api) => api.answer('wposProfit', { code: 0, result: { ...pageOf([{ id: '9', amount: '1.25', source: 'Starter', createdAt: lateUtc }]).result, totalProfit: '1.25', todayProfit: '0' } }),
    });
    await screen.findByText('Starter');
    expect(rowTexts()).toEqual([en]);
  });

  it(`says on the withdrawal sheet that the daily limit resets at ${reset}`, async () => {
    // Only Date is faked: the sheet reads the time when it shows the limits.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.parse('2026-11-23T02:00:00.000Z'));
    const app = await renderApp({ path: '/me?sheet=withdraw', stored: signedIn, api: (api) => api.answer('meInfo', { code: 0, result: member }) });
    const field = await screen.findByLabelText('Amount (CREDIT)');
    const hint = () => document.getElementById(field.getAttribute('aria-describedby') ?? '')?.textContent;
    expect(hint()).toBe(`10.00 to 10,000.00 each time, up to 50,000.00 a day. The daily limit resets at ${reset} (your time).`);
    await inChinese(app);
    expect(hint()).toBe(`单笔 10.00 至 10,000.00，每日最多 50,000.00；每日额度于本地时间 ${reset} 重置`);
  });
});
