/**
 * Vitest globalSetup of the unit projects: compiles the server once (scripts/buildServer.ts, when dist/server is
 * missing or older than its sources) for the suites that start it as a process (support/mainProcess.ts), names
 * the empty PGlite cluster new databases start from (tests/support/pgliteInitdb.ts), the run's migrated and
 * seeded PGlite folder those processes start from (tests/support/pgliteTemplate.ts), and with DATABASE_URL the
 * migrated PostgreSQL database the suites' scratch databases are copied from (tests/support/postgresTemplate.ts).
 */
import { ensureServerBuilt } from '../../../scripts/buildServer';
import { ensurePgliteTemplate } from '../../support/pgliteTemplate';
import { ensurePostgresTemplate } from '../../support/postgresTemplate';

export default async function setup(): Promise<() => Promise<void>> {
  const [, removePgliteTemplate, removePostgresTemplate] = await Promise.all([ensureServerBuilt(), ensurePgliteTemplate(), ensurePostgresTemplate()]);
  return async () => {
    await Promise.all([removePgliteTemplate(), removePostgresTemplate()]);
  };
}
