/**
 * The sign-in page's first paint, sent in index.html itself: a member's phone shows the page's title bar and its
 * welcome (the brand, the app's name and the one-line lead) while the app's script downloads, instead of a blank
 * page. It is the same markup the app renders first (tests/ui/loginShellMarkup.test.tsx compares them), in the language
 * the app will most likely pick (localePreload.ts), classes only (the CSP allows no inline style). React replaces it
 * on its first render; the rest of the page (the invite notice, the wallet card) arrives with the app. The page's
 * texts (common and login) come in the document too, so the app fetches none to start (firstTextsBlock). Its
 * description is the page's lead in its language, and an invite link's page carries its link preview
 * (linkPreview.ts).
 */
import { stat, readFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { ICON_PATHS } from './appIdentity';
import { linkPreviewTags, type LinkPreview } from './linkPreview';

/** The element the app renders into; the shell goes inside it. */
const ROOT = '<div id="root"></div>';

export interface ShellTexts {
  title: string;
  appName: string;
  lead: string;
}

type Json = { [key: string]: unknown };

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** src/components/BrandMark.tsx at 56 px, as React writes it. */
const BRAND_MARK =
  '<svg class="brand-mark" width="56" height="56" viewBox="0 0 48 48" aria-hidden="true" focusable="false">' +
  '<rect width="48" height="48" rx="12" fill="var(--app-color-brand)"></rect>' +
  '<path d="M14 20a6 6 0 0 1 6-6h6a6 6 0 0 1 0 12h-2" fill="none" stroke="var(--app-color-on-brand)" stroke-width="3.5" stroke-linecap="round"></path>' +
  '<path d="M34 28a6 6 0 0 1-6 6h-6a6 6 0 0 1 0-12h2" fill="none" stroke="var(--app-color-on-brand)" stroke-width="3.5" stroke-linecap="round" opacity="0.85"></path>' +
  '</svg>';

/** The id of the data block holding the page's first texts (src/i18n/firstTexts.ts reads it). */
export const FIRST_TEXTS_ID = 'first-texts';

/**
 * The page's own texts as a JSON data block: the app starts its translations from it instead of fetching the same
 * files, so the sign-in page needs no request for its texts. A data block is not a script: the CSP's script-src does
 * not apply to it. `<` is written as \u003c, so no text can close the element.
 *
 * @example
 * firstTextsBlock('en', { common: { layout: { appName: 'Member DApp' } } });
 */
export function firstTextsBlock(language: string, namespaces: Record<string, Json>): string {
  const json = JSON.stringify({ lng: language, resources: namespaces }).replace(/</g, '\\u003c');
  return `<script type="application/json" id="${FIRST_TEXTS_ID}">${json}</script>`;
}

/**
 * The shell's markup: the page frame's title bar and the hero of src/routes/login.tsx.
 *
 * @example
 * loginShell({ title: 'Sign in', appName: 'Member DApp', lead: 'Connect your wallet…' });
 */
export function loginShell({ title, appName, lead }: ShellTexts): string {
  return (
    '<div class="app-shell"><main class="app-main"><section class="page">' +
    `<header class="page-bar"><div class="page-bar-side"></div><h1 class="page-title">${escapeHtml(title)}</h1><div class="page-bar-side page-bar-right"></div></header>` +
    `<div class="page-body"><div class="hero">${BRAND_MARK}<p class="hero-name">${escapeHtml(appName)}</p><p class="hero-lead">${escapeHtml(lead)}</p></div></div>` +
    '</section></main></div>'
  );
}

/** The text at a dotted key; without it, the fallback if one is given, else an error. */
const textAt = (tree: Json, key: string, fallback?: string): string => {
  const value = key.split('.').reduce<unknown>((node, part) => (typeof node === 'object' && node !== null ? (node as Json)[part] : undefined), tree);
  if (typeof value === 'string') return value;
  if (fallback !== undefined) return fallback;
  throw new Error(`locale text ${key} missing`);
};

export type ShellEncoding = 'br' | 'gzip' | 'identity';

/**
 * Which encoding to send a document in: brotli, else gzip, else none, as Accept-Encoding allows (q=0 refuses).
 *
 * @example
 * shellEncoding('gzip, deflate, br'); // 'br'
 */
export function shellEncoding(acceptEncoding: string | undefined): ShellEncoding {
  const accepted = new Set(
    (acceptEncoding ?? '')
      .split(',')
      .map((part) => part.trim().split(';'))
      .filter(([, ...params]) => !params.some((param) => /^\s*q=0(\.0*)?\s*$/.test(param)))
      .map(([token = '']) => token.trim().toLowerCase()),
  );
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return 'identity';
}

/** index.html's description: both languages, for pages sent as built. */
const DESCRIPTION = /<meta name="description" content="[^"]*"\s*\/?>/;

