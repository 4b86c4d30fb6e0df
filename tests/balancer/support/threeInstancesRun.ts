/**
 * Three instances behind a real balancer (docs/operations.md, "Three instances behind a balancer";
 * docs/deploy/README.md), run by `npm test` (tests/balancer/threeInstances.test.ts) and alone by `npm run
 * test:balancer` (tests/balancer/support/threeInstancesCli.ts). PostgreSQL (DATABASE_URL's cluster, or a throwaway
 * one), one anvil with the token and a funded hot wallet, three compiled servers (`npm run build`'s dist/server) on
 * that database and chain as production runs them (NODE_ENV=production, TRUST_PROXY=1, PUBLIC_URL the balancer), and
 * HAProxy from Debian on docs/deploy/haproxy.cfg with this run's ports. Through the balancer: the money mix of the
 * concurrency suite with the operator's decisions among it, the shop's race for its last units twice, and the payer
 * paying on the node; the instance holding the payer's lease killed -9 under that load and started again; then a
 * rolling restart of all three (SIGTERM, ready, next). Afterwards: every call answered (a call the kill cut is sent
 * again with its request id), no 5xx but the calls in flight at the kill, every acknowledged request in the books once,
 * balances what the answers imply, each withdrawal done paid exactly once on chain, the books balanced and reconcile
 * clean. Exit code 0 when all holds; it prints its figures either way.
 */
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { ensureServerBuilt } from '../../../scripts/buildServer';
import { openDatabase, queryRows } from '../../../server/db/client';
import { freePort } from '../../../server/chain/anvil';
import { checkBooks, checkPayments } from './books';
import { Client, type Sent } from './balancerClient';
import { moneyLoad, shopRace } from './load';
import { approveAndSettle, membersWithMoney, serverEnv } from './setUp';
import {
  atStop,
  CHAIN_ID,
  startBalancer,
  startChain,
  startInstance,
  startPostgres,
  stopInstancesAtEnd,
  TOKEN_DECIMALS,
  waitBalancerState,
  waitForExit,
  waitReady,
  type Instance,
} from './processes';

export { stopAll } from './processes';

const MEMBERS = 8;
const WORKERS = 8;
/** The money concurrency suite's size (tests/server/ledgerConcurrency.test.ts): the load goes on until it has sent as many. */
const REQUESTS = 10_000;
/**
 * HAProxy's check interval in this run; the instances drain for longer than two failed checks take, with room for
 * checks that take 500 ms on a busy machine (at 1.5 s a GET was cut once when the checks were that slow).
 */
const CHECK_MS = 200;
const DRAIN_MS = 3000;

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What the processes printed last, shown when the run fails. */
let diagnosis = (): string => '';

/** What the balancer and the instances printed last (HAProxy's up, down and 5xx lines), for a failed run. */
export const lastDiagnosis = (): string => diagnosis();

/**
 * Runs it all once and prints its figures. The processes it started are stopped by stopAll.
 *
 * @returns what did not hold (empty: passed)
 * @example
 * try { expect(await runThreeInstances()).toEqual([]); } finally { await stopAll(); }
 */
