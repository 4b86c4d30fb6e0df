/** Loopback helpers: a free port, bounded polling, a small concurrency pool. */
import net from 'node:net';

/**
 * Asks the OS for a free TCP port on 127.0.0.1.
 *
 * @returns a port that was free a moment ago
 * @example
 * const port = await freePort();
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port > 0 ? resolve(port) : reject(new Error('no port'))));
    });
  });
}

/**
 * Runs `task` over `items` with at most `concurrency` in flight.
 *
 * @param items - inputs
 * @param concurrency - parallel tasks
 * @param task - async work per item
 * @returns the results, in input order
 * @example
 * await pool(urls, 8, (url) => fetch(url));
 */
export async function pool<T, R>(items: readonly T[], concurrency: number, task: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, lane));
  return results;
}

/**
 * Sleeps.
 *
 * @param millis - milliseconds
 * @returns after that long
 * @example
 * await sleep(25);
 */
export function sleep(millis: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, millis));
}
