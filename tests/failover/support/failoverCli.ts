/**
 * `npm run test:failover`: the failover run (tests/failover/support/failoverRun.ts) outside vitest, with its exit code:
 * 0 when all holds. Root with Debian's PostgreSQL and HAProxy (it installs HAProxy when missing). Ctrl-C stops
 * everything.
 */
import { lastDiagnosis, runFailover, stopAll } from './failoverRun';

let exitCode = 1;
const interrupted = (signal: NodeJS.Signals) => {
  console.error(`failover: ${signal}, cleaning up`);
  void stopAll().finally(() => process.exit(130));
};
process.once('SIGINT', interrupted);
process.once('SIGTERM', interrupted);
try {
  const problems = await runFailover();
  if (problems.length === 0) {
    console.log('failover: passed');
    exitCode = 0;
  } else {
    console.error(`${lastDiagnosis()}\nfailover: FAILED\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
  }
} catch (error) {
  console.error(lastDiagnosis());
  console.error('failover: FAILED', String(error).slice(0, 2000));
} finally {
  await stopAll();
}
process.exit(exitCode);
