/**
 * A JSON-RPC relay in front of a test node (anvil), for what real providers do that an honest local node never does:
 * a load balancer over nodes that lag and disagree answers a stale head, `null` receipts, empty or clamped
 * `eth_getLogs`, "not found" blocks, or is down (5xx). Tests point the server's chain client at `relay.url` (one
 * relay, or two under viem's `fallback`) and set rules while it runs; every other call goes to the node as it came.
 *
 * - `lag(n)`: the relay presents the chain as it was `n` blocks ago (head, blocks, receipts, nonces, logs, reads);
 *   `logs` says what a lagging backend answers for a range past its head: clamped to it, `[]`, or an error.
 * - `on(method, rule)`: a rule answers one method: from its params and the node's own answer (`forward()`), it
 *   returns the answer sent, or throws `RelayError` for a JSON-RPC error.
 * - `unindexed(n)`: a backend with a current head whose log index lags: `eth_getLogs` answers no logs for the newest
 *   `n` blocks (by range or by block hash; go-ethereum#24078); `receipts: 'none'` answers their receipts null too.
 * - `down(true)`: every request gets HTTP 503.
 * - `count(method)`: calls seen, so a test can assert what the server asked.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chainClient, type Chain } from '../../../server/chain/chain';

/** A JSON-RPC error the relay answers instead of a result. */
export class RelayError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** How one method is answered: the params, and the node's own answer on demand. */
export type RelayRule = (params: unknown[], forward: () => Promise<unknown>) => unknown;

export interface RpcRelay {
  url: string;
  /** Answers `method` by `rule` from now on; `null` takes the rule away. */
  on(method: string, rule: RelayRule | null): void;
  /** Presents the chain `blocks` behind its real head (0: as it is); `logs` for a range past the stale head. */
  lag(blocks: number, options?: { logs?: 'clamp' | 'empty' | 'error' }): void;
  /** `eth_getLogs` empty for the newest `blocks` blocks, the head current (0: off); their receipts null with `receipts: 'none'`. */
  unindexed(blocks: number, options?: { receipts?: 'honest' | 'none' }): void;
  /** Every request answered HTTP 503 while true. */
  down(isDown: boolean): void;
  /** Calls of `method` seen since the start (or the last reset). */
  count(method: string): number;
  /** No rules, no lag, up, counts at zero. */
  reset(): void;
  stop(): Promise<void>;
}

interface RpcRequest {
  jsonrpc: '2.0';
  id: number | string | null;
  method: string;
  params?: unknown[];
}

const hex = (value: bigint) => `0x${value.toString(16)}`;
const TAGS = new Set(['latest', 'pending', 'safe', 'finalized']);

/**
 * Starts a relay on a free loopback port.
 *
 * @param target - the node's URL (a TestChain's `node.url`)
 * @returns the relay
 * @example
 * const relay = await startRpcRelay(testChain.node.url);
 * relay.on('eth_getTransactionReceipt', () => null);
 */
