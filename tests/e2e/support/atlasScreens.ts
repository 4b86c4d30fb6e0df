/**
 * The atlas' screenshots: the screens scripts/atlas/screens.ts names, taken in Chromium at 375 px in a
 * language by the visual check's harness (real server, test wallet), so `npm run atlas` can make them small and keep
 * them. Most are screens of the visual check (visualScreens.ts); the rows here reach the states it does not: the
 * wallet connected, the wallet refusing to switch networks, a list whose call drops, a withdrawal whose call drops,
 * goods whose last unit sold.
 *
 * Run only by `npm run atlas` (ATLAS_SHOTS=1): npm test checks the kept screenshots exist, it does not take them.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { shotsInUse } from '../../../scripts/atlas/screens';
import { DEMO_OPERATOR_KEY } from '../../../server/ops/demoOperator';
import { TEST_NODE_CHAIN_ID } from '../../server/support/testChain';
import { anvilKeys } from './wallet/anvilKeys';
import type { TestWallet } from './wallet/testWallet';
import { waitForAppConfig } from './journey';
import { treasuryHeaders } from '../../support/treasury';
import { inSessionOrder, setupVisual, translate } from './visual';
import type { Lng, VisualHarness, VisualScreen } from './visual';
import { screens as visualScreens } from './visualScreens';
import { deskScreens } from './visualDeskScreens';

const rejected = { code: 4001, message: 'User rejected the request.' };

/** Connect, then sign in through the invite link, as a member does: the app lands on /home. */
async function signIn(page: Page, lng: Lng): Promise<void> {
  await page.goto('/login/DEMO2026');
  await waitForAppConfig(page);
  await page.getByRole('button', { name: translate(lng, 'common:wallet.actions.connect'), exact: true }).click();
  await page.getByRole('button', { name: translate(lng, 'login:signIn.label'), exact: true }).click();
  await page.waitForURL((url) => url.pathname === '/home');
}

/** A grant of credit to the address by the test treasury (the harness' server is started with it). */
async function grantCredit(harness: VisualHarness, address: string, amount: string): Promise<void> {
  const response = await fetch(`${harness.server.url}/api/admin/grant`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...treasuryHeaders() },
    body: JSON.stringify({ address, asset: 'CREDIT', amount, requestId: randomUUID() }),
  });
  expect(((await response.json()) as { code: number }).code).toBe(0);
}

/** A member call from the page, with the page's own token, answered with the envelope's result. */
async function callAsMember<T>(page: Page, url: string, body: unknown): Promise<T> {
  return page.evaluate(
    async ({ url, body }) => {
      const token = (window.localStorage.getItem('TOKEN_STORE') ?? '').replaceAll('"', '');
      const response = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: token }, body: JSON.stringify(body) });
      const answer = (await response.json()) as { code: number; result: unknown };
      if (answer.code !== 0) throw new Error(`${url} answered ${answer.code}`);
      return answer.result;
    },
    { url, body },
  ) as Promise<T>;
}

/** A shipping address as the server takes it (the server tests' own). */
const shippingAddress = { name: '李雷', phone: '138 0013 8000', region: '浙江省 / 杭州市 / 西湖区', detail: '文三路 100 号', isDefault: true };

/** Opens the withdrawal sheet over /me, types 12.5 and goes on to the summary. */
async function openWithdrawal(page: Page, lng: Lng) {
  await page.goto('/me?sheet=withdraw');
  const sheet = page.getByRole('dialog', { name: translate(lng, 'credit:withdraw.title') });
  await sheet.getByLabel(translate(lng, 'credit:withdraw.amount.label')).fill('12.5');
  await sheet.getByRole('button', { name: translate(lng, 'credit:withdraw.next'), exact: true }).click();
  return sheet;
}

/**
 * The desk's screens (tests/e2e/support/visualDeskScreens.ts) on a phone of their own with the seed's demo operator's
 * wallet (docs/operations.md, "Operators"): the sign-in as it first shows, the others after signing in at /ops.
 */
