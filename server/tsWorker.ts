/**
 * Worker threads that run TypeScript: on Node 20 the tsx loader of the main thread does not reach workers, so
 * the worker's bootstrap registers tsx (its public ESM API) before importing the module.
 */
import { Worker } from 'node:worker_threads';

/** Registers tsx in the worker, then imports the module named by the worker's argv. */
const bootstrapUrl = new URL('./tsWorkerBootstrap.mjs', import.meta.url);

/**
 * Starts a worker thread on a TypeScript module.
 *
 * @param moduleUrl - the worker module (e.g. `new URL('./pgliteWorker.ts', import.meta.url)`)
 * @param workerData - cloned into the worker as `workerData`
 * @returns the worker
 * @example
 * const worker = startTsWorker(new URL('./client.ts', import.meta.url), input);
 */
export function startTsWorker(moduleUrl: URL, workerData: unknown): Worker {
  // execArgv: [] starts the worker without the parent's Node flags: its `--import tsx` (the bootstrap registers
  // tsx once), and flags that act on the whole process, which a worker refuses.
  return new Worker(bootstrapUrl, { argv: [moduleUrl.href], workerData, execArgv: [] });
}
