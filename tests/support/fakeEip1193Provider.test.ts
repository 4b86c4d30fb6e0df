// The fake wallet itself (fakeEip1193Provider.ts): what src's unit tests and the UI tests rely on it to answer.
import { describe, expect, it } from 'vitest';
import { createFakeEip1193Provider, fakeAccount, fakeSignature } from './fakeEip1193Provider';

describe('fake EIP-1193 provider', () => {
  it('behavior: answers like a simple wallet by default and records requests', async () => {
    const wallet = createFakeEip1193Provider({ chainId: 56 });
    await expect(wallet.request({ method: 'eth_chainId' })).resolves.toBe('0x38');
    await expect(wallet.request({ method: 'eth_accounts' })).resolves.toEqual([]);
    await expect(wallet.request({ method: 'eth_requestAccounts' })).resolves.toEqual([fakeAccount]);
    await expect(wallet.request({ method: 'eth_accounts' })).resolves.toEqual([fakeAccount]);
    await expect(wallet.request({ method: 'personal_sign', params: ['0x00', fakeAccount] })).resolves.toBe(fakeSignature);
    expect(wallet.methods()).toEqual(['eth_chainId', 'eth_accounts', 'eth_requestAccounts', 'eth_accounts', 'personal_sign']);
    expect(wallet.requests[4]).toEqual({ method: 'personal_sign', params: ['0x00', fakeAccount] });
  });

  it('behavior: switching to an unknown chain answers 4902 until the chain is added', async () => {
    const wallet = createFakeEip1193Provider({ chainId: 1 });
    const changes: unknown[] = [];
    wallet.on('chainChanged', (chainId) => changes.push(chainId));
    const switchTo56 = () => wallet.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x38' }] });
    await expect(switchTo56()).rejects.toMatchObject({ code: 4902 });
    await wallet.request({ method: 'wallet_addEthereumChain', params: [{ chainId: '0x38', chainName: 'BSC', rpcUrls: ['https://x.example'] }] });
    await expect(switchTo56()).resolves.toBeNull();
    expect(wallet.state.chainId).toBe(56);
    expect(changes).toEqual(['0x38']);
  });

  it('behavior: respond, fail and reset replace the default answer', async () => {
    const wallet = createFakeEip1193Provider();
    wallet.respond('eth_chainId', 56);
    await expect(wallet.request({ method: 'eth_chainId' })).resolves.toBe(56);
    await expect(wallet.request({ method: 'eth_chainId' })).resolves.toBe(56);
    wallet.fail('eth_chainId', { code: -32603, message: 'Internal JSON-RPC error.', data: { originalError: { code: 4902 } } });
    const error: unknown = await wallet.request({ method: 'eth_chainId' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ code: -32603, message: 'Internal JSON-RPC error.', data: { originalError: { code: 4902 } } });
    wallet.reset('eth_chainId');
    await expect(wallet.request({ method: 'eth_chainId' })).resolves.toBe('0x1');
  });

  it('behavior: once answers are used in order, then the persistent answer', async () => {
    const wallet = createFakeEip1193Provider();
    wallet.respond('eth_accounts', ['0x1']);
    wallet.fail('eth_accounts', { code: 4001, message: 'no' }, { once: true });
    wallet.respond('eth_accounts', ['0x2'], { once: true });
    await expect(wallet.request({ method: 'eth_accounts' })).rejects.toMatchObject({ code: 4001 });
    await expect(wallet.request({ method: 'eth_accounts' })).resolves.toEqual(['0x2']);
    await expect(wallet.request({ method: 'eth_accounts' })).resolves.toEqual(['0x1']);
    await expect(wallet.request({ method: 'eth_accounts' })).resolves.toEqual(['0x1']);
  });

  it('behavior: a hung request settles when its deferred is released', async () => {
    const wallet = createFakeEip1193Provider();
    const release = wallet.hang('eth_requestAccounts');
    let settled: unknown;
    const pending = wallet.request({ method: 'eth_requestAccounts' }).then((value) => (settled = value));
    await Promise.resolve();
    expect(settled).toBeUndefined();
    release.resolve(['0xabc']);
    await pending;
    expect(settled).toEqual(['0xabc']);

    const rejecting = wallet.hang('personal_sign', { once: true });
    const signing = wallet.request({ method: 'personal_sign' });
    rejecting.reject(new Error('closed'));
    await expect(signing).rejects.toThrow('closed');
  });

  it('behavior: emits events to listeners until they are removed', () => {
    const wallet = createFakeEip1193Provider();
    const seen: unknown[][] = [];
    const listener = (...args: unknown[]) => seen.push(args);
    wallet.on('disconnect', listener);
    expect(wallet.listenerCount('disconnect')).toBe(1);
    wallet.emit('disconnect', { code: 4900, message: 'Disconnected' });
    wallet.removeListener('disconnect', listener);
    wallet.emit('disconnect', { code: 4900, message: 'again' });
    expect(seen).toEqual([[{ code: 4900, message: 'Disconnected' }]]);
    expect(wallet.listenerCount('disconnect')).toBe(0);
  });

  it('behavior: unsupported methods answer 4200', async () => {
    await expect(createFakeEip1193Provider().request({ method: 'eth_sendTransaction' })).rejects.toMatchObject({ code: 4200 });
  });
});