function deskShots(harness: VisualHarness): VisualScreen[] {
  const wallet = () => ({ chainId: TEST_NODE_CHAIN_ID, privateKeys: [DEMO_OPERATOR_KEY], ...(harness.server.chain ? { rpcUrl: harness.server.chain.node.url } : {}) });
  const signInButton = (page: Page, lng: Lng) => page.getByRole('button', { name: translate(lng, 'ops:signIn.action'), exact: true });
  const signIn: VisualScreen = {
    name: 'ops-sign-in',
    path: '/ops',
    session: 'none',
    own: {
      get wallet() {
        return wallet();
      },
      reach: async (page, lng) => {
        await signInButton(page, lng).or(page.getByRole('button', { name: translate(lng, 'common:wallet.actions.connect'), exact: true })).first().waitFor();
      },
    },
  };
  const screens = deskScreens.map(
    (screen): VisualScreen => ({
      name: screen.name,
      path: '/ops',
      expectPath: new URL(screen.path, 'http://x').pathname,
      session: 'none',
      own: {
        get wallet() {
          return wallet();
        },
        reach: async (page, lng) => {
          const connect = page.getByRole('button', { name: translate(lng, 'common:wallet.actions.connect'), exact: true });
          await signInButton(page, lng).or(connect).first().waitFor();
          if (await connect.isVisible()) await connect.click();
          await signInButton(page, lng).click();
          await page.getByRole('navigation', { name: translate(lng, 'ops:shell.menu') }).waitFor();
          const answers = screen.answered ?? {};
          await page.route(
            (url) => Object.hasOwn(answers, url.pathname),
            (route) => route.fulfill({ json: answers[new URL(route.request().url()).pathname] }),
          );
          await page.goto(screen.path);
        },
      },
    }),
  );
  return [signIn, ...screens];
}

