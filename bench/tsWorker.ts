/**
 * The bench's one-shot TypeScript workers (server/tsWorker.ts starts them): a worker that posts a single result.
 * Both sides are here: runTsWorker and isWorkerAnswer for the main thread, answerParent for the worker.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { z } from 'zod';
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

/**
 * Whether a worker's message is its answer: an object that says `ok` (the workers' shape: `{ ok: true, ... }` or
 * `{ ok: false, error }`). The type is the caller's to name; the worker module defines it.
 *
 * @param value - the message
 * @returns true for an answer
 * @example
 * if (!isWorkerAnswer<RushAnswer>(answer)) throw new Error('rush worker answered nonsense');
 */
export function isWorkerAnswer<T extends { ok: boolean }>(value: unknown): value is T {
  return typeof value === 'object' && value !== null && 'ok' in value;
}

/**
 * The worker's side: reads its input from workerData with `schema`, runs `run`, and posts the answer once, or
 * `{ ok: false, error }` when the input does not parse or the run throws. Does nothing outside a worker thread, so
 * a worker module can be imported for its types.
 *
 * @param schema - the input's schema
 * @param run - the worker's work; its answer should be `{ ok: true, ... }`
 * @returns nothing: the answer goes to the parent
 * @example
 * answerParent(inputSchema, runLoad);
 */
export function answerParent<T>(schema: z.ZodType<T>, run: (input: T) => Promise<unknown>): void {
  const port = parentPort;
  if (!port) return;
  const parsed = schema.safeParse(workerData);
  const answer = parsed.success
    ? run(parsed.data).catch((error: unknown) => ({ ok: false, error: error instanceof Error ? error.message : String(error) }))
    : Promise.resolve({ ok: false, error: `bad worker input: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}` });
  void answer.then((message) => port.postMessage(message));
}
