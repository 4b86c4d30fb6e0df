/**
 * A real chain for a test: anvil on a free port (server/chain/anvil.ts), the development token deployed to it, a
 * treasury, and the node's own methods to make faults (anvil_mine, anvil_reorg, anvil_dropTransaction,
 * evm_setAutomine). Members send real signed transactions from their test wallets.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  createTestClient,
  createWalletClient,
  defineChain,
  erc20Abi,
  http,
  parseUnits,
  publicActions,
  type Address,
  type Hex,
  type PrivateKeyAccount,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { startAnvil, type AnvilNode } from '../../../server/chain/anvil';
import { chainClient, connectChain, type Chain } from '../../../server/chain/chain';
import { deployDevToken } from '../../../server/chain/devToken';
import { callJsonRpc } from '../../../src/dev/jsonRpc';

/** The tests' chain id: no public chain's. */
export const TEST_NODE_CHAIN_ID = 31_337_056;
/** anvil's first development account (its well-known key, funded by anvil itself; never use it anywhere real). */
const DEPLOYER = privateKeyToAccount('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80');

export interface TestChain {
  /** The node now (restart() replaces it). */
  node: AnvilNode;
  chain: Chain;
  token: Address;
  treasury: Address;
  decimals: number;
  deployBlock: bigint;
  /** Sets a wallet's gas money and sends it `amount` tokens (a decimal string) of the token (or `contract`) from the deployer. */
  fund(account: Address, amount: string, contract?: Address): Promise<void>;
  /**
   * A member's top-up: `amount` tokens from `account` to the treasury (or `to`), sent and mined; its hash. With `gas`
   * the wallet skips estimation, so a transfer the token refuses is mined as reverted.
   */
  transfer(account: PrivateKeyAccount, amount: string, options?: { to?: Address; token?: Address; wait?: boolean; gas?: bigint }): Promise<Hex>;
  /** Deploys another token of the same code (a contract that is not the app's token). */
  deployOther(): Promise<Address>;
  mine(blocks: number): Promise<void>;
  /**
   * Sends a signed transaction again (one a reorganisation dropped) and waits until the node mined it: anvil mines
   * it in its own block after answering, so a `mine` sent at once could come first and leave it on top, undeep.
   */
  resend(raw: unknown): Promise<Hex>;
  head(): Promise<bigint>;
  rpc(method: string, params: unknown[]): Promise<unknown>;
  /** Starts the node again on its port from the state it wrote when it stopped (startTestChain's `persist`). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts a node and deploys the token.
 *
 * @param options - the token's decimals (6 unless said), the confirmations the watcher waits for, the chain id
 *   (TEST_NODE_CHAIN_ID unless said) and a block time in seconds (none: a block per transaction)
 * @returns the test chain
 * @example
 * const testChain = await startTestChain({ decimals: 18, confirmations: 3 });
 */
export async function startTestChain(options: { decimals?: number; confirmations?: number; persist?: boolean; chainId?: number; blockTime?: number } = {}): Promise<TestChain> {
  const decimals = options.decimals ?? 6;
  const chainId = options.chainId ?? TEST_NODE_CHAIN_ID;
  const stateFile = options.persist ? path.join(await mkdtemp(path.join(tmpdir(), 'md-anvil-')), 'state.json') : undefined;
  const anvilOptions = { chainId, stateFile, ...(options.blockTime === undefined ? {} : { blockTime: options.blockTime }) };
  let node = await startAnvil(anvilOptions);
  const viemChain = defineChain({ id: chainId, name: 'test', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [node.url] } } });
  const client = chainClient([node.url]);
  const walletOf = (account: PrivateKeyAccount) => createWalletClient({ account, chain: viemChain, transport: http(node.url) }).extend(publicActions);
  const deployer = walletOf(DEPLOYER);
  const testClient = createTestClient({ mode: 'anvil', chain: viemChain, transport: http(node.url) });
  const deploy = () => deployDevToken(deployer, client, { name: 'Test USD', symbol: 'tUSD', decimals, holder: DEPLOYER.address, supply: parseUnits('1000000000', decimals) });
  const { address: token, blockNumber: deployBlock } = await deploy();
  const treasury = privateKeyToAccount(generatePrivateKey()).address;
  const chain = await connectChain({ rpcUrls: [node.url], token, treasury, confirmations: options.confirmations ?? 3, chainId });

  const rpc = (method: string, params: unknown[]) => callJsonRpc(node.url, method, params);

  return {
    get node() {
      return node;
    },
    chain,
    token,
    treasury,
    decimals,
    deployBlock,
    fund: async (account, amount, contract = token) => {
      await testClient.setBalance({ address: account, value: parseUnits('10', 18) });
      const hash = await deployer.writeContract({ address: contract, abi: erc20Abi, functionName: 'transfer', args: [account, parseUnits(amount, decimals)] });
      await client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    },
    transfer: async (account, amount, { to = treasury, token: contract = token, wait = true, gas } = {}) => {
      const wallet = walletOf(account);
      const hash = await wallet.writeContract({ address: contract, abi: erc20Abi, functionName: 'transfer', args: [to, parseUnits(amount, decimals)], ...(gas ? { gas } : {}) });
      if (wait) await client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
      return hash;
    },
    deployOther: async () => (await deploy()).address,
    mine: async (blocks) => {
      await testClient.mine({ blocks });
    },
    resend: async (raw) => {
      const hash = (await rpc('eth_sendRawTransaction', [raw])) as Hex;
      await client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
      return hash;
    },
    head: () => client.getBlockNumber({ cacheTime: 0 }),
    rpc,
    restart: async () => {
      if (node.process.exitCode === null && node.process.signalCode === null) await node.stop();
      node = await startAnvil({ ...anvilOptions, port: node.port });
    },
    stop: async () => {
      await node.stop();
      if (stateFile) await rm(path.dirname(stateFile), { recursive: true, force: true });
    },
  };
}

