/**
 * `npm run ops -- add ADDRESS admin | remove ADDRESS | list` (server/ops/cli.ts; docs/operations.md, "Operators"): on
 * PGlite under DATA_DIR (default ./data; stop the server first: the embedded database is one process's) or on
 * DATABASE_URL. Migrates first (as DATABASE_MIGRATION_URL's owner when set), so it also works on a database no server
 * has started on yet. `npm run build` compiles it to dist/server/opsCli.js: a production install (no tsx) runs it as
 * `npm run ops:prod -- ...`.
 */
import { z } from 'zod';
import { openDatabase } from '../server/db/client';
import { runOpsCli } from '../server/ops/cli';

// Only the database settings, as server/env.ts reads them: the chain's settings do not matter here.
const env = z
  .object({
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgres:// URL').optional(),
    // With it the CLI migrates as the owner, as the server does; the app's role cannot create tables.
    DATABASE_MIGRATION_URL: z.string().regex(/^postgres(ql)?:\/\//, 'DATABASE_MIGRATION_URL must be a postgres:// URL').optional(),
  })
  .parse({ DATA_DIR: process.env.DATA_DIR || undefined, DATABASE_URL: process.env.DATABASE_URL || undefined, DATABASE_MIGRATION_URL: process.env.DATABASE_MIGRATION_URL || undefined });
const database = await openDatabase({ url: env.DATABASE_URL, migrationUrl: env.DATABASE_MIGRATION_URL, dataDir: env.DATA_DIR });
let code: number;
try {
  await database.migrate();
  code = await runOpsCli(process.argv.slice(2), { db: database.db, now: new Date(), out: (line) => console.log(line), err: (line) => console.error(line) });
} finally {
  await database.close();
}
process.exit(code);
