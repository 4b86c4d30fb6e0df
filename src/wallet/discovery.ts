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

export interface WaitForInjectedProviderParameters {
  /** How often to look for window.ethereum while waiting. Default 100 ms. */
  pollMs?: number | undefined;
}
export type WaitForInjectedProviderReturnType = Eip1193Provider | undefined;

/**
 * Waits for a wallet that injects itself late: resolves when 'ethereum#initialized' fires (MetaMask's signal) or
 * window.ethereum (or Phantom's provider) appears, or with undefined after `timeoutMs`.
 *
 * @param win - The window to watch (default `window`).
 * @param timeoutMs - How long to wait. Default 3 s.
 * @param parameters - The polling interval.
 * @returns The injected provider, or undefined when none came in time.
 * @example
 * const provider = await waitForInjectedProvider(window, 3000);
 */
export function waitForInjectedProvider(
  win: DiscoveryWindow = window,
  timeoutMs = 3_000,
  { pollMs = 100 }: WaitForInjectedProviderParameters = {},
): Promise<WaitForInjectedProviderReturnType> {
  const present = injectedProvider(win);
  if (present) return Promise.resolve(present);
  return new Promise((resolve) => {
    const finish = () => {
      win.removeEventListener('ethereum#initialized', finish);
      clearInterval(poll);
      clearTimeout(timer);
      resolve(injectedProvider(win));
    };
    const poll = setInterval(() => {
      if (injectedProvider(win)) finish();
    }, pollMs);
    const timer = setTimeout(finish, timeoutMs);
    win.addEventListener('ethereum#initialized', finish);
  });
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
