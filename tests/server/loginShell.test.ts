/**
 * /login's document carries the sign-in page's first paint (server/plugins/loginShell.ts): its title and welcome in
 * the language the app will pick, and that language's common and login texts, compressed as the client accepts;
 * other pages, and an index.html without an empty #root, are sent as built.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstTextsBlock, loginShell, shellEncoding } from '../../server/plugins/loginShell';
import { describeWithDatabases } from './support/harness';
import { createStaticSite, type StaticSite } from './support/staticSite';

const page = '<!doctype html><html lang="zh"><head><title>Member DApp</title></head><body><div id="root"></div></body></html>';
const locales = {
  'en/common.json': JSON.stringify({ layout: { appName: 'Member DApp' } }),
  'en/login.json': JSON.stringify({ title: 'Sign in', description: 'Connect & sign <safely>.', inviteCode: { invited: 'Invited with code {{code}}' } }),
  'zh/common.json': JSON.stringify({ layout: { appName: '会员 DApp' } }),
  'zh/login.json': JSON.stringify({ title: '登录', description: '连接钱包并签名即可登录', inviteCode: { invited: '邀请码：{{code}}' } }),
};
/** As index.html has it: one description in both languages. */
const pageWithHead =
  '<!doctype html><html lang="zh"><head><link rel="icon" href="/media/icons/icon.svg" type="image/svg+xml" />' +
  '<meta name="description" content="Member DApp … 会员 DApp …" /><title>Member DApp</title></head><body><div id="root"></div></body></html>';

/** The <meta> elements of a document's head, as [property or name, content]. */
function metaOf(html: string): Map<string, string> {
  return new Map([...html.matchAll(/<meta (?:property|name)="([^"]+)" content="([^"]*)">/g)].map((match) => [match[1] ?? '', match[2] ?? '']));
}

describe('shellEncoding', () => {
  it.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['identity', 'identity'],
    [undefined, 'identity'],
  ] as const)('behavior: %s → %s', (accept, encoding) => {
    expect(shellEncoding(accept)).toBe(encoding);
  });
});

describe('loginShell', () => {
  it('behavior: escapes the texts it is given', () => {
    const shell = loginShell({ title: 'A <b>', appName: 'x & y', lead: '"quoted"' });
    expect(shell).toContain('<h1 class="page-title">A &#60;b&#62;</h1>');
    expect(shell).toContain('<p class="hero-name">x &#38; y</p>');
    expect(shell).toContain('<p class="hero-lead">&#34;quoted&#34;</p>');
    expect(shell).not.toMatch(/style=/);
  });
});

