/** A bound on how long the server waits for an answer it cannot cancel (readiness's checks, the metrics' chain read). */

/** What withinTime rejects with when the time is up. */
export class TimedOut extends Error {}

/**
 * `work`, or a TimedOut after `ms` (the work itself goes on; its answer is dropped).
 *
 * @param work - the answer waited for
 * @param ms - how long
 * @returns the answer
 * @example
 * const block = await withinTime(client.getBlock(), 2_000);
 */
export function withinTime<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new TimedOut(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
