import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFakeEip1193Provider, fakeSignature } from '../../tests/support/fakeEip1193Provider';
import type { ChainParams } from '../../api-schema/dapp';
import {
  ChainParamsMissingError,
  RequestPendingError,
  UnknownWalletError,
  UnrecognizedChainError,
  UserRejectedError,
  WalletTimeoutError,
} from './errors';
import { createWalletRequests } from './walletRequests';

const bsc: ChainParams = {
  chainName: 'BNB Smart Chain',
  nativeCurrency: { name: 'BNB', symbol: 'BNB', decimals: 18 },
  rpcUrls: ['https://bsc-dataseed.bnbchain.org'],
  blockExplorerUrls: ['https://bscscan.com'],
};
const lower = '0xd8da6bf26964af9d7eed9e03e53415d37aa96045';
const checksummed = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';

afterEach(() => {
  vi.useRealTimers();
});

describe('createWalletRequests', () => {
  it('behavior: getAccounts sends eth_accounts and returns checksummed addresses, dropping junk', async () => {
    const wallet = createFakeEip1193Provider();
    wallet.respond('eth_accounts', [lower, 'not-an-address', 42]);
    await expect(createWalletRequests(wallet).getAccounts()).resolves.toEqual([checksummed]);
    expect(wallet.requests).toEqual([{ method: 'eth_accounts' }]);
  });

  it('behavior: requestAccounts sends eth_requestAccounts once', async () => {
    const wallet = createFakeEip1193Provider({ grantAccounts: [lower] });
    await expect(createWalletRequests(wallet).requestAccounts()).resolves.toEqual([checksummed]);
    expect(wallet.methods()).toEqual(['eth_requestAccounts']);
  });

  it.each([
    ['0x38', 56],
    [56, 56],
    ['56', 56],
  ])('behavior: getChainId reads %j as %i', async (raw, chainId) => {
    const wallet = createFakeEip1193Provider();
    wallet.respond('eth_chainId', raw);
    await expect(createWalletRequests(wallet).getChainId()).resolves.toBe(chainId);
  });

  it('behavior: an unreadable chain id rejects with UnknownWalletError', async () => {
    const wallet = createFakeEip1193Provider();
    wallet.respond('eth_chainId', 'bsc');
    const error: unknown = await createWalletRequests(wallet).getChainId().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnknownWalletError);
    expect((error as Error).message).toMatchInlineSnapshot(`"The wallet sent an unreadable chain id: "bsc""`);
  });

  it('behavior: switchChain sends wallet_switchEthereumChain with the hex chain id', async () => {
    const wallet = createFakeEip1193Provider({ chainId: 1, knownChainIds: [1, 56] });
    await createWalletRequests(wallet).switchChain(56);
    expect(wallet.requests).toEqual([{ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x38' }] }]);
  });

  it('behavior: switchChain rejects with UnrecognizedChainError on 4902', async () => {
    const wallet = createFakeEip1193Provider({ chainId: 1 });
    await expect(createWalletRequests(wallet).switchChain(56)).rejects.toBeInstanceOf(UnrecognizedChainError);
  });

  it('behavior: MetaMask Mobile nested 4902 is sent once (no viem retry of -32603) and maps to UnrecognizedChainError', async () => {
    const wallet = createFakeEip1193Provider();
    wallet.fail('wallet_switchEthereumChain', { code: -32603, message: 'Internal JSON-RPC error.', data: { originalError: { code: 4902 } } });
    await expect(createWalletRequests(wallet).switchChain(56)).rejects.toBeInstanceOf(UnrecognizedChainError);
    expect(wallet.methods()).toEqual(['wallet_switchEthereumChain']);
  });

  it('behavior: addChain sends wallet_addEthereumChain with the params and the hex chain id', async () => {
    const wallet = createFakeEip1193Provider();
    await createWalletRequests(wallet).addChain(56, bsc);
    expect(wallet.requests).toEqual([{ method: 'wallet_addEthereumChain', params: [{ ...bsc, chainId: '0x38' }] }]);
  });

  it('behavior: addChain without params rejects with ChainParamsMissingError and asks nothing', async () => {
    const wallet = createFakeEip1193Provider();
    await expect(createWalletRequests(wallet).addChain(56, null)).rejects.toBeInstanceOf(ChainParamsMissingError);
    expect(wallet.requests).toEqual([]);
  });

  it('behavior: signMessage sends personal_sign with the hex message and the address', async () => {
    const wallet = createFakeEip1193Provider();
    await expect(createWalletRequests(wallet).signMessage({ address: checksummed, message: 'hi' })).resolves.toBe(fakeSignature);
    expect(wallet.requests).toEqual([{ method: 'personal_sign', params: ['0x6869', checksummed] }]);
  });

  it.each([
    ['eth_requestAccounts', 4001, UserRejectedError],
    ['eth_requestAccounts', -32002, RequestPendingError],
    ['personal_sign', 4001, UserRejectedError],
    ['wallet_addEthereumChain', 4001, UserRejectedError],
  ] as const)('behavior: %s answered %i rejects with %o, sent once', async (method, code, errorClass) => {
    const wallet = createFakeEip1193Provider();
    wallet.fail(method, { code, message: 'no' });
    const requests = createWalletRequests(wallet);
    const call = {
      eth_requestAccounts: () => requests.requestAccounts(),
      personal_sign: () => requests.signMessage({ address: checksummed, message: 'hi' }),
      wallet_addEthereumChain: () => requests.addChain(56, bsc),
    }[method];
    await expect(call()).rejects.toBeInstanceOf(errorClass);
    expect(wallet.methods()).toEqual([method]);
  });

  it('behavior: a request the wallet never answers rejects with WalletTimeoutError', async () => {
    vi.useFakeTimers();
    const wallet = createFakeEip1193Provider();
    const release = wallet.hang('eth_requestAccounts');
    const result = createWalletRequests(wallet, { timeoutMs: 30_000 }).requestAccounts().catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(29_999);
    await vi.advanceTimersByTimeAsync(1);
    const error = await result;
    expect(error).toBeInstanceOf(WalletTimeoutError);
    expect((error as Error).message).toMatchInlineSnapshot(`
      "The wallet did not answer in time.

      Details: eth_requestAccounts got no answer within 30000 ms."
    `);
    // A late answer changes nothing and raises nothing.
    release.reject(new Error('late'));
    // Only the timers pending now: the unit project shares its worker with the server suites (isolate: false), and
    // a PGlite left open there re-arms its own timer, which runAllTimers would chase for ever.
    await vi.runOnlyPendingTimersAsync();
  });

  it('behavior: timeoutMs 0 waits for the wallet as long as it takes', async () => {
    vi.useFakeTimers();
    const wallet = createFakeEip1193Provider();
    const release = wallet.hang('eth_requestAccounts');
    let settled = false;
    const result = createWalletRequests(wallet, { timeoutMs: 0 })
      .requestAccounts()
      .finally(() => (settled = true));
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(settled).toBe(false);
    release.resolve([lower]);
    await expect(result).resolves.toEqual([checksummed]);
  });
});
