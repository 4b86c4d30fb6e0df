/**
 * Brotli and gzip copies of every compressible file the build writes (name.br, name.gz beside name), made once at
 * build time at the highest levels, so the server sends them by Accept-Encoding without compressing per request
 * (@fastify/static's preCompressed, server/plugins/static.ts). A copy is written only when it saves more than the
 * Content-Encoding header it is sent with: the server otherwise sends the file as it is. Small files count too: a
 * first visit fetches several chunks of a few hundred bytes (amount.js: 588 -> 335 B br, bench/README.md section 1).
 */
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin, ResolvedConfig } from 'vite';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** What compresses: text formats the build emits. Images and fonts are compressed already. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|map)$/;
/** What a compressed answer adds to its headers ("content-encoding: br" and the line's end). */
const encodingHeaderBytes = (encoding: 'br' | 'gz'): number => `content-encoding: ${encoding === 'br' ? 'br' : 'gzip'}\r\n`.length;

async function* filesUnder(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    // .vite holds the build's own records (manifest, inputs), which the server never sends.
    if (entry.isDirectory()) {
      if (entry.name !== '.vite') yield* filesUnder(full);
    } else if (COMPRESSIBLE.test(entry.name)) {
      yield full;
    }
  }
}

/**
 * Writes the compressed copies of one file.
 *
 * @param file - absolute path of a built file
 * @returns the encodings written (none when the file does not shrink by more than the header costs)
 */
export async function precompressFile(file: string): Promise<('br' | 'gz')[]> {
  // The desk's build (opsDeskPlugin.ts) compressed the files before this pass did: a copy newer than its file stays.
  const copyTime = await stat(`${file}.br`).then((copy) => copy.mtimeMs, () => -1);
  if (copyTime >= (await stat(file)).mtimeMs) return [];
  const source = await readFile(file);
  const [br, gz] = await Promise.all([
    brotli(source, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: source.length,
      },
    }),
    gzipAsync(source, { level: constants.Z_BEST_COMPRESSION }),
  ]);
  const written: ('br' | 'gz')[] = [];
  for (const [encoding, bytes] of [['br', br], ['gz', gz]] as const) {
    if (bytes.length + encodingHeaderBytes(encoding) >= source.length) continue;
    await writeFile(`${file}.${encoding}`, bytes);
    written.push(encoding);
  }
  return written;
}

/**
 * The Vite plugin.
 *
 * @returns a plugin that compresses the written bundle after `vite build`
 * @example
 * export default defineConfig({ plugins: [react(), precompress()] });
 */
export function precompress(): Plugin {
  let config: ResolvedConfig | undefined;
  return {
    name: 'member-dapp:precompress',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    async closeBundle() {
      if (!config) return;
      const outDir = path.resolve(config.root, config.build.outDir);
      const work: Promise<unknown>[] = [];
      for await (const file of filesUnder(outDir)) work.push(precompressFile(file));
      await Promise.all(work);
    },
  };
}
