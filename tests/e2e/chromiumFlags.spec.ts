/**
 * The worker's Chromium (support/browser.ts): its one --disable-features keeps every feature Playwright's own launch
 * disables (Chromium obeys only the last of the switch), and adds the address bar's WebUI popups, which a default
 * launch loads for each new context (seen here as browser_ui targets) and the worker's browser never does.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';
import { chromiumPath, omniboxPopupFeatures, playwrightDisabledFeatures, releaseWorkerBrowser, workerBrowser } from './support/browser';

/** Chromium's browser processes (not its renderers, GPU or utility processes) started under this test worker. */
function browserProcesses(): Map<number, string[]> {
  const found = new Map<number, string[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').filter(Boolean);
      if (!args[0]?.endsWith('/chromium') || args.some((arg) => arg.startsWith('--type='))) continue;
      // A browser an earlier file's worker browser left exiting (a zombie until reaped) is not one that runs.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) continue;
      if (descendsFromThisProcess(Number(entry))) found.set(Number(entry), args);
    } catch {
      // The process ended while it was read.
    }
  }
  return found;
}

function descendsFromThisProcess(pid: number): boolean {
  for (let current = pid; current > 1; ) {
    if (current === process.pid) return true;
    const stat = readFileSync(`/proc/${current}/stat`, 'utf8');
    current = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  }
  return false;
}

/** The features the last --disable-features names: the one Chromium obeys. */
const disabledFeatures = (args: readonly string[]): string[] =>
  args.findLast((arg) => arg.startsWith('--disable-features='))?.slice('--disable-features='.length).split(',') ?? [];

/** The browser_ui targets (the address bar's popups) once a new context has shown a page for a while. */
async function browserUiAfterNewContext(browser: Browser, waitMs: number): Promise<string[]> {
  const cdp = await browser.newBrowserCDPSession();
  const context = await browser.newContext();
  try {
    await (await context.newPage()).setContent('<p>blank</p>');
    const deadline = Date.now() + waitMs;
    for (;;) {
      const { targetInfos } = await cdp.send('Target.getTargets', { filter: [{}] });
      const popups = targetInfos.filter((target) => target.type === 'browser_ui').map((target) => target.url);
      if (popups.length > 0 || Date.now() > deadline) return popups;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await context.close();
    await cdp.detach();
  }
}

describe("the worker's Chromium", () => {
  let defaultLaunch: Browser | undefined;
  let defaultPid: number | undefined;
  let defaultArgs: string[] = [];
  let worker: Browser | undefined;

  beforeAll(async () => {
    worker = await workerBrowser();
    const before = browserProcesses();
    defaultLaunch = await chromium.launch({ executablePath: chromiumPath, headless: true, args: ['--headless', '--no-sandbox'] });
    [defaultPid, defaultArgs] = [...browserProcesses()].find(([pid]) => !before.has(pid)) ?? [undefined, []];
  });
  afterAll(async () => {
    await defaultLaunch?.close();
    await releaseWorkerBrowser(worker);
  });

  it("disables every feature Playwright's own launch disables, and the address bar's popups", () => {
    expect(disabledFeatures(defaultArgs)).toEqual(playwrightDisabledFeatures);
    // The worker's browser, and any it launched before (one that disconnected is replaced, and may still be exiting):
    // every one of them disables the features.
    const workerArgs = [...browserProcesses()].filter(([pid]) => pid !== defaultPid).map(([, args]) => args);
    expect(workerArgs.length).toBeGreaterThan(0);
    for (const args of workerArgs) expect(disabledFeatures(args)).toEqual([...playwrightDisabledFeatures, ...omniboxPopupFeatures]);
  });

  it('loads no address-bar popup for a new context, where a default launch loads them', async () => {
    if (!defaultLaunch || !worker) throw new Error('no browsers');
    const started = Date.now();
    expect(await browserUiAfterNewContext(defaultLaunch, 10_000)).not.toEqual([]);
    // As long as the default launch took to show them, and a second more.
    expect(await browserUiAfterNewContext(worker, Date.now() - started + 1_000)).toEqual([]);
  });
});
