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
