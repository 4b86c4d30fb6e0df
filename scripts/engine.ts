/**
 * Writes the ledger engine's next migration when server/ledger/engine.sql (or the record tables of
 * server/ledger/recordTables.ts) no longer says what the latest engine migration installs
 * (docs/decisions/0021-generic-records-and-engine-migrations.md). The migration is a drizzle-kit custom migration
 * (`drizzle-kit generate --custom`, so its journal entry and snapshot are drizzle-kit's own) named
 * `NNNN_ledger_engine_<n>`, and its text is engineMigration(): so `__drizzle_migrations` says which engine a
 * database runs. `--check` writes nothing and fails while they differ (part of `npm test`).
 *
 *   npm run engine          # after editing engine.sql: write the next engine migration
 *   npm run engine:check    # CI: fail when engine.sql has changes no migration installs
 *   npm run engine -- --replace-latest   # on a branch: rewrite its own engine migration, not merged anywhere yet
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { engineMigration } from '../server/ledger/engineSql';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const migrationsDir = path.join(repoRoot, 'server', 'db', 'migrations');
const ENGINE_TAG = /^\d{4}_ledger_engine_(\d+)$/;

const journalShape = z.object({ entries: z.array(z.object({ idx: z.number(), tag: z.string() })) });

/** The engine migrations' tags, in the order drizzle applies them. */
function engineTags(): string[] {
  const journal = journalShape.parse(JSON.parse(readFileSync(path.join(migrationsDir, 'meta', '_journal.json'), 'utf8')));
  return [...journal.entries].sort((a, b) => a.idx - b.idx).map((entry) => entry.tag).filter((tag) => ENGINE_TAG.test(tag));
}

const textOf = (tag: string) => readFileSync(path.join(migrationsDir, `${tag}.sql`), 'utf8');

/**
 * Whether the latest engine migration installs what engine.sql says, and the text a next one would have.
 *
 * @returns the latest engine migration's tag (if any), whether it is current, and the next migration's text
 * @example
 * const { current } = engineMigrationState();
 */
export function engineMigrationState(): { latest: string | undefined; current: boolean; next: string; replacement: string } {
  const tags = engineTags();
  const latest = tags.at(-1);
  const texts = tags.map(textOf);
  const replacement = engineMigration(texts.slice(0, -1));
  return { latest, current: latest !== undefined && texts.at(-1) === replacement, next: engineMigration(texts), replacement };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const check = process.argv.includes('--check');
  const { latest, current, next, replacement } = engineMigrationState();
  if (current) {
    console.log(`The engine migration ${latest} installs server/ledger/engine.sql as it is.`);
  } else if (check) {
    console.error(`server/ledger/engine.sql differs from what ${latest ?? 'any migration'} installs: run npm run engine and commit the migration`);
    process.exit(1);
  } else if (process.argv.includes('--replace-latest') && latest !== undefined) {
    writeFileSync(path.join(migrationsDir, `${latest}.sql`), replacement);
    console.log(`Rewrote ${latest}.sql: the engine as server/ledger/engine.sql says.`);
  } else {
    const number = latest === undefined ? 1 : Number(ENGINE_TAG.exec(latest)?.[1]) + 1;
    const kit = spawnSync(
      path.join(repoRoot, 'node_modules', '.bin', 'drizzle-kit'),
      ['generate', '--custom', '--name', `ledger_engine_${number}`, '--config', 'server/drizzle.config.ts'],
      { cwd: repoRoot, stdio: 'inherit' },
    );
    if (kit.status !== 0) process.exit(kit.status ?? 1);
    const written = engineTags().at(-1);
    if (!written || written === latest) throw new Error('drizzle-kit wrote no engine migration');
    writeFileSync(path.join(migrationsDir, `${written}.sql`), next);
    console.log(`Wrote ${written}.sql: the engine as server/ledger/engine.sql says.`);
  }
}
