/**
 * index.html goes out with a preload of the locale files the page will ask for, in the language the app will pick
 * (server/plugins/localePreload.ts), so they load beside the app's script instead of after it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeNamespaces, routes } from '../../src/app/routes';
import { FIRST_VISIT_NAMESPACES, guessLanguage, localePreloadLink } from '../../server/plugins/localePreload';
import { describeWithDatabases } from './support/harness';
import { createStaticSite, type StaticSite } from './support/staticSite';

describe('guessLanguage', () => {
  it.each([
    [{ acceptLanguage: 'en-US,en;q=0.9' }, 'en'],
    [{ acceptLanguage: 'zh-CN,zh;q=0.9,en;q=0.8' }, 'zh'],
    [{ acceptLanguage: 'fr-FR,fr;q=0.9,en;q=0.5' }, 'en'],
    [{ acceptLanguage: 'fr;q=1, zh-Hant;q=0.8, en;q=0.9' }, 'en'],
    [{ acceptLanguage: 'fr' }, 'zh'],
    [{}, 'zh'],
    [{ query: 'en', acceptLanguage: 'zh-CN' }, 'en'],
    [{ cookie: 'a=1; i18next=en', acceptLanguage: 'zh-CN' }, 'en'],
    [{ query: 'xx', cookie: 'i18next=zh', acceptLanguage: 'en' }, 'zh'],
  ] as const)('behavior: %j → %s, in the app detector’s order', (hints, language) => {
    expect(guessLanguage(hints)).toBe(language);
  });
});

describe('localePreloadLink', () => {
  it.each(Object.keys(FIRST_VISIT_NAMESPACES))('behavior: /%s preloads the namespaces its route declares', (section) => {
    const pathname = `/${section}/DEMO2026`;
    const link = localePreloadLink(pathname, { acceptLanguage: 'en' });
    const preloaded = [...link.matchAll(/<\/locales\/en\/(\w+)\.json>; rel=preload; as=fetch; crossorigin/g)].map((match) => match[1]);
    expect(preloaded).toEqual(['common', ...routeNamespaces(routes, { pathname })]);
  });

  it('behavior: another page preloads common only', () => {
    expect(localePreloadLink('/home', { acceptLanguage: 'zh-CN' })).toBe('</locales/zh/common.json>; rel=preload; as=fetch; crossorigin');
  });
});

describeWithDatabases('index.html preloads its locale files', (ctx) => {
  let site: StaticSite;
  beforeAll(async () => {
    site = await createStaticSite('md-preload-', { spa: { 'index.html': '<!doctype html><title>Member DApp</title>' }, locales: {}, beside: {} });
  });
  afterAll(async () => {
    await site.remove();
  });

  it('behavior: /login/DEMO2026 for an English browser links the English common and login files', async () => {
    const app = await ctx.app({ spaDir: site.spaDir, localesDir: site.localesDir });
    const response = await app.inject({ method: 'GET', url: '/login/DEMO2026?lng=en', headers: { 'accept-language': 'zh-CN' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers.link).toBe(
      '</locales/en/common.json>; rel=preload; as=fetch; crossorigin, </locales/en/login.json>; rel=preload; as=fetch; crossorigin',
    );
  });
});
