/**
 * The visual check of the operators' desk: every desk screen, at 375 px (a phone: 375×812 at 2×, touch),
 * at 900 px (a tablet held sideways, touch: the narrowest width with tables) and at 1280 px (a desk), in zh and en, light and dark, with the member screens' checks (visualChecks.ts): settled,
 * no sideways overflow, touch targets at least 44 px tall on the phone and the tablet, no serious or critical axe-core violation,
 * no CSP or Permissions-Policy violation nor page error. A screen that fails one (every screen with VISUAL_SCREENSHOTS=1)
 * is saved as test-results/visual/<screen>.<lng>.<scheme>.png at 375 px and <screen>-<width>.<lng>.<scheme>.png at
 * 900 and 1280 px; failures are gathered in report-ops-<lng>.txt.
 *
 * One spec file per language (tests/e2e/visual.ops.<lng>.spec.ts), beside the member screens' two: each file has one
 * server (with a chain, so reconcile reads one) and the worker's browser; each width one context signed in once
 * with the seed's demo operator (docs/operations.md, "Operators"), each screen opened once and shown light then dark on
 * the same page. (One file per language and width cost a server and its chain more each, for nothing the files shared.)
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DEMO_OPERATOR_KEY } from '../../../server/ops/demoOperator';
import { TEST_NODE_CHAIN_ID } from '../../server/support/testChain';
import { TestWallet } from './wallet/testWallet';
import { newPhoneContext, releaseWorkerBrowser, reportPolicyViolations, watchPage, workerBrowser } from './browser';
import type { PageProblems } from './browser';
import { startServer } from './server';
import type { TestServer } from './server';
import { ScreenNavigation, answerCalls, colorSchemes, inEachScheme, uncalledProblems, expectClean, formatReport, localeOf, saveScreenshotWhenAsked, translate, variantName, visualDir } from './visual';
import type { Lng, VisualResult } from './visual';
import { NetworkWatch, checkAxe, checkOverflow, checkTouchTargets, colourRules, installAxe, layoutFingerprint, settle } from './visualChecks';
import { deskScreens } from './visualDeskScreens';
import type { DeskScreen } from './visualDeskScreens';

/** The phone's width, a tablet's (the narrowest where the lists are tables, touch still) and the desk's. */
export type Width = 375 | 900 | 1280;
const widths: readonly Width[] = [375, 900, 1280];
/** Widths held by a finger: 44 px targets. */
const touchWidths: readonly Width[] = [375, 900];

const shotName = (screen: string, width: Width) => (width === 375 ? screen : `${screen}-${width}`);

let server: TestServer | undefined;
let browser: Browser | undefined;
const results: VisualResult[] = [];
/** One language at one width: a context with the demo operator's wallet, its page, and what it reports. */
class DeskVariant {
  private context: BrowserContext | null = null;
  private page: Page | null = null;
  private network: NetworkWatch | null = null;
  private readonly problems: PageProblems = { errors: [], policyViolations: [] };
  private signedIn = false;
  private readonly navigation = new ScreenNavigation();

  constructor(
    readonly lng: Lng,
    readonly width: Width,
  ) {}

  private async open(): Promise<{ page: Page; network: NetworkWatch }> {
    if (this.page && this.network) return { page: this.page, network: this.network };
    if (!server || !browser) throw new Error('no server or browser');
    const options = { baseURL: server.url, locale: localeOf[this.lng] };
    const context =
      this.width === 375
        ? await newPhoneContext(browser, options)
        : await browser.newContext({ ...options, viewport: { width: this.width, height: 800 }, hasTouch: this.width === 900, serviceWorkers: 'block' });
    context.setDefaultTimeout(10_000);
    this.context = context;
    await installAxe(context);
    await reportPolicyViolations(context, this.problems);
    await TestWallet.install(context, { chainId: TEST_NODE_CHAIN_ID, privateKeys: [DEMO_OPERATOR_KEY], ...(server.chain ? { rpcUrl: server.chain.node.url } : {}) });
    this.page = await context.newPage();
    watchPage(this.page, this.problems);
    this.network = new NetworkWatch(this.page);
    return { page: this.page, network: this.network };
  }

  /**
   * The sign-in screen as an operator first sees it (measured when asked), then the sign-in itself (connect, sign
   * the desk's message), once per context.
   */
  async signIn(measure = true): Promise<VisualResult[]> {
    const { page, network } = await this.open();
    await page.emulateMedia({ colorScheme: colorSchemes[0] });
    await page.goto('/ops');
    const signIn = page.getByRole('button', { name: translate(this.lng, 'ops:signIn.action'), exact: true });
    const connect = page.getByRole('button', { name: translate(this.lng, 'common:wallet.actions.connect'), exact: true });
    const desk = page.getByRole('navigation', { name: translate(this.lng, 'ops:shell.menu') });
    // The desk itself when an earlier sign-in of this context ended after its test had given up on it: the session is
    // the context's, and waiting for a sign-in button then failed every later screen of the file.
    await signIn.or(connect).or(desk).first().waitFor();
    if (await desk.isVisible()) {
      this.signedIn = true;
      if (measure) throw new Error('the desk opened signed in: its sign-in screen was not shown');
      return [];
    }
    const shown = measure ? await this.measureInEachScheme({ name: 'ops-sign-in', path: '/ops' }, page, network, '/ops') : [];
    if (await connect.isVisible()) await connect.click();
    await signIn.click();
    // A whole sign-in (the wallet signs, the server checks the signature and the operator): past the 10 s default on a
    // saturated host (seen at a load of 15-20).
    await desk.waitFor({ timeout: 30_000 });
    this.signedIn = true;
    this.navigation.showsApp();
    return shown;
  }

