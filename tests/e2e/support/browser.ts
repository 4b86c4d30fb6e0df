/**
 * Debian's Chromium driven by playwright-core (docs/architecture.md, "Testing in a real browser"): never a downloaded
 * browser. One browser per test worker (workerBrowser), shared by the spec files it runs, a new phone-sized context
 * per test.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { repoRoot } from './build';

export const chromiumPath = '/usr/bin/chromium';

/**
 * The features Playwright's own launch disables (its chromiumSwitches, playwright-core 1.65), in the order it gives
 * them. Chromium keeps only the last --disable-features it is given, so chromiumArgs repeats them beside ours;
 * tests/e2e/chromiumFlags.spec.ts fails when a Playwright upgrade changes the list.
 */
export const playwrightDisabledFeatures = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * The address bar's popups as web pages (WebUI): headless Chromium builds a browser window for each new context and
 * loads both popups into renderers of their own, ~400 chrome:// resources each, though no page here ever shows an
 * address bar. 12 contexts on a blank page cost Chromium 35.4 CPU-s with them and 13.4 without (measured).
 */
export const omniboxPopupFeatures = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

/**
 * The launch flags docs/architecture.md names ("Testing in a real browser"). The fresh --user-data-dir is Playwright's own: launch() creates a new temp
 * profile per browser and deletes it on close (it refuses --user-data-dir in args; only launchPersistentContext
 * takes a folder, and that gives a single context).
 */
export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  `--disable-features=${[...playwrightDisabledFeatures, ...omniboxPopupFeatures].join(',')}`,
];

export const screenshotDir = path.join(repoRoot, 'test-results', 'screenshots');

/**
 * Launches headless Debian Chromium.
 *
 * @returns the browser; close it in afterAll
 * @example
 * const browser = await launchBrowser();
 */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath, headless: true, args: chromiumArgs });
}

let launched: Promise<Browser> | undefined;

/**
 * The test worker's browser: launched by the first spec file that asks, then shared by every file the worker runs
 * (the e2e project keeps one module graph per worker: isolate false), instead of a launch and a close per file
 * (1-3 s each on CI's two cores). A file closes the contexts it opens, never this browser: playwright closes it when
 * the worker stops (on its SIGTERM, or at exit).
 *
 * @returns the connected browser
 * @example
 * beforeAll(async () => { browser = await workerBrowser(); });
 */
export async function workerBrowser(): Promise<Browser> {
  const current = launched ? await launched.catch(() => undefined) : undefined;
  if (current?.isConnected()) return current;
  launched = launchBrowser();
  return launched;
}

/**
 * Ends a spec file's use of the worker's browser: closes every context still open (the worker runs one file at a
 * time, so they are the file's), as closing its own browser did, and keeps the browser for the next file.
 *
 * @param browser - from workerBrowser (nothing happens when it is undefined: the file's beforeAll failed)
 * @returns when the contexts are closed
 * @example
 * afterAll(() => releaseWorkerBrowser(browser));
 */
export async function releaseWorkerBrowser(browser: Browser | undefined): Promise<void> {
  await Promise.all((browser?.contexts() ?? []).map((context) => context.close()));
}

export interface PhoneContextOptions {
  /** Browser language (navigator.language and Accept-Language); default 'en-US'. */
  locale?: string;
  /** Origin that page.goto('/path') resolves against. */
  baseURL: string;
  /** The browser's user agent (e.g. an Android phone's); default Chromium's own. */
  userAgent?: string;
  /** localStorage of baseURL's origin when the context opens (e.g. a session signed in over HTTP). */
  localStorage?: Readonly<Record<string, string>>;
}

/** A plain phone browser (Chrome on Android) for journeys without a wallet inside. */
export const ANDROID_CHROME =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';

/**
 * Opens a new context like a phone's wallet browser: 375×812 CSS pixels at 2×, mobile viewport and touch.
 *
 * @param browser - from launchBrowser
 * @param options - locale and base URL
 * @returns the context; close it after the test
 * @example
 * const context = await newPhoneContext(browser, { baseURL: server.url, locale: 'fr-FR' });
 */