describeWithDatabases('the sign-in document', (ctx) => {
  let site: StaticSite;
  let bare: StaticSite;
  let withHead: StaticSite;
  beforeAll(async () => {
    site = await createStaticSite('md-shell-', { spa: { 'index.html': page }, locales, beside: {} });
    bare = await createStaticSite('md-shell-bare-', { spa: { 'index.html': '<!doctype html><title>Member DApp</title>' }, locales, beside: {} });
    withHead = await createStaticSite('md-shell-head-', { spa: { 'index.html': pageWithHead }, locales, beside: {} });
  });
  afterAll(async () => {
    await site.remove();
    await bare.remove();
    await withHead.remove();
  });

  const get = async (url: string, headers: Record<string, string>, from = site) => {
    const app = await ctx.app({ spaDir: from.spaDir, localesDir: from.localesDir, publicUrl: 'https://member.example' });
    return app.inject({ method: 'GET', url, headers: { host: 'member.example', ...headers } });
  };

  it('behavior: /login/DEMO2026 for an English browser holds the English title and welcome, brotli-compressed', async () => {
    const response = await get('/login/DEMO2026', { 'accept-language': 'en-US', 'accept-encoding': 'gzip, br' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(String(response.headers.vary)).toMatch(/accept-encoding/i);
    expect(response.headers['cache-control']).toBe('no-cache');
    const html = brotliDecompressSync(response.rawPayload).toString('utf8');
    expect(html).toContain(`<div id="root">${loginShell({ title: 'Sign in', appName: 'Member DApp', lead: 'Connect & sign <safely>.' })}</div>`);
    // The page's texts travel in the document, so nothing is preloaded for it.
    const texts = { common: JSON.parse(locales['en/common.json']) as Record<string, unknown>, login: JSON.parse(locales['en/login.json']) as Record<string, unknown> };
    expect(html).toContain(firstTextsBlock('en', texts));
    expect(html).toContain('sign \\u003csafely>.'); // no text can close the data block
    expect(response.headers.link).toBeUndefined();
    expect(html).toMatch(/^<!doctype html><html lang="en">/);
  });

  it('behavior: a Chinese browser gets the Chinese texts; gzip and plain clients get the same document', async () => {
    const gzip = await get('/login', { 'accept-language': 'zh-CN', 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    const plain = await get('/login', { 'accept-language': 'zh-CN' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(gunzipSync(gzip.rawPayload).toString('utf8')).toBe(plain.body);
    expect(plain.body).toContain('<h1 class="page-title">登录</h1>');
    expect(plain.body).toContain('<p class="hero-lead">连接钱包并签名即可登录</p>');
  });

  it('behavior: an invite link previews in English: title with the code, the lead, the 512 px icon and the link, absolute on the site', async () => {
    const response = await get('/login/DEMO2026', { 'accept-language': 'en-US' }, withHead);
    const meta = metaOf(response.body);
    expect(meta.get('og:title')).toBe('Member DApp · Invited with code DEMO2026');
    expect(meta.get('og:description')).toBe('Connect &#38; sign &#60;safely&#62;.');
    expect(meta.get('description')).toBe(meta.get('og:description'));
    expect(meta.get('og:image')).toBe('https://member.example/media/icons/icon-512.png');
    expect(meta.get('og:url')).toBe('https://member.example/login/DEMO2026');
    expect(meta.get('twitter:card')).toBe('summary');
    // The language's own description replaces the one in both languages; nothing else in <head> moves.
    expect(response.body).not.toContain('会员 DApp …');
    expect(response.body).toContain('<link rel="icon" href="/media/icons/icon.svg" type="image/svg+xml" />');
  });

  it('behavior: the same link previews in Chinese for a Chinese browser, compressed like the page', async () => {
    const response = await get('/login/DEMO2026', { 'accept-language': 'zh-CN', 'accept-encoding': 'br' }, withHead);
    expect(response.headers['content-encoding']).toBe('br');
    const meta = metaOf(brotliDecompressSync(response.rawPayload).toString('utf8'));
    expect(meta.get('og:title')).toBe('会员 DApp · 邀请码：DEMO2026');
    expect(meta.get('og:description')).toBe('连接钱包并签名即可登录');
    expect(meta.get('og:url')).toBe('https://member.example/login/DEMO2026');
    expect(meta.get('twitter:card')).toBe('summary');
  });

  it('behavior: a host that is not the site\'s never reaches a preview URL; /login and a malformed code get no preview', async () => {
    const forged = await get('/login/DEMO2026', { 'accept-language': 'en', host: 'phish.example' }, withHead);
    expect(metaOf(forged.body).get('og:url')).toBe('https://member.example/login/DEMO2026');
    const plain = await get('/login', { 'accept-language': 'en' }, withHead);
    expect(metaOf(plain.body).get('description')).toBe('Connect &#38; sign &#60;safely&#62;.');
    expect(plain.body).not.toContain('og:');
    const malformed = await get('/login/%3Cb%3Ex', { 'accept-language': 'en' }, withHead);
    expect(malformed.statusCode).toBe(200);
    expect(malformed.body).not.toContain('og:');
  });

  it('behavior: other pages, and an index.html without an empty #root, are sent as built', async () => {
    const home = await get('/home', { 'accept-language': 'en' });
    expect(home.body).toBe(page);
    expect(home.headers.link).toBe('</locales/en/common.json>; rel=preload; as=fetch; crossorigin');
    const bareLogin = await get('/login/DEMO2026', { 'accept-language': 'en' }, bare);
    expect(bareLogin.body).toBe('<!doctype html><title>Member DApp</title>');
  });
});
