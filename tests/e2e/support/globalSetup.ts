/**
 * Vitest globalSetup of the e2e project: builds dist/spa once before any journey when it is missing or older
 * than the sources, so each spec file's server serves the current app.
 */
import { ensureSpaBuilt } from './build';

export default async function setup(): Promise<void> {
  await ensureSpaBuilt();
}
