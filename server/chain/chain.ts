/**
 * The server's connection to the app's chain (docs/API.md, "Credit on chain"): a viem public client over the JSON-RPC
 * URLs of CHAIN_RPC_URL (viem's `fallback`: the next URL when one fails), and the token that backs CREDIT, whose
 * decimals are read from the chain at start.
 */
import { createPublicClient, erc20Abi, fallback, getAddress, http, type Address, type PublicClient } from 'viem';

import { LEDGER_DECIMALS } from './chainReads';
import { redactingTransport } from './rpcUrls';

export { LEDGER_DECIMALS };

export interface ChainSettings {
  /** JSON-RPC URLs, tried in order. */
  rpcUrls: readonly string[];
  token: Address;
  treasury: Address;
  /** Blocks on top of a transaction's block before it counts. */
  confirmations: number;
  /** The chain id dappParam announces; the node must report the same. */
  chainId: number;
}

export interface TokenInfo {
  address: Address;
  symbol: string;
  decimals: number;
}

/** A connected chain: its client, settings and token. */
export interface Chain {
  client: PublicClient;
  settings: ChainSettings;
  token: TokenInfo;
}

/**
 * A public client over the URLs, each with JSON-RPC batching (a round's block headers go in one request) and a
 * 10 s timeout, so a node that hangs stops the watcher's round, not the server. Its errors name a URL without its
 * path, query or user info (server/chain/rpcUrls.ts: they carry API keys, and errors reach the logs).
 *
 * @param rpcUrls - one or more URLs
 * @param options - retries: false where a failure is the answer, not a fault to ride out (a node that is down in a
 *   test, the development chain's probe of its port), which would wait about 2 s for each (a retry of each URL, then
 *   viem's fallback's three rounds); the server's rounds and calls always retry
 * @returns the client
 * @example
 * const client = chainClient(['http://127.0.0.1:8545']);
 */
export function chainClient(rpcUrls: readonly string[], { retries = true }: { retries?: boolean } = {}): PublicClient {
  return createPublicClient({
    transport: fallback(
      rpcUrls.map((url) => redactingTransport(url, http(url, { batch: { batchSize: 200, wait: 0 }, timeout: 10_000, retryCount: retries ? 1 : 0 }))),
      retries ? {} : { retryCount: 0 },
    ),
    // The watcher polls on its own timer; viem's own polling would only add requests.
    pollingInterval: 1_000,
  });
}

/** The reads a connection checks, under way: the node's chain id and the token's decimals and symbol. */
export interface ChainReads {
  client: PublicClient;
  chainId: Promise<number>;
  token: Promise<[decimals: number, symbol: string]>;
}

/**
 * Starts the reads connectChain checks, all at once: the server starts them before its database is open, whose app
 * config holds the chain id they are checked against (server/main.ts).
 *
 * @param rpcUrls - one or more URLs
 * @param token - the token's address
 * @returns the client and the reads under way (a failed read fails connectChain, not the process)
 * @example
 * const reads = startChainReads([url], token);
 */
export function startChainReads(rpcUrls: readonly string[], token: Address): ChainReads {
  const client = chainClient(rpcUrls);
  const address = getAddress(token);
  const reads: ChainReads = {
    client,
    chainId: client.getChainId(),
    token: Promise.all([
      client.readContract({ address, abi: erc20Abi, functionName: 'decimals' }),
      client.readContract({ address, abi: erc20Abi, functionName: 'symbol' }),
    ]),
  };
  // Awaited by connectChain, which fails with their errors; until then they are not unhandled rejections.
  reads.chainId.catch(() => undefined);
  reads.token.catch(() => undefined);
  return reads;
}

/**
 * Connects to the chain: the node's chain id must be dappParam's, and the token's decimals at least 6. A wrong chain
 * is told before anything the token's reads found there.
 *
 * @param settings - URLs, token, treasury, confirmations, chain id
 * @param reads - the reads of startChainReads if started already; default: started now
 * @returns the chain
 * @throws Error naming the setting at fault
 * @example
 * const chain = await connectChain({ rpcUrls: [url], token, treasury, confirmations: 12, chainId: 56 });
 */
export async function connectChain(settings: ChainSettings, reads: ChainReads = startChainReads(settings.rpcUrls, settings.token)): Promise<Chain> {
  const nodeChainId = await reads.chainId;
  if (nodeChainId !== settings.chainId) {
    throw new Error(`CHAIN_RPC_URL reports chain ${nodeChainId}, but the app config's chainId is ${settings.chainId}: refusing to start`);
  }
  const token = getAddress(settings.token);
  const [decimals, symbol] = await reads.token;
  if (decimals < LEDGER_DECIMALS) {
    throw new Error(`TOKEN_ADDRESS ${token} has ${decimals} decimals; the ledger keeps ${LEDGER_DECIMALS}, so a token with fewer is refused`);
  }
  return { client: reads.client, settings: { ...settings, token, treasury: getAddress(settings.treasury) }, token: { address: token, symbol, decimals } };
}
