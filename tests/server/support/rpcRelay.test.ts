/**
 * The test relay itself (tests/server/support/rpcRelay.ts): what the chain suites rely on it to answer, checked against
 * a real node, so a fault test that passes does so because the server handled the fault, not because the relay let
 * the honest answer through.
 */
import { createPublicClient, http, parseAbiItem } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestChain, type TestChain } from './testChain';
import { relayedChain, RelayError, startRpcRelay, type RpcRelay } from './rpcRelay';

const transferEvent = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');

describe('the JSON-RPC relay in front of anvil', () => {
  let testChain: TestChain;
  let relay: RpcRelay;
  beforeAll(async () => {
    testChain = await startTestChain();
    relay = await startRpcRelay(testChain.node.url);
  });
  afterAll(async () => {
    await relay.stop();
    await testChain.stop();
  });

  it('lags: a stale head, and no receipt, block, nonce or log past it', async () => {
    relay.reset();
    const client = relayedChain(testChain.chain, [relay]).client;
    const sender = privateKeyToAccount(generatePrivateKey());
    await testChain.fund(sender.address, '5');
    const hash = await testChain.transfer(sender, '1');
    const receipt = await testChain.chain.client.getTransactionReceipt({ hash });
    await testChain.mine(1);
    const head = await testChain.head();
    relay.lag(2);
    expect(await client.getBlockNumber({ cacheTime: 0 })).toBe(head - 2n);
    await expect(client.getTransactionReceipt({ hash })).rejects.toThrow(/could not be found/);
    expect(await client.getTransactionCount({ address: sender.address, blockTag: 'pending' })).toBe(0);
    await expect(client.getBlock({ blockNumber: head })).rejects.toThrow(/could not be found/);
    const logs = () => client.getLogs({ address: testChain.token, event: transferEvent, args: { to: testChain.treasury }, fromBlock: 0n, toBlock: head });
    expect(await logs()).toEqual([]);
    relay.lag(2, { logs: 'error' });
    await expect(logs()).rejects.toThrow();
    relay.lag(0);
    expect((await logs()).map((log) => log.transactionHash)).toEqual([hash]);
    expect((await client.getTransactionReceipt({ hash })).blockHash).toBe(receipt.blockHash);
  });

  it('answers by rule, counts calls, and goes down with 503', async () => {
    relay.reset();
    const client = relayedChain(testChain.chain, [relay]).client;
    // For the errors: one request each (the server's client retries them for about 2 s; the relay is the subject here).
    const once = createPublicClient({ transport: http(relay.url, { retryCount: 0 }) });
    relay.on('eth_getTransactionReceipt', () => null);
    relay.on('eth_chainId', () => {
      throw new RelayError(-32005, 'limit exceeded');
    });
    const sender = privateKeyToAccount(generatePrivateKey());
    await testChain.fund(sender.address, '5');
    const hash = await testChain.transfer(sender, '1');
    await expect(client.getTransactionReceipt({ hash })).rejects.toThrow(/could not be found/);
    await expect(once.getChainId()).rejects.toThrow(/limit exceeded/);
    expect(relay.count('eth_chainId')).toBe(1);
    expect(relay.count('eth_getTransactionReceipt')).toBeGreaterThanOrEqual(1);
    relay.on('eth_getTransactionReceipt', null);
    expect((await client.getTransactionReceipt({ hash })).transactionHash).toBe(hash);
    relay.down(true);
    await expect(once.getBlockNumber({ cacheTime: 0 })).rejects.toThrow(/Status: 503/);
    relay.down(false);
    expect(await client.getBlockNumber({ cacheTime: 0 })).toBe(await testChain.head());
  });

  it('two relays under fallback: the second answers when the first is down', async () => {
    relay.reset();
    const second = await startRpcRelay(testChain.node.url);
    try {
      relay.down(true);
      const client = relayedChain(testChain.chain, [relay, second]).client;
      expect(await client.getBlockNumber({ cacheTime: 0 })).toBe(await testChain.head());
      expect(second.count('eth_blockNumber')).toBe(1);
    } finally {
      await second.stop();
    }
  });
});
