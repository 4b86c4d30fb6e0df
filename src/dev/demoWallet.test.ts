import { describe, expect, it } from 'vitest';
import { verifyMessage, type Hex } from 'viem';
import { findProviders } from '../wallet/discovery';
import { createDemoWalletProvider, DEMO_WALLET_KEY, DEMO_WALLET_RDNS, installDemoWalletIfAsked } from './demoWallet';
import type { DemoWalletWindow } from './demoWallet';
import { createMemoryStorage } from '../../tests/support/memoryStorage';

function fakeWindow(search: string, localStorage = createMemoryStorage()): DemoWalletWindow & EventTarget {
  return Object.assign(new EventTarget(), { location: { search }, localStorage });
}

const bscParams = { chainId: '0x38', chainName: 'BNB Smart Chain', nativeCurrency: { name: 'BNB', symbol: 'BNB', decimals: 18 }, rpcUrls: ['https://bsc-dataseed.bnbchain.org'] };

describe('demo wallet provider', () => {
  it('behavior: connects on eth_requestAccounts only, and a reload is the same connected wallet', async () => {
    const storage = createMemoryStorage();
    const { provider, address } = createDemoWalletProvider(storage);
    const changes: unknown[] = [];
    provider.on('accountsChanged', (accounts) => changes.push(accounts));
    expect(await provider.request({ method: 'eth_accounts' })).toEqual([]);
    expect(await provider.request({ method: 'eth_requestAccounts' })).toEqual([address]);
    expect(changes).toEqual([[address]]);
    const reloaded = createDemoWalletProvider(storage);
    expect(reloaded.address).toBe(address);
    expect(await reloaded.provider.request({ method: 'eth_accounts' })).toEqual([address]);
  });

  it('behavior: answers 4902 for an unknown chain; adding it switches to it, like MetaMask', async () => {
    const { provider } = createDemoWalletProvider(createMemoryStorage());
    const chains: unknown[] = [];
    provider.on('chainChanged', (chainId) => chains.push(chainId));
    expect(await provider.request({ method: 'eth_chainId' })).toBe('0x1');
    await expect(provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x38' }] })).rejects.toMatchObject({ code: 4902 });
    expect(await provider.request({ method: 'wallet_addEthereumChain', params: [bscParams] })).toBeNull();
    expect(await provider.request({ method: 'eth_chainId' })).toBe('0x38');
    expect(await provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x1' }] })).toBeNull();
    expect(chains).toEqual(['0x38', '0x1']);
  });

  it('behavior: personal_sign signs the text for its own connected account only', async () => {
    const { provider, address } = createDemoWalletProvider(createMemoryStorage());
    const message = 'localhost wants you to sign in with your Ethereum account';
    const hexMessage: Hex = `0x${Buffer.from(message, 'utf8').toString('hex')}`;
    await expect(provider.request({ method: 'personal_sign', params: [hexMessage, address] })).rejects.toMatchObject({ code: 4100 });
    await provider.request({ method: 'eth_requestAccounts' });
    const signature = await provider.request({ method: 'personal_sign', params: [hexMessage, address] });
    expect(await verifyMessage({ address, message, signature: signature as Hex })).toBe(true);
    await expect(
      provider.request({ method: 'personal_sign', params: [hexMessage, '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045'] }),
    ).rejects.toMatchObject({ code: 4100 });
  });

  it('behavior: other methods answer 4200', async () => {
    const { provider } = createDemoWalletProvider(createMemoryStorage());
    await expect(provider.request({ method: 'eth_sendTransaction', params: [] })).rejects.toMatchObject({ code: 4200 });
  });
});

describe('installDemoWalletIfAsked', () => {
  it('behavior: ?demoWallet installs it, and the app finds it by EIP-6963', async () => {
    const win = fakeWindow('?demoWallet');
    const address = installDemoWalletIfAsked(win);
    const found = await findProviders(win, { announceWindowMs: 1 });
    expect(found.map((wallet) => wallet.id)).toEqual([DEMO_WALLET_RDNS]);
    expect(await found[0]?.provider.request({ method: 'eth_requestAccounts' })).toEqual([address]);
  });

  it('behavior: stays on in this browser without the parameter; ?demoWallet=off removes it and its key', async () => {
    const storage = createMemoryStorage();
    const address = installDemoWalletIfAsked(fakeWindow('?demoWallet', storage));
    expect(installDemoWalletIfAsked(fakeWindow('', storage))).toBe(address);
    expect(installDemoWalletIfAsked(fakeWindow('?demoWallet=off', storage))).toBeUndefined();
    expect(storage.entries.has(DEMO_WALLET_KEY)).toBe(false);
    const win = fakeWindow('', storage);
    expect(installDemoWalletIfAsked(win)).toBeUndefined();
    expect(await findProviders(win, { announceWindowMs: 1 })).toEqual([]);
  });
});