/**
 * The most documents kept: the two languages' /login and the invite pages asked for most recently. An invite
 * page is made and compressed on its first request (under 10 ms at brotli's highest quality on the project's
 * 2-core machine, loaded) and kept for the next visitors of the same link; the oldest goes first.
 */
export const KEPT_DOCUMENTS = 256;

interface Kept {
  /** mtimes of index.html and the two locale files it was made from. */
  stamp: string;
  /** null when there is no shell to send: index.html has no empty #root, or a text is missing. */
  document: Buffer | null;
  /** The document in each encoding asked for so far. */
  encoded: Partial<Record<ShellEncoding, Buffer>>;
}

/** index.html with the shell in #root, in the language's own description, and an invite page's preview tags. */
async function makeDocument(language: string, paths: string[], preview: LinkPreview | undefined): Promise<Buffer | null> {
  const [html = '', common = '{}', login = '{}'] = await Promise.all(paths.map((file) => readFile(file, 'utf8')));
  if (!html.includes(ROOT)) return null;
  const commonTexts = JSON.parse(common) as Json;
  const loginTexts = JSON.parse(login) as Json;
  const appName = textAt(commonTexts, 'layout.appName');
  const lead = textAt(loginTexts, 'description');
  const shell = loginShell({ title: textAt(loginTexts, 'title'), appName, lead });
  const texts = firstTextsBlock(language, { common: commonTexts, login: loginTexts });
  // The page's lead is its description, in its one language (index.html's names both): a search result or a link
  // preview reads the reader's language, and the shell carries the same words, so it costs a few bytes compressed.
  let head = `<meta name="description" content="${escapeHtml(lead)}">`;
  if (preview) {
    // "Member DApp · Invited with code DEMO2026": the login page's own text, so translations stay in one place.
    const invited = textAt(loginTexts, 'inviteCode.invited', '').replace('{{code}}', preview.inviteCode);
    head += linkPreviewTags(preview, { title: invited ? `${appName} · ${invited}` : appName, description: lead }, ICON_PATHS.png512);
  }
  const withHead = DESCRIPTION.test(html) ? html.replace(DESCRIPTION, head) : html.replace('</head>', `${head}</head>`);
  // The document's language is the texts' own, so the app has no reason to change it as it starts.
  return Buffer.from(withHead.replace(ROOT, `<div id="root">${shell}</div>${texts}`).replace(/<html lang="[^"]*"/, `<html lang="${language}"`));
}

function encode(document: Buffer, encoding: ShellEncoding): Buffer {
  if (encoding === 'br') return brotliCompressSync(document, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY } });
  if (encoding === 'gzip') return gzipSync(document, { level: constants.Z_BEST_COMPRESSION });
  return document;
}

/**
 * Makes and keeps the sign-in documents, per language and, for an invite link, per invite (its preview tags),
 * each compressed once (remade when index.html or a locale file it reads changes).
 *
 * @param spaDir - the built SPA (index.html)
 * @param localesDir - the locale files
 * @example
 * const shells = loginDocuments(spaDir, localesDir);
 * const body = await shells.get('en', 'br'); // null: send index.html as built
 * const invite = await shells.get('zh', 'br', { origin: 'https://member.example', inviteCode: 'DEMO2026' });
 */
export function loginDocuments(spaDir: string, localesDir: string) {
  const kept = new Map<string, Kept>();
  return {
    async get(language: string, encoding: ShellEncoding, preview?: LinkPreview): Promise<Buffer | null> {
      const paths = [path.join(spaDir, 'index.html'), path.join(localesDir, language, 'common.json'), path.join(localesDir, language, 'login.json')];
      let stamp: string;
      try {
        stamp = (await Promise.all(paths.map(async (file) => (await stat(file)).mtimeMs))).join();
      } catch {
        return null;
      }
      const key = preview ? `${language} ${preview.origin} ${preview.inviteCode}` : language;
      let entry = kept.get(key);
      if (entry?.stamp !== stamp) {
        // A locale file without the texts (or not JSON) leaves the page as built: the app shows its own texts.
        entry = { stamp, document: await makeDocument(language, paths, preview).catch(() => null), encoded: {} };
      }
      // A Map iterates in insertion order: the entry moves to the end, and the first is the one unused longest.
      kept.delete(key);
      kept.set(key, entry);
      if (kept.size > KEPT_DOCUMENTS) kept.delete(kept.keys().next().value ?? key);
      if (!entry.document) return null;
      return (entry.encoded[encoding] ??= encode(entry.document, encoding));
    },
  };
}
