/**
 * `npm run restore -- FILE` (docs/operations.md, "Backups and restore"; server/db/backup.ts): puts a backup back.
 * PGlite: into DATA_DIR with the server stopped (the folder there is moved aside, never deleted); PostgreSQL: into the
 * empty database DATABASE_URL names. Start the server after it: it migrates, and its payer halts until the recovery
 * from the chain has accounted for whatever was paid after the backup (docs/API.md, "Credit on chain: the payer's
 * journal").
 */
import { z } from 'zod';
import { restoreFromFile } from '../server/db/backup';
import { serverListens } from '../server/db/backupSocket';

const env = z
  .object({
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgres:// URL').optional(),
  })
  .parse({ DATA_DIR: process.env.DATA_DIR || undefined, DATABASE_URL: process.env.DATABASE_URL || undefined });

const file = process.argv[2];
if (!file) {
  console.error('usage: npm run restore -- FILE   (a file npm run backup wrote)');
  process.exit(2);
}
if (!env.DATABASE_URL && (await serverListens(env.DATA_DIR))) {
  console.error(`restore: a server is running on ${env.DATA_DIR}; stop it first`);
  process.exit(1);
}
const restored = await restoreFromFile(file, { url: env.DATABASE_URL, dataDir: env.DATA_DIR });
console.log(
  `restore: ${file} into ${env.DATABASE_URL ? 'DATABASE_URL' : env.DATA_DIR} in ${restored.ms} ms${restored.movedAside ? `; the folder that was there is now ${restored.movedAside}` : ''}. ` +
    'Start the server. If the chain shows payments the backup does not know, payouts stay halted until the recovery from the chain (npm run payer -- recover, or the desk) accounts for them.',
);
