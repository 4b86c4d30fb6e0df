// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFakeEip1193Provider } from '../../tests/support/fakeEip1193Provider';
import { findProviders, isEip1193Provider, watchForProviders } from './discovery';
import { loadProviders } from './loadDiscovery';
import type { Eip1193Provider } from './types';

const cleanups: (() => void)[] = [];

afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
  Reflect.deleteProperty(window, 'ethereum');
  Reflect.deleteProperty(window, 'phantom');
  vi.useRealTimers();
});

/** A wallet that answers EIP-6963 requests, after `delayMs` when given. */
function announceOnRequest(rdns: string, name: string, provider: unknown, delayMs?: number) {
  const announce = () =>
    window.dispatchEvent(
      new CustomEvent('eip6963:announceProvider', {
        detail: Object.freeze({ info: { uuid: crypto.randomUUID(), name, icon: 'data:image/svg+xml,<svg/>', rdns }, provider }),
      }),
    );
  const onRequest = () => (delayMs === undefined ? announce() : setTimeout(announce, delayMs));
  window.addEventListener('eip6963:requestProvider', onRequest);
  cleanups.push(() => window.removeEventListener('eip6963:requestProvider', onRequest));
}

const ids = (providers: { id: string }[]) => providers.map((provider) => provider.id);

describe('findProviders', () => {
  it('behavior: no wallet gives an empty list', async () => {
    await expect(findProviders(window)).resolves.toEqual([]);
  });

  it('behavior: announced wallets come first, then Phantom, then window.ethereum', async () => {
    const metaMask = createFakeEip1193Provider();
    const phantom = createFakeEip1193Provider();
    const injected = createFakeEip1193Provider();
    announceOnRequest('io.metamask', 'MetaMask', metaMask);
    Object.assign(window, { phantom: { ethereum: phantom }, ethereum: injected });
    const found = await findProviders(window);
    expect(found.map(({ id, name, icon }) => ({ id, name, icon }))).toEqual([
      { id: 'io.metamask', name: 'MetaMask', icon: 'data:image/svg+xml,<svg/>' },
      { id: 'phantom', name: 'Phantom', icon: undefined },
      { id: 'injected', name: 'Browser wallet', icon: undefined },
    ]);
    expect(found.map((entry) => entry.provider)).toEqual([metaMask, phantom, injected]);
  });

  it('behavior: several announcing wallets are all listed in announcement order', async () => {
    announceOnRequest('io.metamask', 'MetaMask', createFakeEip1193Provider());
    announceOnRequest('com.okex.wallet', 'OKX Wallet', createFakeEip1193Provider());
    announceOnRequest('com.trustwallet.app', 'Trust Wallet', createFakeEip1193Provider(), 10);
    expect(ids(await findProviders(window))).toEqual(['io.metamask', 'com.okex.wallet', 'com.trustwallet.app']);
  });

  it('behavior: the same provider object is listed once, under its announced id', async () => {
    const provider = createFakeEip1193Provider();
    announceOnRequest('app.phantom', 'Phantom', provider);
    announceOnRequest('app.phantom', 'Phantom', createFakeEip1193Provider());
    Object.assign(window, { phantom: { ethereum: provider }, ethereum: provider });
    expect(ids(await findProviders(window))).toEqual(['app.phantom']);
  });

  it('behavior: announcements without a usable provider or rdns are ignored', async () => {
    announceOnRequest('io.broken', 'Broken', { request: 'nope' });
    announceOnRequest('', 'No rdns', createFakeEip1193Provider());
    Object.assign(window, { ethereum: { isMetaMask: true } });
    await expect(findProviders(window)).resolves.toEqual([]);
  });

  it('behavior: a wallet injected late is found on the next call (nothing is cached)', async () => {
    await expect(findProviders(window)).resolves.toEqual([]);
    Object.assign(window, { ethereum: createFakeEip1193Provider() });
    expect(ids(await findProviders(window))).toEqual(['injected']);
  });

  it('behavior: announcements after the window closes are not collected', async () => {
    announceOnRequest('io.late', 'Late', createFakeEip1193Provider(), 60);
    const found = await findProviders(window, { announceWindowMs: 20 });
    const late: Event[] = [];
    const onLate = (event: Event) => late.push(event);
    window.addEventListener('eip6963:announceProvider', onLate);
    await new Promise((resolve) => setTimeout(resolve, 80));
    window.removeEventListener('eip6963:announceProvider', onLate);
    expect(late).toHaveLength(1);
    expect(ids(found)).toEqual([]);
  });

  it('behavior: loadProviders fetches the module on demand and finds the same wallets', async () => {
    Object.assign(window, { ethereum: createFakeEip1193Provider() });
    expect(ids(await loadProviders(window))).toEqual(['injected']);
  });
});

