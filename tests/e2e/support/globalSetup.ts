/**
 * Vitest globalSetup of the e2e project: builds dist/spa once before any journey when it is missing or older
 * than the sources, so each spec file's server serves the current app; and migrates and seeds one PGlite data
 * folder that each spec file's server copies (server.ts), instead of starting PGlite from nothing per file.
 */
import { ensureSpaBuilt } from './build';
import { createPgliteTemplate, PGLITE_TEMPLATE_ENV } from './server';

export default async function setup(): Promise<() => Promise<void>> {
  const [template] = await Promise.all([createPgliteTemplate(), ensureSpaBuilt()]);
  // Test workers start after this and inherit the environment.
  process.env[PGLITE_TEMPLATE_ENV] = template.dir;
  return template.remove;
}
