/**
 * mulberry32: a small seeded generator, so a failing run's mix of requests can be repeated (the money concurrency
 * suite, tests/server/ledgerConcurrency.test.ts, and the balancer run, tests/balancer/support/load.ts).
 *
 * @param seed - any 32-bit integer
 * @returns a function giving numbers in [0, 1)
 * @example
 * const rng = seededRandom(20261123);
 * rng(); // the same sequence on every run
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
