import type * as ClientContract from '../../api-schema/clientContract';
import type * as ConfigContract from '../../api-schema/configContract';
import { nextTask } from '../scheduling/nextTask';

/**
 * Loads the contract schemas (and zod) on demand, once. Nothing on the way to /login's first render needs them:
 * the first API call, or the config machine's check of the stored config, starts the download while the page
 * renders (the /login first-load budget of bench/README.md, ADR 0005). The app config's schemas come first and
 * alone: they are all a first visit's /login checks (Lighthouse's bytes, bench/README.md); the other endpoints'
 * follow with the first call that needs them.
 */
let config: typeof ConfigContract | undefined;
let configLoading: Promise<typeof ConfigContract> | undefined;
let loaded: typeof ClientContract | undefined;
let loading: Promise<typeof ClientContract> | undefined;

/** Remembers what a step resolved to; a failed download is forgotten, so the next call loads it again. */
function once<T>(step: Promise<T>, keep: (value: T) => void, forget: () => void): Promise<T> {
  return step.then(
    (value) => {
      keep(value);
      return value;
    },
    (error: unknown) => {
      forget();
      throw error;
    },
  );
}

/**
 * Resolves to the envelope's and the app config's schemas; a failed download is retried by the next call.
 *
 * @example const { dappParamSchema } = await loadConfigContract();
 */
export function loadConfigContract(): Promise<typeof ConfigContract> {
  // Each step is evaluated in a task of its own: zod, then the schemas; and the caller goes on in a third (its first
  // parse). Building every schema at once was one ~25 ms task on a fast machine (four times that on a phone:
  // Lighthouse's Total Blocking Time, bench/lighthouse.ts); the bundler gives each step its own file (zod's is a
  // chunk group of vite.config.ts). zodFirst.ts re-exports one function: import('zod/mini') itself would keep all
  // of zod (80 KiB instead of 8).
  configLoading ??= once(
    import('../../api-schema/zodFirst')
      .then(nextTask)
      .then(() => import('../../api-schema/configContract'))
      .then(async (module) => {
        await nextTask();
        return module;
      }),
    (module) => (config = module),
    () => (configLoading = undefined),
  );
  return configLoading;
}

/**
 * Resolves to the client contract module (every endpoint's schemas), after the config's; a failed download is
 * retried by the next call.
 *
 * @example const { endpoints } = await loadClientContract();
 */
export function loadClientContract(): Promise<typeof ClientContract> {
  loading ??= once(
    loadConfigContract()
      .then(() => import('../../api-schema/clientContract'))
      .then(async (module) => {
        await nextTask();
        return module;
      }),
    (module) => (loaded = module),
    () => (loading = undefined),
  );
  return loading;
}

/**
 * The config's schemas when they have loaded, else undefined. Synchronous readers (the config selector) use it:
 * a config reaches the machines only through an actor that awaited loadConfigContract first.
 */
export function loadedConfigContract(): typeof ConfigContract | undefined {
  return config;
}

/**
 * The contract module when it has loaded, else undefined. Synchronous readers (selectors) use it: every checked
 * value they read reached the machines through an actor that awaited loadClientContract first.
 */
export function loadedClientContract(): typeof ClientContract | undefined {
  return loaded;
}
