/**
 * Harness of the visual check (tests/e2e/support/visualScreens.ts): one real server for the file and the worker's Chromium, one
 * phone context per language (signed in once, then reused screen after screen), each screen opened once and shown
 * light then dark, the checks of visualChecks.ts, and a 375 px wide screenshot under
 * test-results/visual/<screen>.<lng>.<scheme>.png of each screen that fails one (of every screen with
 * VISUAL_SCREENSHOTS=1, as `npm run screenshots` and `npm run atlas` ask).
 *
 * The language is the phone's (context locale: navigator.language and Accept-Language), as a member's wallet
 * browser gives it; the app detects it and caches it in localStorage. The colour scheme is emulated
 * prefers-color-scheme, which the theme follows in CSS alone (src/theme/theme.css), so switching it on the opened
 * screen shows what a member with a dark phone sees, without loading the screen twice. Sign-in goes through the screens with the test wallet, clicking the translated labels
 * read from locales/, so it works in either language.
 */
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { TestWallet } from './wallet/testWallet';
import type { TestWalletOptions } from './wallet/testWallet';
import { anvilKeys } from './wallet/anvilKeys';
import { newPhoneContext, releaseWorkerBrowser, reportPolicyViolations, watchPage, workerBrowser } from './browser';
import type { PageProblems } from './browser';
import { repoRoot } from './build';
import { waitForAppConfig } from './journey';
import { startServer } from './server';
import { TEST_NODE_CHAIN_ID } from '../../server/support/testChain';
import type { StartServerOptions, TestServer } from './server';
import { NetworkWatch, checkAxe, checkOverflow, checkTouchTargets, colourRules, installAxe, layoutFingerprint, settle } from './visualChecks';

export const visualDir = path.join(repoRoot, 'test-results', 'visual');

/** The phone of newPhoneContext: 375×812 CSS px at 2×, mobile, touch. */
export const viewportWidth = 375;

export type Lng = 'zh' | 'en';
export type ColorScheme = 'light' | 'dark';

/**
 * What a screen needs to be shown: no session, a temporary token (signed in without recommender, so the app
 * keeps the member on /register), or a member token.
 */
export type SessionLevel = 'none' | 'temporary' | 'member';
const sessionOrder: readonly SessionLevel[] = ['none', 'temporary', 'member'];

/** One row of the screen table. */
export interface VisualScreen {
  /** File name part: test-results/visual/<name>.<lng>.<scheme>.png */
  name: string;
  /** What to open. */
  path: string;
  session: SessionLevel;
  /** The pathname the screen must still show once settled; default path's. A redirect away is a failure. */
  expectPath?: string;
  /**
   * API paths whose calls fail as on a dropped mobile connection while this screen loads (its error-with-retry
   * state, which must show a "Try again" button), e.g. '/api/goods/list'.
   */
  failing?: readonly string[];
  /**
   * API paths answered with a fixed body while this screen loads, for rows the seeded member has none of (e.g. the
   * credit records with their dates and times): { '/api/member/creditRecord': { code: 0, result: ... } }.
   */
  answered?: Readonly<Record<string, unknown>>;
  /**
   * A screen that needs a phone of its own (another wallet, none at all, a mobile browser): it is shown in a fresh
   * context, signed out, and `reach` brings the page to the screen after it opened `path`.
   */
  own?: OwnPhone;
}

/** The phone of a screen that needs its own (see VisualScreen.own). */
export interface OwnPhone {
  /** The test wallet, or null for a browser without any. */
  wallet: TestWalletOptions | null;
  /** The browser's user agent, e.g. an Android phone's (default: Chromium's own). */
  userAgent?: string;
  /** Scripts the wallet before the page opens (e.g. failAlways). */
  prepare?: (wallet: TestWallet) => void;
  /** Brings the opened page to the screen (clicks by translated labels, waits for what it shows). */
  reach?: (page: Page, lng: Lng) => Promise<void>;
}

/** The browser locale that makes the app pick each language. */
export const localeOf: Readonly<Record<Lng, string>> = { zh: 'zh-CN', en: 'en-US' };

/** Each screen is checked in both, loaded in the first and switched to the second. */
export const colorSchemes = ['light', 'dark'] as const satisfies readonly ColorScheme[];

/** One colour scheme's measurement of an opened screen: its result and the layout it saw. */
export type SchemeMeasure = (scheme: { colorScheme: ColorScheme; loaded: boolean; loadedLayout: string | undefined }) => Promise<{ result: VisualResult; layout: string }>;