/** The atlas' own screens, for one harness (their journeys call its server). */
function atlasScreens(harness: VisualHarness): VisualScreen[] {
  let wallet: TestWallet | null = null;
  const keep = (w: TestWallet) => {
    wallet = w;
  };
  const address = () => {
    if (!wallet) throw new Error('the screen needs its wallet');
    return wallet.address;
  };
  /**
   * A screen a member reaches after signing in from the invite link with a wallet of their own (one of anvil's keys, on
   * the app's chain); with keepWallet, `address()` is that wallet's.
   */
  const memberScreen = (name: string, key: (typeof anvilKeys)[number], options: { keepWallet?: boolean }, reach: (page: Page, lng: Lng) => Promise<void>): VisualScreen => ({
    name,
    path: '/login/DEMO2026',
    session: 'none',
    own: {
      wallet: { chainId: 56, privateKeys: [key] },
      ...(options.keepWallet ? { prepare: keep } : {}),
      reach: async (page, lng) => {
        await signIn(page, lng);
        await reach(page, lng);
      },
    },
  });
  return [
    {
      name: 'login-connected',
      path: '/login/DEMO2026',
      session: 'none',
      own: {
        wallet: { chainId: 56, privateKeys: [anvilKeys[5]] },
        reach: async (page, lng) => {
          await waitForAppConfig(page);
          await page.getByRole('button', { name: translate(lng, 'common:wallet.actions.connect'), exact: true }).click();
          await page.getByRole('button', { name: translate(lng, 'login:signIn.label'), exact: true }).waitFor();
        },
      },
    },
    {
      name: 'wallet-switch-refused',
      path: '/login/DEMO2026',
      session: 'none',
      own: {
        wallet: { chainId: 1, privateKeys: [anvilKeys[5]] },
        prepare: (w) => w.failAlways('wallet_switchEthereumChain', rejected),
        reach: async (page, lng) => {
          await waitForAppConfig(page);
          await page.getByRole('button', { name: translate(lng, 'common:wallet.actions.connect'), exact: true }).click();
          await page.getByText(translate(lng, 'common:wallet.errors.UserRejectedError')).first().waitFor();
        },
      },
    },
    { name: 'announcements-error', path: '/me/announcement', session: 'member', failing: ['/api/dapp/queryPagePlatformNotice'] },
    { name: 'announcement-detail-error', path: '/me/announcement/detail/member-handbook', session: 'member', failing: ['/api/dapp/noticeDetail'] },
    { name: 'home-profile-failed', path: '/home', session: 'member', failing: ['/api/member/meInfo'] },
    { name: 'settlement-goods-not-found', path: '/buy/settlement/no-such-goods', session: 'member' },
    memberScreen('team-search-no-match', anvilKeys[8], {}, async (page, lng) => {
      await page.goto('/team/search');
      await page.getByRole('searchbox').or(page.getByPlaceholder(translate(lng, 'team:search.placeholder'))).first().fill('0xabcdef');
      await page.getByText(translate(lng, 'team:search.noMatch')).first().waitFor();
    }),
    memberScreen('withdraw-summary', anvilKeys[6], { keepWallet: true }, async (page, lng) => {
      await grantCredit(harness, address(), '100');
      const sheet = await openWithdrawal(page, lng);
      await sheet.getByRole('button', { name: translate(lng, 'credit:withdraw.confirm.submit'), exact: true }).waitFor();
    }),
    memberScreen('withdraw-done', anvilKeys[6], { keepWallet: true }, async (page, lng) => {
      const sheet = await openWithdrawal(page, lng);
      await sheet.getByRole('button', { name: translate(lng, 'credit:withdraw.confirm.submit'), exact: true }).click();
      await sheet.getByText(translate(lng, 'credit:withdraw.done.title')).first().waitFor();
    }),
    memberScreen('address-book-loaded', anvilKeys[9], {}, async (page) => {
      await callAsMember(page, '/api/member/delivery/add', shippingAddress);
      await page.goto('/buy/shipping-address');
      await page.getByText(shippingAddress.detail).first().waitFor();
    }),
    memberScreen('settlement-paid', anvilKeys[9], { keepWallet: true }, async (page, lng) => {
      // Granted after sign-in: the settlement reads the balance itself, not the session's stored one.
      await grantCredit(harness, address(), '500');
      await callAsMember(page, '/api/member/delivery/add', shippingAddress);
      await page.goto('/buy/settlement/longjing-tea');
      await page.getByText(shippingAddress.detail).first().waitFor();
      await page.getByRole('button', { name: translate(lng, 'buy:settlement.pay'), exact: true }).click();
      await page.getByRole('region', { name: translate(lng, 'buy:settlement.paid') }).waitFor();
    }),
    memberScreen('withdraw-failed', anvilKeys[6], { keepWallet: true }, async (page, lng) => {
      await grantCredit(harness, address(), '100');
      const sheet = await openWithdrawal(page, lng);
      // The network drops as the withdrawal goes out: the sheet says so and offers the same request again.
      await page.route((url) => url.pathname === '/api/member/withdrawCredit', (route) => route.abort('internetdisconnected'));
      await sheet.getByRole('button', { name: translate(lng, 'credit:withdraw.confirm.submit'), exact: true }).click();
      await sheet.getByRole('button', { name: translate(lng, 'credit:withdraw.failed.retry'), exact: true }).waitFor();
    }),
    memberScreen('settlement-sold-out', anvilKeys[7], { keepWallet: true }, async (page, lng) => {
      await grantCredit(harness, address(), '500');
      // The celadon mug's one unit is bought (here by the same member, through the API); the page then shows
      // it sold out.
      const added = await callAsMember<{ deliveryId: string }>(page, '/api/member/delivery/add', shippingAddress);
      await callAsMember(page, '/api/order/settle', { goodsId: 'jade-mug', quantity: 1, deliveryId: added.deliveryId, requestId: randomUUID() });
      await page.goto('/buy/settlement/jade-mug');
      await page.getByText(translate(lng, 'buy:goods.soldOut'), { exact: true }).first().waitFor();
    }),
  ];
}

/**
 * Takes every screen the atlas shows in one language (light): test-results/visual/<shot>.<lng>.light.png.
 *
 * @example describeAtlasShotsIn('zh');
 */
export function describeAtlasShotsIn(lng: Lng): void {
  if (process.env.ATLAS_SHOTS !== '1') {
    // npm test: no server, no browser, nothing taken.
    describe.skip(`atlas screens in ${lng} (npm run atlas takes them)`, () => {
      it('are taken by npm run atlas', () => undefined);
    });
    return;
  }
  const harness = setupVisual(lng, { chain: true, treasury: true, demoOperator: true, fastRounds: false }, `atlas-${lng}`);
  const wanted = new Set(shotsInUse());
  const own = [...atlasScreens(harness), ...deskShots(harness)];
  const all = [...visualScreens.filter((screen) => wanted.has(screen.name)), ...own.filter((screen) => wanted.has(screen.name))];
  describe(`atlas screens in ${lng}`, () => {
    const session = harness.session(lng);
    it('names a screen for every shot it shows', () => {
      expect([...wanted].filter((name) => !all.some((screen) => screen.name === name))).toEqual([]);
    });
    for (const screen of inSessionOrder(all)) {
      it(`${screen.name} (${screen.path})`, async () => {
        await session.check(screen);
      });
    }
  });
}