export async function startRpcRelay(target: string | (() => string)): Promise<RpcRelay> {
  const targetUrl = typeof target === 'string' ? () => target : target;
  const rules = new Map<string, RelayRule>();
  const counts = new Map<string, number>();
  let lagBlocks = 0n;
  let lagLogs: 'clamp' | 'empty' | 'error' = 'clamp';
  let isDown = false;
  let unindexedBlocks = 0n;
  let unindexedReceipts: 'honest' | 'none' = 'honest';

  async function forward(method: string, params: unknown[]): Promise<unknown> {
    const response = await fetch(targetUrl(), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    const body = (await response.json()) as { result?: unknown; error?: { code: number; message: string } };
    if (body.error) throw new RelayError(body.error.code, body.error.message);
    return body.result;
  }

  /** The stale head a lagging relay answers, or undefined when it does not lag. */
  async function staleHead(): Promise<bigint | undefined> {
    if (lagBlocks === 0n) return undefined;
    const real = BigInt((await forward('eth_blockNumber', [])) as string);
    return real > lagBlocks ? real - lagBlocks : 0n;
  }

  /** A block tag or number as the lagging node knows it: a tag is its head, a number past its head is unknown. */
  const pinned = (tag: unknown, head: bigint): string | null => {
    if (typeof tag !== 'string' || TAGS.has(tag)) return hex(head);
    if (tag === 'earliest') return tag;
    return BigInt(tag) > head ? null : tag;
  };
  const blockNumberOf = (value: unknown): bigint | undefined =>
    value && typeof value === 'object' && 'blockNumber' in value && typeof value.blockNumber === 'string' ? BigInt(value.blockNumber) : undefined;

  /** What a node `lagBlocks` behind answers, for the methods whose answer depends on the head. */
  async function lagging(method: string, params: unknown[], head: bigint): Promise<unknown> {
    const notFound = () => new RelayError(-32000, 'header not found');
    switch (method) {
      case 'eth_blockNumber':
        return hex(head);
      case 'eth_getBlockByNumber': {
        const at = pinned(params[0], head);
        return at === null ? null : forward(method, [at, ...params.slice(1)]);
      }
      case 'eth_getBlockByHash': {
        const block = (await forward(method, params)) as { number?: string } | null;
        return block?.number && BigInt(block.number) > head ? null : block;
      }
      case 'eth_getTransactionReceipt':
      case 'eth_getTransactionByHash': {
        const found = await forward(method, params);
        const number = blockNumberOf(found);
        return number !== undefined && number > head ? null : found;
      }
      case 'eth_getTransactionCount':
      case 'eth_getBalance':
      case 'eth_getCode': {
        const at = pinned(params[1], head);
        if (at === null) throw notFound();
        return forward(method, [params[0], at]);
      }
      case 'eth_call': {
        const at = pinned(params[1] ?? 'latest', head);
        if (at === null) throw notFound();
        return forward(method, [params[0], at]);
      }
      case 'eth_getLogs': {
        const filter = (params[0] ?? {}) as { fromBlock?: string; toBlock?: string; blockHash?: string };
        if (filter.blockHash) {
          const block = (await forward('eth_getBlockByHash', [filter.blockHash, false])) as { number?: string } | null;
          if (!block?.number || BigInt(block.number) > head) throw new RelayError(-32000, 'unknown block');
          return forward(method, params);
        }
        const to = filter.toBlock === undefined || TAGS.has(filter.toBlock) ? head : BigInt(filter.toBlock);
        if (to <= head) return forward(method, [{ ...filter, toBlock: hex(to) }]);
        if (lagLogs === 'empty') return [];
        if (lagLogs === 'error') throw notFound();
        const from = filter.fromBlock === undefined || TAGS.has(filter.fromBlock) ? head : BigInt(filter.fromBlock);
        return from > head ? [] : forward(method, [{ ...filter, toBlock: hex(head) }]);
      }
      default:
        return forward(method, params);
    }
  }

  /** What a backend whose log index lags `unindexedBlocks` behind its current head answers. */
  async function unindexedAnswer(method: string, params: unknown[]): Promise<unknown> {
    const newest = BigInt((await forward('eth_blockNumber', [])) as string);
    const unindexed = (number: bigint | undefined) => number !== undefined && number > newest - unindexedBlocks;
    const found = await forward(method, params);
    if (method === 'eth_getLogs') return (found as { blockNumber?: string }[]).filter((log) => !unindexed(blockNumberOf(log)));
    if (unindexedReceipts === 'none' && method === 'eth_getTransactionReceipt') return unindexed(blockNumberOf(found)) ? null : found;
    if (unindexedReceipts === 'none' && method === 'eth_getBlockReceipts') {
      const receipts = found as { blockNumber?: string }[] | null;
      return receipts?.some((receipt) => unindexed(blockNumberOf(receipt))) ? null : receipts;
    }
    return found;
  }

  async function answer(request: RpcRequest): Promise<object> {
    const params = request.params ?? [];
    counts.set(request.method, (counts.get(request.method) ?? 0) + 1);
    try {
      const rule = rules.get(request.method);
      const head = await staleHead();
      const honest = () => (head === undefined ? (unindexedBlocks > 0n ? unindexedAnswer(request.method, params) : forward(request.method, params)) : lagging(request.method, params, head));
      const result = rule ? await rule(params, honest) : await honest();
      return { jsonrpc: '2.0', id: request.id, result: result ?? null };
    } catch (error) {
      const { code, message } = error instanceof RelayError ? error : { code: -32603, message: String(error) };
      return { jsonrpc: '2.0', id: request.id, error: { code, message } };
    }
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    if (isDown) {
      response.writeHead(503, { 'content-type': 'text/plain' }).end('service unavailable');
      return;
    }
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as RpcRequest | RpcRequest[];
    const answered = Array.isArray(body) ? await Promise.all(body.map(answer)) : await answer(body);
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answered));
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => response.writeHead(500).end(String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    on: (method, rule) => {
      if (rule) rules.set(method, rule);
      else rules.delete(method);
    },
    lag: (blocks, options = {}) => {
      lagBlocks = BigInt(blocks);
      lagLogs = options.logs ?? 'clamp';
    },
    unindexed: (blocks, options = {}) => {
      unindexedBlocks = BigInt(blocks);
      unindexedReceipts = options.receipts ?? 'honest';
    },
    down: (value) => {
      isDown = value;
    },
    count: (method) => counts.get(method) ?? 0,
    reset: () => {
      rules.clear();
      counts.clear();
      lagBlocks = 0n;
      unindexedBlocks = 0n;
      isDown = false;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The test chain as the server sees it through relays: the same token, treasury and confirmations, its client over
 * the relays' URLs under viem's `fallback` (server/chain/chain.ts), tried in order as CHAIN_RPC_URL's are.
 *
 * @param chain - the test chain's own Chain (TestChain.chain)
 * @param relays - one or more relays in front of its node
 * @param options - retries: false for a client that fails at once on a relay that is down (chainClient's option)
 * @returns a Chain for the payer, the watcher, reconcile or the app
 * @example
 * const chain = relayedChain(testChain.chain, [relay]);
 */
export function relayedChain(chain: Chain, relays: readonly RpcRelay[], options: { retries?: boolean } = {}): Chain {
  const rpcUrls = relays.map((relay) => relay.url);
  return { ...chain, client: chainClient(rpcUrls, options), settings: { ...chain.settings, rpcUrls } };
}
