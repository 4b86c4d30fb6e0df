/**
 * Backups and restores of the database (docs/operations.md, "Backups and restore"; docs/deploy/backups.md), one
 * file each:
 *
 * - PGlite: a consistent snapshot taken while the server runs (Database.dump: a checkpoint, then PGlite's data folder
 *   as a gzipped tarball between two statements; what is committed is in it, as after a crash). A restore loads it
 *   into a data folder that holds no database.
 * - PostgreSQL: `pg_dump --format=custom` (one consistent snapshot of the database, taken while it runs) and
 *   `pg_restore` into an empty database. Point-in-time recovery (a base backup and the WAL archive) is the
 *   production path, scripted in scripts/pg-pitr/; this one is for drills, copies and small installs.
 *
 * Either way a restored database may lack what happened after the snapshot; the payer's journal finds on chain what
 * it paid meanwhile (server/chain/payer/journal.ts), so a restore never pays twice.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { open, readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { openDatabase, type Database } from './client';

const run = promisify(execFile);

export type BackupFormat = 'pglite' | 'pg_dump';

/** The client tools' folder: PG_BIN when set (e.g. /usr/lib/postgresql/15/bin), else whatever PATH finds. */
const tool = (name: string) => (process.env.PG_BIN ? path.join(process.env.PG_BIN, name) : name);

/**
 * Writes a backup of the running database to `file`.
 *
 * @param source - the open database (PGlite), or PostgreSQL's URL
 * @param file - where to write it (overwritten)
 * @returns its format, size and how long it took
 * @example
 * await backupToFile({ url: process.env.DATABASE_URL }, 'backups/2026-12-01.dump');
 */
export async function backupToFile(source: { database?: Database | undefined; url?: string | undefined }, file: string): Promise<{ format: BackupFormat; bytes: number; ms: number }> {
  const started = performance.now();
  if (source.url) {
    await run(tool('pg_dump'), ['--format=custom', '--no-owner', '--no-privileges', `--file=${file}`, source.url], { maxBuffer: 16 * 1024 * 1024 });
    return { format: 'pg_dump', bytes: (await stat(file)).size, ms: Math.round(performance.now() - started) };
  }
  if (!source.database?.dump) throw new Error('backupToFile: neither a PostgreSQL URL nor a PGlite database');
  const bytes = await source.database.dump();
  await writeFile(file, bytes);
  return { format: 'pglite', bytes: bytes.byteLength, ms: Math.round(performance.now() - started) };
}

/** A backup's format, read from its first bytes: gzip (PGlite's tarball) or pg_dump's custom format ("PGDMP"). */
export async function backupFormatOf(file: string): Promise<BackupFormat> {
  // Five bytes, not the file: a backup may be gigabytes.
  const handle = await open(file, 'r');
  const head = Buffer.alloc(5);
  try {
    await handle.read(head, 0, 5, 0);
  } finally {
    await handle.close();
  }
  if (head[0] === 0x1f && head[1] === 0x8b) return 'pglite';
  if (head.toString('latin1') === 'PGDMP') return 'pg_dump';
  throw new Error(`${file} is not a backup of this app (neither PGlite's tarball nor pg_dump's custom format)`);
}

/**
 * Restores a backup: into an empty PostgreSQL database, or into PGlite's folder under DATA_DIR (a database already
 * there is moved aside first, to `pglite.before-restore-<time>`, never deleted).
 *
 * @param file - the backup
 * @param target - PostgreSQL's URL (an empty database), or DATA_DIR
 * @returns its format, how long it took, and the folder moved aside, if any
 * @example
 * await restoreFromFile('backups/2026-12-01.tar.gz', { dataDir: './data' });
 */
export async function restoreFromFile(file: string, target: { url?: string | undefined; dataDir?: string | undefined }): Promise<{ format: BackupFormat; ms: number; movedAside: string | null }> {
  const started = performance.now();
  const format = await backupFormatOf(file);
  if (target.url) {
    if (format !== 'pg_dump') throw new Error('a PGlite backup restores into DATA_DIR, not into PostgreSQL');
    await run(tool('pg_restore'), ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', `--dbname=${target.url}`, file], { maxBuffer: 16 * 1024 * 1024 });
    return { format, ms: Math.round(performance.now() - started), movedAside: null };
  }
  if (format !== 'pglite') throw new Error('a pg_dump backup restores into PostgreSQL (DATABASE_URL), not into PGlite');
  if (!target.dataDir) throw new Error('restoreFromFile: neither a PostgreSQL URL nor DATA_DIR');
  const folder = path.resolve(target.dataDir, 'pglite');
  let movedAside: string | null = null;
  if (existsSync(folder)) {
    movedAside = `${folder}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    await rename(folder, movedAside);
  }
  const database = await openDatabase({ dataDir: target.dataDir, thread: false, restoreFrom: await readFile(file) });
  await database.close();
  return { format, ms: Math.round(performance.now() - started), movedAside };
}
