/**
 * Migrations applied by hand, one file at a time, for the tests of a migration's own data step: the files in the order
 * drizzle applies them (meta/_journal.json), and a describe block per database target on a fresh, empty database.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe } from 'vitest';
import { z } from 'zod';
import { migrationsFolder, type Database } from '../../../server/db/client';
import { databaseTargets } from './databases';

/** Every migration's tag, in the order drizzle applies them. */
export function migrationTags(): string[] {
  const journal = z.object({ entries: z.array(z.object({ idx: z.number(), tag: z.string() })) }).parse(
    JSON.parse(readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')),
  );
  return [...journal.entries].sort((a, b) => a.idx - b.idx).map((entry) => entry.tag);
}

/** Applies one migration file (`tag` or `tag.sql`), statement by statement. */
export async function applyMigration(database: Database, tag: string): Promise<void> {
  const text = readFileSync(path.join(migrationsFolder, tag.endsWith('.sql') ? tag : `${tag}.sql`), 'utf8');
  for (const statement of text.split('--> statement-breakpoint')) {
    if (statement.trim()) await database.db.execute(sql.raw(statement));
  }
}

/**
 * A describe block per database target, on a fresh database that nothing migrated: `suite` gets the database.
 *
 * @param title - the block's title (the target's name is added)
 * @param suite - the tests; `database()` is open from beforeAll on
 */
export function describeOnEmptyDatabases(title: string, suite: (database: () => Database) => void): void {
  for (const target of databaseTargets) {
    describe(`${title} [${target.name}]`, { timeout: 60_000 }, () => {
      let database: Database | undefined;
      beforeAll(async () => {
        database = await target.open();
      }, 120_000);
      afterAll(async () => {
        await database?.close();
      });
      suite(() => {
        if (!database) throw new Error('no database');
        return database;
      });
    });
  }
}
