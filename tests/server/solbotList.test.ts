/**
 * The bots list and the seeded member-area content (announcements with images, links, a table and a long one; the
 * about page), on every database target.
 */
import { expect, it } from 'vitest';
import { ApiCode } from '../../api-schema/codes';
import { bots } from '../../server/db/schema';
import { SEED_BOTS, SEED_NOTICES } from '../../server/seed/content';
import { expectRefused } from './support/assertions';
import { describeWithDatabases } from './support/harness';
import { envelope } from './support/memberSignIn';

interface Bot {
  id: string;
  name: string;
  status: string;
  profitRate: string;
  createdAt: string;
}
interface Page<T> {
  list: T[];
  total: number;
  page: number;
  pageSize: number;
}

describeWithDatabases('solbotList', (ctx) => {
  async function list(query = '') {
    const app = await ctx.app();
    return app.inject({ method: 'GET', url: `/api/dapp/solbotList${query}` });
  }

  it('lists the seeded bots newest first, every status, profit rates as signed decimal strings, no token needed', async () => {
    const newestFirst = [...SEED_BOTS].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || a.id.localeCompare(b.id));
    const response = await list();
    expect(response.statusCode).toBe(200);
    expect(envelope<Page<Bot>>(response)).toEqual({
      code: 0,
      result: {
        list: newestFirst.map((bot) => ({ id: bot.id, name: bot.name, status: bot.status, profitRate: bot.profitRate, createdAt: bot.createdAt.toISOString() })),
        total: SEED_BOTS.length,
        page: 1,
        pageSize: 20,
      },
    });
    const statuses = new Set(SEED_BOTS.map((bot) => bot.status));
    expect([...statuses].sort()).toEqual(['paused', 'running', 'stopped']);
    expect(SEED_BOTS.some((bot) => bot.profitRate.startsWith('-'))).toBe(true);
  });

  it('pages in a stable order (ties on the time by id); past the end is an empty page with the total', async () => {
    const sameTime = new Date('2026-11-01T00:00:00.000Z');
    await ctx.db.insert(bots).values([
      { id: 'tie-b', name: 'Tie B', status: 'running', profitRate: 1n, createdAt: sameTime },
      { id: 'tie-a', name: 'Tie A', status: 'paused', profitRate: 1_000_000n, createdAt: sameTime },
    ]);
    const total = SEED_BOTS.length + 2;
    const seen: string[] = [];
    for (let page = 1; page <= 3; page++) {
      const body = envelope<Page<Bot>>(await list(`?page=${page}&pageSize=3`));
      expect(body.result).toMatchObject({ total, page, pageSize: 3 });
      seen.push(...(body.result?.list.map((bot) => bot.id) ?? []));
    }
    expect(seen.slice(0, 2)).toEqual(['tie-a', 'tie-b']);
    expect(new Set(seen).size).toBe(total);
    const first = envelope<Page<Bot>>(await list('?pageSize=3')).result?.list;
    expect(first?.slice(0, 2).map((bot) => [bot.id, bot.profitRate])).toEqual([
      ['tie-a', '1'],
      ['tie-b', '0.000001'],
    ]);
    expect(envelope<Page<Bot>>(await list('?page=99&pageSize=3')).result).toEqual({ list: [], total, page: 99, pageSize: 3 });
    const last = Number.MAX_SAFE_INTEGER;
    expect(envelope<Page<Bot>>(await list(`?page=${last}&pageSize=100`)).result).toEqual({ list: [], total, page: last, pageSize: 100 });
  });

  it.each([
    ['page 0', '?page=0', 'page'],
    ['page not a number', '?page=abc', 'page'],
    ['page beyond safe integers', '?page=9007199254740993', 'page'],
    ['page with SQL', `?page=${encodeURIComponent('1; DROP TABLE bots')}`, 'page'],
    ['pageSize 0', '?pageSize=0', 'pageSize'],
    ['pageSize 101', '?pageSize=101', 'pageSize'],
    ['pageSize fractional', '?pageSize=2.5', 'pageSize'],
  ])('%s → 1001', async (_name, query, field) => {
    expectRefused(await list(query), ApiCode.invalidParameters, field);
  });
});

describeWithDatabases('member-area content', (ctx) => {
  it('the seeded announcements include, in zh and en, one with images, one with links, one with a table and a long one', async () => {
    const app = await ctx.app();
    for (const lang of ['zh', 'en'] as const) {
      const contents: string[] = [];
      for (const notice of SEED_NOTICES) {
        const response = await app.inject({ method: 'GET', url: '/api/dapp/noticeDetail', query: { noticeId: notice.id, lang } });
        const body = envelope<{ content: string; title: string }>(response);
        expect(body).toMatchObject({ code: 0, result: { title: notice[lang].title } });
        contents.push(body.result?.content ?? '');
      }
      expect(contents.some((html) => /<img src="data:image\/svg\+xml;base64,[A-Za-z0-9+/=]+"/.test(html))).toBe(true);
      expect(contents.some((html) => /<a href="https:\/\//.test(html))).toBe(true);
      expect(contents.some((html) => html.includes('<table>'))).toBe(true);
      expect(contents.some((html) => (html.match(/<h2>/g) ?? []).length >= 7 && html.replace(/<[^>]+>/g, '').length > 600)).toBe(true);
      const about = envelope<{ title: string; content: string }>(await app.inject({ method: 'GET', url: `/api/dapp/aboutOur?lang=${lang}` }));
      expect(about.code).toBe(0);
      expect(about.result?.content).toMatch(/<h2>/);
    }
  });

  it.each([
    ['an unknown id', { noticeId: 'no-such-notice' }, ApiCode.notFound, undefined],
    ['an id with HTML', { noticeId: '<img src=x onerror=alert(1)>' }, ApiCode.invalidParameters, 'noticeId'],
    ['an id with SQL', { noticeId: "welcome' OR '1'='1" }, ApiCode.invalidParameters, 'noticeId'],
  ])('noticeDetail: %s', async (_name, query, code, message) => {
    const app = await ctx.app();
    expectRefused(await app.inject({ method: 'GET', url: '/api/dapp/noticeDetail', query }), code, message);
  });
});
