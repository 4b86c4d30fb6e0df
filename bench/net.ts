/** Loopback helpers: a free port, bounded polling, a small concurrency pool. */
import http from 'node:http';
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

/** One keep-alive agent per process: the load clients reuse their loopback connections. */
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/**
 * A JSON request over node:http with a keep-alive agent. The load clients use it instead of fetch, whose
 * per-request cost (WHATWG streams) is several times node:http's and, on two cores, was measured as part of the
 * server's rate.
 *
 * @param url - absolute http URL
 * @param init - method, JSON body (POST) and extra headers (authorization)
 * @returns the status and the parsed body
 * @throws when the connection fails or the body is not JSON
 * @example
 * const { status, body } = await requestJson(`${baseUrl}/api/member/loginNonce?address=${address}`);
 */
export function requestJson(
  url: string,
  init: { method?: 'GET' | 'POST'; body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: unknown }> {
  const payload = init.body === undefined ? undefined : JSON.stringify(init.body);
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: init.method ?? 'GET',
        agent,
        headers: {
          ...init.headers,
          ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          try {
            resolve({ status: response.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown });
          } catch (error) {
            reject(error instanceof Error ? error : new Error(String(error)));
          }
        });
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}