describe('watchForProviders', () => {
  const watch = (pollMs?: number) => {
    const onFound = vi.fn();
    const stop = watchForProviders(window, onFound, pollMs === undefined ? {} : { pollMs });
    cleanups.push(stop);
    return onFound;
  };

  it('behavior: reports at once when a provider is already there', () => {
    Object.assign(window, { ethereum: createFakeEip1193Provider() });
    expect(watch()).toHaveBeenCalledTimes(1);
  });

  it('behavior: reports on ethereum#initialized (MetaMask Mobile injecting after load)', () => {
    vi.useFakeTimers();
    const onFound = watch(10_000);
    window.dispatchEvent(new Event('ethereum#initialized'));
    expect(onFound).not.toHaveBeenCalled(); // the event alone, without a provider, is no wallet
    Object.assign(window, { ethereum: createFakeEip1193Provider() });
    window.dispatchEvent(new Event('ethereum#initialized'));
    expect(onFound).toHaveBeenCalledTimes(1);
  });

  it('behavior: reports when window.ethereum or Phantom appears without any event', async () => {
    vi.useFakeTimers();
    const onFound = watch();
    await vi.advanceTimersByTimeAsync(250);
    expect(onFound).not.toHaveBeenCalled();
    Object.assign(window, { phantom: { ethereum: createFakeEip1193Provider() } });
    await vi.advanceTimersByTimeAsync(100);
    expect(onFound).toHaveBeenCalledTimes(1);
  });

  it('behavior: reports a late EIP-6963 announcement, and asks announcing wallets once at start', async () => {
    vi.useFakeTimers();
    const provider = createFakeEip1193Provider();
    announceOnRequest('io.metamask', 'MetaMask', provider, 500);
    const onFound = watch();
    await vi.advanceTimersByTimeAsync(499);
    expect(onFound).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(onFound).toHaveBeenCalledTimes(1);
  });

  it('behavior: ignores malformed announcements and reports only once', async () => {
    vi.useFakeTimers();
    const onFound = watch();
    window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail: { info: { rdns: 'x' }, provider: {} } }));
    expect(onFound).not.toHaveBeenCalled();
    Object.assign(window, { ethereum: createFakeEip1193Provider() });
    window.dispatchEvent(new Event('ethereum#initialized'));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(onFound).toHaveBeenCalledTimes(1);
  });

  it('behavior: stops watching when stopped', async () => {
    vi.useFakeTimers();
    const onFound = vi.fn();
    const stop = watchForProviders(window, onFound);
    stop();
    Object.assign(window, { ethereum: createFakeEip1193Provider() });
    window.dispatchEvent(new Event('ethereum#initialized'));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(onFound).not.toHaveBeenCalled();
  });
});

describe('isEip1193Provider', () => {
  it('behavior: needs request, on and removeListener', () => {
    const provider: Eip1193Provider = createFakeEip1193Provider();
    expect([isEip1193Provider(provider), isEip1193Provider({ request: () => null }), isEip1193Provider(null)]).toEqual([true, false, false]);
  });
});
