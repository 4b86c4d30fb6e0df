/**
 * The built SPA (dist/spa) with history fallback, and the translations under locales/, from the same port as
 * the API (docs/architecture.md, "Reference server"). Unknown /api and /locales paths answer the 4004 envelope; any other
 * GET without a file gets index.html so that deep links like /login/DEMO2026 load the app.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { registerAppIdentity } from './appIdentity';
import { entityTagOf, isNotModified } from './entityTag';
import { notFoundEnvelope } from './errorHandler';
import { inviteCodeOfPath } from './linkPreview';
import { guessLanguage, localePreloadLink } from './localePreload';
import { loginDocuments, shellEncoding } from './loginShell';
import { serverPath } from '../serverFiles';

export interface StaticOptions {
  /** Folder of the built SPA; null or a folder without index.html serves no SPA. */
  spaDir: string | null;
  /** Folder holding <lng>/<ns>.json. */
  localesDir: string;
}

const LANGUAGES = new Set(['zh', 'en']);
const NAMESPACE_FILE = /^([a-zA-Z]+)\.json$/;
const GOODS_IMAGE = /^[a-z0-9-]{1,64}\.svg$/;
const goodsMediaDir = serverPath('media', 'goods');
/** /login and /login/:inviteCode: the pages sent with the sign-in shell. */
const LOGIN_PAGE = /^\/login(?:\/[^/]+)?$/;
/** /ops and /ops/…: the operators' desk, a build of its own (ops.html; scripts/vite/opsDeskPlugin.ts). */
const OPS_PAGE = /^\/ops(?:\/|$)/;
/** Headers a fingerprinted file under assets/ goes without (see setHeaders). */
const IMMUTABLE_WITHOUT = ['etag', 'last-modified', 'accept-ranges', 'x-request-id'] as const;

function pathOf(request: FastifyRequest): string {
  return request.url.split('?')[0] ?? '/';
}

/**
 * The site's origin for absolute URLs in a page (link previews): the request's host when it is one of the
 * server's sites (server/auth/signInSites.ts), else the first configured one; never a host a request made up.
 */
function siteOrigin(app: FastifyInstance, request: FastifyRequest): string {
  const host = app.signInSites.domainFor(request.host);
  return `${app.signInSites.match(host)?.protocol ?? `${request.protocol}:`}//${host}`;
}

function isApiOrLocales(urlPath: string): boolean {
  return urlPath === '/api' || urlPath.startsWith('/api/') || urlPath === '/locales' || urlPath.startsWith('/locales/') || urlPath.startsWith('/media/');
}

/**
 * Registers the SPA files, the locales route and the not-found handler (history fallback or 4004).
 *
 * @param app - the root instance
 * @param options - SPA and locales folders
 * @returns when registered
 * @example
 * await registerStatic(app, { spaDir: 'dist/spa', localesDir: 'locales' });
 */
export async function registerStatic(app: FastifyInstance, options: StaticOptions): Promise<void> {
  const spaDir = options.spaDir && existsSync(path.join(options.spaDir, 'index.html')) ? path.resolve(options.spaDir) : null;

  if (spaDir) {
    await app.register(fastifyStatic, {
      root: spaDir,
      wildcard: true,
      // @fastify/static serves dotfiles by default; nothing the build emits starts with a dot, so none is served.
      dotfiles: 'ignore',
      // The build wrote name.br and name.gz beside each file (scripts/vite/precompressPlugin.ts): sent by
      // Accept-Encoding, with Vary: Accept-Encoding.
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply, filePath) => {
        // Vite fingerprints everything under assets/, so those never change; index.html must be re-checked so a
        // new build is picked up at once.
        const immutable = filePath.startsWith(path.join(spaDir, 'assets') + path.sep);
        reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
        // Nothing ever revalidates or asks for a range of a file cached for a year unchanged, and a script does not
        // fail in a way a member would quote: its validators and request id were ~190 bytes on each of the 10
        // files of /login's first visit (bench/README.md, "Lighthouse").
        if (immutable) for (const name of IMMUTABLE_WITHOUT) reply.removeHeader(name);
      },
    });
  }

  app.get('/locales/:lng/:file', async (request, reply) => {
    const { lng, file } = request.params as { lng: string; file: string };
    const namespace = NAMESPACE_FILE.exec(file)?.[1];
    // Only the two languages and letter-only namespaces: nothing else can reach the file system.
    if (!LANGUAGES.has(lng) || namespace === undefined) return reply.code(404).send(notFoundEnvelope());
    let text: string;
    try {
      text = await readFile(path.join(options.localesDir, lng, `${namespace}.json`), 'utf8');
    } catch {
      return reply.code(404).send(notFoundEnvelope());
    }
    // no-cache keeps every visit current (a new text shows at once, as with index.html) and the tag makes the
    // check cheap: a repeat visit costs a 304 with no body instead of the whole file. A tag rather than
    // content-hashed names: i18next-http-backend's loadPath is one template, so hashed names would need a map of
    // hashes in the entry script (which would then change with every text, and lose its year-long cache) and new
    // preload links; the tag needs no change in the app. It names the JSON; a br or gzip copy (compression.ts)
    // carries the same tag, and no range of these files is ever served, the one use of a strong comparison.
    const tag = entityTagOf(text);
    reply.header('cache-control', 'no-cache').header('etag', tag);
    if (isNotModified(request.headers['if-none-match'], tag)) return reply.code(304).send();
    return reply.type('application/json; charset=utf-8').send(text);
  });

  // The seeded goods' images (server/media/goods): small SVG files, served from this origin so the CSP's img-src
  // 'self' holds.
  app.get('/media/goods/:file', async (request, reply) => {
    const { file } = request.params as { file: string };
    if (!GOODS_IMAGE.test(file)) return reply.code(404).send(notFoundEnvelope());
    let image: Buffer;
    try {
      image = await readFile(path.join(goodsMediaDir, file));
    } catch {
      return reply.code(404).send(notFoundEnvelope());
    }
    return reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(image);
  });

  // The icons and the web app manifest (appIdentity.ts).
  registerAppIdentity(app, options.localesDir);

  const loginPages = spaDir ? loginDocuments(spaDir, options.localesDir) : null;
  const hasOpsDesk = spaDir !== null && existsSync(path.join(spaDir, 'ops.html'));

  app.setNotFoundHandler(async (request, reply) => {
    const urlPath = pathOf(request);
    if (spaDir && (request.method === 'GET' || request.method === 'HEAD') && !isApiOrLocales(urlPath)) {
      const query = (request.query as Record<string, unknown> | undefined)?.lng;
      const hints = { query: typeof query === 'string' ? query : undefined, cookie: request.headers.cookie, acceptLanguage: request.headers['accept-language'] };
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache');
      if (loginPages && LOGIN_PAGE.test(urlPath)) {
        // The sign-in page paints its title and welcome before the script runs, and carries its texts (loginShell.ts):
        // nothing to preload.
        const encoding = shellEncoding(request.headers['accept-encoding']);
        const inviteCode = inviteCodeOfPath(urlPath);
        const body = await loginPages.get(guessLanguage(hints), encoding, inviteCode ? { origin: siteOrigin(app, request), inviteCode } : undefined);
        if (body) {
          reply.header('vary', 'accept-encoding');
          if (encoding !== 'identity') reply.header('content-encoding', encoding);
          return reply.send(body);
        }
      }
      if (hasOpsDesk && OPS_PAGE.test(urlPath)) return reply.sendFile('ops.html');
      return reply.header('link', localePreloadLink(urlPath, hints)).sendFile('index.html');
    }
    return reply.code(404).send(notFoundEnvelope());
  });
}
