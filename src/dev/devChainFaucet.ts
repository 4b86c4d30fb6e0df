/**
 * The development chain's faucet for the demo wallet (development only, like src/dev/demoWallet.ts): anvil's own
 * methods give an address gas money and have the account that holds the development token's supply send it some,
 * so a member can top up from a browser without a wallet. The demo wallet reaches the node through the Vite dev
 * server (`/dev-chain`, vite.config.ts), since the page's policy lets it connect to its own origin only.
 */
import { callJsonRpc } from './jsonRpc';
import { decodeFunctionResult, encodeFunctionData, erc20Abi, numberToHex, parseEther, parseUnits, type Address, type Hex } from 'viem';

/** server/chain/devChain.ts's DEV_CHAIN_ID (a test checks they agree; src/ does not import the server). */
export const DEV_CHAIN_ID = 20_261_126;
/** anvil's first development account, which deploys the development token and holds its supply. */
export const DEV_TOKEN_HOLDER: Address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

/**
 * Funds an address on the development chain when it holds none of the token: 10 ETH for gas and 10,000 of the token.
 *
 * @param rpcUrl - the node
 * @param target - the address, the token and its decimals
 * @returns when the token transfer is mined
 * @example
 * await fundFromDevChain('/dev-chain', { address, token, decimals: 18 });
 */
export async function fundFromDevChain(rpcUrl: string, target: { address: Address; token: Address; decimals: number }): Promise<void> {
  const { address, token, decimals } = target;
  const balanceData = encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [address] });
  const held = decodeFunctionResult({ abi: erc20Abi, functionName: 'balanceOf', data: await callJsonRpc<Hex>(rpcUrl, 'eth_call', [{ to: token, data: balanceData }, 'latest']) });
  if (held > 0n) return;
  await callJsonRpc(rpcUrl, 'anvil_setBalance', [address, numberToHex(parseEther('10'))]);
  await callJsonRpc(rpcUrl, 'anvil_impersonateAccount', [DEV_TOKEN_HOLDER]);
  try {
    const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [address, parseUnits('10000', decimals)] });
    const hash = await callJsonRpc<Hex>(rpcUrl, 'eth_sendTransaction', [{ from: DEV_TOKEN_HOLDER, to: token, data }]);
    for (let attempt = 0; attempt < 60; attempt++) {
      if (await callJsonRpc<unknown>(rpcUrl, 'eth_getTransactionReceipt', [hash])) return;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error(`the faucet's transfer ${hash} was not mined`);
  } finally {
    await callJsonRpc(rpcUrl, 'anvil_stopImpersonatingAccount', [DEV_TOKEN_HOLDER]);
  }
}
