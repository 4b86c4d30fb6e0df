import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi, type Mock } from 'vitest';
import { openDatabase } from '../../server/db/client';
import { openExistingPgliteEarly, pgliteFolder, type EarlyPglite } from '../../server/db/earlyPglite';
import { readEnv } from '../../server/env';
import { earlyDatabase, main } from '../../server/main';
import { copyPgliteTemplate } from '../support/pgliteTemplate';

/** An early database that opens nothing: what main() does with it is recorded. */
function fakeEarly(dataDir: string): EarlyPglite & { abandon: Mock<EarlyPglite['abandon']>; onLost: Mock<EarlyPglite['onLost']> } {
  return { folder: pgliteFolder(dataDir), thread: new Promise(() => undefined), onLost: vi.fn<EarlyPglite['onLost']>(), abandon: vi.fn<EarlyPglite['abandon']>(async () => undefined) };
}

const noLoss = () => undefined;

// The compiled server's launcher opens PGlite's worker on DATA_DIR before the settings are validated (ADR 0029):
// the server keeps it only for the folder its settings name, so that no two workers ever open one folder.
describe('the early PGlite worker (server/db/earlyPglite.ts)', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'early-pglite-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('behavior: is kept, with the server loss handling, when the settings name its folder', async () => {
    const early = fakeEarly(dataDir);
    const onLost = vi.fn();
    expect(await earlyDatabase({ pglite: early }, readEnv({ DATA_DIR: dataDir }), onLost)).toBe(early);
    expect(early.onLost).toHaveBeenCalledWith(onLost);
    expect(early.abandon).not.toHaveBeenCalled();
  });

  it('behavior: is closed when the settings name another folder, or PostgreSQL', async () => {
    const other = fakeEarly(dataDir);
    expect(await earlyDatabase({ pglite: other }, readEnv({ DATA_DIR: path.join(dataDir, 'elsewhere') }), noLoss)).toBeUndefined();
    expect(other.abandon).toHaveBeenCalledOnce();
    expect(other.onLost).not.toHaveBeenCalled();
    const postgres = fakeEarly(dataDir);
    expect(await earlyDatabase({ pglite: postgres }, readEnv({ DATA_DIR: dataDir, DATABASE_URL: 'postgres://app@127.0.0.1:5432/app' }), noLoss)).toBeUndefined();
    expect(postgres.abandon).toHaveBeenCalledOnce();
  });

  it('behavior: is closed when the settings are refused, and the start fails with their error', async () => {
    // A database the folder already holds (the run's seeded copy, else one made here), opened by the launcher's code
    // before main() reads the settings.
    if (!(await copyPgliteTemplate(dataDir))) await (await openDatabase({ dataDir })).close();
    const early = openExistingPgliteEarly({ DATA_DIR: dataDir });
    if (!early) throw new Error('the folder holds a database: the launcher opens it');
    const thread = await early.thread;
    await expect(main({ DATA_DIR: dataDir, NODE_ENV: 'production' }, { pglite: early })).rejects.toThrow(/CHAIN_RPC_URL/);
    // Closed: a statement is refused, the worker is gone.
    await expect(thread.query('SELECT 1')).rejects.toThrow();
  }, 60_000);

  it('behavior: opens nothing for a new folder or for PostgreSQL', async () => {
    expect(openExistingPgliteEarly({ DATA_DIR: path.join(dataDir, 'new') })).toBeUndefined();
    expect(openExistingPgliteEarly({ DATA_DIR: dataDir, DATABASE_URL: 'postgres://app@127.0.0.1:5432/app' })).toBeUndefined();
  });
});
