/**
 * The visual checks themselves (tests/e2e/support/visualChecks.ts), on a page made to break each rule once: a
 * check that stopped finding what it looks for would let every screen pass.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { newPhoneContext, releaseWorkerBrowser, workerBrowser } from './browser';
import { viewportWidth } from './visual';
import { checkAxe, checkOverflow, checkTouchTargets, colourRules, installAxe, layoutFingerprint } from './visualChecks';

const brokenPage = `<!doctype html>
<html lang="en"><head><meta name="viewport" content="width=device-width, initial-scale=1"><title>broken</title></head>
<body style="margin:0">
  <main>
    <h1>Broken on purpose</h1>
    <div id="too-wide" style="width:500px"><div>wider than the phone</div></div>
    <div style="overflow-x:auto;width:300px"><div id="scrolls-inside" style="width:800px">in a scroller</div></div>
    <button id="tiny" style="height:20px;font-size:12px">Tiny</button>
    <button style="height:48px">Big enough</button>
    <a href="#nowhere" aria-label="Hidden link" style="display:none">hidden</a>
    <input aria-label="Code" style="height:30px;box-sizing:border-box">
    <p style="color:#c8c8c8;background:#ffffff">Low contrast text</p>
  </main>
</body></html>`;

let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  browser = await workerBrowser();
  context = await newPhoneContext(browser, { baseURL: 'http://checks.test' });
  page = await context.newPage();
  await page.setContent(brokenPage);
});
afterAll(async () => {
  await releaseWorkerBrowser(browser);
});

describe('visual checks', () => {
  it('overflow: names the outermost element past the right edge, not what a scroller clips', async () => {
    const lines = await checkOverflow(page, viewportWidth);
    expect(lines[0]).toMatch(/^document scrolls sideways: scrollWidth 500 > clientWidth 375$/);
    expect(lines.slice(1)).toEqual(['div#too-wide: right edge at 500 px > viewport 375 px (and 1 element(s) inside it)']);
  });

  it('touch targets: names every visible control under 44 px with its text or label', async () => {
    const lines = await checkTouchTargets(page);
    expect(lines).toEqual([
      expect.stringMatching(/^button#tiny "Tiny": 20 px tall \(.+ px wide\), needs 44$/),
      expect.stringMatching(/^main > input aria-label "Code": 30 px tall \(.+ px wide\), needs 44$/),
    ]);
  });

  it('axe: reports serious violations (contrast) with rule, target and summary', async () => {
    const lines = await checkAxe(page);
    expect(lines).toEqual([expect.stringMatching(/^color-contrast \[serious\] p: Fix any of the following: Element has insufficient color contrast/)]);
  });

  it('axe: a second run on the same document sees what changed since the first', async () => {
    await page.evaluate(() => document.querySelector('p')?.style.setProperty('color', '#333333'));
    expect(await checkAxe(page)).toEqual([]);
    await page.evaluate(() => document.querySelector('p')?.style.setProperty('color', '#d0d0d0'));
    expect(await checkAxe(page)).toEqual([expect.stringMatching(/^color-contrast \[serious\] p: /)]);
  });

  it('axe: the colour rules alone report contrast and leave the other rules out', async () => {
    await page.evaluate(() => document.querySelector('main')?.insertAdjacentHTML('beforeend', '<button id="nameless" style="height:48px"></button>'));
    try {
      expect(await checkAxe(page)).toEqual(expect.arrayContaining([expect.stringMatching(/^button-name \[critical\] #nameless: /)]));
      expect(await checkAxe(page, colourRules)).toEqual([expect.stringMatching(/^color-contrast \[serious\] p: /)]);
    } finally {
      await page.evaluate(() => document.getElementById('nameless')?.remove());
    }
  });

  it('layout fingerprint: the same after a colour change, another when a box or the markup changes', async () => {
    await page.evaluate(() => document.head.insertAdjacentHTML('beforeend', '<style>@media (prefers-color-scheme: dark) { h1 { background: #000000 } }</style>'));
    const before = await layoutFingerprint(page);
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await page.evaluate(() => getComputedStyle(document.querySelector('h1') as Element).backgroundColor)).toBe('rgb(0, 0, 0)');
    expect(await layoutFingerprint(page)).toBe(before);
    await page.emulateMedia({ colorScheme: 'light' });
    await page.evaluate(() => document.getElementById('tiny')?.style.setProperty('height', '21px'));
    const resized = await layoutFingerprint(page);
    expect(resized).not.toBe(before);
    await page.evaluate(() => document.getElementById('tiny')?.setAttribute('aria-hidden', 'true'));
    expect(await layoutFingerprint(page)).not.toBe(resized);
  });

  it('installAxe: every document of the context has axe-core before the page runs anything', async () => {
    const own = await newPhoneContext(browser, { baseURL: 'http://checks.test' });
    try {
      await installAxe(own);
      const fresh = await own.newPage();
      await fresh.setContent('<!doctype html><html lang="en"><body><script>window.seenAxe = typeof axe;</script></body></html>');
      expect(await fresh.evaluate(() => (window as unknown as { seenAxe: string }).seenAxe)).toBe('object');
    } finally {
      await own.close();
    }
  });
});
