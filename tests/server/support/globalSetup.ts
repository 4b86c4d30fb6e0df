/**
 * Vitest globalSetup of the unit projects: compiles the server once (scripts/buildServer.ts, when dist/server is
 * missing or older than its sources) for the suites that start it as a process (support/mainProcess.ts), and names
 * the empty PGlite cluster new databases start from (tests/support/pgliteInitdb.ts).
 */
import { ensureServerBuilt } from '../../../scripts/buildServer';
import { ensurePgliteInitdbDump } from '../../support/pgliteInitdb';

export default async function setup(): Promise<void> {
  await Promise.all([ensureServerBuilt(), ensurePgliteInitdbDump()]);
}
