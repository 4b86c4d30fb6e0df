/**
 * The product owner's atlas at /atlas in Debian Chromium against the real server: its start page, both
 * indexes and machine pages open with no console error, page error or CSP violation, read on a phone (375 px, no
 * sideways overflow of the page itself: wide diagrams scroll inside their frame) and on a desktop, and pass axe with
 * no serious or critical violation. A journey picked on a page lights its path in the diagram.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext } from 'playwright-core';
import { releaseWorkerBrowser, reportPolicyViolations, watchPage, workerBrowser } from './support/browser';
import type { PageProblems } from './support/browser';
import { startServer } from './support/server';
import type { TestServer } from './support/server';
import { checkAxe, installAxe } from './support/visualChecks';

const pages = ['/atlas/', '/atlas/zh/index.html', '/atlas/en/index.html', '/atlas/zh/wallet.html', '/atlas/en/withdraw.html', '/atlas/zh/settlement.html'];
const viewports = [
  { name: 'phone', width: 375, height: 812 },
  { name: 'desktop', width: 1280, height: 900 },
];

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), workerBrowser()]);
});

afterAll(async () => {
  await releaseWorkerBrowser(browser);
  await server?.stop();
});

describe('the atlas in Chromium', () => {
  for (const viewport of viewports) {
    it(`opens without errors and passes axe on a ${viewport.name} (${viewport.width} px)`, async () => {
      const context: BrowserContext = await browser.newContext({ baseURL: server.url, viewport, locale: 'zh-CN' });
      const problems: PageProblems = { errors: [], policyViolations: [] };
      await installAxe(context);
      await reportPolicyViolations(context, problems);
      const page = await context.newPage();
      watchPage(page, problems);
      const consoleErrors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') consoleErrors.push(message.text());
      });
      try {
        for (const url of pages) {
          const response = await page.goto(url);
          expect(response?.status(), url).toBe(200);
          await page.waitForLoadState('load');
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
          expect(overflow, `${url}: the page scrolls sideways`).toBeLessThanOrEqual(0);
          expect(await checkAxe(page), `${url}: serious or critical axe violations`).toEqual([]);
        }
        expect(consoleErrors).toEqual([]);
        expect(problems).toEqual({ errors: [], policyViolations: [] });
      } finally {
        await context.close();
      }
    });
  }

  it('lights a picked journey in the diagram, and hides error paths on request', async () => {
    const page = await browser.newPage({ baseURL: server.url, viewport: { width: 375, height: 812 } });
    try {
      await page.goto('/atlas/en/withdraw.html');
      const journey = page.locator('details.journey').first();
      await journey.locator('summary').click();
      await journey.locator('a.highlight').click();
      await expect.poll(() => page.locator('main.lighting .diagram .edge.lit').count()).toBeGreaterThan(2);
      await page.getByRole('button', { name: 'Clear' }).click();
      expect(await page.locator('main.lighting').count()).toBe(0);
      await page.getByLabel('Show error paths').uncheck();
      expect(await page.locator('.diagram .edge.error').first().isVisible()).toBe(false);
    } finally {
      await page.close();
    }
  });
});
