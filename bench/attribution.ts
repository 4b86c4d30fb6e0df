/**
 * Which packages make up a chunk: a build plugin records each chunk's modules (their rendered, pre-minify code),
 * groups them by npm package (or app folder), and splits the chunk's real gzip size between the groups in
 * proportion to each group's own gzip size. The split is an estimate; the per-chunk total is exact.
 */
import path from 'node:path';
import type { Plugin } from 'vite';
import { gzipBytes } from './manifest';

/** Rendered code per module id, per emitted chunk file name. */
export type ChunkModules = Map<string, Map<string, string>>;

/**
 * A plugin that fills `into` with the modules of every emitted JS chunk. It changes no output.
 *
 * @param into - filled in generateBundle
 * @returns the plugin
 * @example
 * const modules: ChunkModules = new Map();
 * await build({ plugins: [recordChunkModules(modules)] });
 */
export function recordChunkModules(into: ChunkModules): Plugin {
  return {
    name: 'bench:record-chunk-modules',
    apply: 'build',
    generateBundle(_options, bundle) {
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk') continue;
        const modules = new Map<string, string>();
        for (const [id, module] of Object.entries(output.modules)) modules.set(id, module.code ?? '');
        into.set(output.fileName, modules);
      }
    },
  };
}

/**
 * The group a module belongs to: its npm package, `src/<folder>` for app code, or `(other)`.
 *
 * @param id - module id as the bundler saw it
 * @param root - project root (to name app folders)
 * @returns e.g. `react-dom`, `@xstate/react`, `app:api-schema`, `app:machines`
 * @example
 * groupOf('/app/node_modules/@xstate/react/dist/index.js', '/app'); // '@xstate/react'
 */
export function groupOf(id: string, root: string): string {
  const clean = id.replace(/^\0/, '').replace(/\?.*$/, '');
  const marker = clean.lastIndexOf('node_modules/');
  if (marker >= 0) {
    const parts = clean.slice(marker + 'node_modules/'.length).split('/');
    const first = parts[0] ?? '(other)';
    return first.startsWith('@') && parts[1] ? `${first}/${parts[1]}` : first;
  }
  if (path.isAbsolute(clean)) {
    const relative = path.relative(root, clean).split(path.sep);
    if (relative[0] === 'src' && relative.length > 2) return `app:src/${relative[1]}`;
    if (relative[0] && relative[0] !== '..' && relative.length > 1) return `app:${relative[0]}`;
  }
  return '(other)';
}

export interface GroupShare {
  group: string;
  /** Estimated gzip bytes of the group inside the chunk. */
  bytes: number;
}

/**
 * Splits a chunk's gzip size between its module groups.
 *
 * @param modules - the chunk's modules (id to rendered code)
 * @param chunkGzip - the emitted file's real gzip size
 * @param root - project root
 * @returns groups, largest first
 * @example
 * shareByGroup(modules.get('assets/index-abc.js')!, 90_000, repoRoot);
 */
export function shareByGroup(modules: Map<string, string>, chunkGzip: number, root: string): GroupShare[] {
  const codeByGroup = new Map<string, string[]>();
  for (const [id, code] of modules) {
    if (!code) continue;
    const group = groupOf(id, root);
    const list = codeByGroup.get(group) ?? [];
    list.push(code);
    codeByGroup.set(group, list);
  }
  const raw = [...codeByGroup].map(([group, codes]) => ({ group, size: gzipBytes(codes.join('\n')) }));
  const sum = raw.reduce((total, entry) => total + entry.size, 0);
  if (sum === 0) return [];
  return raw.map(({ group, size }) => ({ group, bytes: (size / sum) * chunkGzip })).sort((a, b) => b.bytes - a.bytes);
}

/**
 * Adds the shares of several chunks per group.
 *
 * @param shares - shares of each chunk
 * @returns groups, largest first
 * @example
 * totalByGroup([sharesOfIndex, sharesOfLogin]);
 */
export function totalByGroup(shares: GroupShare[][]): GroupShare[] {
  const totals = new Map<string, number>();
  for (const list of shares) for (const { group, bytes } of list) totals.set(group, (totals.get(group) ?? 0) + bytes);
  return [...totals].map(([group, bytes]) => ({ group, bytes })).sort((a, b) => b.bytes - a.bytes);
}