/** A file's one chain, handed to each test as it was when first handed out (sharedTestChain). */
export interface SharedTestChain {
  /** The chain at its first state: started on the first call, put back on each later one. */
  next(): Promise<TestChain>;
  stop(): Promise<void>;
}

/**
 * One node for a file's tests instead of one each: the first `next()` starts it and deploys the token
 * (startTestChain); each later one puts it back to that state with the node's own snapshot (evm_snapshot, then
 * evm_revert: blocks, balances, code), drops what waits in its pool, and sets what a revert leaves as the last test
 * left it: automine on, the next block's base fee as after the deployment. About 25 ms a test where a node's start
 * and the deployment took 1-1.5 s of a busy two-core host.
 *
 * @param options - as startTestChain's (no `persist`: a restarted node has no snapshots)
 * @returns next() and stop()
 * @example
 * const shared = sharedTestChain({ confirmations: 3 });
 * afterAll(() => shared.stop());
 * const testChain = await shared.next();
 */
export function sharedTestChain(options: { decimals?: number; confirmations?: number } = {}): SharedTestChain {
  let started: Promise<{ testChain: TestChain; baseFee: unknown }> | undefined;
  let snapshot: unknown;
  return {
    next: async () => {
      started ??= (async () => {
        const testChain = await startTestChain(options);
        const { baseFeePerGas } = (await testChain.rpc('eth_feeHistory', ['0x1', 'latest', []])) as { baseFeePerGas: string[] };
        return { testChain, baseFee: baseFeePerGas.at(-1) };
      })();
      const { testChain, baseFee } = await started;
      if (snapshot !== undefined) {
        await testChain.rpc('anvil_dropAllTransactions', []);
        // A snapshot is taken back once: a new one is taken below.
        if ((await testChain.rpc('evm_revert', [snapshot])) !== true) throw new Error('the test chain could not go back to its snapshot');
        await testChain.rpc('evm_setAutomine', [true]);
        await testChain.rpc('anvil_setNextBlockBaseFeePerGas', [baseFee]);
      }
      snapshot = await testChain.rpc('evm_snapshot', []);
      return testChain;
    },
    stop: async () => {
      const stopping = started;
      started = undefined;
      snapshot = undefined;
      if (stopping) await (await stopping).testChain.stop();
    },
  };
}
