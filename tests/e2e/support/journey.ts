/**
 * Shared set-up for journey files: one real server per file and the worker's Chromium, a new phone context per test
 * (closed after it, also when tests run concurrently), and the steps several journeys share.
 */
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { STORAGE_KEYS } from '../../../src/storage/keys';
import { apiCaller, signInOverHttp } from '../../server/support/httpSignIn';
import type { Browser, BrowserContext, Cookie, Page } from 'playwright-core';
import { TestWallet } from './wallet/testWallet';
import type { TestWalletOptions } from './wallet/testWallet';
import { newPhoneContext, releaseWorkerBrowser, reportPolicyViolations, saveScreenshot, watchPage, workerBrowser } from './browser';
import type { PageProblems } from './browser';
import { envelopeCall } from './operator';
import { startServer } from './server';
import type { StartServerOptions, TestServer } from './server';

/** The spec's session keys (spec section 3). */
export const sessionKeys = ['TOKEN_STORE', 'TEMP_TOKEN_STORE', 'USER_INFO_STORE'] as const;
export type SessionKey = (typeof sessionKeys)[number];

export interface OpenOptions {
  /** Browser language; default 'en-US'. */
  locale?: string;
  /** Test wallet options; null opens a browser without any wallet. */
  wallet?: TestWalletOptions | null;
  /** The browser's user agent; default Chromium's own (a desktop one). */
  userAgent?: string;
  /**
   * The test that opens it, for a test that runs concurrently with others (it.concurrent, given its context's
   * `task`): after it, only its own contexts are closed and checked. Without it, every unowned context is.
   */
  owner?: { id: string };
  /**
   * Opens the phone already signed in as the wallet's first key: the member signs in over HTTP (SIWE signed with
   * that key, bound to the invite code) and the context starts with the session the app stores after a sign-in,
   * the site connected in the wallet.
   * For journeys whose subject comes after sign-in; the sign-in screens are walked by journeys.spec.ts,
   * walletBrowsers.spec.ts and signInThroughInvite.
   */
  signedIn?: { inviteCode?: string };
  /** More localStorage the context starts with on the server's origin. */
  localStorage?: Readonly<Record<string, string>>;
  /** Cookies the context starts with (e.g. an operator's desk session cookie). */
  cookies?: readonly Cookie[];
}

export interface Opened {
  context: BrowserContext;
  page: Page;
  /** Null when opened without a wallet. */
  wallet: TestWallet | null;
  problems: PageProblems;
  /** The member's main token when opened signedIn (for the member API over HTTP, as the page would call it). */
  token?: string;
}

export interface JourneyHarness {
  readonly server: TestServer;
  readonly browser: Browser;
  /** A new context (closed after the test) with the test wallet installed, and its first page. */
  open(options?: OpenOptions): Promise<Opened>;
}

/** Saves a screenshot of every open page of these contexts, named after the test; a page that cannot is skipped. */
async function saveFailedPages(testName: string, contexts: readonly BrowserContext[]): Promise<void> {
  const slug = testName.replace(/[^a-z0-9]+/gi, '-').slice(0, 60);
  const pages = contexts.flatMap((context) => context.pages());
  await Promise.all(pages.map((page, index) => saveScreenshot(page, `failed-${slug}-${index + 1}`).catch(() => undefined)));
}

/**
 * Registers the file's hooks and returns the harness the tests use.
 *
 * @param serverOptions - how the file's server starts (e.g. with the test treasury for the operator API)
 * @returns server, browser and open(); valid inside tests
 * @example
 * const e2e = setupJourneys();
 * it('...', async () => { const { page, wallet } = await e2e.open(); });
 */