/**
 * An opened screen measured in each colour scheme, the member's and the desk's harness alike: the first as loaded,
 * the next switched to on the same page (emulateMedia), each told the layout the first saw. A page error or policy
 * report counts once, against the scheme it appeared in.
 *
 * @example const results = await inEachScheme(page, problems, (scheme) => this.measure(screen, page, scheme));
 */
export async function inEachScheme(page: Page, problems: PageProblems, measure: SchemeMeasure): Promise<VisualResult[]> {
  const results: VisualResult[] = [];
  let loadedLayout: string | undefined;
  for (const [index, colorScheme] of colorSchemes.entries()) {
    if (index > 0) await page.emulateMedia({ colorScheme });
    const measured = await measure({ colorScheme, loaded: index === 0, loadedLayout });
    loadedLayout ??= measured.layout;
    results.push(measured.result);
    problems.errors.length = 0;
    problems.policyViolations.length = 0;
  }
  return results;
}

export const variantName = (lng: Lng, colorScheme: ColorScheme): string => `${lng}.${colorScheme}`;

/**
 * The table's rows in the order one context can show them: no session first, then temporary, then member (the
 * session only moves forward), keeping the table's order within a level.
 *
 * @example for (const screen of inSessionOrder(screens)) it(screen.name, ...);
 */
export function inSessionOrder(screens: readonly VisualScreen[]): VisualScreen[] {
  return [...screens].sort((a, b) => sessionOrder.indexOf(a.session) - sessionOrder.indexOf(b.session));
}

const localeCache = new Map<string, unknown>();

/**
 * A translation from locales/<lng>/<namespace>.json, e.g. 'login:signIn.label', so the harness clicks what the
 * member reads in either language.
 *
 * @example translate('zh', 'common:wallet.actions.connect') // '连接钱包'
 */
export function translate(lng: Lng, key: string): string {
  const [namespace, dotted] = key.includes(':') ? (key.split(':', 2) as [string, string]) : ['common', key];
  const file = path.join(repoRoot, 'locales', lng, `${namespace}.json`);
  let json = localeCache.get(file);
  if (json === undefined) {
    json = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    localeCache.set(file, json);
  }
  let value: unknown = json;
  for (const part of dotted.split('.')) value = typeof value === 'object' && value !== null ? Reflect.get(value, part) : undefined;
  if (typeof value !== 'string') throw new Error(`locales/${lng}/${namespace}.json has no string at ${dotted} (the visual spec signs in by it)`);
  return value;
}

/**
 * A translation with its {{placeholders}} filled in, as i18next fills them for the member.
 *
 * @example translateWith('en', 'credit:token.add', { symbol: 'tUSD' }) // 'Add tUSD to wallet'
 */
export function translateWith(lng: Lng, key: string, values: Readonly<Record<string, string | number>> = {}): string {
  return Object.entries(values).reduce((text, [name, value]) => text.replaceAll(`{{${name}}}`, String(value)), translate(lng, key));
}

/**
 * Every screen's screenshot when VISUAL_SCREENSHOTS=1 (`npm run screenshots`, and the atlas' shots with ATLAS_SHOTS=1);
 * otherwise a screenshot only of a screen that failed a check, where someone will look. A PNG for each of a file's 74
 * screens cost about a tenth of its time in `npm test`, for images nobody opened when every check passed.
 */
const screenshotEveryScreen = process.env.VISUAL_SCREENSHOTS === '1' || process.env.ATLAS_SHOTS === '1';

/**
 * Saves test-results/visual/<name>.png of the page as it was checked, when asked or when a check failed.
 *
 * @returns its path from the repository root, or undefined when none was taken
 * @example result.screenshot = await saveScreenshotWhenAsked(page, 'login.zh.dark', result);
 */
export async function saveScreenshotWhenAsked(page: Page, name: string, result: VisualResult): Promise<string | undefined> {
  if (!screenshotEveryScreen && failuresOf(result).length === 0) return undefined;
  await mkdir(visualDir, { recursive: true });
  const file = path.join(visualDir, `${name}.png`);
  // One image pixel per CSS pixel (375 px wide): what the checks judge, at a quarter of the 2× PNG's encoding time
  // (12.8 -> 5.4 s for a language's 66 screenshots, measured).
  await page.screenshot({ path: file, fullPage: true, scale: 'css', animations: 'disabled', caret: 'hide' });
  return path.relative(repoRoot, file);
}

