/**
 * How fast the host's CPU is right now: a fixed loop of integer arithmetic, timed. The bench runs it before each
 * section and prints the spread in its summary, so a figure can be read against the host it was measured on. On the
 * shared 2-core hosts the bench runs on, the same work took up to three times as long within one hour (2026-11-26:
 * a ledger desk's raw PGlite withdrawals 4,568/s, then 1,561/s twenty minutes later, with nothing else of ours
 * running), and a throughput goal missed on a slowed host says nothing about the code.
 */
import { performance } from 'node:perf_hooks';
import { detail } from './report';

/** Iterations of the timed loop: about 160 ms on the bench's host when it is not slowed. */
const ITERATIONS = 130_000_000;

/**
 * The loop, in int32 arithmetic only (Math.imul): with a plain `*` V8 chose between int32 and double code from run to
 * run, and the same loop took 57 or 280 ms. Returns its result so that it cannot be optimised away.
 */
function spin(iterations: number): number {
  let mix = 0;
  for (let index = 0; index < iterations; index += 1) mix = (Math.imul(mix, 31) + index) | 0;
  return mix;
}

/**
 * Runs the loop and returns how long it took. Short runs first, untimed, so that the timed run is the compiled loop
 * and not V8 compiling it.
 *
 * @returns milliseconds (lower is a faster host)
 * @example detail(`host loop: ${ms(hostLoopMs())}`);
 */
export function hostLoopMs(): number {
  let sink = 0;
  for (let warm = 0; warm < 3; warm += 1) sink ^= spin(1_000_000);
  const started = performance.now();
  sink ^= spin(ITERATIONS);
  const elapsed = performance.now() - started;
  if (sink === 0.5) throw new Error('unreachable');
  return elapsed;
}

/** Loop times of one bench run, each with where in the run it was taken. */
export interface HostLoopLog {
  /** Times the loop now, prints it as a detail line and keeps it. */
  read(when: string): number;
  /** The summary line: fastest and slowest loop, and when the slowest was taken. */
  summary(): string | undefined;
}

/**
 * A log of loop times for one run.
 *
 * @param print - where each reading goes (the bench's detail line)
 * @param measure - the reading (hostLoopMs; a test gives its own)
 * @returns the log
 * @example
 * const host = createHostLoopLog(detail);
 * host.read('start of ledger'); ...; console.log(host.summary());
 */
export function createHostLoopLog(print: (text: string) => void, measure: () => number = hostLoopMs): HostLoopLog {
  const readings: { when: string; ms: number }[] = [];
  return {
    read(when) {
      const ms = measure();
      readings.push({ when, ms });
      print(`host loop at ${when}: ${ms.toFixed(0)} ms`);
      return ms;
    },
    summary() {
      if (readings.length === 0) return undefined;
      const fastest = readings.reduce((low, reading) => (reading.ms < low.ms ? reading : low));
      const slowest = readings.reduce((high, reading) => (reading.ms > high.ms ? reading : high));
      return (
        `host loop ${fastest.ms.toFixed(0)}-${slowest.ms.toFixed(0)} ms over ${readings.length} readings ` +
        `(slowest at ${slowest.when}, ${(slowest.ms / fastest.ms).toFixed(2)}x the fastest)`
      );
    },
  };
}

/** The run's log: the sections' starts and ends (bench/run.ts) and each ledger load (bench/ledger.ts). */
export const hostLog = createHostLoopLog(detail);
