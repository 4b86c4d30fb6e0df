/**
 * Announcements and the about page. A translation missing in the requested language falls back to zh, the
 * source language (docs/architecture.md, "Browser details"); notices dated in the future stay hidden until then, and drafts
 * (no publication date) always. Pinned notices come first.
 */
import { and, asc, desc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { aboutOur, noticeDetail, queryPagePlatformNotice } from '../../api-schema/dapp';
import type { Db } from '../db/client';
import { about, notices } from '../db/schema';

export type Lang = 'zh' | 'en';
const FALLBACK_LANG: Lang = 'zh';

/** Languages to try, best first. */
function langsFor(lang: Lang): Lang[] {
  return lang === FALLBACK_LANG ? [lang] : [lang, FALLBACK_LANG];
}

/** 0 for the requested language, 1 for the fallback: sorts the wanted translation first. */
function langRank(lang: Lang) {
  return sql<number>`CASE WHEN ${notices.lang} = ${lang} THEN 0 ELSE 1 END`;
}

/** A published notice's date (the queries above read only published ones, so it is never null there). */
function publishedIso(publishedAt: Date | null): string {
  if (!publishedAt) throw new Error('a published notice without its date');
  return publishedAt.toISOString();
}

export interface PageQuery {
  page: number;
  pageSize: number;
  lang: Lang;
}

/**
 * One page of published notices, newest first, each in the requested language or else in zh.
 *
 * @param db - database handle
 * @param query - page, pageSize and lang
 * @param now - notices published after this are hidden
 * @returns the page
 * @example
 * const page = await listNotices(db, { page: 1, pageSize: 20, lang: 'en' }, new Date());
 */
export async function listNotices(db: Db, query: PageQuery, now: Date): Promise<z.output<typeof queryPagePlatformNotice.result>> {
  const visible = and(inArray(notices.lang, langsFor(query.lang)), lte(notices.publishedAt, now));
  // DISTINCT ON keeps one row per notice id: the first by language rank, i.e. the best translation.
  const best = db
    .selectDistinctOn([notices.id], {
      noticeId: notices.id,
      title: notices.title,
      summary: notices.summary,
      publishedAt: notices.publishedAt,
      pinned: notices.pinned,
    })
    .from(notices)
    .where(visible)
    .orderBy(notices.id, langRank(query.lang))
    .as('best');
  const [rows, [counted]] = await Promise.all([
    db
      .select()
      .from(best)
      .orderBy(desc(best.pinned), desc(best.publishedAt), asc(best.noticeId))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    db.select({ total: sql<number>`count(DISTINCT ${notices.id})::int` }).from(notices).where(visible),
  ]);
  return {
    // `pinned` only when true, so an unpinned notice reads as before.
    list: rows.map(({ pinned, ...row }) => ({ ...row, publishedAt: publishedIso(row.publishedAt), ...(pinned ? { pinned } : {}) })),
    total: counted?.total ?? 0,
    page: query.page,
    pageSize: query.pageSize,
  };
}

/**
 * One published notice in the requested language, else in zh.
 *
 * @param db - database handle
 * @param noticeId - the notice
 * @param lang - wanted language
 * @param now - notices published after this are hidden
 * @returns the notice, or undefined when there is none
 * @example
 * const notice = await getNotice(db, 'welcome', 'en', new Date());
 */
export async function getNotice(db: Db, noticeId: string, lang: Lang, now: Date): Promise<z.output<typeof noticeDetail.result> | undefined> {
  const [row] = await db
    .select({ noticeId: notices.id, title: notices.title, content: notices.content, publishedAt: notices.publishedAt })
    .from(notices)
    .where(and(eq(notices.id, noticeId), inArray(notices.lang, langsFor(lang)), lte(notices.publishedAt, now)))
    .orderBy(langRank(lang))
    .limit(1);
  return row ? { ...row, publishedAt: publishedIso(row.publishedAt) } : undefined;
}

/**
 * The about page in the requested language, else in zh.
 *
 * @param db - database handle
 * @param lang - wanted language
 * @returns title and HTML content, or undefined when not seeded
 * @example
 * const page = await getAbout(db, 'zh');
 */
export async function getAbout(db: Db, lang: Lang): Promise<z.output<typeof aboutOur.result> | undefined> {
  const [row] = await db
    .select({ title: about.title, content: about.content })
    .from(about)
    .where(inArray(about.lang, langsFor(lang)))
    .orderBy(sql`CASE WHEN ${about.lang} = ${lang} THEN 0 ELSE 1 END`)
    .limit(1);
  return row;
}
