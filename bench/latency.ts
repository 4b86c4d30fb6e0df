/** Latencies of requests made one after another, for the figures that give a p99 (team search, the scale bench). */

export interface Latencies {
  p50: number;
  p99: number;
  max: number;
  count: number;
}

/**
 * The value at percentile `p` of sorted values (nearest rank).
 *
 * @param sorted - ascending
 * @param p - 0-100
 * @returns the value, 0 for none
 * @example
 * percentile([1, 2, 3], 50); // 2
 */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

/**
 * Times `count` requests one after another (after `warmup` untimed ones); any answer but code 0 throws.
 *
 * @param count - timed requests
 * @param warmup - untimed requests first
 * @param request - makes request `index`
 * @returns p50, p99, max and count, in ms
 * @example
 * const meInfo = await timeRequests(500, 50, () => fetch(`${base}/api/member/meInfo`, { headers }));
 */
export async function timeRequests(count: number, warmup: number, request: (index: number) => Promise<Response>): Promise<Latencies> {
  const times: number[] = [];
  for (let index = 0; index < warmup + count; index++) {
    const started = performance.now();
    const response = await request(index);
    const body = (await response.json()) as { code?: number };
    const elapsed = performance.now() - started;
    if (response.status !== 200 || body.code !== 0) throw new Error(`request ${index}: HTTP ${response.status}, code ${String(body.code)}`);
    if (index >= warmup) times.push(elapsed);
  }
  return latenciesOf(times);
}

/** p50, p99, max and count of some times (sorted in place). */
function latenciesOf(times: number[]): Latencies {
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99), max: times.at(-1) ?? 0, count: times.length };
}

/** A call's latencies and those of a reference call interleaved with it (the host's speed meanwhile). */
export interface PairedLatencies {
  call: Latencies;
  reference: Latencies;
}

/**
 * Times `count` requests one after another, each just after a reference request (a call whose cost does not depend
 * on the data, such as GET /api/health/live): a host that slows down for a while slows both, so the call's p99 over
 * the reference's p50 compares two samples taken minutes apart on a shared machine.
 *
 * @param count - timed requests of each
 * @param warmup - untimed pairs first
 * @param request - makes request `index`
 * @param reference - makes the reference request
 * @returns both latencies
 * @example
 * const { call, reference } = await timeRequestsPaired(2_000, 200, () => get('/api/member/meInfo'), () => get('/api/health/live'));
 */
export async function timeRequestsPaired(
  count: number,
  warmup: number,
  request: (index: number) => Promise<Response>,
  reference: () => Promise<Response>,
): Promise<PairedLatencies> {
  const calls: number[] = [];
  const references: number[] = [];
  const timed = async (make: () => Promise<Response>, into: number[], index: number) => {
    const started = performance.now();
    const response = await make();
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`request ${index}: HTTP ${response.status}`);
    if (index >= warmup) into.push(performance.now() - started);
  };
  for (let index = 0; index < warmup + count; index++) {
    await timed(reference, references, index);
    const started = performance.now();
    const response = await request(index);
    const body = (await response.json()) as { code?: number };
    const elapsed = performance.now() - started;
    if (response.status !== 200 || body.code !== 0) throw new Error(`request ${index}: HTTP ${response.status}, code ${String(body.code)}`);
    if (index >= warmup) calls.push(elapsed);
  }
  return { call: latenciesOf(calls), reference: latenciesOf(references) };
}
