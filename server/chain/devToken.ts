/**
 * The development token (contracts/DevToken.sol, compiled into artifacts/DevToken.json by `npm run contracts`):
 * deployed to the development chain by `npm start` and to each test's node by the tests.
 */
import type { Abi, Account, Address, Chain as ViemChain, Hex, PublicClient, Transport, WalletClient } from 'viem';
import artifact from './artifacts/DevToken.json' with { type: 'json' };

export const devTokenAbi = artifact.abi as Abi;
export const devTokenBytecode = artifact.bytecode as Hex;

export interface DevTokenParams {
  name: string;
  symbol: string;
  decimals: number;
  /** Who receives the whole supply. */
  holder: Address;
  /** In the token's own units. */
  supply: bigint;
}

/**
 * Deploys a development token and waits for its receipt.
 *
 * @param wallet - the deployer's wallet client (a local account)
 * @param client - a public client of the same chain
 * @param params - name, symbol, decimals, holder, supply
 * @returns the token's address and the block it was deployed in
 * @example
 * const { address } = await deployDevToken(wallet, client, { name: 'Dev USD', symbol: 'dUSD', decimals: 18, holder, supply });
 */
export async function deployDevToken(
  wallet: WalletClient<Transport, ViemChain | undefined, Account>,
  client: PublicClient,
  params: DevTokenParams,
): Promise<{ address: Address; blockNumber: bigint }> {
  const hash = await wallet.deployContract({
    abi: devTokenAbi,
    bytecode: devTokenBytecode,
    args: [params.name, params.symbol, params.decimals, params.holder, params.supply],
    chain: wallet.chain ?? null,
    account: wallet.account,
  });
  const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  if (receipt.status !== 'success' || !receipt.contractAddress) throw new Error(`deploying ${params.symbol} failed (${hash})`);
  return { address: receipt.contractAddress, blockNumber: receipt.blockNumber };
}
