/**
 * The wallet browsers members really use, in Chromium against the real server and its real headers: a
 * wallet that injects by inline script at document start, wallets that inject after load, Trust Wallet's unknown
 * chain answered as -32603 in Chinese, a wallet that cannot switch chains (imToken before 2.10), and two wallet
 * extensions at once, the one the member chose reconnected after a reload. Each journey runs in en or zh, the
 * languages taking turns (the visual check shows every screen in both). Every journey ends signed in;
 * setupJourneys fails any of them on a CSP violation or a page error.
 * src/wallet/walletQuirks.ts lists these behaviours with their sources.
 */
import { describe, expect, it } from 'vitest';
import { ANDROID_CHROME, screenshot } from './support/browser';
import { readSession, setupJourneys, waitForAppConfig } from './support/journey';
import type { Opened } from './support/journey';
import { translate, translateWith } from './support/visual';
import type { Lng } from './support/visual';
import { WALLET_LINKS } from '../../src/wallet/walletLinks';
import { anvilKeys } from './support/wallet/anvilKeys';
import { TestWallet as InstalledWallet, injectTestWalletNow } from './support/wallet/testWallet';
import type { TestWallet, TestWalletOptions } from './support/wallet/testWallet';

const e2e = setupJourneys();

const en = { lng: 'en', locale: 'en-US' } as const satisfies { lng: Lng; locale: string };
const zh = { lng: 'zh', locale: 'zh-CN' } as const satisfies { lng: Lng; locale: string };

/** Each journey signs in a new member: one key per journey keeps them apart. */
let nextKey = 6;
function freshKey(): (typeof anvilKeys)[number] {
  const key = anvilKeys[nextKey % anvilKeys.length];
  nextKey += 1;
  if (!key) throw new Error('no anvil key');
  return key;
}

async function openWith(locale: string, wallet: TestWalletOptions, owner: { id: string }): Promise<Opened & { wallet: TestWallet }> {
  const opened = await e2e.open({ locale, wallet: { privateKeys: [freshKey()], ...wallet }, owner });
  if (!opened.wallet) throw new Error('this journey needs the test wallet');
  return { ...opened, wallet: opened.wallet };
}

/** Connect (when asked), sign, and land on /home signed in with a main token. */
async function connectAndSignIn(page: Opened['page'], wallet: TestWallet, lng: Lng): Promise<void> {
  const t = (key: string) => translate(lng, key);
  await page.getByRole('button', { name: t('common:wallet.actions.connect'), exact: true }).click();
  await page.getByRole('button', { name: t('login:signIn.label'), exact: true }).click();
  await page.waitForURL('**/home');
  expect(wallet.signedMessages.at(-1)?.address).toBe(wallet.address);
  expect(JSON.parse((await readSession(page)).TOKEN_STORE ?? 'null')).toEqual(expect.any(String));
}

/**
 * The page looks for a wallet for walletSearchTimeout (3 s) before it says none was found: on a page whose clock is
 * Playwright's (page.clock.install before it loads), the wait is skipped once the search shows.
 */
async function skipWalletSearch(page: Opened['page'], lng: Lng): Promise<void> {
  await page.getByText(translate(lng, 'common:wallet.prompts.searchingDetail'), { exact: true }).waitFor();
  await page.clock.fastForward(3_000);
}