  async check(screen: DeskScreen): Promise<VisualResult[]> {
    // A screen run alone (vitest -t) signs in first.
    if (!this.signedIn) await this.signIn(false);
    const { page, network } = await this.open();
    this.problems.errors.length = 0;
    this.problems.policyViolations.length = 0;
    await page.emulateMedia({ colorScheme: colorSchemes[0] });
    const answered = await answerCalls(page, screen.answered ?? {});
    try {
      await this.navigation.open(page, screen.path);
      await answered.allCalled(10_000);
      return await this.measureInEachScheme(screen, page, network, new URL(screen.path, 'http://x').pathname, (layout) => [...this.navigation.settled(layout), ...uncalledProblems(answered)]);
    } finally {
      await answered.restore();
    }
  }

  /**
   * The opened screen in each colour scheme, as the member harness measures it (tests/e2e/support/visual.ts).
   *
   * @param arrived - given the layout as loaded, what fails the screen beside the checks (ScreenNavigation.settled)
   */
  private measureInEachScheme(
    screen: DeskScreen,
    page: Page,
    network: NetworkWatch,
    expectPath: string,
    arrived?: (layout: string) => string[],
  ): Promise<VisualResult[]> {
    return inEachScheme(page, this.problems, async ({ colorScheme, loaded, loadedLayout }) => {
      const settleProblems = await settle(page, { network, lng: this.lng, colorScheme, schemeSwitchOnly: !loaded });
      const pathname = new URL(page.url()).pathname;
      if (pathname !== expectPath) settleProblems.unshift(`expected to stay on ${expectPath}, the desk went to ${pathname}`);
      // After a colour-scheme switch that left markup and boxes as they were, only the colour rules can differ.
      const layout = await layoutFingerprint(page);
      if (loaded && arrived) settleProblems.push(...arrived(layout));
      const result: VisualResult = {
        screen: shotName(screen.name, this.width),
        path: screen.path,
        variant: variantName(this.lng, colorScheme),
        url: page.url(),
        screenshot: undefined,
        settle: settleProblems,
        overflow: await checkOverflow(page, this.width),
        // 44 px targets are the finger's rule (phone and tablet); a desk's mouse needs no more than the design gives.
        touchTargets: touchWidths.includes(this.width) ? await checkTouchTargets(page) : [],
        axe: await checkAxe(page, loadedLayout === layout ? colourRules : undefined),
        policy: [...this.problems.policyViolations, ...this.problems.errors.map((error) => `page error: ${error}`)],
      };
      result.screenshot = await saveScreenshotWhenAsked(page, `${shotName(screen.name, this.width)}.${variantName(this.lng, colorScheme)}`, result);
      results.push(result);
      return { result, layout };
    });
  }

  async close(): Promise<void> {
    await this.context?.close();
    this.context = null;
  }
}

/**
 * The file's tests: every desk screen in one language, at 375, 900 and 1280 px, light and dark, on one server.
 *
 * @example describeDeskScreens('zh'); // tests/e2e/visual.ops.zh.spec.ts
 */
export function describeDeskScreens(lng: Lng): void {
  const report = `report-ops-${lng}`;
  beforeAll(async () => {
    // The module outlives the file (the e2e project keeps one module graph per worker): this file's results only.
    results.length = 0;
    [server, browser] = await Promise.all([startServer({ chain: true, demoOperator: true, fastRounds: false }), workerBrowser()]);
  });
  afterAll(async () => {
    await mkdir(visualDir, { recursive: true });
    await writeFile(path.join(visualDir, `${report}.json`), `${JSON.stringify(results, null, 2)}\n`);
    await writeFile(path.join(visualDir, `${report}.txt`), formatReport(results));
    await releaseWorkerBrowser(browser);
    await server?.stop();
  });
  for (const width of widths) {
    describe(`desk screens in ${lng} at ${width} px`, () => {
      const variant = new DeskVariant(lng, width);
      afterAll(() => variant.close());
      it('ops-sign-in (/ops)', async () => {
        expectClean(await variant.signIn());
      });
      for (const screen of deskScreens) {
        it(`${screen.name} (${screen.path})`, async () => {
          expectClean(await variant.check(screen));
        });
      }
    });
  }
}
