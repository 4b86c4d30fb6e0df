/**
 * Vitest globalSetup of the e2e project: builds dist/spa once before any journey when it is missing or older
 * than the sources, so each spec file's server serves the current app; and migrates and seeds one PGlite data
 * folder that each spec file's server copies (server.ts), instead of starting PGlite from nothing per file.
 */
import { ensurePgliteInitdbDump } from '../../support/pgliteInitdb';
import { ensureSpaBuilt } from './build';
import { createPgliteTemplate, PGLITE_TEMPLATE_ENV } from './server';

export default async function setup(): Promise<() => Promise<void>> {
  // The template starts from the empty cluster of the run (tests/support/pgliteInitdb.ts), not its own initdb.
  const [template] = await Promise.all([ensurePgliteInitdbDump().then(createPgliteTemplate), ensureSpaBuilt()]);
  // Test workers start after this and inherit the environment.
  process.env[PGLITE_TEMPLATE_ENV] = template.dir;
  return template.remove;
}
