/**
 * Reading a Vite manifest (build.manifest: true) and following its static import graph, plus gzip sizes of the
 * emitted files.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { z } from 'zod';

const chunkSchema = z.object({
  file: z.string(),
  name: z.string().optional(),
  src: z.string().optional(),
  isEntry: z.boolean().optional(),
  isDynamicEntry: z.boolean().optional(),
  imports: z.array(z.string()).optional(),
  dynamicImports: z.array(z.string()).optional(),
  css: z.array(z.string()).optional(),
});

export type ManifestChunk = z.infer<typeof chunkSchema>;
export type Manifest = Record<string, ManifestChunk>;

/**
 * Reads `<outDir>/.vite/manifest.json`.
 *
 * @param outDir - the build's output folder
 * @returns the manifest, keyed by source path (or `_name-hash.js` for shared chunks)
 * @throws when the file is missing or not a manifest
 * @example
 * const manifest = readManifest('dist/spa');
 */
export function readManifest(outDir: string, name = 'manifest.json'): Manifest {
  const raw: unknown = JSON.parse(readFileSync(path.join(outDir, '.vite', name), 'utf8'));
  return z.record(z.string(), chunkSchema).parse(raw);
}

/**
 * The JS files a manifest entry loads before it runs: its own file and, transitively, its static `imports`.
 *
 * @param manifest - the manifest
 * @param key - the entry's key, e.g. `index.html` or `src/routes/login.tsx`
 * @param into - set to add to (shared between calls to build a union)
 * @returns the set of output file paths (relative to outDir)
 * @throws when the key is not in the manifest
 * @example
 * const firstLoad = staticClosure(manifest, 'index.html');
 */
export function staticClosure(manifest: Manifest, key: string, into: Set<string> = new Set()): Set<string> {
  const seenKeys = new Set<string>();
  const visit = (current: string): void => {
    if (seenKeys.has(current)) return;
    seenKeys.add(current);
    const chunk = manifest[current];
    if (!chunk) throw new Error(`manifest has no entry ${current}`);
    into.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(key);
  return into;
}

const gzipCache = new Map<string, number>();

/**
 * Gzip size (node:zlib, level 9) of an emitted file.
 *
 * @param outDir - the build's output folder
 * @param file - path relative to outDir
 * @returns compressed bytes
 * @example
 * gzipSizeOf('dist/spa', 'assets/index-abc.js');
 */
export function gzipSizeOf(outDir: string, file: string): number {
  const full = path.resolve(outDir, file);
  const cached = gzipCache.get(full);
  if (cached !== undefined) return cached;
  const size = gzipBytes(readFileSync(full));
  gzipCache.set(full, size);
  return size;
}

/**
 * Gzip size (level 9) of a buffer or string.
 *
 * @param data - the bytes
 * @returns compressed bytes
 * @example
 * gzipBytes('hello');
 */
export function gzipBytes(data: Buffer | string): number {
  return gzipSync(data, { level: 9 }).length;
}

/**
 * Sum of the gzip sizes of several files.
 *
 * @param outDir - the build's output folder
 * @param files - paths relative to outDir
 * @returns compressed bytes in all
 * @example
 * gzipTotal('dist/spa', staticClosure(manifest, 'index.html'));
 */
export function gzipTotal(outDir: string, files: Iterable<string>): number {
  let total = 0;
  for (const file of files) total += gzipSizeOf(outDir, file);
  return total;
}
