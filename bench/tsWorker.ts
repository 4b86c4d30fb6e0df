/**
 * The bench's one-shot TypeScript workers (server/tsWorker.ts starts them): a worker that posts a single result.
 */
import { startTsWorker } from '../server/tsWorker';

/**
 * Starts a worker on a TypeScript module and waits for its single result message.
 *
 * @param moduleUrl - the worker module (e.g. `new URL('./client.ts', import.meta.url)`)
 * @param workerData - cloned into the worker as `workerData`
 * @param timeoutMs - the worker is terminated and the promise rejected after this long
 * @returns the first message the worker posts
 * @example
 * const result = await runTsWorker(new URL('./signinClient.ts', import.meta.url), input, 60_000);
 */
export function runTsWorker(moduleUrl: URL, workerData: unknown, timeoutMs: number): Promise<unknown> {
  const worker = startTsWorker(moduleUrl, workerData);
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (action: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      action();
      void worker.terminate();
    };
    const timer = setTimeout(() => finish(() => reject(new Error(`worker ${moduleUrl.pathname} timed out`))), timeoutMs);
    worker.once('message', (message: unknown) => finish(() => resolve(message)));
    worker.once('error', (error) => finish(() => reject(error)));
    worker.once('exit', (code) => finish(() => reject(new Error(`worker ${moduleUrl.pathname} exited with ${code} before answering`))));
  });
}