/** What one screen in one variant showed. */
export interface VisualResult {
  screen: string;
  path: string;
  variant: string;
  /** Where the page was once settled. */
  url: string;
  /** The saved screenshot (see saveScreenshotWhenAsked), or undefined when none was taken. */
  screenshot: string | undefined;
  settle: string[];
  overflow: string[];
  touchTargets: string[];
  axe: string[];
  /** CSP or Permissions-Policy violations and uncaught page errors while the screen loaded (the server's real CSP). */
  policy: string[];
}

/** Calls of a page to some API paths, failed or answered by the test until restore(). */
export interface RoutedCalls {
  restore(): Promise<void>;
  /** The paths the page has not called yet: a screen that never made them showed neither its failure nor the rows. */
  notCalled(): string[];
  /**
   * Resolves once the page has called every path, or after `timeoutMs`: a screen reached in the app may make its calls
   * only after its code has loaded, later than the network's first quiet moment that settle() waits for.
   */
  allCalled(timeoutMs: number): Promise<void>;
}

async function routeCalls(page: Page, apiPaths: readonly string[], handle: (route: Route) => Promise<void>): Promise<RoutedCalls> {
  if (apiPaths.length === 0) return { restore: async () => undefined, notCalled: () => [], allCalled: async () => undefined };
  const called = new Set<string>();
  let everyCalled: () => void = () => undefined;
  const allCalledOnce = new Promise<void>((resolve) => (everyCalled = resolve));
  const matches = (url: URL) => apiPaths.includes(url.pathname);
  await page.route(matches, (route) => {
    called.add(new URL(route.request().url()).pathname);
    if (called.size === apiPaths.length) everyCalled();
    return handle(route);
  });
  return {
    restore: () => page.unroute(matches),
    notCalled: () => apiPaths.filter((apiPath) => !called.has(apiPath)),
    allCalled: async (timeoutMs) => {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([allCalledOnce, new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
      clearTimeout(timer);
    },
  };
}

/**
 * Makes the page's calls to these API paths fail as on a dropped connection, until restore().
 *
 * @example const dropped = await dropCalls(page, ['/api/goods/list']); ...; await dropped.restore();
 */
function dropCalls(page: Page, apiPaths: readonly string[]): Promise<RoutedCalls> {
  return routeCalls(page, apiPaths, (route) => route.abort('internetdisconnected'));
}

/**
 * Answers the page's calls to these API paths with the given bodies, until restore().
 *
 * @example const answered = await answerCalls(page, { '/api/member/creditRecord': page }); ...; await answered.restore();
 */
export function answerCalls(page: Page, answers: Readonly<Record<string, unknown>>): Promise<RoutedCalls> {
  return routeCalls(page, Object.keys(answers), (route) => route.fulfill({ json: answers[new URL(route.request().url()).pathname] }));
}

/** What fails a screen whose calls were meant to fail or be answered but were never made. */
export function uncalledProblems(...routed: readonly RoutedCalls[]): string[] {
  return routed.flatMap((calls) => calls.notCalled()).map((apiPath) => `the screen never called ${apiPath}, which the check fails or answers`);
}

/**
 * Shows `path` in the app already loaded in the page, as a member's tap on a link does: the URL changes through the
 * History API and the router follows (react-router listens to popstate), with no new document. The SPA's entry,
 * axe-core and the lazy routes already fetched are not loaded and run again; a full load of a member screen cost
 * Chromium about 1 s of CPU here, most of it booting the app again (the visual file's longest part, measured).
 *
 * @example await navigateInApp(page, '/me/wpos'); await settle(page, ...);
 */
export async function navigateInApp(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate', { state: null }));
  }, path);
}

const pathnameOf = (path: string): string => new URL(path, 'http://x').pathname;

/**
 * How one page reaches its screens (the member's and the desk's visual checks): in the app (navigateInApp) while it
 * shows the app, loaded afresh when it does not yet or when the screen has the path of the one before it, whatever
 * its query (a screen shown again with failing or answered calls, or with other filters: the router would not mount it
 * again, and the desk's lists read their filters from the address as they mount). A screen
 * with failing or answered calls is reached in the app too: each screen's data is loaded by the screen as it mounts
 * (src/routes/shared/useResource.ts), so the calls are made again under the page's routes, and nothing of them stays
 * once the screen is left. A screen reached in the app that is laid out as the one before it fails: the app did not
 * follow, only the address changed.
 */
export class ScreenNavigation {
  private appShown = false;
  private lastPathname: string | undefined;
  private lastLayout: string | undefined;
  /** The layout of the screen navigated from, while the screen just reached in the app has not settled. */
  private from: string | undefined;

