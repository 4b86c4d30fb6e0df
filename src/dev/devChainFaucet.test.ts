/**
 * The demo wallet on a real node (anvil, tests/server/support/testChain.ts): it adds the development chain (an http RPC
 * on this machine, as MetaMask allows), funds itself once through the faucet before its first read there, and sends
 * a token transfer it signed itself. The faucet's chain id is the server's.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { decodeFunctionResult, encodeFunctionData, erc20Abi, parseUnits, toHex, type Hex } from 'viem';
import { DEV_CHAIN_ID as SERVER_DEV_CHAIN_ID } from '../../server/chain/devChain';
import { startTestChain, TEST_NODE_CHAIN_ID, type TestChain } from '../../tests/server/support/testChain';
import { createMemoryStorage } from '../../tests/support/memoryStorage';
import { createDemoWalletProvider } from './demoWallet';
import { DEV_CHAIN_ID, DEV_TOKEN_HOLDER, fundFromDevChain } from './devChainFaucet';

describe('the demo wallet on the development chain', { timeout: 60_000 }, () => {
  let testChain: TestChain | undefined;
  afterEach(async () => {
    await testChain?.stop();
  });

  it('behavior: the faucet names the server’s development chain and the account that holds the token', () => {
    expect(DEV_CHAIN_ID).toBe(SERVER_DEV_CHAIN_ID);
    expect(DEV_TOKEN_HOLDER).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
  });

  it('behavior: adds the chain, is funded once before its first read, and sends a transfer it signed', async () => {
    testChain = await startTestChain();
    const node = testChain.node.url;
    const token = testChain.token;
    let fundings = 0;
    const { provider, address } = createDemoWalletProvider(createMemoryStorage(), {
      rpcUrl: node,
      devChainId: TEST_NODE_CHAIN_ID,
      fund: async (account) => {
        fundings += 1;
        await fundFromDevChain(node, { address: account, token, decimals: testChain?.decimals ?? 6 });
      },
    });
    await provider.request({ method: 'eth_requestAccounts' });
    await provider.request({
      method: 'wallet_addEthereumChain',
      params: [{ chainId: toHex(TEST_NODE_CHAIN_ID), chainName: 'Test', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: [node] }],
    });
    const balanceOf = async () =>
      decodeFunctionResult({
        abi: erc20Abi,
        functionName: 'balanceOf',
        data: (await provider.request({ method: 'eth_call', params: [{ to: token, data: encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [address] }) }, 'latest'] })) as Hex,
      });
    expect(await balanceOf()).toBe(parseUnits('10000', 6));
    const hash = (await provider.request({
      method: 'eth_sendTransaction',
      params: [{ from: address, to: token, data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [testChain.treasury, parseUnits('25', 6)] }) }],
    })) as Hex;
    const receipt = await testChain.chain.client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    expect(receipt.status).toBe('success');
    expect(receipt.from.toLowerCase()).toBe(address.toLowerCase());
    expect(await balanceOf()).toBe(parseUnits('9975', 6));
    expect(fundings).toBe(1);
  });
});