export function setupJourneys(serverOptions: StartServerOptions = {}): JourneyHarness {
  let server: TestServer | undefined;
  let browser: Browser | undefined;
  /** Each open context and its problems, under the test that owns it ('' for tests that run one at a time). */
  const opened = new Map<string, { context: BrowserContext; problems: PageProblems }[]>();

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(serverOptions), workerBrowser()]);
  });
  afterEach(async ({ task }) => {
    const own = [...(opened.get(task.id) ?? []), ...(opened.get('') ?? [])];
    opened.delete(task.id);
    opened.delete('');
    // What a failing journey's pages showed when it failed, under test-results/screenshots/failed-*.png.
    if (task.result?.state === 'fail') await saveFailedPages(task.name, own.map(({ context }) => context));
    await Promise.all(own.map(({ context }) => context.close()));
    // Every journey runs under the server's real CSP and Permissions-Policy: a violation anywhere fails it.
    expect(own.flatMap(({ problems }) => problems.policyViolations)).toEqual([]);
  });
  afterAll(async () => {
    await releaseWorkerBrowser(browser);
    await server?.stop();
  });

  const harness: JourneyHarness = {
    get server() {
      if (!server) throw new Error('the server is not started (use inside a test)');
      return server;
    },
    get browser() {
      if (!browser) throw new Error('the browser is not launched (use inside a test)');
      return browser;
    },
    async open({ locale, wallet: walletOptions = {}, userAgent, owner, signedIn, localStorage, cookies }: OpenOptions = {}) {
      const session = signedIn ? await memberSessionOverHttp(harness.server, walletOptions?.privateKeys?.[0], signedIn.inviteCode) : undefined;
      const storage = { ...session?.localStorage, ...localStorage };
      const context = await newPhoneContext(harness.browser, {
        baseURL: harness.server.url,
        ...(locale ? { locale } : {}),
        ...(userAgent ? { userAgent } : {}),
        ...(Object.keys(storage).length > 0 ? { localStorage: storage } : {}),
      });
      if (cookies) await context.addCookies([...cookies]);
      const problems: PageProblems = { errors: [], policyViolations: [] };
      const key = owner?.id ?? '';
      opened.set(key, [...(opened.get(key) ?? []), { context, problems }]);
      await reportPolicyViolations(context, problems);
      // A member who signed in has connected the site: the wallet answers eth_accounts without asking again.
      const wallet = walletOptions === null ? null : await TestWallet.install(context, signedIn ? { ...walletOptions, connected: true } : walletOptions);
      const page = await context.newPage();
      return { context, page, wallet, problems: watchPage(page, problems), ...(session ? { token: session.token } : {}) };
    },
  };
  return harness;
}

/**
 * Signs the key's member in over HTTP (signInOverHttp, on the app config's chain) and returns the main token and the
 * localStorage the app keeps after a sign-in: the token and the address it belongs to (src/storage/keys.ts).
 * OpenOptions.signedIn does this for a phone; a journey that needs the token before it opens the phone calls it.
 *
 * @example const member = await memberSessionOverHttp(e2e.server, key);
 */
export async function memberSessionOverHttp(server: TestServer, privateKey: Hex | undefined, inviteCode?: string): Promise<{ token: string; localStorage: Record<string, string> }> {
  if (!privateKey) throw new Error('signedIn needs the wallet opened with privateKeys');
  const { chainId } = await apiCaller(server.url)<{ chainId: number }>('/api/dapp/dappParam');
  const { address, auth } = await signInOverHttp(server.url, chainId, privateKeyToAccount(privateKey), inviteCode);
  return { token: auth, localStorage: { [STORAGE_KEYS.token]: JSON.stringify(auth), [STORAGE_KEYS.sessionAddress]: JSON.stringify(address) } };
}

/**
 * A member call over HTTP with the member's token, as the app sends it (Authorization: the token), answered with the
 * result; any other code than 0 throws.
 *
 * @example const order = await memberCall(e2e, token, '/api/order/settle', { goodsId, quantity: 1, deliveryId, requestId });
 */
export async function memberCall<T>(e2e: JourneyHarness, token: string, path: string, body?: unknown): Promise<T> {
  const answer = await envelopeCall<T>(e2e.server.url, path, { Authorization: token }, body);
  if (answer.code !== 0) throw new Error(`${path} answered ${answer.code}`);
  return answer.result as T;
}

/**
 * Reads the session keys from the page's localStorage.
 *
 * @example expect(await readSession(page)).toEqual({ TOKEN_STORE: null, ... });
 */
export function readSession(page: Page): Promise<Record<SessionKey, string | null>> {
  return page.evaluate(
    (keys) => Object.fromEntries(keys.map((key) => [key, window.localStorage.getItem(key)])) as Record<SessionKey, string | null>,
    [...sessionKeys],
  );
}

/** Waits until the app config is loaded and stored (the connect button then asks for the app's chain). */
export async function waitForAppConfig(page: Page): Promise<void> {
  await page.waitForFunction(() => window.localStorage.getItem('DAPP_PARAM') !== null);
}

/**
 * The sign-in journey up to the signed-in home page: open the invite link, connect (the wallet is moved to the
 * app's chain), sign. Returns the memberSignLogin body the page sent.
 *
 * @example await signInThroughInvite(page, wallet);
 */
export async function signInThroughInvite(page: Page, wallet: TestWallet, inviteCode = 'DEMO2026'): Promise<unknown> {
  await page.goto(`/login/${inviteCode}`);
  await waitForAppConfig(page);
  await page.getByRole('button', { name: 'Connect wallet' }).click();
  const signLogin = page.waitForRequest((request) => request.url().endsWith('/api/member/memberSignLogin'));
  await page.getByRole('button', { name: 'Sign in' }).click();
  const body: unknown = (await signLogin).postDataJSON();
  await page.waitForURL('**/home');
  await page.getByText('Welcome back').waitFor();
  expect(wallet.signedMessages.at(-1)?.address).toBe(wallet.address);
  return body;
}
