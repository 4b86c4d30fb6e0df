/**
 * The app's face outside its pages: the icons a browser tab, a wallet's connect and sign prompts and a
 * phone's home screen show, and the web app manifest that names the app. index.html links them; they are fetched
 * after the page, so they add only their link tags to a first visit. The icons are drawn by scripts/icons.ts.
 *
 * The manifest speaks the browser's language, as the sign-in page does (localePreload.ts: ?lng, then
 * Accept-Language; zh when neither names a supported language). A manifest has one name and no way to list
 * translations a browser would pick from, so the server writes it per language from the locale files, and
 * says Vary: Accept-Language.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { constants } from 'node:zlib';
import type { FastifyInstance, RouteShorthandOptions } from 'fastify';
import { entityTagOf, isNotModified } from './entityTag';
import { notFoundEnvelope } from './errorHandler';
import { guessLanguage } from './localePreload';
import { serverPath } from '../serverFiles';

/** The icons' folder, found when first served: the UI tests import this module (through the login shell) in jsdom,
 * where import.meta.url is no file URL. */
const iconsDir = () => serverPath('media', 'icons');

/** Where each icon is served; index.html and the manifest name the same paths. */
export const ICON_PATHS = {
  svg: '/media/icons/icon.svg',
  appleTouch: '/media/icons/icon-180.png',
  png192: '/media/icons/icon-192.png',
  png512: '/media/icons/icon-512.png',
} as const;

export const MANIFEST_PATH = '/manifest.webmanifest';
export const MANIFEST_TYPE = 'application/manifest+json; charset=utf-8';

/** src/theme/theme.css --app-color-page, as index.html's light theme-color: the splash screen and the bar match the page. */
export const PAGE_COLOUR = '#f4f5f8';

const ICON_TYPES: Readonly<Record<string, string>> = {
  'icon.svg': 'image/svg+xml',
  'icon-180.png': 'image/png',
  'icon-192.png': 'image/png',
  'icon-512.png': 'image/png',
};

/**
 * The manifest (562 B in English) and the SVG icon (317 B) are under the server's 1 KiB compression threshold
 * (compression.ts), but Chromium fetches both on a first visit and brotli takes 381 and 117 bytes off them, more
 * than the Content-Encoding and Vary it adds (bench/README.md section 1). At quality 11: they are this small. The
 * PNGs are no compressible type and stay as they are.
 */
const SMALL_TEXT_COMPRESSED: RouteShorthandOptions = {
  compress: { encodings: ['br', 'gzip'], threshold: 0, brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY } } },
};

/**
 * The web app manifest in one language.
 *
 * @param language - 'zh' or 'en', written as the manifest's lang
 * @param appName - common.json's layout.appName in that language
 * @returns the manifest's members
 * @example
 * webManifest('en', 'Member DApp').short_name; // 'Member DApp'
 */
export function webManifest(language: string, appName: string) {
  const png = (src: string, size: number, purpose: 'any' | 'maskable') => ({ src, sizes: `${size}x${size}`, type: 'image/png', purpose });
  return {
    id: '/',
    name: appName,
    // Both names fit a home screen label (12 characters or fewer).
    short_name: appName,
    lang: language,
    dir: 'ltr',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    background_color: PAGE_COLOUR,
    theme_color: PAGE_COLOUR,
    // The PNGs are edge to edge with the mark in the middle 80 %: the same file serves as a plain and a maskable
    // icon, listed twice because one entry with both purposes is shown too small where it is taken as plain.
    icons: [
      png(ICON_PATHS.png192, 192, 'any'),
      png(ICON_PATHS.png512, 512, 'any'),
      png(ICON_PATHS.png192, 192, 'maskable'),
      png(ICON_PATHS.png512, 512, 'maskable'),
    ],
  };
}

/**
 * Registers GET /media/icons/:file and GET /manifest.webmanifest.
 *
 * @param app - the root instance
 * @param localesDir - the locale files (the app's name in each language)
 * @example
 * registerAppIdentity(app, 'locales');
 */
export function registerAppIdentity(app: FastifyInstance, localesDir: string): void {
  app.get('/media/icons/:file', SMALL_TEXT_COMPRESSED, async (request, reply) => {
    const { file } = request.params as { file: string };
    const type = Object.hasOwn(ICON_TYPES, file) ? ICON_TYPES[file] : undefined;
    if (!type) return reply.code(404).send(notFoundEnvelope());
    const image = await readFile(path.join(iconsDir(), file));
    const tag = entityTagOf(image);
    // A day without asking, then a 304 while the file is the same: a new icon reaches everyone within a day. No
    // request id: the same bytes for everyone, as the fingerprinted assets (server/plugins/static.ts).
    reply.removeHeader('x-request-id');
    reply.header('cache-control', 'public, max-age=86400').header('etag', tag);
    if (isNotModified(request.headers['if-none-match'], tag)) return reply.code(304).send();
    return reply.type(type).send(image);
  });

  app.get(MANIFEST_PATH, SMALL_TEXT_COMPRESSED, async (request, reply) => {
    const query = (request.query as Record<string, unknown> | undefined)?.lng;
    // The manifest is fetched without cookies: the query and the browser's languages are what it can go by.
    const language = guessLanguage({ query: typeof query === 'string' ? query : undefined, acceptLanguage: request.headers['accept-language'] });
    const common = JSON.parse(await readFile(path.join(localesDir, language, 'common.json'), 'utf8')) as { layout?: { appName?: unknown } };
    const appName = typeof common.layout?.appName === 'string' ? common.layout.appName : 'Member DApp';
    const body = JSON.stringify(webManifest(language, appName));
    const tag = entityTagOf(body);
    reply.removeHeader('x-request-id');
    reply.header('cache-control', 'no-cache').header('vary', 'accept-language').header('etag', tag);
    if (isNotModified(request.headers['if-none-match'], tag)) return reply.code(304).send();
    return reply.type(MANIFEST_TYPE).send(body);
  });
}