// Each journey runs in one language, the two languages taking turns down the file: what a journey tests is the
// wallet's behaviour, and every screen it passes is checked in both languages by the visual check
// (tests/e2e/visual.{zh,en}.spec.ts). They run at once: each mostly waits on the page (its 3 s search for a wallet,
// the sign-in), in a context and with a key of its own.
describe.concurrent('wallet browsers', () => {
  const textsOf = (lng: Lng) => (key: string, values: Record<string, string> = {}) => translateWith(lng, key, values);
  const chain = 'BNB Smart Chain';

  it(`a wallet that injects by an inline <script> at document start (Android WebView) signs in under the CSP (en)`, async ({ task }) => {
    const { lng, locale } = en;
    const { page, wallet, problems } = await openWith(locale, { chainId: 56, injection: 'inlineScript', setWindowEthereum: true }, task);
    const document = await page.goto('/login/DEMO2026');
    // The header no longer holds the script policy; the page's <meta> does, from where it is parsed.
    expect(document?.headers()['content-security-policy']).toBe("object-src 'none';base-uri 'self';form-action 'self';frame-ancestors 'none'");
    await waitForAppConfig(page);
    await connectAndSignIn(page, wallet, lng);
    expect(await page.evaluate(() => (window as unknown as { ethereum?: { isTestWallet?: boolean } }).ethereum?.isTestWallet)).toBe(true);
    expect(problems.errors).toEqual([]);
  });

  it(`a wallet that injects after load (ethereum#initialized) is waited for, then the member connects (zh)`, async ({ task }) => {
    const { lng, locale } = zh;
    const t = textsOf(lng);
    const { page, wallet, problems } = await openWith(locale, { chainId: 56, injection: 'onCall' }, task);
    await page.goto('/login/DEMO2026');
    // The eager connect at start found nothing yet: the page says it is looking, and the wallet arrives meanwhile.
    await page.getByText(t('common:wallet.prompts.searchingDetail'), { exact: true }).waitFor();
    await injectTestWalletNow(page);
    await page.getByRole('button', { name: t('common:wallet.actions.connect'), exact: true }).waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    await connectAndSignIn(page, wallet, lng);
    expect(problems.errors).toEqual([]);
  });

  it(`a wallet that injects after the page gave up turns "no wallet" back into connect (en)`, async ({ task }) => {
    const { lng, locale } = en;
    const t = textsOf(lng);
    // The wallet arrives only once the page has given up (a fixed delay raced the page's own wait on a busy machine).
    const { page, wallet, problems } = await openWith(locale, { chainId: 56, injection: 'onCall' }, task);
    await page.goto('/login/DEMO2026');
    const noWallet = page.getByRole('alert').filter({ hasText: t('common:wallet.errors.ProviderNotFoundError') });
    await noWallet.waitFor();
    await screenshot(page, `wallet-none-yet.${lng}`);
    await injectTestWalletNow(page);
    await noWallet.waitFor({ state: 'detached' });
    await connectAndSignIn(page, wallet, lng);
    expect(problems.errors).toEqual([]);
  });

  it(`Trust Wallet's unknown chain as -32603 in Chinese: the app adds the chain once and signs in (zh)`, async ({ task }) => {
    const { lng, locale } = zh;
    const { page, wallet, problems } = await openWith(locale, { chainId: 1 }, task);
    wallet.failNext('wallet_switchEthereumChain', { code: -32603, message: '无法识别的链 ID "0x38"。请先使用 wallet_addEthereumChain 添加该链。' });
    await page.goto('/login/DEMO2026');
    await waitForAppConfig(page);
    await connectAndSignIn(page, wallet, lng);
    expect(wallet.requestsOf('wallet_switchEthereumChain')[0]?.answer).toMatchObject({ ok: false, error: { code: -32603 } });
    expect(wallet.requestsOf('wallet_addEthereumChain')).toHaveLength(1);
    expect(wallet.chainId).toBe(56);
    expect(problems.errors).toEqual([]);
  });

  it(`a wallet that cannot switch chains (4200): the member switches by hand and the page carries on without a reload (en)`, async ({ task }) => {
    const { lng, locale } = en;
    const t = textsOf(lng);
    const { page, wallet, problems } = await openWith(locale, { chainId: 1 }, task);
    const unsupported = { code: 4200, message: 'The Provider does not support the requested method.' };
    wallet.failAlways('wallet_switchEthereumChain', unsupported).failAlways('wallet_addEthereumChain', unsupported);
    await page.goto('/login/DEMO2026');
    await waitForAppConfig(page);
    await page.getByRole('button', { name: t('common:wallet.actions.connect'), exact: true }).click();
    await page.getByRole('status').filter({ hasText: t('common:wallet.prompts.switchManuallyTitle', { chain }) }).waitFor();
    await page.getByText(t('common:wallet.prompts.switchManually', { chain }), { exact: true }).waitFor();
    await screenshot(page, `wallet-manual-switch.${lng}`);
    await page.evaluate(() => Object.assign(window, { __sameDocument: true }));

    await wallet.switchChain(56);
    await page.getByRole('button', { name: t('login:signIn.label'), exact: true }).click();
    await page.waitForURL('**/home');
    expect(await page.evaluate(() => Reflect.get(window, '__sameDocument'))).toBe(true);
    expect(wallet.requestsOf('wallet_switchEthereumChain').map((request) => request.answer)).toEqual([{ ok: false, error: unsupported }]);
    expect(problems.errors).toEqual([]);
  });

  // The test's own expect: its tests run concurrently, and expect.poll needs to know which test it belongs to.
  it(`two wallets: the one the member chose is remembered by its rdns and reconnected after a reload (zh)`, async ({ task, expect }) => {
    const { lng, locale } = zh;
    const t = textsOf(lng);
    const { context, page, wallet: first, problems } = await openWith(locale, { chainId: 56 }, task);
    const second = await InstalledWallet.install(context, { chainId: 56, privateKeys: [freshKey()], announce: { name: 'Second Wallet', rdns: 'dev.member.second' } });
    await page.goto('/login/DEMO2026');
    await waitForAppConfig(page);
    await page.getByRole('button', { name: t('common:wallet.actions.connect'), exact: true }).click();
    await page.getByRole('button', { name: 'Second Wallet', exact: true }).click();
    await page.getByRole('button', { name: t('login:signIn.label'), exact: true }).click();
    await page.waitForURL('**/home');
    expect(second.signedMessages.at(-1)?.address).toBe(second.address);
    expect(await page.evaluate(() => window.localStorage.getItem('WALLET_RDNS'))).toBe('"dev.member.second"');

    // The eager connect at the reload finds both wallets: it reads the remembered one, without a prompt.
    const before = second.requests.length;
    await page.reload();
    const sinceReload = () => second.requests.slice(before).map((request) => request.method);
    await expect.poll(sinceReload, { timeout: 10_000 }).toContain('eth_chainId');
    expect(sinceReload()).not.toContain('eth_requestAccounts');
    expect(second.requests.slice(before).find((request) => request.method === 'eth_accounts')?.answer).toEqual({ ok: true, result: [second.address] });
    expect(first.requests).toEqual([]);
    expect(problems.errors).toEqual([]);
  });

  it(`a phone browser without a wallet offers to open the invite link in a wallet app, or to copy it (en)`, async ({ task }) => {
    const { lng, locale } = en;
    const t = textsOf(lng);
    const { context, page, problems } = await e2e.open({ locale, wallet: null, userAgent: ANDROID_CHROME, owner: task });
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    // The wallet's link leaves the app: answer it here and read what it carried.
    await context.route('https://link.trustwallet.com/**', (route) => route.fulfill({ contentType: 'text/plain', body: 'Trust Wallet' }));
    await page.clock.install();
    await page.goto('/login/DEMO2026');
    await skipWalletSearch(page, lng);
    const offer = page.getByRole('region', { name: t('common:wallet.openIn.title') });
    await offer.waitFor();
    await page.getByRole('alert').filter({ hasText: t('common:wallet.errors.ProviderNotFoundError') }).waitFor();
    await screenshot(page, `open-in-wallet.${lng}`);
    const pageUrl = new URL('/login/DEMO2026', e2e.server.url).href;
    expect(await offer.getByRole('link').allTextContents()).toEqual(WALLET_LINKS.map((wallet) => wallet.name));

    await offer.getByRole('button', { name: t('common:wallet.openIn.copyLink'), exact: true }).click();
    await page.getByRole('status').filter({ hasText: t('common:wallet.openIn.copied') }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(pageUrl);

    await offer.getByRole('link', { name: 'Trust Wallet', exact: true }).click();
    await page.waitForURL('https://link.trustwallet.com/**');
    expect(new URL(page.url()).searchParams.get('url')).toBe(pageUrl);
    expect(problems.errors).toEqual([]);
  });

  it(`a desktop browser without a wallet keeps the message alone (zh)`, async ({ task }) => {
    const { lng, locale } = zh;
    const t = textsOf(lng);
    const { page, problems } = await e2e.open({ locale, wallet: null, owner: task });
    await page.clock.install();
    await page.goto('/login/DEMO2026');
    await skipWalletSearch(page, lng);
    await page.getByRole('alert').filter({ hasText: t('common:wallet.errors.ProviderNotFoundError') }).waitFor();
    expect(await page.getByRole('region', { name: t('common:wallet.openIn.title') }).count()).toBe(0);
    expect(problems.errors).toEqual([]);
  });
});
