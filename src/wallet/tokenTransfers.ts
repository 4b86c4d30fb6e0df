/**
 * The wallet side of a top-up (machines/credit/topUpMachine.ts): the member's token balance, the transfer to the
 * treasury as an eth_sendTransaction the wallet signs, and a replacement the member made in the wallet (sped up or
 * cancelled), found as viem's waitForTransactionReceipt finds it. Loaded with the top-up sheet, never with sign-in:
 * a bare viem client, like src/wallet/walletRequests.ts. The balance and the transfer are plain eth_call and
 * eth_sendTransaction requests with viem's ABI encoding: viem's readContract and sendTransaction would add their
 * preparation (gas, fees, nonce, chain checks: about 5 KiB gzip) for what the wallet does itself.
 */
import { createClient, custom, decodeFunctionResult, encodeFunctionData, erc20Abi, formatUnits, parseUnits, type Address, type Hex } from 'viem';
import { waitForTransactionReceipt } from 'viem/actions';
import type { TopUpCheck } from '../../machines/credit/topUpMachine';
import { ProviderNotFoundError, toWalletError, UnauthorizedError, WrongChainError } from './errors';

export { ProviderNotFoundError };
import type { Eip1193Provider } from './types';
import { parseChainId } from '../../machines/shared/chainId';

/** The ledger keeps 6 decimals; a balance shows what the ledger could credit of it. */
const LEDGER_DECIMALS = 6;

export interface TokenTransferParameters {
  token: Address;
  treasury: Address;
  decimals: number;
  /** The app's chain: a transfer asked for on another one is refused before the wallet sees it. */
  chainId: number;
  account: Address;
}

export interface TokenTransfers {
  /** The account's token balance, rounded down to 6 decimals, as a decimal string. */
  readBalance(): Promise<string>;
  /** Sends `amount` (a decimal string) of the token to the treasury; the transaction hash. */
  sendTransfer(amount: string): Promise<Hex>;
  /** A replacement of the transaction the wallet made, if one is seen within a short look. */
  findReplacement(txHash: Hex): Promise<TopUpCheck['replacement']>;
}

/**
 * The token transfers of one account through its wallet.
 *
 * @param provider - the wallet's EIP-1193 provider
 * @param parameters - token, treasury, decimals, chain, account
 * @returns readBalance, sendTransfer, findReplacement
 * @example
 * const transfers = createTokenTransfers(provider, { token, treasury, decimals: 18, chainId: 56, account });
 * const hash = await transfers.sendTransfer('25.5');
 */
export function createTokenTransfers(provider: Eip1193Provider, parameters: TokenTransferParameters): TokenTransfers {
  const { token, treasury, decimals, chainId, account } = parameters;
  // No retries: a transaction prompt is never sent twice.
  const client = createClient({ transport: custom(provider, { retryCount: 0 }) });
  const watches = new Map<Hex, { replacement: TopUpCheck['replacement'] }>();
  const mapped = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      const mapped = toWalletError(error);
      throw mapped.code === UnauthorizedError.code ? new UnauthorizedError({ details: mapped.details ?? mapped.message, cause: error }) : mapped;
    }
  };
  return {
    readBalance: () =>
      mapped(async () => {
        const data = encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [account] });
        const answer = await client.request({ method: 'eth_call', params: [{ to: token, data }, 'latest'] });
        const raw = decodeFunctionResult({ abi: erc20Abi, functionName: 'balanceOf', data: answer });
        return formatUnits(raw / 10n ** BigInt(decimals - LEDGER_DECIMALS), LEDGER_DECIMALS);
      }),
    sendTransfer: (amount) =>
      mapped(async () => {
        const walletChain = parseChainId(await client.request({ method: 'eth_chainId' }));
        if (walletChain !== chainId) throw new WrongChainError({ details: `wallet on ${String(walletChain)}, app on ${chainId}` });
        const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [treasury, parseUnits(amount, decimals)] });
        return client.request({ method: 'eth_sendTransaction', params: [{ from: account, to: token, data }] });
      }),
    findReplacement: async (txHash) => {
      // One watch per transaction, kept for the sheet's life: viem needs the transaction as it was while pending (its
      // nonce) to recognise another one of the same nonce, so the watch starts at the first look and goes on.
      let watch = watches.get(txHash);
      if (!watch) {
        const entry: { replacement: TopUpCheck['replacement'] } = { replacement: undefined };
        watches.set(txHash, entry);
        void waitForTransactionReceipt(client, {
          hash: txHash,
          pollingInterval: 1_000,
          timeout: 10 * 60_000,
          onReplaced: (replaced) => {
            entry.replacement = { reason: replaced.reason === 'cancelled' ? 'cancelled' : 'repriced', hash: replaced.transaction.hash };
          },
        }).catch(() => {
          // Not mined within ten minutes, or the wallet cannot say: no replacement seen.
        });
        watch = entry;
      }
      return watch.replacement;
    },
  };
}
