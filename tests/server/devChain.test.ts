/**
 * The development chain `npm start` runs (server/chain/devChain.ts), on a real anvil: a fresh DATA_DIR deploys the
 * token and funds the demo members; a restart keeps the chain (its state file) and the deployment; a chain whose
 * state is gone while DATA_DIR says a token was deployed is refused, never silently replaced.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { erc20Abi, formatUnits } from 'viem';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../../server/chain/anvil';
import { chainClient } from '../../server/chain/chain';
import { DEV_CHAIN_ID, DEV_TOKEN, startDevChain, type DevChain } from '../../server/chain/devChain';
import { accounts } from './support/memberSignIn';

describe('the development chain', { timeout: 60_000 }, () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  async function start(dataDir: string, port: number): Promise<DevChain> {
    // Four blocks a second (as the server suites run it, DEV_CHAIN_BLOCK_TIME): the deployment's receipt in a quarter of the wait.
    const dev = await startDevChain({ dataDir, port, blockTime: 0.25, fund: [accounts.alice.address] });
    cleanup.push(() => dev.node.stop());
    return dev;
  }

  it('deploys and funds once, survives a restart from its state file, and refuses a chain that lost its token', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'md-devchain-'));
    cleanup.push(() => rm(dataDir, { recursive: true, force: true }));
    const port = await freePort();
    const first = await start(dataDir, port);
    expect(first.deployed).toBe(true);
    const client = chainClient([first.node.url]);
    expect(await client.getChainId()).toBe(DEV_CHAIN_ID);
    const balance = await client.readContract({ address: first.settings.token, abi: erc20Abi, functionName: 'balanceOf', args: [accounts.alice.address] });
    expect(formatUnits(balance, DEV_TOKEN.decimals)).toBe('10000');
    expect(await client.getBalance({ address: accounts.alice.address })).toBeGreaterThan(0n);
    const block = await client.getBlock({ blockNumber: first.startBlock });
    await first.node.stop();

    const second = await start(dataDir, port);
    expect({ deployed: second.deployed, token: second.settings.token, startBlock: second.startBlock }).toEqual({ deployed: false, token: first.settings.token, startBlock: first.startBlock });
    // The same chain: the token's block has the hash it had.
    expect((await chainClient([second.node.url]).getBlock({ blockNumber: first.startBlock })).hash).toBe(block.hash);
    await second.node.stop();

    await rm(path.join(dataDir, 'chain', 'state.json'));
    await expect(start(dataDir, port)).rejects.toThrow(/no longer has the token/);
  });
});
