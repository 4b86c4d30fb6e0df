/**
 * What the server sends compressed: the SPA's files as the build
 * compressed them (brotli, else gzip, by Accept-Encoding, with Vary), the locale files and API answers compressed
 * per request, small answers and clients that ask for nothing sent as they are; robots.txt as text.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { precompressFile } from '../../scripts/vite/precompressPlugin';
import { ROBOTS_TXT } from '../../scripts/vite/robotsTxtPlugin';
import { describeWithDatabases } from './support/harness';
import { createStaticSite, type StaticSite } from './support/staticSite';

const script = `${'export const rows = ['.padEnd(40)}\n${Array.from({ length: 400 }, (_, i) => `  { id: ${i}, label: "row ${i}" },`).join('\n')}\n];\n`;
const page = `<!doctype html><html><head><title>Member DApp</title></head><body>${'<p>Member DApp</p>'.repeat(80)}</body></html>`;
const bigLocale = JSON.stringify(Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`key${i}`, `A translated text number ${i}`])));

function decoded(encoding: string | undefined, body: Buffer): string {
  if (encoding === 'br') return brotliDecompressSync(body).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(body).toString('utf8');
  return body.toString('utf8');
}

describeWithDatabases('compressed answers', (ctx) => {
  let site: StaticSite;

  beforeAll(async () => {
    site = await createStaticSite('md-compress-', {
      spa: { 'index.html': page, 'assets/index-abc123.js': script, 'assets/tiny-abc123.js': 'console.log(1)', 'robots.txt': ROBOTS_TXT },
      locales: { 'en/common.json': bigLocale, 'en/tiny.json': '{"ok":"ok"}' },
      beside: {},
    });
    // The build's own step: what `vite build` writes beside each file.
    for (const file of ['index.html', 'assets/index-abc123.js', 'assets/tiny-abc123.js']) await precompressFile(path.join(site.spaDir, file));
  });

  afterAll(async () => {
    await site.remove();
  });

  const get = async (url: string, acceptEncoding?: string) => {
    const app = await ctx.app({ spaDir: site.spaDir, localesDir: site.localesDir });
    return app.inject({ method: 'GET', url, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });
  };

  it.each([
    ['br, gzip', 'br'],
    ['gzip, deflate', 'gzip'],
    ['gzip;q=0.5, br;q=1', 'br'],
  ])('behavior: a built script asked with "%s" comes precompressed as %s, with Vary and its cache policy', async (accept, encoding) => {
    const response = await get('/assets/index-abc123.js', accept);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe(encoding);
    expect(String(response.headers.vary)).toMatch(/accept-encoding/i);
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // Cached a year unchanged: no validators, ranges or request id (bytes on every script of a first visit).
    for (const name of ['etag', 'last-modified', 'accept-ranges', 'x-request-id']) expect(response.headers[name]).toBeUndefined();
    expect(response.rawPayload.length).toBeLessThan(script.length / 3);
    expect(decoded(encoding, response.rawPayload)).toBe(script);
  });

  it('behavior: a client that accepts no encoding gets the file as it is', async () => {
    const response = await get('/assets/index-abc123.js');
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.body).toBe(script);
  });

  it('behavior: a file too small to be worth compressing is sent as it is', async () => {
    const response = await get('/assets/tiny-abc123.js', 'br, gzip');
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.body).toBe('console.log(1)');
  });

  it('behavior: index.html for a client route comes compressed too, still no-cache HTML', async () => {
    const response = await get('/login/DEMO2026', 'br, gzip');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers['content-encoding']).toBe('br');
    expect(decoded('br', response.rawPayload)).toBe(page);
  });

  it('behavior: a locale file is compressed per request; a small one is not', async () => {
    const big = await get('/locales/en/common.json', 'br, gzip');
    expect(big.headers['content-encoding']).toBe('br');
    expect(JSON.parse(decoded('br', big.rawPayload))).toEqual(JSON.parse(bigLocale));
    const small = await get('/locales/en/tiny.json', 'br, gzip');
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toEqual({ ok: 'ok' });
  });

  it('behavior: an API answer over 1 KiB is compressed, and decodes to the same envelope', async () => {
    const plain = await get('/api/dapp/queryPagePlatformNotice?page=1&pageSize=20&lang=en');
    expect(plain.body.length).toBeGreaterThan(1024);
    const compressed = await get('/api/dapp/queryPagePlatformNotice?page=1&pageSize=20&lang=en', 'gzip');
    expect(compressed.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(decoded('gzip', compressed.rawPayload))).toEqual(plain.json());
  });

  it('behavior: robots.txt is the file, as text, not the SPA', async () => {
    const response = await get('/robots.txt');
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    expect(response.body).toBe(ROBOTS_TXT);
    expect(response.body).toMatch(/Disallow: \/api\//);
  });
});
