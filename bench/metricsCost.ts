/**
 * What the metrics cost (docs/operations.md, "Metrics and alerts"): the request hook's own work per
 * answered request (server/metrics/httpMetrics.ts: a counter and a histogram per route template, on the app's
 * prom-client registry), timed in this process over many calls with the routes and statuses of a member's session,
 * beside a member call's p50 on the same server; and a scrape of GET /metrics on the bench server (the business gauges
 * read the database at each scrape), one at a time.
 */
import { performance } from 'node:perf_hooks';
import { createAppMetrics } from '../server/metrics/registry';
import { percentile, timeRequests } from './latency';
import { atMost, detail, emit, ms } from './report';
import { signInBoundMember, type BenchServer } from './appServer';

/** A session's mix: the member calls, a few statuses each. */
const ROUTES = ['/api/member/meInfo', '/api/member/creditRecord', '/api/member/team', '/api/member/withdrawCredit', '/api/dapp/dappParam', '/api/wpos/wposProfit'];
const STATUSES = ['200', '200', '200', '400', '401', '409'];

/** Per answered request, the hook may cost at most this (a member call is about a millisecond). */
const HOOK_BUDGET_US = 10;
/** A scrape (every 15 to 60 s per instance) may take at most this. */
const SCRAPE_BUDGET_MS = 100;

/**
 * Prints metrics.hook (µs per request) and metrics.scrape (p50 ms).
 *
 * @param server - the bench's PGlite server, seeded
 * @returns when printed
 * @example
 * await benchMetrics(server);
 */
export async function benchMetrics(server: BenchServer): Promise<void> {
  const metrics = createAppMetrics();
  const calls = 300_000;
  const record = (index: number) => {
    const route = ROUTES[index % ROUTES.length] ?? '';
    const method = route.endsWith('withdrawCredit') ? 'POST' : 'GET';
    metrics.httpRequests.inc({ method, route, status_code: STATUSES[index % STATUSES.length] ?? '200' });
    metrics.httpDuration.observe({ method, route }, ((index % 97) + 1) / 10_000);
  };
  for (let index = 0; index < 20_000; index++) record(index);
  const started = performance.now();
  for (let index = 0; index < calls; index++) record(index);
  const hookUs = ((performance.now() - started) * 1000) / calls;

  // A member call's p50 on this server, for scale.
  const token = await signInBoundMember(server.site, 'DEMO2026');
  const memberP50 = (await timeRequests(300, 0, () => fetch(`${server.site.baseUrl}/api/member/meInfo`, { headers: { authorization: token } }))).p50;
  emit({
    name: 'metrics.hook',
    value: `${hookUs.toFixed(2)} µs/request`,
    floor: `meInfo p50 ${ms(memberP50)} on this server`,
    target: `budget <= ${HOOK_BUDGET_US} µs`,
    verdict: atMost(hookUs, HOOK_BUDGET_US),
    note: `${((hookUs / 1000 / memberP50) * 100).toFixed(2)} % of a member call; ${calls.toLocaleString('en-US')} answers over ${ROUTES.length} routes × statuses, a counter and a histogram each`,
  });

  const scrapes: number[] = [];
  let bytes = 0;
  for (let index = 0; index < 60; index++) {
    const at = performance.now();
    const answer = await fetch(`${server.site.baseUrl}/metrics`);
    const text = await answer.text();
    if (answer.status !== 200) throw new Error(`GET /metrics answered ${answer.status}`);
    scrapes.push(performance.now() - at);
    bytes = text.length;
  }
  scrapes.sort((a, b) => a - b);
  const p50 = percentile(scrapes, 50);
  detail(`metrics.scrape: p90 ${ms(percentile(scrapes, 90))}, ${bytes.toLocaleString('en-US')} bytes`);
  emit({
    name: 'metrics.scrape',
    value: ms(p50),
    floor: `meInfo p50 ${ms(memberP50)}`,
    target: `budget <= ${SCRAPE_BUDGET_MS} ms`,
    verdict: atMost(p50, SCRAPE_BUDGET_MS),
    note: `p50 of 60 scrapes one at a time (the business gauges read the database each time), ${bytes.toLocaleString('en-US')} bytes`,
  });
}
