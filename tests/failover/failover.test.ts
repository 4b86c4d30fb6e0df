/**
 * A PostgreSQL primary with a synchronous standby, killed -9 and the standby promoted under the money mix, two servers
 * behind HAProxy and the payer on (tests/failover/support/failoverRun.ts says what it runs and checks). About 20 s;
 * `npm run test:failover` runs it alone.
 */
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { lastDiagnosis, runFailover, stopAll } from './support/failoverRun';

// Root (PostgreSQL runs as the postgres user, through runuser) and Debian's PostgreSQL: CI has both (.ci/run).
const missing =
  process.getuid?.() !== 0 ? 'not root (runuser is needed to run PostgreSQL as postgres)' : spawnSync('sh', ['-c', 'ls /usr/lib/postgresql/*/bin/initdb']).status !== 0 ? 'PostgreSQL is not installed' : null;
if (missing) console.warn(`failover: skipped here: ${missing}`);

describe.skipIf(missing !== null)('a failover to a synchronous standby', () => {
  afterAll(() => stopAll(), 60_000);

  it('behavior: no acknowledged request lost, nothing paid twice, the servers answer again, payouts not halted', { timeout: 240_000 }, async () => {
    const problems = await runFailover();
    if (problems.length > 0) console.error(lastDiagnosis());
    expect(problems).toEqual([]);
  });
});
