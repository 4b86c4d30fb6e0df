/**
 * The visual check's screens and its tests: each screen in a language, light and dark, on a
 * 375×812 phone at 2×, must not overflow sideways, must have touch targets at least 44 CSS px tall, must have no
 * serious or critical axe-core violation (contrast included), and must load under the server's real CSP without a
 * violation or an uncaught error. A failure lists every offender; test-results/visual/report-<lng>.txt gathers all
 * of them by check, and a screen that fails is saved 375 px wide as test-results/visual/<screen>.<lng>.<scheme>.png
 * (every screen with VISUAL_SCREENSHOTS=1). One spec file per language (visual.zh.spec.ts, visual.en.spec.ts), so
 * CI's two workers share the longest part of the suite.
 *
 * A new screen joins by adding one row to `screens`.
 */
import { describe, it } from 'vitest';
import { ANDROID_CHROME } from './browser';
import { waitForAppConfig } from './journey';
import { expectClean, inSessionOrder, setupVisual, translate } from './visual';
import type { Lng, VisualScreen } from './visual';

const unsupported = { code: 4200, message: 'The Provider does not support the requested method.' };

const lateUtc = '2026-11-22T23:30:00.000Z';
const creditRecordsPage = {
  code: 0,
  result: {
    list: [
      { id: '3', type: 'withdraw', amount: '1234567.5', balanceAfter: '9876543.21', status: 'failed', reason: 'reverted', txHash: `0x${'d4'.repeat(32)}`, createdAt: lateUtc },
      { id: '2', type: 'withdraw', amount: '-1234567.5', balanceAfter: '8641975.71', status: 'pending', createdAt: lateUtc },
      { id: '1', type: 'topUp', amount: '9876543.21', balanceAfter: '9876543.21', status: 'done', txHash: `0x${'e5'.repeat(32)}`, createdAt: lateUtc },
    ],
    total: 3,
    page: 1,
    pageSize: 20,
  },
};

