import type * as ClientContract from '../../api-schema/clientContract';

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
  loading ??= import('../../api-schema/clientContract').then(
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
