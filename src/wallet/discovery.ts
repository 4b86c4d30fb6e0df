import type { DiscoveredProvider, Eip1193Provider } from './types';

/**
 * Finds the wallets in the page, each time it is asked (a wallet injected late is found on the next call):
 * EIP-6963 announcements first (https://eips.ethereum.org/EIPS/eip-6963), then Phantom's provider, then
 * window.ethereum, each provider object once.
 */

/** The part of `window` discovery uses; tests may pass any EventTarget with these fields. */
export interface DiscoveryWindow {
  addEventListener: EventTarget['addEventListener'];
  removeEventListener: EventTarget['removeEventListener'];
  dispatchEvent: EventTarget['dispatchEvent'];
  ethereum?: unknown;
  phantom?: { ethereum?: unknown } | undefined;
}

export interface FindProvidersParameters {
  /** How long to collect EIP-6963 announcements after asking for them. Default 50 ms. */
  announceWindowMs?: number | undefined;
}
export type FindProvidersReturnType = DiscoveredProvider[];
/** Discovery never rejects: no wallet is an empty list. */
export type FindProvidersErrorType = never;

const announceEvent = 'eip6963:announceProvider';
const requestEvent = 'eip6963:requestProvider';

/**
 * Lists the wallets in the page, announced (EIP-6963) ones first, then Phantom, then window.ethereum.
 *
 * @param win - The window to search (default `window`).
 * @param parameters - How long to wait for announcements.
 * @returns The wallets found, without duplicates; empty when there is none.
 * @example
 * const [first] = await findProviders(); // { id: 'io.metamask', name: 'MetaMask', icon, provider }
 */
export async function findProviders(
  win: DiscoveryWindow = window,
  { announceWindowMs = 50 }: FindProvidersParameters = {},
): Promise<FindProvidersReturnType> {
  const announced: DiscoveredProvider[] = [];
  const onAnnounce = (event: Event) => {
    const found = readAnnouncement('detail' in event ? event.detail : undefined);
    if (found) announced.push(found);
  };
  win.addEventListener(announceEvent, onAnnounce);
  try {
    win.dispatchEvent(new Event(requestEvent));
    await new Promise((resolve) => setTimeout(resolve, announceWindowMs));
  } finally {
    win.removeEventListener(announceEvent, onAnnounce);
  }

  const candidates: DiscoveredProvider[] = [...announced];
  const phantom = win.phantom?.ethereum;
  if (isEip1193Provider(phantom)) candidates.push({ id: 'phantom', name: 'Phantom', provider: phantom });
  if (isEip1193Provider(win.ethereum)) candidates.push({ id: 'injected', name: 'Browser wallet', provider: win.ethereum });
  return dedupe(candidates);
}

export interface WatchForProvidersParameters {
  /** How often to look for window.ethereum (or Phantom's provider) while watching. Default 100 ms. */
  pollMs?: number | undefined;
}
/** Stops watching. */
export type WatchForProvidersReturnType = () => void;

/**
 * Watches for a wallet that arrives after discovery looked, and calls `onFound` once when one does: an EIP-6963
 * announcement, MetaMask Mobile's 'ethereum#initialized' (https://docs.metamask.io/wallet/how-to/make-a-simple-dapp/
 * , @metamask/detect-provider), or window.ethereum / Phantom's provider set without any event, as WebView wallets
 * that inject after load do (src/wallet/walletQuirks.ts). It asks announcing wallets once more at start. The wallet
 * machine bounds how long it watches (walletSearchTimeout) and then, without a wallet, keeps watching from its
 * no-wallet state, so a very late wallet still turns the screen into connect.
 *
 * @param win - The window to watch (default `window`).
 * @param onFound - Called once, when a wallet appeared.
 * @param parameters - The polling interval.
 * @returns A function that stops watching.
 * @example
 * const stop = watchForProviders(window, () => wallet.send({ type: 'provider.detected' }));
 */
export function watchForProviders(
  win: DiscoveryWindow,
  onFound: () => void,
  { pollMs = 100 }: WatchForProvidersParameters = {},
): WatchForProvidersReturnType {
  let done = false;
  const found = () => {
    if (done) return;
    stop();
    onFound();
  };
  const onAnnounce = (event: Event) => {
    if (readAnnouncement('detail' in event ? event.detail : undefined)) found();
  };
  const onInitialized = () => {
    if (injectedProvider(win)) found();
  };
  const poll = setInterval(onInitialized, pollMs);
  function stop() {
    done = true;
    clearInterval(poll);
    win.removeEventListener(announceEvent, onAnnounce);
    win.removeEventListener('ethereum#initialized', onInitialized);
  }
  win.addEventListener(announceEvent, onAnnounce);
  win.addEventListener('ethereum#initialized', onInitialized);
  onInitialized();
  if (!done) win.dispatchEvent(new Event(requestEvent));
  return stop;
}

/**
 * Tells whether a value can serve as an EIP-1193 provider (request, on, removeListener).
 *
 * @param value - Anything, e.g. window.ethereum.
 * @returns True for a usable provider.
 * @example
 * isEip1193Provider(window.ethereum) // true in a wallet browser
 */
export function isEip1193Provider(value: unknown): value is Eip1193Provider {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  return ['request', 'on', 'removeListener'].every((key) => typeof Reflect.get(value, key) === 'function');
}

function injectedProvider(win: DiscoveryWindow): Eip1193Provider | undefined {
  const phantom = win.phantom?.ethereum;
  if (isEip1193Provider(phantom)) return phantom;
  return isEip1193Provider(win.ethereum) ? win.ethereum : undefined;
}

function readAnnouncement(detail: unknown): DiscoveredProvider | undefined {
  if (typeof detail !== 'object' || detail === null) return undefined;
  const info: unknown = Reflect.get(detail, 'info');
  const provider: unknown = Reflect.get(detail, 'provider');
  if (typeof info !== 'object' || info === null || !isEip1193Provider(provider)) return undefined;
  const rdns: unknown = Reflect.get(info, 'rdns');
  const name: unknown = Reflect.get(info, 'name');
  const icon: unknown = Reflect.get(info, 'icon');
  if (typeof rdns !== 'string' || rdns === '') return undefined;
  const found: DiscoveredProvider = { id: rdns, name: typeof name === 'string' && name ? name : rdns, provider };
  if (typeof icon === 'string' && icon) found.icon = icon;
  return found;
}

/** Keeps the first entry of each provider object and of each id (wallets may announce more than once). */
function dedupe(candidates: DiscoveredProvider[]): DiscoveredProvider[] {
  const providers = new Set<Eip1193Provider>();
  const ids = new Set<string>();
  return candidates.filter((candidate) => {
    if (providers.has(candidate.provider) || ids.has(candidate.id)) return false;
    providers.add(candidate.provider);
    ids.add(candidate.id);
    return true;
  });
}
