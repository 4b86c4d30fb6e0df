/**
 * Notices and the about page in the operators' desk (docs/API.md, "Operators: content"). Bodies are stored
 * sanitised by the member app's rule (server/content/sanitize.ts), so members never receive what it would remove. A
 * notice's publication and pin are kept on each of its translations alike; a new notice is a draft (no date).
 */
import { and, asc, eq, inArray, notInArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { about, notices } from '../db/schema';
import { sanitizeContent, textSummary } from './sanitize';

export type Lang = 'zh' | 'en';
const LANGS: readonly Lang[] = ['zh', 'en'];
const SUMMARY_MAX = 120;

export interface NoticeText {
  title: string;
  summary: string;
  body: string;
}

export interface OpsNotice {
  id: string;
  published: boolean;
  pinned: boolean;
  publishedAt: string | null;
  zh: NoticeText;
  en: NoticeText | null;
}

export interface NoticeTextInput {
  title: string;
  summary?: string | undefined;
  body: string;
}

export interface Preview {
  zh: string;
  en: string | null;
  changedBySanitiser: boolean;
}

type NoticeRow = typeof notices.$inferSelect;

/** Whether sanitising changed a body the operator sent (stored beside sent, by language). */
function changedBy(stored: Partial<Record<Lang, { body: string }>>, sent: Partial<Record<Lang, { body: string } | undefined>>): boolean {
  return LANGS.some((lang) => sent[lang] !== undefined && stored[lang]?.body !== sent[lang]?.body);
}

/** Rows of one or more notices as the desk's notices (a notice without its zh row shows its en text in zh's place). */
function noticesOf(rows: readonly NoticeRow[]): OpsNotice[] {
  const byId = new Map<string, NoticeRow[]>();
  for (const row of rows) byId.set(row.id, [...(byId.get(row.id) ?? []), row]);
  return [...byId.values()].flatMap((translations) => {
    const zh = translations.find((row) => row.lang === 'zh');
    const en = translations.find((row) => row.lang === 'en') ?? null;
    const first = zh ?? en;
    if (!first) return [];
    const text = (row: NoticeRow): NoticeText => ({ title: row.title, summary: row.summary, body: row.content });
    return [
      {
        id: first.id,
        published: first.publishedAt !== null,
        pinned: first.pinned,
        publishedAt: first.publishedAt?.toISOString() ?? null,
        zh: text(first),
        en: en && zh ? text(en) : null,
      },
    ];
  });
}

/**
 * Every notice, drafts first, then pinned, then newest.
 *
 * @example const list = await listOpsNotices(db);
 */
export async function listOpsNotices(db: Db): Promise<OpsNotice[]> {
  const rows = await db
    .select()
    .from(notices)
    .orderBy(sql`${notices.publishedAt} IS NOT NULL`, sql`${notices.pinned} DESC`, sql`${notices.publishedAt} DESC`, asc(notices.id), asc(notices.lang));
  return noticesOf(rows);
}

/**
 * One notice as the desk sees it, or undefined; `forUpdate` locks its rows for the rest of the transaction.
 *
 * @example const notice = await readOpsNotice(tx, 'welcome', { forUpdate: true });
 */
export async function readOpsNotice(db: Db, id: string, options: { forUpdate?: boolean } = {}): Promise<OpsNotice | undefined> {
  const query = db.select().from(notices).where(eq(notices.id, id)).orderBy(asc(notices.lang));
  const rows = options.forUpdate ? await query.for('update') : await query;
  return noticesOf(rows)[0];
}

/** A translation as stored: sanitised body, and a summary from its text when none was written. */
async function storedText(input: NoticeTextInput): Promise<NoticeText> {
  const body = await sanitizeContent(input.body);
  const summary = input.summary?.trim() ? input.summary.trim() : await textSummary(body, SUMMARY_MAX);
  return { title: input.title.trim(), summary, body };
}

/**
 * Creates a notice as a draft or replaces its texts (its publication and pin stay); no `en` removes the English.
 *
 * @param tx - a transaction (the notice's rows are locked)
 * @returns the notice before (undefined when new), after, and the preview
 * @example const { after, preview } = await putNotice(tx, 'rules', { zh: { title: '规则', body: '<p>…</p>' } });
 */
export async function putNotice(
  tx: Db,
  id: string,
  input: { zh: NoticeTextInput; en?: NoticeTextInput | undefined },
): Promise<{ before: OpsNotice | undefined; after: OpsNotice; preview: Preview }> {
  const before = await readOpsNotice(tx, id, { forUpdate: true });
  const texts: Partial<Record<Lang, NoticeText>> = { zh: await storedText(input.zh), ...(input.en ? { en: await storedText(input.en) } : {}) };
  const state = { publishedAt: before?.publishedAt ? new Date(before.publishedAt) : null, pinned: before?.pinned ?? false };
  for (const lang of LANGS) {
    const text = texts[lang];
    if (!text) continue;
    const row = { title: text.title, summary: text.summary, content: text.body };
    await tx.insert(notices).values({ id, lang, ...row, ...state }).onConflictDoUpdate({ target: [notices.id, notices.lang], set: row });
  }
  await tx.delete(notices).where(and(eq(notices.id, id), notInArray(notices.lang, Object.keys(texts))));
  const after = await readOpsNotice(tx, id);
  if (!after) throw new Error(`notice ${id} not saved`);
  const changedBySanitiser = changedBy(texts, input);
  return { before, after, preview: { zh: after.zh.body, en: after.en?.body ?? null, changedBySanitiser } };
}

/**
 * Publishes (dated `now` unless already published), unpublishes, pins or unpins a notice; undefined for none.
 *
 * @example const change = await publishNotice(tx, 'rules', { published: true, pinned: true }, now);
 */
export async function publishNotice(
  tx: Db,
  id: string,
  change: { published: boolean; pinned: boolean },
  now: Date,
): Promise<{ before: OpsNotice; after: OpsNotice } | undefined> {
  const before = await readOpsNotice(tx, id, { forUpdate: true });
  if (!before) return undefined;
  const publishedAt = change.published ? (before.publishedAt ? new Date(before.publishedAt) : now) : null;
  await tx.update(notices).set({ publishedAt, pinned: change.pinned }).where(eq(notices.id, id));
  const after = await readOpsNotice(tx, id);
  if (!after) throw new Error(`notice ${id} vanished`);
  return { before, after };
}

export interface AboutText {
  title: string;
  body: string;
}

export interface OpsAbout {
  zh: AboutText | null;
  en: AboutText | null;
}

/**
 * The about page in both languages.
 *
 * @example const page = await readOpsAbout(db);
 */
export async function readOpsAbout(db: Db, options: { forUpdate?: boolean } = {}): Promise<OpsAbout> {
  const query = db.select().from(about).where(inArray(about.lang, [...LANGS]));
  const rows = options.forUpdate ? await query.for('update') : await query;
  const textOf = (lang: Lang): AboutText | null => {
    const row = rows.find((item) => item.lang === lang);
    return row ? { title: row.title, body: row.content } : null;
  };
  return { zh: textOf('zh'), en: textOf('en') };
}

/**
 * Replaces the about page (sanitised); no `en` removes the English.
 *
 * @example const { after, preview } = await putAbout(tx, { zh: { title: '关于我们', body: '<p>…</p>' } });
 */
export async function putAbout(
  tx: Db,
  input: { zh: AboutText; en?: AboutText | undefined },
): Promise<{ before: OpsAbout; after: OpsAbout; preview: Preview }> {
  const before = await readOpsAbout(tx, { forUpdate: true });
  const langs: Lang[] = input.en ? ['zh', 'en'] : ['zh'];
  for (const lang of langs) {
    const text = input[lang];
    if (!text) continue;
    const row = { title: text.title.trim(), content: await sanitizeContent(text.body) };
    await tx.insert(about).values({ lang, ...row }).onConflictDoUpdate({ target: about.lang, set: row });
  }
  await tx.delete(about).where(notInArray(about.lang, langs));
  const after = await readOpsAbout(tx);
  const stored = { zh: after.zh ?? undefined, en: after.en ?? undefined };
  const changedBySanitiser = changedBy(stored, input);
  return { before, after, preview: { zh: after.zh?.body ?? '', en: after.en?.body ?? null, changedBySanitiser } };
}
