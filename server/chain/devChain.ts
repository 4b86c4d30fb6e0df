/**
 * The development chain `npm start` runs when asked (server/env.ts developmentChainAsked; docs/API.md, "Credit on
 * chain"): anvil on 127.0.0.1 with a chain id of its own, its state in DATA_DIR/chain (written every second and at
 * exit, so it survives a restart as the database does), the development token deployed once, the treasury, and the
 * seeded demo members funded. What was deployed is kept in DATA_DIR/chain/deployment.json.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createTestClient, createWalletClient, defineChain, erc20Abi, http, parseEther, parseUnits, type Address } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { z } from 'zod';
import { startAnvil, type AnvilNode } from './anvil';
import { chainClient, type ChainSettings } from './chain';
import { deployDevToken } from './devToken';

/** The development chain's id: no public chain's, so a member's real wallet never mistakes it for one. */
export const DEV_CHAIN_ID = 20_261_126;
/** Blocks on top before a top-up counts on the development chain (a block a second). */
export const DEV_CONFIRMATIONS = 2;
export const DEV_TOKEN = { name: 'Member DApp Dev USD', symbol: 'dUSD', decimals: 18 } as const;

/**
 * anvil's first three development accounts (anvil's well-known keys, on every developer's machine: never for
 * anything real). The first deploys the token and holds its supply; the second is the treasury; the third is the hot
 * wallet that pays withdrawals (PAYER_KEY's default here), funded by the deployer: a transfer to the treasury would
 * be a top-up.
 */
export const DEV_DEPLOYER_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
export const DEV_TREASURY_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
export const DEV_PAYER_KEY = '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a';
/** What the development hot wallet is given to pay with (the demo members' seeded credit is paid from it). */
const DEV_PAYER_TOKENS = '1000000';

const deploymentSchema = z.object({ chainId: z.number(), token: z.string(), deployBlock: z.string() });

export interface DevChain {
  /** The node (one this start spawned, or one an earlier run left answering: then stop() leaves it be). */
  node: Pick<AnvilNode, 'url' | 'stop'>;
  settings: ChainSettings;
  startBlock: bigint;
  /** Whether this start deployed the token (a fresh chain). */
  deployed: boolean;
}

/** The deployer sends the development hot wallet DEV_PAYER_TOKENS. */
async function fundPayer(url: string, token: Address): Promise<void> {
  const viemChain = defineChain({ id: DEV_CHAIN_ID, name: 'Member DApp dev chain', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [url] } } });
  const deployer = createWalletClient({ account: privateKeyToAccount(DEV_DEPLOYER_KEY), chain: viemChain, transport: http(url) });
  const hash = await deployer.writeContract({ address: token, abi: erc20Abi, functionName: 'transfer', args: [privateKeyToAccount(DEV_PAYER_KEY).address, parseUnits(DEV_PAYER_TOKENS, DEV_TOKEN.decimals)] });
  await chainClient([url]).waitForTransactionReceipt({ hash, pollingInterval: 200 });
}

/**
 * A development chain left answering by an earlier run (its parent killed): used again rather than started twice.
 * One request, no retries: a free port refuses at once, and chainClient's retries (its own and fallback's) would
 * wait about 2 s before every start that finds nothing there.
 */
async function answeringChainId(url: string): Promise<number | undefined> {
  try {
    return await chainClient([url], { retries: false }).getChainId();
  } catch {
    return undefined;
  }
}

/**
 * Starts (or finds) the development chain and deploys the token on a fresh one.
 *
 * @param options - DATA_DIR, the port, and the addresses to fund (the seeded demo members)
 * @returns the node, the chain settings for connectChain, the first block of top-ups
 * @throws Error when the chain's state is gone while DATA_DIR says a token was deployed
 * @example
 * const dev = await startDevChain({ dataDir: './data', port: 8545, fund: [address] });
 */
