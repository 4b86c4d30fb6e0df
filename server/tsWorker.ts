/**
 * Worker threads that run TypeScript: on Node 20 the tsx loader of the main thread does not reach workers, so
 * the worker's bootstrap registers tsx (its public ESM API) before importing the module.
 */
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { serverPath } from './serverFiles';

/** Registers tsx in the worker, then imports the module named by the worker's argv. */
const bootstrapUrl = pathToFileURL(serverPath('tsWorkerBootstrap.mjs'));

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
  // The compiled server's workers are JavaScript already (server/serverFiles.ts workerModule): no tsx.
  if (!moduleUrl.pathname.endsWith('.ts')) return new Worker(moduleUrl, { workerData, execArgv: [] });
  return new Worker(bootstrapUrl, { argv: [moduleUrl.href], workerData, execArgv: [] });
}
