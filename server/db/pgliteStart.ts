/**
 * A new BatchedPGlite (server/db/pglite.ts), in memory or in a data folder. A new database normally runs initdb in
 * WebAssembly: 5-10 s of CPU, the largest part of a start. With PGLITE_INITDB_DUMP naming a tarball of an empty
 * cluster of this PGlite version (PGlite's own dumpDataDir, made by tests/support/pgliteInitdb.ts), a new database
 * is loaded from it instead (about a third of the CPU, measured) and is the same empty cluster. The test runs set it;
 * a folder that already holds a database is opened as it is.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { BatchedPGlite } from './pglite';

/**
 * PGlite's own default is 160 MB, and its backend zeroes all of it at every open: 0.7-1 s of CPU, a third of a start
 * on existing data (docs/operations.md, "Production"). Postgres's 8 kB pages of this app's working set fit in far less,
 * and the data files stay in the operating system's cache behind it.
 */
const SHARED_BUFFERS = '32MB';
const START_PARAMS = [...PGlite.defaultStartParams, '-c', `shared_buffers=${SHARED_BUFFERS}`];

/** The environment variable naming the empty cluster's tarball. */
export const PGLITE_INITDB_DUMP = 'PGLITE_INITDB_DUMP';

/** The tarball as PGlite's loadDataDir takes it, for a database that does not exist yet; else undefined. */
function initdbDumpFor(dataDir: string | undefined): Blob | undefined {
  const dump = process.env[PGLITE_INITDB_DUMP];
  if (!dump) return undefined;
  if (dataDir !== undefined && existsSync(path.join(dataDir, 'PG_VERSION'))) return undefined;
  // A missing file is a broken setting, not a reason to fall back silently to initdb.
  return new Blob([readFileSync(dump)]);
}

/**
 * The options a new PGlite of the server opens with, in memory or in `dataDir`: the smaller shared buffers, and the
 * empty cluster's tarball for a database that does not exist yet (PGLITE_INITDB_DUMP).
 *
 * @example const plain = new PGlite(pgliteOptions());
 */
export function pgliteOptions(dataDir?: string): { startParams: string[]; loadDataDir?: Blob } {
  const loadDataDir = initdbDumpFor(dataDir);
  return loadDataDir ? { loadDataDir, startParams: START_PARAMS } : { startParams: START_PARAMS };
}

/**
 * Opens (not yet ready: await waitReady) a BatchedPGlite in memory or in `dataDir`.
 *
 * @example const client = newPglite('./data/pglite'); await client.waitReady;
 */
export function newPglite(dataDir?: string, restoreFrom?: Uint8Array): BatchedPGlite {
  // A restore (server/db/backup.ts) loads its snapshot into a folder (or memory) that holds no database yet.
  const options = restoreFrom ? { startParams: START_PARAMS, loadDataDir: new Blob([new Uint8Array(restoreFrom)]) } : pgliteOptions(dataDir);
  return dataDir === undefined ? new BatchedPGlite(options) : new BatchedPGlite(dataDir, options);
}

/**
 * A consistent snapshot of a running PGlite: a checkpoint (so a restore replays little WAL), then its data folder as
 * a gzipped tarball, taken while no statement runs (PGlite's dumpDataDir holds its query lock). A transaction open
 * across statements is not in it, as after a crash: what is committed is, and nothing else.
 *
 * @param db - the PGlite
 * @returns the tarball's bytes
 * @example
 * const bytes = await dumpPglite(client);
 */
export async function dumpPglite(db: PGlite): Promise<Uint8Array> {
  await db.query('CHECKPOINT');
  const blob = await db.dumpDataDir('gzip');
  return new Uint8Array(await blob.arrayBuffer());
}
