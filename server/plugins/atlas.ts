/**
 * The product owner's atlas (ADR 0020): the static pages `npm run atlas` writes to docs/atlas, served
 * read-only at /atlas by the server and by the Vite dev server (scripts/vite/atlasPlugin.ts), with the security
 * headers of every page. Nothing of the member's app links to it or loads it: it is files beside the SPA, not part
 * of its bundle.
 *
 * Only the names the atlas writes can be asked for (a language folder's pages, its stylesheet and script, the
 * screenshots), so nothing else on disk is reachable.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { PAGE_POLICY, serializeCsp } from './contentSecurityPolicy';

/** The file names the atlas writes, relative to docs/atlas. */
const ATLAS_FILE = /^(?:index\.html|atlas\.css|atlas\.js|(?:zh|en)\/[A-Za-z]{1,40}\.html|shots\/[a-z0-9-]{1,64}\.(?:zh|en)\.webp)$/;

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.webp': 'image/webp',
};

/** The page policy (own scripts, styles and images only) with framing refused, as a header. */
export const ATLAS_CONTENT_SECURITY_POLICY = serializeCsp({ ...PAGE_POLICY, 'frame-ancestors': ["'none'"] });

/**
 * The atlas file a request path names, or null.
 *
 * @param urlPath - the path after /atlas ("", "/", "/zh/wallet.html")
 * @param atlasDir - docs/atlas
 * @returns the file and its content type, or null for anything the atlas does not write
 * @example
 * resolveAtlasFile('/zh/wallet.html', 'docs/atlas'); // { file: 'docs/atlas/zh/wallet.html', type: 'text/html; charset=utf-8' }
 */
export function resolveAtlasFile(urlPath: string, atlasDir: string): { file: string; type: string } | null {
  const name = urlPath.replace(/^\/+/, '') || 'index.html';
  if (!ATLAS_FILE.test(name)) return null;
  const type = TYPES[path.extname(name)];
  return type ? { file: path.join(atlasDir, name), type } : null;
}

/**
 * Registers GET (and HEAD) /atlas and /atlas/*: the atlas' files, nothing else, never written.
 *
 * @param app - the root instance (its security-header hook covers these answers too)
 * @param atlasDir - docs/atlas; without its index.html the routes answer 404; null: not served (ATLAS=off,
 *   production's default), every /atlas path 404 rather than the SPA's page
 * @returns nothing; the routes are registered
 * @example
 * registerAtlas(app, path.join(repoRoot, 'docs', 'atlas'));
 */
export function registerAtlas(app: FastifyInstance, atlasDir: string | null): void {
  app.get('/atlas', async (_request, reply) => (atlasDir === null ? reply.code(404).type('text/plain; charset=utf-8').send('Not found') : reply.redirect('/atlas/', 302)));
  app.get('/atlas/*', async (request, reply) => {
    const rest = (request.params as { '*': string })['*'];
    const found = atlasDir !== null && existsSync(path.join(atlasDir, 'index.html')) ? resolveAtlasFile(rest, atlasDir) : null;
    let body: Buffer | null = null;
    if (found) body = await readFile(found.file).catch(() => null);
    if (!found || !body) return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
    // The pages carry this policy in a <meta> too (scripts/atlas/render.ts), for a copy opened from disk.
    if (found.type.startsWith('text/html')) reply.header('content-security-policy', ATLAS_CONTENT_SECURITY_POLICY);
    return reply.type(found.type).header('cache-control', 'no-cache').send(body);
  });
}
