/**
 * Records what a build read, so that one check (needsBuild in scripts/start.mjs) can tell whether dist/spa is older
 * than its sources: `npm start`, the e2e setup and the bench all ask it. The record is every module file in the
 * bundle's graph (app code, machines, the contract, CSS) plus the files the Vite config itself imports, written to
 * dist/spa/.vite/inputs.json as paths relative to the repository root. Dependencies under node_modules are covered
 * by package-lock.json, which is always an input.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Plugin, ResolvedConfig } from 'vite';

/** Inputs every build has, whatever its graph. */
export const FIXED_BUILD_INPUTS = ['index.html', 'package-lock.json', 'tsconfig.json'] as const;

/**
 * The Vite plugin.
 *
 * @param options - `merge`: add to the record the build before wrote (the desk's build after the member app's,
 *   scripts/vite/opsDeskPlugin.ts), instead of replacing it
 * @returns a plugin that writes dist/spa/.vite/inputs.json after `vite build`
 * @example
 * export default defineConfig({ plugins: [react(), buildInputs()] });
 */
export function buildInputs({ merge = false }: { merge?: boolean } = {}): Plugin {
  let config: ResolvedConfig | undefined;
  let moduleFiles: string[] = [];
  return {
    name: 'member-dapp:build-inputs',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    generateBundle() {
      moduleFiles = [...this.getModuleIds()];
    },
    async writeBundle() {
      if (!config) return;
      const root = config.root;
      const inside = (file: string) => {
        const clean = file.split('?', 1)[0] ?? '';
        if (!path.isAbsolute(clean) || clean.includes(`${path.sep}node_modules${path.sep}`)) return null;
        const relative = path.relative(root, clean);
        return relative.startsWith('..') ? null : relative.split(path.sep).join('/');
      };
      const files = new Set<string>(FIXED_BUILD_INPUTS);
      for (const file of [...moduleFiles, ...(config.configFileDependencies ?? []), config.configFile ?? '']) {
        const relative = inside(file);
        if (relative) files.add(relative);
      }
      const outDir = path.resolve(root, config.build.outDir, '.vite');
      if (merge) {
        const before = await readFile(path.join(outDir, 'inputs.json'), 'utf8').then((text) => JSON.parse(text) as unknown, () => []);
        if (Array.isArray(before)) for (const file of before) if (typeof file === 'string') files.add(file);
      }
      await mkdir(outDir, { recursive: true });
      await writeFile(path.join(outDir, 'inputs.json'), `${JSON.stringify([...files].sort(), null, 1)}\n`);
    },
  };
}
