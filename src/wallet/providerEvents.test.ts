import { describe, expect, it } from 'vitest';
import { createFakeEip1193Provider } from '../../tests/support/fakeEip1193Provider';
import type { ProviderEvent } from './providerEvents';
import { subscribeToProvider } from './providerEvents';

const lower = '0xd8da6bf26964af9d7eed9e03e53415d37aa96045';
const checksummed = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';

function subscribed() {
  const wallet = createFakeEip1193Provider();
  const events: ProviderEvent[] = [];
  const unsubscribe = subscribeToProvider(wallet, (event) => events.push(event));
  return { wallet, events, unsubscribe };
}

describe('subscribeToProvider', () => {
  it('behavior: accountsChanged sends the accounts, checksummed', () => {
    const { wallet, events } = subscribed();
    wallet.emit('accountsChanged', [lower]);
    wallet.emit('accountsChanged', []);
    wallet.emit('accountsChanged', null);
    expect(events).toEqual([
      { type: 'provider.accountsChanged', accounts: [checksummed] },
      { type: 'provider.accountsChanged', accounts: [] },
      { type: 'provider.accountsChanged', accounts: [] },
    ]);
  });

  it('behavior: chainChanged and connect pass the chain id through unparsed', () => {
    const { wallet, events } = subscribed();
    wallet.emit('chainChanged', '0x38');
    wallet.emit('chainChanged', 56);
    wallet.emit('connect', { chainId: '0x1' });
    wallet.emit('connect', undefined);
    expect(events).toEqual([
      { type: 'provider.chainChanged', chainId: '0x38' },
      { type: 'provider.chainChanged', chainId: 56 },
      { type: 'provider.connect', chainId: '0x1' },
      { type: 'provider.connect', chainId: undefined },
    ]);
  });

  it('behavior: disconnect sends code and message, 4900 when the wallet gives none', () => {
    const { wallet, events } = subscribed();
    wallet.emit('disconnect', { code: 1013, message: 'MetaMask: Disconnected from chain. Attempting to connect.' });
    wallet.emit('disconnect', Object.assign(new Error('Disconnected'), { code: 4900 }));
    wallet.emit('disconnect');
    expect(events).toEqual([
      { type: 'provider.disconnect', error: { code: 1013, message: 'MetaMask: Disconnected from chain. Attempting to connect.' } },
      { type: 'provider.disconnect', error: { code: 4900, message: 'Disconnected' } },
      { type: 'provider.disconnect', error: { code: 4900, message: '' } },
    ]);
  });

  it('behavior: unsubscribe removes every listener', () => {
    const { wallet, events, unsubscribe } = subscribed();
    const names = ['accountsChanged', 'chainChanged', 'connect', 'disconnect'] as const;
    expect(names.map((name) => wallet.listenerCount(name))).toEqual([1, 1, 1, 1]);
    unsubscribe();
    expect(names.map((name) => wallet.listenerCount(name))).toEqual([0, 0, 0, 0]);
    wallet.emit('chainChanged', '0x1');
    expect(events).toEqual([]);
  });
});
