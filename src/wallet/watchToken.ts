/**
 * Asks the member's wallet to list the app's token (EIP-747 wallet_watchAsset, viem's watchAsset), for
 * machines/wallet/watchAssetMachine.ts. Loaded when the member taps "add to wallet", never with a screen: a bare
 * viem client over the connected wallet, as src/wallet/tokenTransfers.ts. A wallet's refusal comes back as the
 * app's wallet errors (4001 UserRejectedError; 4200 and -32601 UnsupportedMethodError).
 */
import { createClient, custom, type Address } from 'viem';
import { watchAsset } from 'viem/actions';
import { ProviderNotFoundError, toWalletError } from './errors';
import type { Eip1193Provider } from './types';

export interface WatchedToken {
  address: Address;
  /** The ticker the wallet shows (EIP-747: up to 11 characters). */
  symbol: string;
  decimals: number;
}

/**
 * Asks the wallet to list the token.
 *
 * @param provider - the connected wallet's EIP-1193 provider; undefined when none is connected
 * @param token - the token of app config
 * @returns the wallet's answer: true once it lists the token
 * @example
 * const listed = await watchToken(walletProvider(), { address: token.address, symbol: 'USDT', decimals: 18 });
 */
export async function watchToken(provider: Eip1193Provider | undefined, token: WatchedToken): Promise<boolean> {
  if (!provider) throw new ProviderNotFoundError();
  // No retries: a prompt is never shown twice for one tap.
  const client = createClient({ transport: custom(provider, { retryCount: 0 }) });
  try {
    return await watchAsset(client, { type: 'ERC20', options: { address: token.address, symbol: token.symbol, decimals: token.decimals } });
  } catch (error) {
    throw toWalletError(error);
  }
}
