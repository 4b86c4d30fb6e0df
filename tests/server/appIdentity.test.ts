/**
 * The app's icons and web app manifest (server/plugins/appIdentity.ts): the manifest is served as
 * application/manifest+json in the browser's language, names icons that exist, and uses the theme's colours; the
 * icons come with their types and a validator.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ICON_PATHS, MANIFEST_PATH, PAGE_COLOUR, webManifest } from '../../server/plugins/appIdentity';
import { BRAND } from '../../scripts/icons/draw';
import { describeWithDatabases } from './support/harness';
import { createStaticSite, type StaticSite } from './support/staticSite';

const repoRoot = path.resolve(import.meta.dirname, '../..');

describeWithDatabases('the app’s icons and manifest', (ctx) => {
  let site: StaticSite;
  beforeAll(async () => {
    site = await createStaticSite('md-identity-', {
      spa: { 'index.html': '<!doctype html><div id="root"></div>' },
      locales: { 'en/common.json': JSON.stringify({ layout: { appName: 'Member DApp' } }), 'zh/common.json': JSON.stringify({ layout: { appName: '会员 DApp' } }) },
      beside: {},
    });
  });
  afterAll(async () => {
    await site.remove();
  });

  const get = async (url: string, headers: Record<string, string> = {}) => {
    const app = await ctx.app({ spaDir: site.spaDir, localesDir: site.localesDir });
    return app.inject({ method: 'GET', url, headers });
  };

  it.each([
    ['en-US,en;q=0.9', 'en', 'Member DApp'],
    ['zh-CN', 'zh', '会员 DApp'],
    ['fr', 'zh', '会员 DApp'],
  ])('behavior: Accept-Language %s gets the manifest in %s, as application/manifest+json', async (acceptLanguage, lang, name) => {
    const response = await get(MANIFEST_PATH, { 'accept-language': acceptLanguage });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/manifest+json; charset=utf-8');
    expect(String(response.headers.vary)).toMatch(/accept-language/i);
    expect(response.headers['cache-control']).toBe('no-cache');
    const manifest = response.json<ReturnType<typeof webManifest>>();
    expect(manifest).toEqual(webManifest(lang, name));
    expect(manifest).toMatchObject({ name, short_name: name, lang, start_url: '/', display: 'standalone' });
    expect(manifest.icons.map((icon) => icon.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
  });

  // A first visit fetches both; each is under the 512 B threshold of other answers (bench/README.md section 1).
  it.each([MANIFEST_PATH, ICON_PATHS.svg])('behavior: %s comes brotli-compressed to a browser that takes br, smaller than as it is', async (url) => {
    const plain = await get(url, { 'accept-encoding': 'identity' });
    const compressed = await get(url, { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(compressed.headers['content-encoding']).toBe('br');
    expect(String(compressed.headers.vary)).toMatch(/accept-encoding/i);
    expect(compressed.rawPayload.length).toBeLessThan(plain.rawPayload.length);
    expect(brotliDecompressSync(compressed.rawPayload).equals(plain.rawPayload)).toBe(true);
    // The same bytes for everyone: no request id (a first visit's weight, bench/README.md section 1).
    expect(compressed.headers['x-request-id']).toBeUndefined();
  });

  it('behavior: ?lng chooses the manifest’s language; If-None-Match gets 304', async () => {
    const first = await get(`${MANIFEST_PATH}?lng=en`, { 'accept-language': 'zh-CN' });
    expect(first.json<{ name: string }>().name).toBe('Member DApp');
    const again = await get(`${MANIFEST_PATH}?lng=en`, { 'accept-language': 'zh-CN', 'if-none-match': String(first.headers.etag) });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
  });

  it('behavior: every icon the manifest and index.html name is served with its type, cached a day, then revalidated', async () => {
    const manifest = webManifest('en', 'Member DApp');
    const named = new Set([...Object.values(ICON_PATHS), ...manifest.icons.map((icon) => icon.src)]);
    for (const iconPath of named) {
      const response = await get(iconPath);
      expect(response.statusCode, iconPath).toBe(200);
      expect(response.headers['content-type'], iconPath).toBe(iconPath.endsWith('.svg') ? 'image/svg+xml' : 'image/png');
      expect(response.headers['cache-control']).toBe('public, max-age=86400');
      const again = await get(iconPath, { 'if-none-match': String(response.headers.etag) });
      expect(again.statusCode, iconPath).toBe(304);
    }
    const html = readFileSync(path.join(repoRoot, 'index.html'), 'utf8');
    expect(html).toContain(`<link rel="icon" href="${ICON_PATHS.svg}" type="image/svg+xml" />`);
    expect(html).toContain(`<link rel="apple-touch-icon" href="${ICON_PATHS.appleTouch}" />`);
    expect(html).toContain(`<link rel="manifest" href="${MANIFEST_PATH}" />`);
    expect((await get('/media/icons/icon-64.png')).statusCode).toBe(404);
    expect((await get('/media/icons/..%2Ficons%2Ficon.svg')).statusCode).toBe(400);
  });

  it('behavior: the icon and the manifest use the theme’s brand and page colours', () => {
    const theme = readFileSync(path.join(repoRoot, 'src/theme/theme.css'), 'utf8');
    expect(theme).toContain(`--app-color-brand: ${BRAND};`);
    expect(theme).toContain(`--app-color-page: ${PAGE_COLOUR};`);
    expect(readFileSync(path.join(repoRoot, 'index.html'), 'utf8')).toContain(`<meta name="theme-color" content="${PAGE_COLOUR}" media="(prefers-color-scheme: light)" />`);
  });
});