  /** The page shows the app (after a sign-in through its screens). */
  showsApp(): void {
    this.appShown = true;
  }

  /** Brings the page to `path`. */
  async open(page: Page, path: string): Promise<void> {
    const inApp = this.appShown && pathnameOf(path) !== this.lastPathname;
    this.from = inApp ? this.lastLayout : undefined;
    if (inApp) await navigateInApp(page, path);
    else await page.goto(path);
    this.appShown = true;
    this.lastPathname = pathnameOf(path);
  }

  /**
   * The layout the screen settled in, as loaded (layoutFingerprint).
   *
   * @returns the problem when the app did not follow the navigation to it, else nothing
   */
  settled(layout: string): string[] {
    const notFollowed = this.from !== undefined && this.from === layout;
    this.from = undefined;
    this.lastLayout = layout;
    return notFollowed ? ['the app did not follow the navigation: laid out as the screen before it'] : [];
  }
}

/** One phone context of a language: its page, wallet and how far it is signed in. */
class LanguageSession {
  private context: BrowserContext | null = null;
  private page: Page | null = null;
  private network: NetworkWatch | null = null;
  private readonly problems: PageProblems = { errors: [], policyViolations: [] };
  private level: SessionLevel = 'none';
  private broken: Error | null = null;
  private readonly navigation = new ScreenNavigation();

  constructor(
    private readonly harness: VisualHarness,
    readonly lng: Lng,
    private readonly walletKey: (typeof anvilKeys)[number],
  ) {}

  private async open(): Promise<{ page: Page; network: NetworkWatch }> {
    if (this.page && this.network) return { page: this.page, network: this.network };
    const context = await newPhoneContext(this.harness.browser, { baseURL: this.harness.server.url, locale: localeOf[this.lng] });
    this.context = context;
    await installAxe(context);
    await reportPolicyViolations(context, this.problems);
    // On the app's chain from the start: the add-chain prompt is the journeys' business, not a screen here. The
    // wallet reads the test node (the top-up sheet's balance).
    const node = this.harness.server.chain?.node.url;
    await TestWallet.install(context, { chainId: node ? TEST_NODE_CHAIN_ID : 56, privateKeys: [this.walletKey], ...(node ? { rpcUrl: node } : {}) });
    const page = await context.newPage();
    watchPage(page, this.problems);
    this.page = page;
    this.network = new NetworkWatch(page);
    return { page, network: this.network };
  }

  /** Signs in as far as the level needs, through the screens. */
  private async reach(page: Page, level: SessionLevel): Promise<void> {
    if (this.broken) throw new Error(`this context could not reach a session earlier: ${this.broken.message}`);
    const { lng } = this;
    try {
      if (sessionOrder.indexOf(level) < sessionOrder.indexOf(this.level)) {
        throw new Error(`screens must come in session order (none, temporary, member): ${level} after ${this.level}`);
      }
      if (this.level === 'none' && level !== 'none') {
        // Signing in without an invite code gives a new wallet a temporary token: the app shows /register.
        await page.goto('/login');
        await waitForAppConfig(page);
        await page.getByRole('button', { name: translate(lng, 'common:wallet.actions.connect'), exact: true }).click();
        await page.getByRole('button', { name: translate(lng, 'login:signIn.label'), exact: true }).click();
        await page.waitForURL((url) => url.pathname.startsWith('/register'));
        this.level = 'temporary';
      }
      if (this.level === 'temporary' && level === 'member') {
        if (!new URL(page.url()).pathname.startsWith('/register')) await page.goto('/register');
        await page.getByLabel(translate(lng, 'register:inviteCode.label'), { exact: true }).fill('DEMO2026');
        await page.getByRole('button', { name: translate(lng, 'register:bind.label'), exact: true }).click();
        await page.waitForURL((url) => !url.pathname.startsWith('/register'));
        this.level = 'member';
      }
      if (this.level !== 'none') this.navigation.showsApp();
    } catch (error) {
      this.broken = error instanceof Error ? error : new Error(String(error));
      throw new Error(`could not reach the ${level} session in ${lng}: ${this.broken.message}`, { cause: error });
    }
  }

