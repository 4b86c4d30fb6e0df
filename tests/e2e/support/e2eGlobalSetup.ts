/**
 * Vitest globalSetup of the e2e project: builds dist/spa once before any journey when it is missing or older
 * than the sources, so each spec file's server serves the current app; and names the run's migrated and seeded
 * PGlite folder (tests/support/pgliteTemplate.ts) that each spec file's server copies, instead of starting PGlite
 * from nothing per file, and with DATABASE_URL the migrated PostgreSQL template (tests/support/postgresTemplate.ts).
 */
import { ensurePgliteTemplate } from '../../support/pgliteTemplate';
import { ensurePostgresTemplate } from '../../support/postgresTemplate';
import { ensureSpaBuilt } from './build';

export default async function setup(): Promise<() => Promise<void>> {
  const [removePgliteTemplate, removePostgresTemplate] = await Promise.all([ensurePgliteTemplate(), ensurePostgresTemplate(), ensureSpaBuilt()]);
  return async () => {
    await Promise.all([removePgliteTemplate(), removePostgresTemplate()]);
  };
}
