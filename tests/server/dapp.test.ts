/** Public data: dappParam, notices and the about page, on every database target. */
import { expect, it } from 'vitest';
import { ApiCode } from '../../api-schema/codes';
import { dappParamSchema } from '../../api-schema/dapp';
import { notices } from '../../server/db/schema';
import { SEED_APP_CONFIG, SEED_NOTICES } from '../../server/seed/content';
import { expectNoDbChange, expectRefused } from './support/assertions';
import { TEST_START } from './support/testClock';
import { describeWithDatabases } from './support/harness';
import { envelope } from './support/memberSignIn';

interface NoticePage {
  list: { noticeId: string; title: string; summary: string; publishedAt: string }[];
  total: number;
  page: number;
  pageSize: number;
}

const newestFirst = [...SEED_NOTICES].sort((a, b) => b.publishedAt.getTime() - a.publishedAt.getTime());

describeWithDatabases('dappParam', (ctx) => {
  it('returns the seeded chain and limits with the sign-in domain', async () => {
    const app = await ctx.app();
    const response = await app.inject({ method: 'GET', url: '/api/dapp/dappParam' });
    const body = envelope(response);
    expect(body).toEqual({ code: 0, result: { ...SEED_APP_CONFIG, siweDomain: 'member.test' } });
    expect(dappParamSchema.parse(body.result).chainId).toBe(56);
  });

  it('names a loopback Host as domain when SIWE_DOMAIN is not set, never a foreign Host', async () => {
    const app = await ctx.app({ siweDomain: undefined });
    const local = await app.inject({ method: 'GET', url: '/api/dapp/dappParam', headers: { host: 'localhost:8080' } });
    expect(envelope<{ siweDomain: string }>(local).result?.siweDomain).toBe('localhost:8080');
    const foreign = await app.inject({ method: 'GET', url: '/api/dapp/dappParam', headers: { host: 'evil.test' } });
    expect(envelope<{ siweDomain: string }>(foreign).result?.siweDomain).toBe('localhost');
  });

  it('keeps the configured domain whatever Host the request names', async () => {
    const app = await ctx.app();
    const response = await app.inject({ method: 'GET', url: '/api/dapp/dappParam', headers: { host: 'evil.test' } });
    expect(envelope<{ siweDomain: string }>(response).result?.siweDomain).toBe('member.test');
  });

  it('needs no token, and ignores a bad one', async () => {
    const app = await ctx.app();
    const response = await app.inject({ method: 'GET', url: '/api/dapp/dappParam', headers: { authorization: 'forged' } });
    expect(envelope(response).code).toBe(0);
  });
});

describeWithDatabases('queryPagePlatformNotice', (ctx) => {
  async function page(query: Record<string, string>) {
    const app = await ctx.app();
    return app.inject({ method: 'GET', url: '/api/dapp/queryPagePlatformNotice', query });
  }

  it('lists published notices newest first, in zh by default', async () => {
    const body = envelope<NoticePage>(await page({}));
    expect(body.code).toBe(0);
    expect(body.result).toEqual({
      list: newestFirst.map((n) => ({ noticeId: n.id, title: n.zh.title, summary: n.zh.summary, publishedAt: n.publishedAt.toISOString() })),
      total: SEED_NOTICES.length,
      page: 1,
      pageSize: 20,
    });
  });

  it('pages, in English', async () => {
    const body = envelope<NoticePage>(await page({ lang: 'en', page: '2', pageSize: '3' }));
    expect(body.result?.total).toBe(SEED_NOTICES.length);
    expect(body.result?.list.map((n) => n.title)).toEqual(newestFirst.slice(3, 6).map((n) => n.en.title));
    expect(body.result).toMatchObject({ page: 2, pageSize: 3 });
  });

  it('falls back to zh for a notice without translation and hides future notices', async () => {
    await ctx.db.insert(notices).values([
      { id: 'zh-only', lang: 'zh', title: '仅中文', summary: '摘要', content: '<p>内容</p>', publishedAt: new Date(TEST_START.getTime() - 1000) },
      { id: 'later', lang: 'en', title: 'Later', summary: 'Soon', content: '<p>Soon</p>', publishedAt: new Date(TEST_START.getTime() + 60_000) },
    ]);
    const body = envelope<NoticePage>(await page({ lang: 'en' }));
    expect(body.result?.total).toBe(SEED_NOTICES.length + 1);
    expect(body.result?.list[0]).toMatchObject({ noticeId: 'zh-only', title: '仅中文' });
    expect(body.result?.list.some((n) => n.noticeId === 'later')).toBe(false);
  });

  it.each([
    ['pageSize 0', { pageSize: '0' }, 'pageSize'],
    ['pageSize 101', { pageSize: '101' }, 'pageSize'],
    ['page 0', { page: '0' }, 'page'],
    ['page not a number', { page: 'two' }, 'page'],
    ['page fractional', { page: '1.5' }, 'page'],
    ['unknown language', { lang: 'fr' }, 'lang'],
  ])('%s → 1001', async (_name, query, field) => {
    expectRefused(await expectNoDbChange(ctx.db, () => page(query)), ApiCode.invalidParameters, field);
  });
});

