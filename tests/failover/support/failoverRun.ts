/**
 * The failover run (`npm run test:failover`; docs/deploy/backups.md, "Failover without loss"): two compiled servers
 * behind HAProxy (docs/deploy/haproxy.cfg) on a PostgreSQL primary with a synchronous standby (replicated.ts), one
 * anvil with the token and the payer on. Under the money mix of the concurrency suite the primary is killed with
 * SIGKILL and the standby promoted, the database's address moved to it. Afterwards: every call answered (a call cut
 * by the switch is sent again with its request id), every acknowledged request in the books once, each withdrawal
 * paid exactly once on chain, the books balanced, reconcile clean and the payer's journal not halted; it prints how
 * long the servers took to answer again. Exit code 0 when all holds.
 */
import { z } from 'zod';
import { ensureServerBuilt } from '../../../scripts/buildServer';
import { freePort } from '../../../server/chain/anvil';
import { openDatabase } from '../../../server/db/client';
import { checkBooks, checkPayments } from '../../balancer/support/books';
import { Client } from '../../balancer/support/balancerClient';
import { moneyLoad } from '../../balancer/support/load';
import { approveAndSettle, membersWithMoney, serverEnv } from '../../balancer/support/setUp';
import { atStop, startBalancer, startChain, startInstance, stopInstancesAtEnd, TOKEN_DECIMALS, waitBalancerState, waitReady, type Instance } from '../../balancer/support/processes';
import { startReplicatedPostgres } from './replicated';

export { stopAll } from '../../balancer/support/processes';

const MEMBERS = 6;
const WORKERS = 6;
const CHECK_MS = 200;
/** What the instances printed last, for a failed run. */
let diagnosis = (): string => '';
export const lastDiagnosis = (): string => diagnosis();

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs it once and prints its figures; stopAll stops what it started.
 *
 * @returns what did not hold (empty: passed)
 * @example
 * const problems = await runFailover();
 */
export async function runFailover(): Promise<string[]> {
  const startedAt = performance.now();
  const problems: string[] = [];
  await ensureServerBuilt();
  const [pg, node] = await Promise.all([startReplicatedPostgres(), startChain()]);
  if (!pg.synchronous()) problems.push('the standby is not synchronous before the failover');
  const ports = [await freePort(), await freePort()];
  const balancerPort = await freePort();
  const instances: Instance[] = [];
  stopInstancesAtEnd(() => instances);
  const env = serverEnv(pg.url, node, balancerPort);
  instances.push(...(await Promise.all(ports.map((port, index) => startInstance(`app${index + 1}`, port, env)))));
  await Promise.all(instances.map(waitReady));
  // On a primary with a synchronous standby the start says nothing of replication (server/db/replication.ts).
  for (const instance of instances) if (instance.output().includes('synchronous standby')) problems.push(`${instance.name} warned about replication: ${instance.output().slice(-500)}`);
  const balancer = await startBalancer(ports, CHECK_MS, balancerPort);
  diagnosis = () => instances.map((instance) => `${instance.name}: ${instance.output().slice(-3000)}`).join('\n');
  await waitBalancerState(balancer, undefined, true);

  const client = new Client(balancer.url);
  const { members } = await membersWithMoney(client, MEMBERS);

  const load = moneyLoad(client, members, 20261201);
  const running = load.run(WORKERS);
  atStop(async () => {
    load.stop();
    await running;
  });
  await sleep(4000);
  const beforeSwitch = load.count();
  const switchAt = performance.now();
  const { killMs, promoteMs } = await pg.failover();
  // Answering again: the first readiness 200 through the balancer after the switch.
  let readyAgainMs = Number.NaN;
  for (let waited = 0; waited < 60_000; waited += 50) {
    const ready = await fetch(`${balancer.url}/api/health/ready`).then((response) => response.status === 200).catch(() => false);
    if (ready) {
      readyAgainMs = performance.now() - switchAt;
      break;
    }
    await sleep(50);
  }
  if (Number.isNaN(readyAgainMs)) problems.push('the servers were not ready again within 60 s of the switch');
  await sleep(4000);
  load.stop();
  await running;
  const retried = await client.settle();

  const database = await openDatabase({ url: pg.directUrl(), poolSize: 2 });
  try {
    const all = await approveAndSettle(client, database.db, problems);
    const byId = new Map(all.map((row) => [row.id, row]));
    const books = await checkBooks(database.db, client, members, byId);
    problems.push(...books.problems);
    const chain = await checkPayments(database.db, { url: node.url, token: node.token, payer: node.payer, decimals: TOKEN_DECIMALS }, all);
    problems.push(...chain.problems);
    const reconcile = await client.must(
      client.admin('reconcile', '/api/admin/reconcile'),
      z.object({ ok: z.boolean(), pendingPayments: z.string(), payer: z.object({ approved: z.string(), lost: z.string() }), journal: z.object({ halted: z.boolean() }).nullable() }).loose(),
    );
    if (reconcile.pendingPayments !== '0' || reconcile.payer.lost !== '0' || reconcile.journal?.halted !== false) problems.push(`reconcile: ${JSON.stringify(reconcile)}`);
    const attempts = client.sent.flatMap((sent) => sent.attempts);
    const failed = attempts.filter((attempt) => attempt.error !== undefined || (attempt.status ?? 0) >= 500);
    const codes = new Map<string, number>();
    for (const attempt of failed) codes.set(String(attempt.status ?? attempt.error), (codes.get(String(attempt.status ?? attempt.error)) ?? 0) + 1);
    console.log(
      [
        `failover: 2 instances behind HAProxy, PostgreSQL primary and synchronous standby, ${MEMBERS} members, ${WORKERS} workers, the payer on`,
        `  calls: ${client.sent.length} (${load.count()} of the money mix, ${beforeSwitch} before the switch); attempts answered 5xx or not at all: ${failed.length} (${[...codes].map(([code, count]) => `${code}: ${count}`).join(', ') || 'none'}), sent again with their request id: ${retried}`,
        `  kill -9 of the primary ${seconds(killMs)}, promotion ${seconds(promoteMs)}, ready again through the balancer ${seconds(readyAgainMs)} after the kill`,
        `  acknowledged money requests: ${books.acknowledged}, all in the books once: ${books.problems.length === 0 ? 'yes' : 'no'}; withdrawals ${all.length}, payments on chain ${chain.payments}`,
        `  reconcile ok: ${reconcile.ok}, payouts halted: ${reconcile.journal?.halted}; total ${seconds(performance.now() - startedAt)}`,
      ].join('\n'),
    );
  } finally {
    await database.close();
  }
  return problems;
}
