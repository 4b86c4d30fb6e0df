/**
 * Serves the product owner's atlas (docs/atlas, written by npm run atlas) at /atlas in `vite` (npm run dev), as the
 * server does in `npm start` (server/plugins/atlas.ts): the same files, read-only, with the page's security headers.
 * Development only: the build neither copies nor references it, so it never reaches the member's bundle.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { ATLAS_CONTENT_SECURITY_POLICY, resolveAtlasFile } from '../../server/plugins/atlas';
import { PERMISSIONS_POLICY } from '../../server/plugins/security';

const atlasDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../docs/atlas');

/** The headers the server's helmet set-up gives a page (server/plugins/security.ts), for the atlas' answers. */
const headers: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'permissions-policy': PERMISSIONS_POLICY,
  'cache-control': 'no-cache',
};

/**
 * The Vite plugin.
 *
 * @returns a plugin whose dev-server middleware answers GET and HEAD /atlas/*
 * @example
 * export default defineConfig({ plugins: [react(), atlasDevServer()] });
 */
export function atlasDevServer(): Plugin {
  return {
    name: 'member-dapp:atlas',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use((request, response, next) => {
        const urlPath = (request.url ?? '').split('?')[0] ?? '';
        if (urlPath !== '/atlas' && !urlPath.startsWith('/atlas/')) return next();
        if (request.method !== 'GET' && request.method !== 'HEAD') {
          response.statusCode = 405;
          response.setHeader('allow', 'GET, HEAD');
          return response.end();
        }
        if (urlPath === '/atlas') {
          response.statusCode = 302;
          response.setHeader('location', '/atlas/');
          return response.end();
        }
        const found = resolveAtlasFile(urlPath.slice('/atlas'.length), atlasDir);
        const answer = (status: number, type: string, body: Buffer | string) => {
          response.statusCode = status;
          for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
          response.setHeader('content-type', type);
          if (type.startsWith('text/html')) response.setHeader('content-security-policy', ATLAS_CONTENT_SECURITY_POLICY);
          response.end(request.method === 'HEAD' ? undefined : body);
        };
        if (!found) return answer(404, 'text/plain; charset=utf-8', 'Not found');
        readFile(found.file).then(
          (body) => answer(200, found.type, body),
          () => answer(404, 'text/plain; charset=utf-8', 'Not found'),
        );
      });
    },
  };
}