const pageOf = (list: readonly object[], extra: object = {}) => ({ code: 0, result: { list, total: list.length, page: 1, pageSize: 20, ...extra } });
const wposRecordsPage = pageOf([
  { id: '2', type: 'transfer', amount: '-1234567.5', balanceAfter: '9876543.21', counterparty: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', createdAt: lateUtc },
  { id: '1', type: 'distribution', amount: '1234567.5', balanceAfter: '11111110.71', createdAt: lateUtc },
]);
const wposProfitPage = pageOf([{ id: '1', amount: '1234567.5', source: 'Starter', createdAt: lateUtc }], { totalProfit: '1234567.5', todayProfit: '0' });

/** Every built screen, with the session it needs (the seeded invite code is DEMO2026). */
export const screens: readonly VisualScreen[] = [
  { name: 'login', path: '/login', session: 'none' },
  { name: 'login-invite', path: '/login/DEMO2026', session: 'none' },
  // A wallet that cannot switch chains (imToken before 2.10): the member is asked to switch by hand.
  {
    name: 'wallet-manual-switch',
    path: '/login/DEMO2026',
    session: 'none',
    own: {
      wallet: { chainId: 1 },
      prepare: (wallet) => wallet.failAlways('wallet_switchEthereumChain', unsupported).failAlways('wallet_addEthereumChain', unsupported),
      reach: async (page, lng) => {
        await waitForAppConfig(page);
        await page.getByRole('button', { name: translate(lng, 'common:wallet.actions.connect'), exact: true }).click();
        await page.getByRole('button', { name: translate(lng, 'common:wallet.actions.notNow'), exact: true }).waitFor();
      },
    },
  },
  // A phone browser without a wallet: the invite link can be opened in a wallet app, or copied.
  {
    name: 'open-in-wallet',
    path: '/login/DEMO2026',
    session: 'none',
    own: {
      wallet: null,
      userAgent: ANDROID_CHROME,
      reach: async (page, lng) => {
        await page.getByRole('region', { name: translate(lng, 'common:wallet.openIn.title') }).waitFor();
      },
    },
  },
  { name: 'register', path: '/register', session: 'temporary' },
  { name: 'home', path: '/home', session: 'member' },
  { name: 'me', path: '/me', session: 'member' },
  { name: 'invitation', path: '/me/invitation', session: 'member' },
  { name: 'team', path: '/team', session: 'member' },
  { name: 'team-search', path: '/team/search', session: 'member' },
  { name: 'announcements', path: '/me/announcement', session: 'member' },
  { name: 'announcement-detail', path: '/me/announcement/detail/member-handbook', session: 'member' },
  { name: 'announcement-missing', path: '/me/announcement/detail/no-such-notice', session: 'member' },
  { name: 'about', path: '/me/about', session: 'member' },
  { name: 'bots', path: '/me/solbot-list', session: 'member' },
  { name: 'credit-records', path: '/me/credit-records', session: 'member' },
  // Rows as wide as they get: large amounts, the status, the date and time on the member's clock, a reason.
  { name: 'credit-records-rows', path: '/me/credit-records', session: 'member', answered: { '/api/member/creditRecord': creditRecordsPage } },
  // The withdrawal and top-up sheets open over /me: their open state is in the URL.
  { name: 'withdraw-sheet', path: '/me?sheet=withdraw', session: 'member' },
  { name: 'top-up-sheet', path: '/me?sheet=topUp', session: 'member' },
  // The WPOS area, and its two sheets open over it.
  { name: 'wpos', path: '/me/wpos', session: 'member' },
  { name: 'wpos-profit', path: '/me/wpos/profit', session: 'member' },
  // The WPOS and profit records with rows, as wide as they get (their date and time).
  { name: 'wpos-rows', path: '/me/wpos', session: 'member', answered: { '/api/member/wposRecord': wposRecordsPage } },
  { name: 'wpos-profit-rows', path: '/me/wpos/profit', session: 'member', answered: { '/api/member/wposProfit': wposProfitPage } },
  { name: 'transfer-sheet', path: '/me/wpos?sheet=transfer', session: 'member' },
  { name: 'exchange-sheet', path: '/me/wpos?sheet=exchange', session: 'member' },
  // The shop: goods (one sold out once the journeys buy it; here all in stock) and the member's orders (none yet).
  { name: 'buy-list', path: '/buy-list', session: 'member' },
  { name: 'buy-orders', path: '/buy-list?tab=orders', session: 'member' },
  // The address book (empty), a new address, an address that is not the member's, checkout with no address yet.
  { name: 'address-book', path: '/buy/shipping-address', session: 'member' },
  { name: 'address-add', path: '/buy/shipping-address/add', session: 'member' },
  { name: 'address-missing', path: '/buy/shipping-address/edit/999999', session: 'member' },
  { name: 'settlement', path: '/buy/settlement/longjing-tea', session: 'member' },
  { name: 'settlement-no-goods', path: '/buy/settlement', session: 'member' },
  // The shop's screens when the connection drops: each says so and offers to try again.
  { name: 'buy-list-error', path: '/buy-list', session: 'member', failing: ['/api/goods/list'] },
  { name: 'buy-orders-error', path: '/buy-list?tab=orders', session: 'member', failing: ['/api/order/list'] },
  { name: 'address-book-error', path: '/buy/shipping-address', session: 'member', failing: ['/api/member/delivery/list'] },
  { name: 'settlement-error', path: '/buy/settlement/longjing-tea', session: 'member', failing: ['/api/goods/detail'] },
  { name: 'not-found', path: '/no-such-page', session: 'member' },
];

/**
 * The visual check of every screen in one language, light and dark: one server, one Chromium and one phone context
 * for the file; each screen opened once and checked in both schemes.
 *
 * @example describeScreensIn('zh');
 */
export function describeScreensIn(lng: Lng): void {
  const visual = setupVisual(lng);
  // Test names read "screens in zh > login (/login)"; scripts/screenshots.ts picks tests by them.
  describe(`screens in ${lng}`, () => {
    const session = visual.session(lng);
    for (const screen of inSessionOrder(screens)) {
      it(`${screen.name} (${screen.path})`, async () => {
        expectClean(await session.check(screen));
      });
    }
  });
}