export async function runThreeInstances(): Promise<string[]> {
  const startedAt = performance.now();
  const problems: string[] = [];
  await ensureServerBuilt();
  const [databaseUrl, node] = await Promise.all([startPostgres(), startChain()]);
  const ports = [await freePort(), await freePort(), await freePort()];
  const balancerPort = await freePort();
  const instances: Instance[] = [];
  stopInstancesAtEnd(() => instances);
  const env = { ...serverEnv(databaseUrl, node, balancerPort), SHUTDOWN_DRAIN_MS: String(DRAIN_MS) };
  const start = (index: number) => startInstance(`app${index + 1}`, ports[index] ?? 0, env);
  // All three at once, as `systemctl start` would: migrations and seed under the database's advisory locks.
  instances.push(...(await Promise.all([0, 1, 2].map(start))));
  await Promise.all(instances.map(waitReady));
  const balancer = await startBalancer(ports, CHECK_MS, balancerPort);
  diagnosis = () =>
    [
      // Servers going down and up, and the answers 5xx, from HAProxy's log.
      `haproxy: ${balancer.output().split('\n').filter((line) => / is (UP|DOWN)|\] member_dapp \S+ \S+ (5\d\d|-1) |- - (?!----)\S{4} /.test(line)).slice(-80).join('\n')}`,
      ...instances.map((instance) => `${instance.name}: ${instance.output().slice(-3000)}`),
    ].join('\n');
  await waitBalancerState(balancer, undefined, true);
  const stackAt = performance.now();

  const client = new Client(balancer.url);
  const { chainId, members } = await membersWithMoney(client, MEMBERS);
  if (chainId !== CHAIN_ID) throw new Error(`balancer: dappParam's chain is ${chainId}`);
  const membersAt = performance.now();

  // The load, and what happens to the instances under it.
  const load = moneyLoad(client, members, 20261127);
  const running = load.run(WORKERS);
  // However the run ends (a step that throws, the test's time-out), the load stops before the processes do: its
  // workers would otherwise go on sending to ports that are gone.
  atStop(async () => {
    load.stop();
    await running;
  });
  await sleep(4000);
  // The race for the last mug and for the coffee (80 units, 12 each: six orders), the kill in the middle of it.
  const firstRace = Promise.all([shopRace(client, members, 'jade-mug', 1), shopRace(client, members, 'yunnan-coffee', 12)]);
  const [lease] = await leaseHolder(databaseUrl);
  const victim = instances.find((instance) => lease?.endsWith(`:${instance.port}`)) ?? instances[1];
  if (!victim) throw new Error('balancer: no instance to kill');
  await sleep(50);
  const killAt = performance.now();
  victim.child.kill('SIGKILL');
  await waitForExit(victim);
  await waitBalancerState(balancer, victim.name, false);
  // Until its checks have taken it out, HAProxy may still send a call to the killed instance (a connection it kept
  // open to it is found dead only when used).
  const downAt = performance.now();
  const races: Sent[][][] = [await firstRace];
  await sleep(1000);
  const restarted = await start(instances.indexOf(victim));
  instances[instances.indexOf(victim)] = restarted;
  await waitReady(restarted);
  await waitBalancerState(balancer, restarted.name, true);
  const killedFor = performance.now() - killAt;
  await sleep(2000);

  // Rolling restart: each in turn gets SIGTERM, exits 0, starts again and is back in the balancer before the next.
  const rollAt = performance.now();
  const secondRace = Promise.all([shopRace(client, members, 'yunnan-coffee', 2)]);
  const stops: string[] = [];
  const signals: string[] = [];
  for (const index of [0, 1, 2]) {
    const instance = instances[index];
    if (!instance) continue;
    const signalAt = performance.now();
    signals.push(`${instance.name} SIGTERM at ${seconds(signalAt - startedAt)}`);
    instance.child.kill('SIGTERM');
    await waitForExit(instance);
    stops.push(`${instance.name} ${seconds(performance.now() - signalAt)}`);
    if (instance.child.exitCode !== 0) problems.push(`${instance.name} exited ${instance.child.exitCode ?? instance.child.signalCode} on SIGTERM: ${instance.output().slice(-2000)}`);
    const next = await start(index);
    instances[index] = next;
    await waitReady(next);
    await waitBalancerState(balancer, next.name, true);
  }
  races.push(await secondRace);
  const rolledFor = performance.now() - rollAt;
  await sleep(2000);
  // The suite's size, or what two more minutes give: a load that crawls (the balancer gone) is a problem, not a hang.
  if (!(await load.sent(REQUESTS, 120_000))) problems.push(`the load sent ${load.count()} calls of the mix, not ${REQUESTS}, in two minutes after the restarts`);
  load.stop();
  await running;
  const loadFor = performance.now() - membersAt;

  // Calls without an answer (cut by the kill) are sent again with their request id; the operator decides what is
  // still pending (approving it), and the payer pays every approved withdrawal.
  const retried = await client.settle();
  const database = await openDatabase({ url: databaseUrl, poolSize: 2 });
  try {
    const all = await approveAndSettle(client, database.db, problems);
    const paidAt = performance.now();

    // 5xx: only calls in flight when the instance was killed.
    const attempts = client.sent.flatMap((sent) => sent.attempts.map((attempt) => ({ sent, attempt })));
    const failed = attempts.filter(({ attempt }) => attempt.error !== undefined || (attempt.status ?? 0) >= 500);
    const cut = failed.filter(({ attempt }) => attempt.sentAt <= downAt && attempt.answeredAt >= killAt);
    const otherFailures = failed.filter((failure) => !cut.includes(failure));
    if (otherFailures.length > 0) {
      problems.push(`${otherFailures.length} 5xx or unanswered calls not cut by the kill (${signals.join(', ')}): ${otherFailures.slice(0, 5).map(({ sent, attempt }) => `${sent.call.kind} ${attempt.status ?? attempt.error} sent at ${seconds(attempt.sentAt - startedAt)}, failed at ${seconds(attempt.answeredAt - startedAt)} ${attempt.body ?? ''}`).join('; ')}`);
    }
    const cutGets = cut.filter(({ sent }) => sent.call.method === 'GET');
    if (cutGets.length > 0) problems.push(`${cutGets.length} GETs cut by the kill: the balancer should have sent them again`);

    // The races: one mug; six coffee orders of 12, then four of 2 from the eight left.
    const sold = (orders: Sent[]) => orders.filter((sent) => sent.answer?.code === 0).length;
    const [[mugs, coffee], [moreCoffee]] = [races[0] ?? [[], []], races[1] ?? [[]]];
    const raced = [sold(mugs ?? []), sold(coffee ?? []), sold(moreCoffee ?? [])];
    if (JSON.stringify(raced) !== '[1,6,4]') problems.push(`shop races sold ${raced.join(', ')} orders (1 mug, 6 and 4 coffee orders expected)`);
    const refusals = [...(mugs ?? []), ...(coffee ?? []), ...(moreCoffee ?? [])].filter((sent) => sent.answer?.code !== 0 && sent.answer?.code !== 3002);
    if (refusals.length > 0) problems.push(`shop race answers other than sold or out of stock (3002): ${refusals.map((sent) => sent.answer?.code).join(', ')}`);
    for (const goodsId of ['jade-mug', 'yunnan-coffee']) {
      const { stock } = await client.must({ kind: 'goods', method: 'GET', url: `/api/goods/detail?id=${goodsId}&lang=en`, auth: {} }, z.object({ stock: z.number() }));
      if (stock !== 0) problems.push(`${goodsId} has ${stock} left, 0 expected`);
    }

    const byId = new Map(all.map((row) => [row.id, row]));
    const books = await checkBooks(database.db, client, members, byId);
    problems.push(...books.problems);
    const chain = await checkPayments(database.db, { url: node.url, token: node.token, payer: node.payer, decimals: TOKEN_DECIMALS }, all);
    problems.push(...chain.problems);
    const ledger = await client.must(client.admin('ledger', '/api/admin/ledger'), z.object({ assets: z.record(z.string(), z.object({ total: z.string() })), negativeAccounts: z.number() }));
    if (ledger.negativeAccounts !== 0 || Object.values(ledger.assets).some((asset) => asset.total !== '0')) problems.push(`ledger not balanced: ${JSON.stringify(ledger)}`);
    const reconcile = await client.must(client.admin('reconcile', '/api/admin/reconcile'), z.object({ ok: z.boolean(), pendingPayments: z.string(), payer: z.object({ approved: z.string(), lost: z.string() }) }).loose());
    if (reconcile.pendingPayments !== '0' || reconcile.payer.approved !== '0' || reconcile.payer.lost !== '0') problems.push(`reconcile: ${JSON.stringify(reconcile)}`);

    const ended = balancer.ended();
    const retriedCalls = client.sent.filter((sent) => sent.attempts.length > 1).length;
    const codes = new Map<string, number>();
    for (const sent of client.sent) codes.set(String(sent.answer?.code), (codes.get(String(sent.answer?.code)) ?? 0) + 1);
    const statuses = new Map<string, number>();
    for (const row of all) statuses.set(row.status, (statuses.get(row.status) ?? 0) + 1);
    console.log(
      [
        `balancer: 3 instances behind HAProxy on one PostgreSQL, ${MEMBERS} members, ${WORKERS} workers and the operator`,
        `  calls: ${client.sent.length}, ${load.count()} of them the money mix (${attempts.length} attempts, ${client.sent.filter((sent) => sent.replayOf).length} replays), codes ${[...codes.entries()].map(([code, count]) => `${code}: ${count}`).join(', ')}`,
        `  kill -9 of ${victim.name} (the payer's lease holder: ${lease?.endsWith(`:${victim.port}`) ? 'yes' : 'no'}) at ${seconds(killAt - startedAt)}, out of HAProxy ${seconds(downAt - killAt)} later; 5xx or no answer: ${failed.length}, of them cut by the kill: ${cut.length} (${cut.map(({ sent, attempt }) => `${sent.call.kind} ${attempt.status ?? attempt.error}`).join(', ')}); calls sent again with their request id: ${retriedCalls + retried}`,
        `  HAProxy ended abnormally: ${[...ended.entries()].map(([state, count]) => `${state} ${count}`).join(', ') || 'none'}`,
        `  acknowledged money requests: ${books.acknowledged}, member entries ${books.entries}, share-pool payouts ${books.payouts} (pool and day)`,
        `  withdrawals: ${all.length} (${[...statuses.entries()].map(([status, count]) => `${status} ${count}`).join(', ')}), payments on chain ${chain.payments}`,
        `  shop: mug ${raced[0]} sold, coffee ${raced[1]} + ${raced[2]} orders`,
        `  reconcile ok: ${reconcile.ok}; SIGTERM to exit: ${stops.join(', ')}`,
        `  durations: stack ${seconds(stackAt - startedAt)}, sign-in ${seconds(membersAt - stackAt)}, load ${seconds(loadFor)} (killed instance back in ${seconds(killedFor)}, rolling restart ${seconds(rolledFor)}), paid ${seconds(paidAt - membersAt - loadFor)}, total ${seconds(performance.now() - startedAt)}`,
      ].join('\n'),
    );
  } finally {
    await database.close();
  }
  return problems;
}

/** The payer lease's holder now (host:port), so the kill takes the instance that pays. */
async function leaseHolder(databaseUrl: string): Promise<string[]> {
  const database = await openDatabase({ url: databaseUrl, poolSize: 1 });
  try {
    return (await queryRows(database.db, sql`SELECT lease_holder AS holder FROM payer_accounts WHERE lease_until > now()`, z.object({ holder: z.string().nullable() }))).map((row) => row.holder ?? '');
  } finally {
    await database.close();
  }
}
