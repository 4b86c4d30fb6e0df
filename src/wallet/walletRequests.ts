import { createClient, custom } from 'viem';
import type { Address, Hex } from 'viem';
import { signMessage, switchChain } from 'viem/actions';
import { parseChainId, toHexChainId } from '../../machines/shared/chainId';
import type { ChainParams } from '../../api-schema/dapp';
import { normalizeAccounts } from './accounts';
import { ChainParamsMissingError, UnknownWalletError, WalletTimeoutError, toWalletError } from './errors';
import type {
  RequestPendingError,
  UnrecognizedChainError,
  UserRejectedError,
  WalletDisconnectedError,
} from './errors';
import type { Eip1193Provider } from './types';

export interface CreateWalletRequestsParameters {
  /** How long to wait for each answer; 0 waits for ever. Default 60 s: long enough to find and confirm a prompt. */
  timeoutMs?: number | undefined;
}

export interface SignMessageParameters {
  address: Address;
  message: string;
}

/** Errors of requests that never prompt the member. */
export type ReadWalletErrorType = WalletTimeoutError | WalletDisconnectedError | UnknownWalletError;
/** Errors of requests that show the member a prompt. */
export type PromptWalletErrorType = UserRejectedError | RequestPendingError | ReadWalletErrorType;
export type GetAccountsErrorType = ReadWalletErrorType;
export type RequestAccountsErrorType = PromptWalletErrorType;
export type GetChainIdErrorType = ReadWalletErrorType;
export type SwitchChainErrorType = PromptWalletErrorType | UnrecognizedChainError;
export type AddChainErrorType = PromptWalletErrorType | ChainParamsMissingError;
export type SignMessageErrorType = PromptWalletErrorType;

export interface WalletRequests {
  /** eth_accounts: the accounts the site may already see (no prompt). */
  getAccounts(): Promise<Address[]>;
  /** eth_requestAccounts: asks the member to connect. */
  requestAccounts(): Promise<Address[]>;
  /** eth_chainId, parsed (hex, number or decimal string). */
  getChainId(): Promise<number>;
  /** wallet_switchEthereumChain with { chainId: hex }. */
  switchChain(chainId: number): Promise<void>;
  /** wallet_addEthereumChain with { ...params, chainId: hex }; ChainParamsMissingError when params are missing. */
  addChain(chainId: number, params: ChainParams | null | undefined): Promise<void>;
  /** personal_sign of a text message by the given account. */
  signMessage(parameters: SignMessageParameters): Promise<Hex>;
}

export type CreateWalletRequestsReturnType = WalletRequests;

/**
 * Wraps an EIP-1193 provider in the wallet requests the app makes (spec section 7), through a bare viem client
 * (`createClient` with a `custom` transport and no retries, so a wallet prompt is never sent twice) and only the
 * viem actions it calls, imported one by one from 'viem/actions': `createWalletClient` would bring every wallet
 * action (contracts, transactions, typed data, ...) into the wallet chunk, about 35 KiB gzip the app never runs.
 * eth_accounts, eth_requestAccounts, eth_chainId and wallet_addEthereumChain go through `client.request`, as
 * viem's getAddresses, requestAddresses, getChainId and addChain would throw on the loose answers of wallets in
 * the wild (normalizeAccounts, parseChainId) or want a viem Chain instead of the config's EIP-3085 parameters.
 * Each request rejects with a WalletError (toWalletError) and gives up with WalletTimeoutError after `timeoutMs`.
 *
 * @param provider - The wallet's EIP-1193 provider.
 * @param parameters - The timeout per request (0 disables it).
 * @returns The wallet requests.
 * @example
 * const wallet = createWalletRequests(window.ethereum, { timeoutMs: 60_000 });
 * await wallet.switchChain(56); // wallet_switchEthereumChain [{ chainId: '0x38' }]
 */
export function createWalletRequests(
  provider: Eip1193Provider,
  { timeoutMs = 60_000 }: CreateWalletRequestsParameters = {},
): CreateWalletRequestsReturnType {
  const client = createClient({ transport: custom(provider, { retryCount: 0 }) });
  const run = <T>(method: string, request: () => Promise<T>) => withTimeout(method, timeoutMs, request);

  return {
    getAccounts: () => run('eth_accounts', async () => normalizeAccounts(await client.request({ method: 'eth_accounts' }))),
    requestAccounts: () =>
      run('eth_requestAccounts', async () => normalizeAccounts(await client.request({ method: 'eth_requestAccounts' }))),
    getChainId: () =>
      run('eth_chainId', async () => {
        const raw: unknown = await client.request({ method: 'eth_chainId' });
        const chainId = parseChainId(raw);
        if (chainId === undefined) throw new UnknownWalletError({ message: `The wallet sent an unreadable chain id: ${JSON.stringify(raw)}` });
        return chainId;
      }),
    switchChain: (chainId) =>
      run('wallet_switchEthereumChain', async () => {
        await switchChain(client, { id: chainId });
      }),
    addChain: (chainId, params) => {
      if (!params) return Promise.reject(new ChainParamsMissingError({ chainId }));
      return run('wallet_addEthereumChain', async () => {
        await client.request({ method: 'wallet_addEthereumChain', params: [{ ...params, chainId: toHexChainId(chainId) }] });
      });
    },
    signMessage: ({ address, message }) => run('personal_sign', () => signMessage(client, { account: address, message })),
  };
}

/** Runs one request, maps its failure, and stops waiting after `timeoutMs` (a late answer is ignored). */
function withTimeout<T>(method: string, timeoutMs: number, request: () => Promise<T>): Promise<T> {
  const answer = (async () => request())().catch((error: unknown) => {
    throw toWalletError(error);
  });
  if (timeoutMs <= 0) return answer;
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new WalletTimeoutError({ method, timeoutMs })), timeoutMs);
    answer.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
