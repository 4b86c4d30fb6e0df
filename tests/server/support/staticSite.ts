/**
 * A built SPA and a locales folder in a temp dir, the way the static plugin serves them (buildApp's spaDir and
 * localesDir), plus files beside them that must never be served, whatever a path says.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface StaticSite {
  root: string;
  spaDir: string;
  localesDir: string;
  /** Removes the temp dir. */
  remove(): Promise<void>;
}

/** Files by path relative to their folder, e.g. `{ 'assets/index-abc123.js': 'console.log(1)' }`. */
type Files = Record<string, string>;

async function writeAll(folder: string, files: Files): Promise<void> {
  for (const [name, text] of Object.entries(files)) {
    const file = path.join(folder, name);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, text);
  }
}

/**
 * Writes the site.
 *
 * @param prefix - temp dir name prefix, per test file
 * @param files - the SPA's files, the locale files (`zh/common.json`) and files beside both
 * @returns its folders and a remove()
 * @example
 * const site = await createStaticSite('md-static-', { spa: { 'index.html': '<!doctype html>' }, locales: {}, beside: {} });
 */
export async function createStaticSite(prefix: string, files: { spa: Files; locales: Files; beside: Files }): Promise<StaticSite> {
  const root = await mkdtemp(path.join(tmpdir(), prefix));
  const spaDir = path.join(root, 'spa');
  const localesDir = path.join(root, 'locales');
  await writeAll(spaDir, files.spa);
  await writeAll(localesDir, files.locales);
  await writeAll(root, files.beside);
  return { root, spaDir, localesDir, remove: () => rm(root, { recursive: true, force: true }) };
}
