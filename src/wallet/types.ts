/**
 * The smallest EIP-1193 provider the app needs (https://eips.ethereum.org/EIPS/eip-1193). Injected wallets,
 * EIP-6963 announced providers and the test fakes all fit it, and viem's `custom()` transport accepts it.
 */
export interface Eip1193RequestArguments {
  readonly method: string;
  readonly params?: readonly unknown[] | Record<string, unknown> | undefined;
}

/** A listener for provider events. Wallets send loosely typed payloads, so listeners narrow what they get. */
export type Eip1193Listener = (...args: unknown[]) => void;

export interface Eip1193Provider {
  request(args: Eip1193RequestArguments): Promise<unknown>;
  on(event: string, listener: Eip1193Listener): unknown;
  removeListener(event: string, listener: Eip1193Listener): unknown;
}

/** A wallet found in the page: by EIP-6963 announcement (id = rdns), as Phantom, or as window.ethereum. */
export interface DiscoveredProvider {
  /** The EIP-6963 rdns (e.g. "io.metamask"), or 'phantom', or 'injected'. */
  id: string;
  name: string;
  /** A data URI of the wallet icon, when the wallet announced one. */
  icon?: string;
  provider: Eip1193Provider;
}
