import type { DiscoveryWindow, FindProvidersParameters } from './discovery';
import type { DiscoveredProvider } from './types';

export type LoadProvidersReturnType = DiscoveredProvider[];
export type LoadProvidersErrorType = Error;

/**
 * Fetches the wallet-detection module on demand (spec section 7) and lists the wallets in the page. Rejects only
 * when the module itself cannot be loaded (e.g. offline after a deploy).
 *
 * @param win - The window to search (default `window`).
 * @param parameters - Passed to findProviders.
 * @returns The wallets found, announced ones first.
 * @example
 * const providers = await loadProviders();
 */
export async function loadProviders(win?: DiscoveryWindow, parameters?: FindProvidersParameters): Promise<LoadProvidersReturnType> {
  const { findProviders } = await import('./discovery');
  return findProviders(win, parameters);
}

/**
 * Watches for a wallet that arrives late (watchForProviders in src/wallet/discovery), loading the detection module
 * on demand; a stop before the module arrived still stops it.
 *
 * @param onFound - Called once, when a wallet appeared.
 * @param win - The window to watch (default `window`).
 * @returns A function that stops watching.
 * @example
 * const stop = watchProvidersLazily(() => wallet.send({ type: 'provider.detected' }));
 */
export function watchProvidersLazily(onFound: () => void, win?: DiscoveryWindow): () => void {
  let stop: (() => void) | undefined;
  let stopped = false;
  void import('./discovery').then(({ watchForProviders }) => {
    if (!stopped) stop = watchForProviders(win ?? window, onFound);
  });
  return () => {
    stopped = true;
    stop?.();
  };
}
