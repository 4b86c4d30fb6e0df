/**
 * Worker threads that run TypeScript: on Node 20 the tsx loader of the main thread does not reach workers, so
 * the worker's bootstrap registers tsx (its public ESM API) before importing the module.
 */
import { Worker } from 'node:worker_threads';

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
  const bootstrap = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(moduleUrl.href)}); })`;
  // execArgv: [] leaves out the parent's own `--import tsx` (the bootstrap registers it once).
  return new Worker(bootstrap, { eval: true, workerData, execArgv: [] });
}
