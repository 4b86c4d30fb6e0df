/**
 * `npm run backup [-- FILE]` (docs/operations.md, "Backups and restore"; server/db/backup.ts): a consistent backup of
 * the database the server uses, while it runs. PGlite under DATA_DIR: the running server's snapshot
 * (server/db/backupSocket.ts), or, with no server running, the folder's own; PostgreSQL at DATABASE_URL: pg_dump. FILE
 * defaults to BACKUP_DIR (./backups) and the time. Prints the file, its size and how long it took.
 */
import { mkdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { backupToFile } from '../server/db/backup';
import { requestBackup } from '../server/db/backupSocket';
import { openDatabase } from '../server/db/client';

const env = z
  .object({
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgres:// URL').optional(),
    BACKUP_DIR: z.string().min(1).default('./backups'),
  })
  .parse({ DATA_DIR: process.env.DATA_DIR || undefined, DATABASE_URL: process.env.DATABASE_URL || undefined, BACKUP_DIR: process.env.BACKUP_DIR || undefined });

const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const file = process.argv[2] ?? path.join(env.BACKUP_DIR, `member-dapp-${stamp}.${env.DATABASE_URL ? 'dump' : 'tar.gz'}`);
await mkdir(path.dirname(path.resolve(file)), { recursive: true });
const started = performance.now();
let how: string;
if (env.DATABASE_URL) {
  await backupToFile({ url: env.DATABASE_URL }, file);
  how = 'pg_dump of DATABASE_URL';
} else {
  const online = await requestBackup(env.DATA_DIR);
  if (online) {
    await writeFile(file, online);
    how = `the running server's PGlite in ${env.DATA_DIR}`;
  } else {
    const database = await openDatabase({ dataDir: env.DATA_DIR, thread: false });
    try {
      await backupToFile({ database }, file);
    } finally {
      await database.close();
    }
    how = `PGlite in ${env.DATA_DIR} (no server running)`;
  }
}
const { size } = await stat(file);
console.log(`backup: ${file} (${size} bytes, ${Math.round(performance.now() - started)} ms) from ${how}`);