export async function newPhoneContext(browser: Browser, { locale = 'en-US', baseURL, userAgent, localStorage }: PhoneContextOptions): Promise<BrowserContext> {
  const context = await browser.newContext({
    ...(userAgent ? { userAgent } : {}),
    ...(localStorage
      ? { storageState: { cookies: [], origins: [{ origin: new URL(baseURL).origin, localStorage: Object.entries(localStorage).map(([name, value]) => ({ name, value })) }] } }
      : {}),
    baseURL,
    locale,
    viewport: { width: 375, height: 812 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    serviceWorkers: 'block',
  });
  // Fail fast: a journey step that does not happen in 10 s will not happen.
  context.setDefaultTimeout(10_000);
  context.setDefaultNavigationTimeout(15_000);
  return context;
}

/** Uncaught errors and console errors of a page, for a journey to assert there are none. */
export interface PageProblems {
  errors: string[];
  /**
   * Content-Security-Policy and Permissions-Policy violations: `securitypolicyviolation` events and Chromium's
   * console reports of them. The journeys run under the server's real CSP; any entry fails the journey.
   */
  policyViolations: string[];
}

/** Chromium's console words for a blocked resource or a bad policy header. */
const POLICY_CONSOLE_MESSAGE = /content security policy|permissions[- ]policy|refused to (load|apply|execute|evaluate|connect|frame)/i;

/**
 * Reports every `securitypolicyviolation` event of the context's pages to the test, from before any page
 * script runs. Call before the first page is opened.
 *
 * @param context - a new context
 * @param problems - where violations are recorded
 * @returns when the reporter is installed
 * @example
 * const problems = { errors: [], policyViolations: [] };
 * await reportPolicyViolations(context, problems);
 */
export async function reportPolicyViolations(context: BrowserContext, problems: PageProblems): Promise<void> {
  await context.exposeBinding('__reportPolicyViolation', (_source, text: string) => {
    problems.policyViolations.push(`securitypolicyviolation: ${text}`);
  });
  await context.addInitScript(() => {
    const report = (window as unknown as { __reportPolicyViolation: (text: string) => void }).__reportPolicyViolation;
    document.addEventListener('securitypolicyviolation', (event) => {
      report(`${event.effectiveDirective} blocked ${event.blockedURI || '(inline)'} at ${event.sourceFile}:${event.lineNumber} ${event.sample}`);
    });
  });
}

/**
 * Records the page's uncaught exceptions (pageerror) and its console reports of policy violations.
 *
 * @param page - the page to watch
 * @param problems - an existing record to add to (reportPolicyViolations fills the same one)
 * @returns the live record
 * @example
 * const problems = watchPage(page); ...; expect(problems.errors).toEqual([]);
 */
export function watchPage(page: Page, problems: PageProblems = { errors: [], policyViolations: [] }): PageProblems {
  page.on('pageerror', (error) => problems.errors.push(error.stack ?? error.message));
  page.on('console', (message) => {
    if (POLICY_CONSOLE_MESSAGE.test(message.text())) problems.policyViolations.push(`console ${message.type()}: ${message.text()}`);
  });
  return problems;
}

/**
 * A journey's step screenshots cost a PNG encode of a 2× phone screen each (60 in the e2e files) for images nobody
 * opened when the journey passed: they are saved with E2E_SCREENSHOTS=1, and a failing journey's pages are saved
 * anyway (setupJourneys, support/journey.ts).
 */
const saveStepScreenshots = process.env.E2E_SCREENSHOTS === '1';

/**
 * Saves a screenshot of the viewport under test-results/screenshots/ (git-ignored) when E2E_SCREENSHOTS=1.
 *
 * @param page - the page
 * @param name - file name without extension
 * @returns the file path, or undefined when step screenshots are off
 * @example
 * await screenshot(page, 'login');
 */
export async function screenshot(page: Page, name: string): Promise<string | undefined> {
  return saveStepScreenshots ? saveScreenshot(page, name) : undefined;
}

/**
 * Saves a screenshot of the viewport under test-results/screenshots/<name>.png.
 *
 * @returns the file path
 * @example await saveScreenshot(page, 'failed-sign-in');
 */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  await mkdir(screenshotDir, { recursive: true });
  const file = path.join(screenshotDir, `${name}.png`);
  await page.screenshot({ path: file, animations: 'disabled' });
  return file;
}
