/**
 * Compressed answers by Accept-Encoding (brotli, else gzip) for what the server writes itself: API JSON, the
 * locale files and index.html's fallback. The SPA's files are compressed once at build time (scripts/vite/
 * precompressPlugin.ts) and sent as they are by @fastify/static's preCompressed; @fastify/compress leaves any answer
 * that already has a Content-Encoding alone. Brotli at quality 4: on answers this small it is within a few percent
 * of quality 11 and costs a fraction of the CPU per request.
 */
import { constants } from 'node:zlib';
import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/** The route @fastify/static serves the SPA's files on (wildcard, no prefix). */
const STATIC_FILES_ROUTE = '/*';

/**
 * Answers smaller than this go uncompressed: the encoding would save less than it costs. 512 B, not 1 KiB: the
 * first visit's dappParam on a chain is about 550 B, and brotli sends it in about 360 (bench/README.md, section 1).
 */
export const COMPRESSION_THRESHOLD = 256;

/**
 * Registers @fastify/compress for every route registered after it.
 *
 * @param app - the root instance
 * @example
 * await installCompression(app); // before the routes
 */
export async function installCompression(app: FastifyInstance): Promise<void> {
  // @fastify/static's file routes (registered at /*, server/plugins/static.ts) send the build's compressed copies,
  // or files too small to have one, as they are: never compressed again per request. This hook runs before the
  // plugin's own onRoute hook, which honours `compress: false`.
  app.addHook('onRoute', (route) => {
    if (route.url === STATIC_FILES_ROUTE) route.compress = false;
  });
  await app.register(compress, {
    global: true,
    encodings: ['br', 'gzip'],
    threshold: COMPRESSION_THRESHOLD,
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
  });
}
