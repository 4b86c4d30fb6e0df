/**
 * The real server for an e2e run: buildApp on 127.0.0.1 with an OS-chosen port, PGlite in a fresh temp DATA_DIR
 * (a copy of the run's migrated and seeded template, then migrated and seeded as server/main.ts does: both no-ops), serving the API, the built SPA and /locales from one origin.
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../../server/app';
import { openDatabase } from '../../../server/db/client';
import { seed } from '../../../server/seed/seed';
import { ensureSpaBuilt, spaDir } from './build';

/** Names the migrated and seeded PGlite folder that servers copy (set by globalSetup; unset: start from nothing). */
export const PGLITE_TEMPLATE_ENV = 'MEMBER_DAPP_E2E_PGLITE_TEMPLATE';

/**
 * Migrates and seeds a PGlite data folder once, for every server of the run to copy: starting PGlite on an empty
 * folder (its WebAssembly initdb) cost 3.5-7 s of CPU per spec file, opening a copy about 1 s.
 *
 * @returns the folder (its parent holds the `pglite` data) and its removal
 */
export async function createPgliteTemplate(): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'member-dapp-e2e-template-'));
  const database = await openDatabase({ dataDir: dir });
  try {
    await database.migrate();
    await seed(database.db);
  } finally {
    await database.close();
  }
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

export interface TestServer {
  /** Origin the browser opens, e.g. http://127.0.0.1:41234 */
  url: string;
  port: number;
  /** The temp DATA_DIR; removed by stop(). */
  dataDir: string;
  /** Closes the server and the database, then removes the temp DATA_DIR. */
  stop(): Promise<void>;
}

export interface StartServerOptions {
  /** ADMIN_TOKEN (at least 32 characters): enables the operator API under /api/admin, as the env variable does. */
  adminToken?: string;
}

/**
 * Starts the server for one spec file. It always uses PGlite in a temp folder (never DATABASE_URL), so a run
 * leaves nothing behind and every file starts from the seed.
 *
 * @returns the listening server
 * @example
 * const server = await startServer();
 * await page.goto(`${server.url}/login/DEMO2026`);
 * await server.stop();
 */
export async function startServer({ adminToken }: StartServerOptions = {}): Promise<TestServer> {
  await ensureSpaBuilt();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'member-dapp-e2e-'));
  const template = process.env[PGLITE_TEMPLATE_ENV];
  if (template) await cp(template, dataDir, { recursive: true });
  const database = await openDatabase({ dataDir });
  try {
    await database.migrate();
    await seed(database.db);
    const app = await buildApp({ db: database.db, spaDir, ...(adminToken ? { adminToken } : {}) });
    try {
      await app.listen({ host: '127.0.0.1', port: 0 });
    } catch (error) {
      await app.close();
      throw error;
    }
    const address = app.server.address();
    if (typeof address !== 'object' || address === null) throw new Error(`unexpected server address: ${String(address)}`);
    const port = address.port;
    let stopped = false;
    return {
      url: `http://127.0.0.1:${port}`,
      port,
      dataDir,
      stop: async () => {
        if (stopped) return;
        stopped = true;
        try {
          await app.close();
        } finally {
          await database.close();
          await rm(dataDir, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    await database.close().catch(() => undefined);
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
}