describeWithDatabases('noticeDetail', (ctx) => {
  async function detail(query: Record<string, string>) {
    const app = await ctx.app();
    return app.inject({ method: 'GET', url: '/api/dapp/noticeDetail', query });
  }

  it('returns one notice with its HTML, in the asked language', async () => {
    const notice = SEED_NOTICES[0];
    if (!notice) throw new Error('no seed notice');
    for (const lang of ['zh', 'en'] as const) {
      const body = envelope(await detail({ noticeId: notice.id, lang }));
      expect(body).toEqual({
        code: 0,
        result: { noticeId: notice.id, title: notice[lang].title, content: notice[lang].content, publishedAt: notice.publishedAt.toISOString() },
      });
    }
  });

  it('an unknown id → 4004 (404)', async () => {
    expectRefused(await expectNoDbChange(ctx.db, () => detail({ noticeId: 'no-such-notice' })), ApiCode.notFound);
  });

  it('a notice dated in the future → 4004', async () => {
    await ctx.db.insert(notices).values({ id: 'later', lang: 'zh', title: 't', summary: 's', content: 'c', publishedAt: new Date(TEST_START.getTime() + 1000) });
    expectRefused(await detail({ noticeId: 'later' }), ApiCode.notFound);
  });

  it.each([
    ['id missing', {}, 'noticeId'],
    ['id with a slash', { noticeId: '../etc' }, 'noticeId'],
    ['id too long', { noticeId: 'a'.repeat(65) }, 'noticeId'],
    ['unknown language', { noticeId: 'welcome', lang: 'de' }, 'lang'],
  ])('%s → 1001', async (_name, query, field) => {
    expectRefused(await expectNoDbChange(ctx.db, () => detail(query)), ApiCode.invalidParameters, field);
  });
});

describeWithDatabases('aboutOur', (ctx) => {
  it('returns the page in zh by default and in en on request', async () => {
    const app = await ctx.app();
    const zh = envelope<{ title: string; content: string }>(await app.inject({ method: 'GET', url: '/api/dapp/aboutOur' }));
    const en = envelope<{ title: string; content: string }>(await app.inject({ method: 'GET', url: '/api/dapp/aboutOur?lang=en' }));
    expect(zh.result?.title).toBe('关于我们');
    expect(en.result?.title).toBe('About us');
    expect(en.result?.content).toContain('<p>');
  });

  it('an unknown language → 1001', async () => {
    const app = await ctx.app();
    expectRefused(await app.inject({ method: 'GET', url: '/api/dapp/aboutOur?lang=jp' }), ApiCode.invalidParameters, 'lang');
  });
});
