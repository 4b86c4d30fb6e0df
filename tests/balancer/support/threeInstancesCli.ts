/**
 * `npm run test:balancer`: the three-instance run (tests/balancer/support/threeInstancesRun.ts) alone, outside vitest,
 * with its exit code: 0 when all holds. Ctrl-C stops every process it started.
 */
import { lastDiagnosis, runThreeInstances, stopAll } from './threeInstancesRun';

let exitCode = 1;
const interrupted = (signal: NodeJS.Signals) => {
  console.error(`balancer: ${signal}, cleaning up`);
  void stopAll().finally(() => process.exit(130));
};
process.once('SIGINT', interrupted);
process.once('SIGTERM', interrupted);
try {
  const problems = await runThreeInstances();
  if (problems.length === 0) {
    console.log('balancer: passed');
    exitCode = 0;
  } else {
    console.error(`${lastDiagnosis()}\nbalancer: FAILED\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
  }
} catch (error) {
  console.error(lastDiagnosis());
  console.error('balancer: FAILED', error);
} finally {
  await stopAll();
}
process.exit(exitCode);
