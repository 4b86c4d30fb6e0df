/**
 * The sign-in page's first paint needs no script: the server sends its title and welcome in index.html
 * (server/plugins/loginShell.ts), in the reader's language, at their final size (the root font size is in CSS).
 * With the script, the app's page puts the same welcome at the same place.
 */
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshot } from './support/browser';
import { setupJourneys } from './support/journey';

const e2e = setupJourneys();

async function heroOn(browser: Browser, javaScriptEnabled: boolean, locale: string) {
  const context = await browser.newContext({ baseURL: e2e.server.url, locale, javaScriptEnabled, viewport: { width: 375, height: 812 }, isMobile: true });
  try {
    const page = await context.newPage();
    await page.goto('/login/DEMO2026');
    if (javaScriptEnabled) await page.locator('.notice').waitFor();
    const lead = page.locator('.hero-lead');
    return { page, context, title: await page.getByRole('heading', { level: 1 }).textContent(), lead: await lead.textContent(), box: await lead.boundingBox() };
  } catch (error) {
    await context.close();
    throw error;
  }
}

describe('the sign-in page before its script', () => {
  it.each([
    ['en-US', 'Sign in', 'Connect your wallet and sign a message to sign in. Signing costs nothing.'],
    ['zh-CN', '登录', '连接钱包并签名即可登录，签名不会产生任何费用'],
  ])('behavior: %s shows the title and welcome without JavaScript, where the app then shows them', async (locale, title, lead) => {
    const without = await heroOn(e2e.browser, false, locale);
    await screenshot(without.page, `first-paint.${locale}`);
    await without.context.close();
    const withScript = await heroOn(e2e.browser, true, locale);
    await withScript.context.close();
    expect({ title: without.title, lead: without.lead }).toEqual({ title, lead });
    expect({ title: withScript.title, lead: withScript.lead }).toEqual({ title, lead });
    expect(without.box?.width).toBeGreaterThan(250);
    expect(without.box).toEqual(withScript.box);
  });
});

describe('the sign-in page’s texts', () => {
  const localeRequests = async (locale: string, storedLanguage?: string) => {
    const context = await e2e.browser.newContext({ baseURL: e2e.server.url, locale, viewport: { width: 375, height: 812 }, isMobile: true });
    try {
      if (storedLanguage) await context.addInitScript((language) => window.localStorage.setItem('i18nextLng', language), storedLanguage);
      const page = await context.newPage();
      const requested: string[] = [];
      page.on('request', (request) => {
        const { pathname } = new URL(request.url());
        if (pathname.startsWith('/locales/')) requested.push(pathname);
      });
      await page.goto('/login/DEMO2026');
      await page.locator('.notice').waitFor();
      return { requested, title: await page.getByRole('heading', { level: 1 }).textContent(), lang: await page.locator('html').getAttribute('lang') };
    } finally {
      await context.close();
    }
  };

  it('behavior: come in the document: the app fetches none of the page’s texts in the language the server guessed', async () => {
    const { requested, title, lang } = await localeRequests('en-US');
    expect({ title, lang }).toEqual({ title: 'Sign in', lang: 'en' });
    expect(requested.filter((file) => /^\/locales\/en\/(common|login)\.json$/.test(file))).toEqual([]);
  });

  it('behavior: a member whose stored language the server could not see gets theirs fetched, and reads it', async () => {
    const { requested, title, lang } = await localeRequests('zh-CN', 'en');
    expect({ title, lang }).toEqual({ title: 'Sign in', lang: 'en' });
    expect(requested).toEqual(expect.arrayContaining(['/locales/en/common.json', '/locales/en/login.json']));
  });
});

