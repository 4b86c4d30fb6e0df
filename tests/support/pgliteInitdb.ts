/**
 * The empty PGlite cluster the test runs start new databases from (server/db/pgliteStart.ts): made once per
 * PGlite version with PGlite's own initdb and dumpDataDir, kept in node_modules/.cache (a clean clone makes it in
 * its first run), and named to the test workers and the servers they start through PGLITE_INITDB_DUMP.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { PGLITE_INITDB_DUMP } from '../../server/db/pgliteStart';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** PGlite's version: a dump is only loaded by the version that made it. (Its exports name no package.json.) */
function pgliteVersion(): string {
  const manifest = JSON.parse(readFileSync(path.join(repoRoot, 'node_modules', '@electric-sql', 'pglite', 'package.json'), 'utf8')) as { version: string };
  return manifest.version;
}

/**
 * Makes the dump when missing and sets PGLITE_INITDB_DUMP in this process (test workers inherit it).
 *
 * @returns the dump's path
 * @example await ensurePgliteInitdbDump(); // in a vitest globalSetup
 */
export async function ensurePgliteInitdbDump(): Promise<string> {
  const folder = path.join(repoRoot, 'node_modules', '.cache', 'member-dapp');
  const file = path.join(folder, `pglite-${pgliteVersion()}-initdb.tar`);
  if (!existsSync(file)) {
    const fresh = new PGlite();
    await fresh.waitReady;
    const dump = await fresh.dumpDataDir('none');
    await fresh.close();
    await mkdir(folder, { recursive: true });
    // Written aside and renamed: two projects' setups may make it at once, and a half-written dump must never load.
    const partial = `${file}.${process.pid}.partial`;
    await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
    await rename(partial, file);
  }
  process.env[PGLITE_INITDB_DUMP] = file;
  return file;
}
