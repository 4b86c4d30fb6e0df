/**
 * Figure 3: GET meInfo under autocannon (10 connections, in autocannon's own worker thread so the load generator
 * does not share the server's event loop) with a bound member's token, paced at 1,000 requests/s (p99 against
 * the goal) and unpaced (max requests/s). The floor is a bare Fastify route with a fixed answer
 * (floorServer.ts) under the same load.
 *
 * autocannon paces per second: each connection sends its share (100 requests) back to back, then waits for the
 * next second. Its coordinated-omission correction assumes one request per millisecond per connection
 * (Math.ceil(1 / rate) in lib/run.js), which adds phantom samples to any response slower than 1 ms, so it is
 * turned off: the latencies are the measured ones. A paced run that does not deliver 95 % of the rate is a MISS
 * whatever its p99, since then the latencies hide the queue.
 */
import autocannon from 'autocannon';
import { resolveToken } from '../server/auth/tokens';
import type { BenchServer } from './appServer';
import { signInBoundMember } from './appServer';
import { startFloorServer } from './floorServer';
import { atMost, detail, emit, ms, rate, type Verdict } from './report';

const PACED_RATE = 1_000;
const P99_GOAL_MS = 20;
const CONNECTIONS = 10;
/** A paced run that delivers less than this share of the asked rate did not hold the pace. */
const PACE_TOLERANCE = 0.95;

export interface LoadSeconds {
  /** Seconds of each measured meInfo run. */
  app: number;
  /** Seconds of each floor run. */
  floor: number;
}

export interface PairOfRuns {
  paced: LoadSummary;
  max: LoadSummary;
}

interface LoadRun {
  url: string;
  headers: Record<string, string>;
  durationSec: number;
  /** Requests per second over all connections; unpaced when absent. */
  overallRate?: number | undefined;
}

export interface LoadSummary {
  /** Completed requests per second over the run. */
  rps: number;
  p50: number;
  p99: number;
  max: number;
  total: number;
  non2xx: number;
  errors: number;
  timeouts: number;
}

async function load(runs: LoadRun[]): Promise<LoadSummary[]> {
  const summaries: LoadSummary[] = [];
  for (const run of runs) {
    const result = await autocannon({
      url: run.url,
      headers: run.headers,
      connections: CONNECTIONS,
      duration: run.durationSec,
      workers: 1,
      ...(run.overallRate ? { overallRate: run.overallRate, ignoreCoordinatedOmission: true } : {}),
    });
    summaries.push({
      rps: result.requests.total / result.duration,
      p50: result.latency.p50,
      p99: result.latency.p99,
      max: result.latency.max,
      total: result.requests.total,
      non2xx: result.non2xx,
      errors: result.errors,
      timeouts: result.timeouts,
    });
  }
  return summaries;
}

function pacedAndMax(url: string, headers: Record<string, string>, seconds: number, warmupSeconds: number): LoadRun[] {
  const runs: LoadRun[] = [];
  if (warmupSeconds > 0) runs.push({ url, headers, durationSec: warmupSeconds });
  runs.push({ url, headers, durationSec: seconds, overallRate: PACED_RATE });
  runs.push({ url, headers, durationSec: seconds });
  return runs;
}

function toPair(summaries: LoadSummary[]): PairOfRuns {
  const paced = summaries.at(-2);
  const max = summaries.at(-1);
  if (!paced || !max) throw new Error('load worker returned too few runs');
  return { paced, max };
}

/** Mean milliseconds of `task` over `times` sequential calls, after a few unmeasured ones. */
async function meanMs(times: number, task: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 5; i++) await task();
  const started = performance.now();
  for (let i = 0; i < times; i++) await task();
  return (performance.now() - started) / times;
}

/**
 * The one statement of a meInfo request (ADR 0004: the access hook's resolveToken reads the token, its member and
 * the recommender; the route answers from that record), called directly (no HTTP), to split a request's time.
 */
