/**
 * The sign-in page's first paint, sent in index.html itself: a member's phone shows the page's title bar and its
 * welcome (the brand, the app's name and the one-line lead) while the app's script downloads, instead of a blank
 * page. It is the same markup the app renders first (tests/ui/loginShell.test.tsx compares them), in the language
 * the app will most likely pick (localePreload.ts), classes only (the CSP allows no inline style). React replaces it
 * on its first render; the rest of the page (the invite notice, the wallet card) arrives with the app. The page's
 * texts (common and login) come in the document too, so the app fetches none to start (firstTextsBlock).
 */
import { stat, readFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

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

const textAt = (tree: Json, key: string): string => {
  const value = key.split('.').reduce<unknown>((node, part) => (typeof node === 'object' && node !== null ? (node as Json)[part] : undefined), tree);
  if (typeof value !== 'string') throw new Error(`locale text ${key} missing`);
  return value;
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

interface Variant {
  /** mtimes of index.html and the two locale files it was made from. */
  stamp: string;
  /** null when there is no shell to send: index.html has no empty #root, or a text is missing. */
  bodies: Record<ShellEncoding, Buffer> | null;
}

/** index.html with the shell in #root, in every encoding; null when it cannot be made. */
async function makeDocument(language: string, paths: string[]): Promise<Record<ShellEncoding, Buffer> | null> {
  const [html = '', common = '{}', login = '{}'] = await Promise.all(paths.map((file) => readFile(file, 'utf8')));
  if (!html.includes(ROOT)) return null;
  const commonTexts = JSON.parse(common) as Json;
  const loginTexts = JSON.parse(login) as Json;
  const shell = loginShell({ title: textAt(loginTexts, 'title'), appName: textAt(commonTexts, 'layout.appName'), lead: textAt(loginTexts, 'description') });
  const texts = firstTextsBlock(language, { common: commonTexts, login: loginTexts });
  // The document's language is the texts' own, so the app has no reason to change it as it starts.
  const document = Buffer.from(html.replace(ROOT, `<div id="root">${shell}</div>${texts}`).replace(/<html lang="[^"]*"/, `<html lang="${language}"`));
  return {
    identity: document,
    br: brotliCompressSync(document, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY } }),
    gzip: gzipSync(document, { level: constants.Z_BEST_COMPRESSION }),
  };
}

/**
 * Makes and keeps the sign-in document per language, compressed once per build (remade when index.html or a locale
 * file it reads changes).
 *
 * @param spaDir - the built SPA (index.html)
 * @param localesDir - the locale files
 * @example
 * const shells = loginDocuments(spaDir, localesDir);
 * const body = await shells.get('en', 'br'); // null: send index.html as built
 */
export function loginDocuments(spaDir: string, localesDir: string) {
  const cache = new Map<string, Variant>();
  return {
    async get(language: string, encoding: ShellEncoding): Promise<Buffer | null> {
      const paths = [path.join(spaDir, 'index.html'), path.join(localesDir, language, 'common.json'), path.join(localesDir, language, 'login.json')];
      let stamp: string;
      try {
        stamp = (await Promise.all(paths.map(async (file) => (await stat(file)).mtimeMs))).join();
      } catch {
        return null;
      }
      let variant = cache.get(language);
      if (variant?.stamp !== stamp) {
        // A locale file without the texts (or not JSON) leaves the page as built: the app shows its own texts.
        variant = { stamp, bodies: await makeDocument(language, paths).catch(() => null) };
        cache.set(language, variant);
      }
      return variant.bodies ? variant.bodies[encoding] : null;
    },
  };
}
