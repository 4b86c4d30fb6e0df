import type * as ClientContract from '../../api-schema/clientContract';
import { nextTask } from '../scheduling/nextTask';

/**
 * Loads the contract schemas (and zod) on demand, once. Nothing on the way to /login's first render needs them:
 * the first API call, or the config machine's check of the stored config, starts the download while the page
 * renders (the /login first-load budget of bench/README.md, ADR 0005).
 */
let loaded: typeof ClientContract | undefined;
let loading: Promise<typeof ClientContract> | undefined;

/**
 * Resolves to the client contract module; a failed download is retried by the next call.
 *
 * @example const { endpoints } = await loadClientContract();
 */
export function loadClientContract(): Promise<typeof ClientContract> {
  // Three steps, each evaluated in a task of its own: zod, the app config's schemas, then the other endpoints';
  // and the caller goes on in a fourth (its first parse). Building every schema at once was one ~25 ms task on a
  // fast machine (four times that on a phone: Lighthouse's Total Blocking Time, bench/lighthouse.ts); the bundler
  // gives each step its own file (zod's is a chunk group of vite.config.ts).
  loading ??= import('../../api-schema/zodFirst')
    .then(nextTask)
    .then(() => import('../../api-schema/dapp'))
    .then(nextTask)
    .then(() => import('../../api-schema/clientContract'))
    .then(async (module) => {
      await nextTask();
      return module;
    })
    .then(
      (module) => (loaded = module),
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    );
  return loading;
}

/**
 * The contract module when it has loaded, else undefined. Synchronous readers (selectors) use it: every checked
 * value they read reached the machines through an actor that awaited loadClientContract first.
 */
export function loadedClientContract(): typeof ClientContract | undefined {
  return loaded;
}
