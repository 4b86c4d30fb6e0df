/**
 * The migrated and seeded PGlite data folder of a test run: made once by the first globalSetup that asks (the
 * e2e project's or the unit projects'), copied by every server that starts on PGlite from the seed (the e2e
 * servers, tests/e2e/support/server.ts; the compiled server the kill suites start, tests/server/support/mainProcess.ts),
 * and removed after the run. Loading the empty cluster, applying every migration and seeding cost a server 5-8 s
 * of a busy two-core machine; opening a copy, about 1 s. Each copy is then migrated and seeded as server/main.ts
 * does: both no-ops.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { promisify } from 'node:util';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../server/db/client';
import { seed } from '../../server/seed/seed';
import { ensurePgliteInitdbDump } from './pgliteInitdb';
import { shareForRun } from './runResource';

const copyFolder = (from: string, to: string) => promisify(execFile)('cp', ['-R', from, to]);

/** Names the template folder (its `pglite` subfolder holds the data) to the test workers, which inherit it. */
export const PGLITE_TEMPLATE_ENV = 'MEMBER_DAPP_PGLITE_TEMPLATE';

async function createTemplate(): Promise<string> {
  await ensurePgliteInitdbDump();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'member-dapp-template-'));
  const database = await openDatabase({ dataDir: dir });
  try {
    await database.migrate();
    await seed(database.db);
  } finally {
    await database.close();
  }
  return dir;
}

/**
 * For a globalSetup: makes the run's template (once), names it in PGLITE_TEMPLATE_ENV, and returns the teardown;
 * the last teardown removes it.
 *
 * @example export default async function setup() { return ensurePgliteTemplate(); }
 */
export function ensurePgliteTemplate(): Promise<() => Promise<void>> {
  return shareForRun(PGLITE_TEMPLATE_ENV, createTemplate, (dir) => rm(dir, { recursive: true, force: true }));
}

/**
 * Copies the run's template into a new data folder (what DATA_DIR names); does nothing without one (a run without
 * its globalSetup starts from nothing, as a fresh clone's `npm start` does).
 *
 * @returns whether a copy was made
 * @example await copyPgliteTemplate(dataDir);
 */
export async function copyPgliteTemplate(dataDir: string): Promise<boolean> {
  const template = process.env[PGLITE_TEMPLATE_ENV];
  if (!template) return false;
  // The system's cp: 0.2 s for the folder's 1,200 files and 41 MB, where node's fs cp took 0.7-0.8 s (measured).
  await copyFolder(`${template}/.`, dataDir);
  return true;
}