export async function startDevChain(options: { dataDir: string; port: number; blockTime?: number; fund: readonly Address[] }): Promise<DevChain> {
  const folder = path.join(options.dataDir, 'chain');
  await mkdir(folder, { recursive: true });
  const stateFile = path.join(folder, 'state.json');
  const deploymentFile = path.join(folder, 'deployment.json');
  const url = `http://127.0.0.1:${options.port}`;
  const running = await answeringChainId(url);
  if (running !== undefined && running !== DEV_CHAIN_ID) throw new Error(`port ${options.port} answers as chain ${running}, not the development chain: set DEV_CHAIN_PORT`);
  const node: DevChain['node'] =
    running === DEV_CHAIN_ID
      ? { url, stop: async () => undefined }
      : await startAnvil({ chainId: DEV_CHAIN_ID, port: options.port, blockTime: options.blockTime ?? 1, stateFile, stateInterval: 1 });
  const client = chainClient([node.url]);
  const treasury = privateKeyToAccount(DEV_TREASURY_KEY).address;
  const kept = existsSync(deploymentFile) ? deploymentSchema.parse(JSON.parse(await readFile(deploymentFile, 'utf8'))) : undefined;
  if (kept) {
    const code = await client.getCode({ address: kept.token as Address });
    if (!code || code === '0x') {
      await node.stop();
      throw new Error(`the development chain in ${folder} no longer has the token ${kept.token} its database credited top-ups from: remove ${options.dataDir} to start both afresh`);
    }
    const settings = { rpcUrls: [node.url], token: kept.token as Address, treasury, confirmations: DEV_CONFIRMATIONS, chainId: DEV_CHAIN_ID };
    // A chain deployed before the payer existed: its hot wallet is funded once.
    const payer = privateKeyToAccount(DEV_PAYER_KEY).address;
    if ((await client.readContract({ address: kept.token as Address, abi: erc20Abi, functionName: 'balanceOf', args: [payer] })) === 0n) {
      await fundPayer(node.url, kept.token as Address);
    }
    return { node, settings, startBlock: BigInt(kept.deployBlock), deployed: false };
  }

  const viemChain = defineChain({ id: DEV_CHAIN_ID, name: 'Member DApp dev chain', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [node.url] } } });
  const deployer = createWalletClient({ account: privateKeyToAccount(DEV_DEPLOYER_KEY), chain: viemChain, transport: http(node.url) });
  const supply = parseUnits('1000000000', DEV_TOKEN.decimals);
  const { address: token, blockNumber } = await deployDevToken(deployer, client, { ...DEV_TOKEN, holder: deployer.account.address, supply });
  // Each demo member gets gas money and 10,000 dUSD to top up with, and the hot wallet its tokens: all sent with
  // their nonces at once and mined in one block now (one receipt wait, not one a block each: 40 s less).
  let nonce = await client.getTransactionCount({ address: deployer.account.address, blockTag: 'pending' });
  for (const address of options.fund) {
    await deployer.sendTransaction({ to: address, value: parseEther('1'), nonce: nonce++ });
    await deployer.writeContract({ address: token, abi: erc20Abi, functionName: 'transfer', args: [address, parseUnits('10000', DEV_TOKEN.decimals)], nonce: nonce++ });
  }
  const last = await deployer.writeContract({ address: token, abi: erc20Abi, functionName: 'transfer', args: [privateKeyToAccount(DEV_PAYER_KEY).address, parseUnits(DEV_PAYER_TOKENS, DEV_TOKEN.decimals)], nonce });
  await createTestClient({ mode: 'anvil', chain: viemChain, transport: http(node.url) }).mine({ blocks: 1 });
  await client.waitForTransactionReceipt({ hash: last, pollingInterval: 100 });
  await writeFile(deploymentFile, `${JSON.stringify({ chainId: DEV_CHAIN_ID, token, deployBlock: blockNumber.toString() }, null, 2)}\n`);
  const settings = { rpcUrls: [node.url], token, treasury, confirmations: DEV_CONFIRMATIONS, chainId: DEV_CHAIN_ID };
  return { node, settings, startBlock: blockNumber, deployed: true };
}
