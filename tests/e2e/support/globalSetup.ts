/**
 * Vitest globalSetup of the e2e project: builds dist/spa once before any journey when it is missing or older
 * than the sources, so each spec file's server serves the current app; and names the run's migrated and seeded
 * PGlite folder (tests/support/pgliteTemplate.ts) that each spec file's server copies, instead of starting PGlite
 * from nothing per file.
 */
import { ensurePgliteTemplate } from '../../support/pgliteTemplate';
import { ensureSpaBuilt } from './build';

export default async function setup(): Promise<() => Promise<void>> {
  const [removeTemplate] = await Promise.all([ensurePgliteTemplate(), ensureSpaBuilt()]);
  return removeTemplate;
}