async function describeServices(server: BenchServer, token: string): Promise<void> {
  if (!(await resolveToken(server.db, token, new Date()))) throw new Error('the bench token does not resolve');
  const resolve = await meanMs(100, () => resolveToken(server.db, token, new Date()));
  detail(`meinfo.service (${server.storage}, direct, sequential): resolveToken ${ms(resolve)}, the request's only statement`);
}

function problems(summary: LoadSummary): string {
  const bad = summary.non2xx + summary.errors + summary.timeouts;
  return bad === 0 ? '' : `, ${summary.non2xx} non-2xx, ${summary.errors} errors, ${summary.timeouts} timeouts`;
}

/**
 * Loads the floor server (paced and unpaced).
 *
 * @param seconds - run lengths
 * @returns the two summaries
 * @example
 * const floor = await measureFloorLoad({ app: 10, floor: 5 });
 */
export async function measureFloorLoad(seconds: LoadSeconds): Promise<PairOfRuns> {
  const floor = await startFloorServer(0);
  try {
    return toPair(await load(pacedAndMax(floor.url, {}, seconds.floor, 1)));
  } finally {
    await floor.app.close();
  }
}

/**
 * Measures figure 3 on one server and prints its lines.
 *
 * @param server - the running server (PGlite or PostgreSQL)
 * @param label - name part, `pglite` or `postgres`
 * @param floor - the floor runs
 * @param seconds - run lengths
 * @param withGoal - whether the p99 goal applies (PGlite) or the lines are informational
 * @returns when printed
 * @example
 * await benchMeInfo(server, 'pglite', floor, { app: 10, floor: 5 }, true);
 */
export async function benchMeInfo(server: BenchServer, label: string, floor: PairOfRuns, seconds: LoadSeconds, withGoal: boolean): Promise<void> {
  const token = await signInBoundMember(server.site, 'DEMO2026');
  const headers = { authorization: token };
  const url = `${server.site.baseUrl}/api/member/meInfo`;
  const check = await fetch(url, { headers });
  if (check.status !== 200) throw new Error(`meInfo answered ${check.status} before the load`);
  await check.arrayBuffer();

  const { paced, max } = toPair(await load(pacedAndMax(url, headers, seconds.app, 1)));
  const heldPace = paced.rps >= PACED_RATE * PACE_TOLERANCE;
  const clean = paced.non2xx + paced.errors + paced.timeouts === 0;
  const verdict: Verdict = withGoal ? (atMost(paced.p99, P99_GOAL_MS) === 'PASS' && heldPace && clean ? 'PASS' : 'MISS') : 'INFO';
  emit({
    name: `meinfo.${label}.paced.p99`,
    value: ms(paced.p99),
    floor: `${ms(floor.paced.p99)} (bare Fastify route, same pacing)`,
    target: withGoal ? `goal <= ${ms(P99_GOAL_MS)} at ${rate(PACED_RATE, 'req')}` : `- (goal applies to PGlite: <= ${ms(P99_GOAL_MS)})`,
    verdict,
    note:
      `achieved ${rate(paced.rps, 'req')}${heldPace ? '' : ' (did not hold the pace)'}, p50 ${ms(paced.p50)}, max ${ms(paced.max)}, ` +
      `${paced.total} requests, ${CONNECTIONS} connections, ${seconds.app} s, ${server.storage}${problems(paced)}`,
  });
  emit({
    name: `meinfo.${label}.max.rps`,
    value: rate(max.rps, 'req'),
    floor: `${rate(floor.max.rps, 'req')} (bare Fastify route)`,
    target: '-',
    verdict: max.non2xx + max.errors + max.timeouts === 0 ? 'INFO' : 'MISS',
    note: `p50 ${ms(max.p50)}, p99 ${ms(max.p99)}, ${max.total} requests, ${CONNECTIONS} connections, unpaced, ${seconds.app} s${problems(max)}`,
  });
  await describeServices(server, token);
}
