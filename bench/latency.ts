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
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99), max: times.at(-1) ?? 0, count: times.length };
}
