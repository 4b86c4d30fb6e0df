/**
 * The product owner's atlas at /atlas: its files, read-only, with a page's security headers and the page
 * policy in the header; nothing else under docs/ (or anywhere) can be reached through it, and it stays out of the
 * SPA's history fallback.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { atlasServed } from '../../server/env';
import { describeWithDatabases } from './support/harness';
import { createStaticSite, type StaticSite } from './support/staticSite';

describeWithDatabases('the atlas at /atlas', (ctx) => {
  let site: StaticSite;
  let atlasDir: string;

  beforeAll(async () => {
    site = await createStaticSite('md-atlas-', {
      spa: { 'index.html': '<!doctype html><title>Member DApp</title>' },
      locales: {},
      beside: {
        'atlas/index.html': '<!doctype html><title>Atlas</title>',
        'atlas/atlas.css': 'body{}',
        'atlas/atlas.js': '1',
        'atlas/zh/wallet.html': '<!doctype html><title>钱包</title>',
        'atlas/shots/login.en.webp': 'RIFF',
        'atlas/notes.md': 'not served',
        'secret.txt': 'never',
      },
    });
    atlasDir = `${site.root}/atlas`;
  });

  afterAll(async () => {
    await site.remove();
  });

  it('serves its pages, stylesheet, script and screenshots, with the page policy and framing refused', async () => {
    const app = await ctx.app({ spaDir: site.spaDir, localesDir: site.localesDir, atlasDir });
    const redirect = await app.inject({ method: 'GET', url: '/atlas' });
    expect([redirect.statusCode, redirect.headers.location]).toEqual([302, '/atlas/']);
    const answers = await Promise.all(['/atlas/', '/atlas/zh/wallet.html', '/atlas/atlas.css', '/atlas/atlas.js', '/atlas/shots/login.en.webp'].map((url) => app.inject({ method: 'GET', url })));
    expect(answers.map((response) => [response.statusCode, String(response.headers['content-type']).split(';')[0]])).toEqual([
      [200, 'text/html'],
      [200, 'text/html'],
      [200, 'text/css'],
      [200, 'text/javascript'],
      [200, 'image/webp'],
    ]);
    const page = answers[1];
    expect(page?.body).toContain('钱包');
    const csp = String(page?.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(page?.headers['x-content-type-options']).toBe('nosniff');
    expect(page?.headers['x-frame-options']).toBe('DENY');
    expect(String(page?.headers['permissions-policy'])).toContain('camera=()');
    expect((await app.inject({ method: 'HEAD', url: '/atlas/zh/wallet.html' })).statusCode).toBe(200);
  });

  it('answers 404 for anything it does not write, and is read-only', async () => {
    const app = await ctx.app({ spaDir: site.spaDir, localesDir: site.localesDir, atlasDir });
    // Dot segments never reach the route (the URL is normalised, or server/plugins/requestTarget.ts refuses it).
    for (const url of ['/atlas/notes.md', '/atlas/zh/nothing.html', '/atlas/fr/wallet.html', '/atlas/zh%2f..%2f..%2fsecret.txt', '/atlas/shots/login.en.png']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(response.body, url).not.toContain('never');
      expect(response.body, url).not.toContain('Member DApp');
    }
    for (const method of ['POST', 'PUT', 'DELETE'] as const) {
      expect((await app.inject({ method, url: '/atlas/zh/wallet.html' })).statusCode, method).toBe(404);
    }
  });

  it('is not served where the settings say so (ATLAS, off in production unless asked for)', async () => {
    const app = await ctx.app({ spaDir: site.spaDir, localesDir: site.localesDir, atlasDir: null });
    expect((await app.inject({ method: 'GET', url: '/atlas/zh/wallet.html' })).statusCode).toBe(404);
    expect([atlasServed({ NODE_ENV: 'production' }), atlasServed({ NODE_ENV: 'production', ATLAS: 'on' }), atlasServed({}), atlasServed({ ATLAS: 'off' })]).toEqual([false, true, true, false]);
  });

  it('answers 404 when no atlas was built', async () => {
    const app = await ctx.app({ spaDir: site.spaDir, localesDir: site.localesDir, atlasDir: `${site.root}/none` });
    expect((await app.inject({ method: 'GET', url: '/atlas/' })).statusCode).toBe(404);
  });
});
