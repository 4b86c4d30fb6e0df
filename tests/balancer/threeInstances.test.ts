/**
 * Three instances behind HAProxy on one PostgreSQL (tests/balancer/support/threeInstancesRun.ts says
 * what it runs and checks): the money concurrency suite's 10,000 calls, the shop's race, the payer paying on the node,
 * a kill -9 and a rolling restart. One run, about a minute; `npm run test:balancer` runs it alone.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { missingPrerequisite } from './support/processes';
import { lastDiagnosis, runThreeInstances, stopAll } from './support/threeInstancesRun';

const missing = missingPrerequisite();
// Said where the run is skipped, as test:run says when PostgreSQL is missing (CI installs both: .ci/run).
if (missing) console.warn(`three instances behind a balancer: skipped here: ${missing}`);

describe.skipIf(missing !== null)('three instances behind a balancer', () => {
  // Dropping the database, stopping anvil and the cluster take seconds on a busy host: more than a hook's default 10.
  afterAll(() => stopAll(), 60_000);

  it('behavior: no acknowledged request lost, nothing paid twice, no 5xx but the kill\'s, the books balanced', { timeout: 300_000 }, async () => {
    const problems = await runThreeInstances();
    if (problems.length > 0) console.error(lastDiagnosis());
    expect(problems).toEqual([]);
  });
});
