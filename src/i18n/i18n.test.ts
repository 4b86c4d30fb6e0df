// @vitest-environment jsdom
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Resource } from 'i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { detectionOptions, i18nOptions, initI18n, namespaces, startNamespaces, supportedLanguages } from './i18n';

const localesDir = `${resolve(dirname(fileURLToPath(import.meta.url)), '../../locales')}/`;
const readLocale = (lng: string, ns: string): unknown => JSON.parse(readFileSync(`${localesDir}${lng}/${ns}.json`, 'utf8'));

const resources: Resource = Object.fromEntries(
  supportedLanguages.map((lng) => [lng, Object.fromEntries(namespaces.map((ns) => [ns, readLocale(lng, ns)]))]),
) as Resource;

/** Answers fetch with the repository's locale files, as the server does; returns the URLs asked for. */
function serveLocales(): string[] {
  const urls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = String(input);
      urls.push(url);
      const [, , lng = '', file = ''] = url.split('/');
      return new Response(JSON.stringify(readLocale(lng, file.replace('.json', ''))), { status: 200 });
    }),
  );
  return urls;
}

afterEach(() => {
  localStorage.clear();
  window.history.replaceState(null, '', '/');
  vi.unstubAllGlobals();
});

describe('i18n options', () => {
  it('behavior: detection order, query key and cache are the spec ones', () => {
    expect(detectionOptions).toMatchInlineSnapshot(`
      {
        "caches": [
          "localStorage",
        ],
        "lookupLocalStorage": "i18nextLng",
        "lookupQuerystring": "lng",
        "order": [
          "querystring",
          "cookie",
          "localStorage",
          "sessionStorage",
          "navigator",
          "htmlTag",
        ],
      }
    `);
    expect(i18nOptions()).toMatchObject({ fallbackLng: { default: ['zh'] }, supportedLngs: ['zh', 'en'], defaultNS: 'common', backend: { loadPath: '/locales/{{lng}}/{{ns}}.json' } });
  });
});

describe('initI18n', () => {
  it.each([
    ['zh', 'zh', '请先登录'],
    ['en', 'en', 'Please sign in first.'],
    ['en-US', 'en', 'Please sign in first.'],
    ['zh-CN', 'zh', '请先登录'],
    ['fr', 'zh', '请先登录'],
  ])('behavior: language %s resolves to %s', async (lng, resolved, text) => {
    const i18n = await initI18n({ lng, resources });
    expect(i18n.resolvedLanguage).toBe(resolved);
    expect(i18n.t('Common.1002')).toBe(text);
  });

  it('behavior: a missing key comes back as the key (the API client relies on it)', async () => {
    const i18n = await initI18n({ lng: 'en', resources });
    expect(i18n.t('Common.9999')).toBe('Common.9999');
  });

  it('behavior: screen namespaces and the common fallback both resolve', async () => {
    const i18n = await initI18n({ lng: 'en', resources });
    expect(i18n.t('login:connect.label')).toBe('Connect wallet');
    expect(i18n.t('wallet.errors.UserRejectedError', { ns: 'login' })).toBe('You cancelled the request in your wallet.');
  });

  it('behavior: ?lng=en wins over the browser language and is cached in localStorage', async () => {
    window.history.replaceState(null, '', '/login?lng=en');
    const i18n = await initI18n({ resources });
    expect(i18n.resolvedLanguage).toBe('en');
    expect(localStorage.getItem('i18nextLng')).toBe('en');
  });

  it('behavior: the cached language is used when the query has none', async () => {
    localStorage.setItem('i18nextLng', 'en');
    const i18n = await initI18n({ resources });
    expect(i18n.resolvedLanguage).toBe('en');
  });

  it('behavior: translations are fetched from /locales/{lng}/{ns}.json', async () => {
    const urls = serveLocales();
    const i18n = await initI18n({ lng: 'en-US' });
    // The language only (en is complete, so no zh fallback), every start namespace (the others load with their
    // screens), and never a region variant such as en-US.
    const expected = startNamespaces.map((ns) => `/locales/en/${ns}.json`);
    expect([...urls].sort()).toEqual(expected.sort());
    expect(i18n.t('Common.5000')).toBe('The server is busy. Please try again later.');
  });

  it("behavior: a first page's namespaces are all a start fetches; zh, the fallback of other languages, is loaded for them", async () => {
    const urls = serveLocales();
    await initI18n({ lng: 'en', ns: ['login'] });
    expect([...urls].sort()).toEqual(['/locales/en/common.json', '/locales/en/login.json']);
    urls.length = 0;
    const french = await initI18n({ lng: 'fr', ns: ['login'] });
    expect([...urls].sort()).toEqual(['/locales/zh/common.json', '/locales/zh/login.json']);
    expect(french.t('Common.1002')).toBe('请先登录');
  });
});
