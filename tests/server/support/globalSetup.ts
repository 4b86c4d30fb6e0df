/**
 * Vitest globalSetup of the unit projects: compiles the server once (scripts/buildServer.ts, when dist/server is
 * missing or older than its sources) for the suites that start it as a process (support/mainProcess.ts), names
 * the empty PGlite cluster new databases start from (tests/support/pgliteInitdb.ts), and the run's migrated and
 * seeded PGlite folder those processes start from (tests/support/pgliteTemplate.ts).
 */
import { ensureServerBuilt } from '../../../scripts/buildServer';
import { ensurePgliteTemplate } from '../../support/pgliteTemplate';

export default async function setup(): Promise<() => Promise<void>> {
  const [, removeTemplate] = await Promise.all([ensureServerBuilt(), ensurePgliteTemplate()]);
  return removeTemplate;
}
