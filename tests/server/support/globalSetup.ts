/**
 * Vitest globalSetup of the unit project: compiles the server once (scripts/buildServer.ts, when dist/server is
 * missing or older than its sources) before the suites that start it as a process (support/mainProcess.ts).
 */
import { ensureServerBuilt } from '../../../scripts/buildServer';

export default async function setup(): Promise<void> {
  await ensureServerBuilt();
}