  /**
   * Opens the screen with the session it needs, and in each colour scheme waits until it is settled, runs the checks
   * and saves its screenshot when asked or when one failed. Throws only when the screen cannot be reached; what the checks find comes back
   * in the results, one per scheme.
   */
  async check(screen: VisualScreen): Promise<VisualResult[]> {
    if (screen.own) return this.checkOnOwnPhone(screen, screen.own);
    const { page, network } = await this.open();
    await this.reach(page, screen.session);
    // Only what this screen causes counts against it.
    this.problems.errors.length = 0;
    this.problems.policyViolations.length = 0;
    await page.emulateMedia({ colorScheme: colorSchemes[0] });
    const dropped = await dropCalls(page, screen.failing ?? []);
    const answered = await answerCalls(page, screen.answered ?? {});
    try {
      await this.navigation.open(page, screen.path);
      await Promise.all([dropped.allCalled(10_000), answered.allCalled(10_000)]);
      return await this.measureInEachScheme(screen, page, network, this.problems, (layout) => [...this.navigation.settled(layout), ...uncalledProblems(dropped, answered)]);
    } finally {
      await dropped.restore();
      await answered.restore();
    }
  }

  /** A screen on a fresh phone with its own wallet (or none); the context is closed afterwards. */
  private async checkOnOwnPhone(screen: VisualScreen, own: OwnPhone): Promise<VisualResult[]> {
    const context = await newPhoneContext(this.harness.browser, {
      baseURL: this.harness.server.url,
      locale: localeOf[this.lng],
      ...(own.userAgent ? { userAgent: own.userAgent } : {}),
    });
    try {
      const problems: PageProblems = { errors: [], policyViolations: [] };
      await installAxe(context);
      await reportPolicyViolations(context, problems);
      if (own.wallet) {
        const wallet = await TestWallet.install(context, own.wallet);
        own.prepare?.(wallet);
      }
      const page = await context.newPage();
      await page.emulateMedia({ colorScheme: colorSchemes[0] });
      watchPage(page, problems);
      const network = new NetworkWatch(page);
      await page.goto(screen.path);
      await own.reach?.(page, this.lng);
      return await this.measureInEachScheme(screen, page, network, problems);
    } finally {
      await context.close();
    }
  }

  /**
   * The opened screen in each colour scheme: the first as loaded, the next switched to on the same page.
   *
   * @param arrived - given the layout as loaded, what fails the screen beside the checks (ScreenNavigation.settled)
   */
  private measureInEachScheme(
    screen: VisualScreen,
    page: Page,
    network: NetworkWatch,
    problems: PageProblems,
    arrived?: (layout: string) => string[],
  ): Promise<VisualResult[]> {
    return inEachScheme(page, problems, (scheme) => this.measure(screen, page, { network, ...scheme, arrived }, problems));
  }

  /** Waits until the screen is settled, runs the checks and saves its screenshot when asked or when one failed. */
  private async measure(
    screen: VisualScreen,
    page: Page,
    {
      network,
      colorScheme,
      loaded,
      loadedLayout,
      arrived,
    }: { network: NetworkWatch; colorScheme: ColorScheme; loaded: boolean; loadedLayout: string | undefined; arrived: ((layout: string) => string[]) | undefined },
    problems: PageProblems,
  ): Promise<{ result: VisualResult; layout: string }> {
    const settleProblems = await settle(page, { network, lng: this.lng, colorScheme, schemeSwitchOnly: !loaded });
    if (screen.failing && !(await page.getByRole('button', { name: translate(this.lng, 'common:actions.retry'), exact: true }).first().isVisible())) {
      settleProblems.push(`no "${translate(this.lng, 'common:actions.retry')}" button while ${screen.failing.join(', ')} failed`);
    }
    const expectPath = screen.expectPath ?? new URL(screen.path, 'http://x').pathname;
    const pathname = new URL(page.url()).pathname;
    if (pathname !== expectPath) settleProblems.unshift(`expected to stay on ${expectPath}, the app went to ${pathname}`);
    // After a colour-scheme switch that left markup and boxes as they were, only the colour rules can differ.
    const layout = await layoutFingerprint(page);
    const sameLayout = loadedLayout === layout;
    if (loaded && arrived) settleProblems.push(...arrived(layout));
    const result: VisualResult = {
      screen: screen.name,
      path: screen.path,
      variant: variantName(this.lng, colorScheme),
      url: page.url(),
      screenshot: undefined,
      settle: settleProblems,
      overflow: await checkOverflow(page, viewportWidth),
      touchTargets: await checkTouchTargets(page),
      axe: await checkAxe(page, sameLayout ? colourRules : undefined),
      policy: [...problems.policyViolations, ...problems.errors.map((error) => `page error: ${error}`)],
    };
    result.screenshot = await saveScreenshotWhenAsked(page, `${screen.name}.${variantName(this.lng, colorScheme)}`, result);
    this.harness.results.push(result);
    return { result, layout };
  }

  async close(): Promise<void> {
    await this.context?.close();
    this.context = null;
    this.page = null;
    this.network = null;
  }
}

/** The file's server, browser, variant sessions and results. */
export class VisualHarness {
  readonly results: VisualResult[] = [];
  private serverValue: TestServer | undefined;
  private browserValue: Browser | undefined;
  private sessionCount = 0;

  get server(): TestServer {
    if (!this.serverValue) throw new Error('the server is not started (use inside a test)');
    return this.serverValue;
  }

  get browser(): Browser {
    if (!this.browserValue) throw new Error('the browser is not launched (use inside a test)');
    return this.browserValue;
  }

  /** @internal set by setupVisual's hooks */
  attach(server: TestServer | undefined, browser: Browser | undefined): void {
    this.serverValue = server;
    this.browserValue = browser;
  }

  /**
   * The context of one language; call inside its describe, which closes it after its tests. Each signs in with
   * its own wallet, so each goes through the temporary token to membership.
   */
  session(lng: Lng): LanguageSession {
    const key = anvilKeys[this.sessionCount % anvilKeys.length];
    if (!key) throw new Error('no anvil key');
    this.sessionCount += 1;
    const session = new LanguageSession(this, lng, key);
    afterAll(() => session.close());
    return session;
  }
}

/**
 * Registers the file's hooks (server, browser, the report of its language) and returns the harness.
 *
 * @example
 * const visual = setupVisual('zh');
 * describe('screens in zh', () => { const session = visual.session('zh'); ... });
 */
export function setupVisual(lng: Lng, serverOptions: StartServerOptions = { chain: true, fastRounds: false }, reportName = `report-${lng}`): VisualHarness {
  const harness = new VisualHarness();
  let server: TestServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    // With a chain, so /me offers Top up and its sheet is one of the screens.
    [server, browser] = await Promise.all([startServer(serverOptions), workerBrowser()]);
    harness.attach(server, browser);
  });
  afterAll(async () => {
    await mkdir(visualDir, { recursive: true });
    await writeFile(path.join(visualDir, `${reportName}.json`), `${JSON.stringify(harness.results, null, 2)}\n`);
    await writeFile(path.join(visualDir, `${reportName}.txt`), formatReport(harness.results));
    await releaseWorkerBrowser(browser);
    await server?.stop();
  });
  return harness;
}

/** Soft-asserts that each shown result passed every check, naming the screen, its variant and its screenshot. */
export function expectClean(shown: readonly VisualResult[]): void {
  for (const result of shown) {
    const where = `${result.screen} ${result.variant}${result.screenshot ? ` (${result.screenshot})` : ''}`;
    expect.soft(result.settle, `${where}: the screen did not settle as expected`).toEqual([]);
    expect.soft(result.overflow, `${where}: horizontal overflow`).toEqual([]);
    expect.soft(result.touchTargets, `${where}: touch targets under 44 px tall`).toEqual([]);
    expect.soft(result.axe, `${where}: serious or critical axe-core violations`).toEqual([]);
    expect.soft(result.policy, `${where}: CSP or Permissions-Policy violations, or page errors`).toEqual([]);
  }
}

/** The lines of a result that fail, grouped by check. */
export function failuresOf(result: VisualResult): Array<[check: string, lines: string[]]> {
  const groups: Array<[string, string[]]> = [
    ['settle', result.settle],
    ['overflow', result.overflow],
    ['touch targets', result.touchTargets],
    ['axe', result.axe],
    ['policy', result.policy],
  ];
  return groups.filter(([, lines]) => lines.length > 0);
}

/** A plain-text report of every failure, by check then screen (test-results/visual/report-<lng>.txt). */
export function formatReport(results: readonly VisualResult[]): string {
  const out: string[] = [];
  for (const check of ['settle', 'overflow', 'touch targets', 'axe', 'policy']) {
    out.push(`## ${check}`);
    let any = false;
    for (const result of results) {
      const lines = failuresOf(result).find(([name]) => name === check)?.[1] ?? [];
      if (lines.length === 0) continue;
      any = true;
      out.push(`${result.screen} ${result.variant} (${result.path}):`, ...lines.map((line) => `  - ${line}`));
    }
    if (!any) out.push('(none)');
    out.push('');
  }
  return `${out.join('\n')}\n`;
}
