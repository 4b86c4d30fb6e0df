/**
 * The top-up watcher (API.md, "Credit on chain"): reads the token's Transfer logs to the treasury from a cursor kept
 * in the database (chain_blocks) and credits each through the ledger engine (topUps.ts), only once its block has
 * `confirmations` blocks on top and is still on the chain. Each round:
 *   1. the chain's head; the newest block deep enough is head - confirmations;
 *   2. the cursor (the last block read and its hash); when the chain no longer has that hash (a reorganisation
 *      deeper than the confirmations), the cursor goes back to the newest kept block the chain still has, and
 *      what follows is read again: a log already credited is left alone, one that was mined again is credited once;
 *   3. the logs of the next range, and the hashes of the blocks they are in and of the range's ends: when any differs
 *      from what the logs say, or the range's first block does not follow the cursor, the chain changed while it was
 *      read and the round ends without crediting (the next round reads again);
 *   4. credit, then move the cursor; a crash between the two reads the range again and credits nothing twice.
 * A node that is down or slow fails the round (logged); the server goes on answering, and the next round starts
 * from the cursor. Rounds never overlap: the timer's and the topUp call's share one queue.
 */
import { and, desc, eq, gt, sql } from 'drizzle-orm';
import { BlockNotFoundError, getAddress, parseAbiItem, type Block } from 'viem';
import type { Db } from '../db/client';
import { chainBlocks } from '../db/schema';
import type { Chain } from './chain';
import { toLedgerUnits } from './chainReads';
import { pollLoop } from './pollLoop';
import { creditTopUps, releaseHeldTopUps, type TopUpLog } from './topUps';

export const transferEvent = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');

/** Blocks read in one round at most (a backlog is read over several rounds). */
const MAX_RANGE = 2_000n;
/** Cursor blocks kept per chain: how deep a reorganisation below the cursor can be followed back. */
const KEPT_BLOCKS = 64;

/** Keeps a block as the cursor, and drops the kept blocks older than the last KEPT_BLOCKS, in two statements. */
async function keepBlock(db: Db, chainId: number, number: bigint, hash: string): Promise<void> {
  await db.insert(chainBlocks).values({ chainId, number, hash }).onConflictDoUpdate({ target: [chainBlocks.chainId, chainBlocks.number], set: { hash } });
  await db.execute(sql`DELETE FROM chain_blocks WHERE chain_id = ${chainId}::int AND number < (
    SELECT number FROM chain_blocks WHERE chain_id = ${chainId}::int ORDER BY number DESC OFFSET ${KEPT_BLOCKS - 1}::int LIMIT 1)`);
}

/**
 * The first cursor of a chain the watcher has never read: its head now, kept at start, so that the blocks after it
 * are read whatever happens before the first round (a restart then reads on from it, not from a later head).
 *
 * @param db - database handle
 * @param chain - the connected chain
 * @returns the block the watcher reads after, kept or found
 * @example
 * await keepHeadAsFirstCursor(db, chain);
 */
export async function keepHeadAsFirstCursor(db: Db, chain: Chain): Promise<bigint> {
  const chainId = chain.settings.chainId;
  const [kept] = await db.select().from(chainBlocks).where(eq(chainBlocks.chainId, chainId)).orderBy(desc(chainBlocks.number)).limit(1);
  if (kept) return kept.number;
  const head = await chain.client.getBlock({ blockTag: 'latest', includeTransactions: false });
  if (head.number === null || head.hash === null) throw new Error('the chain has no latest block');
  await keepBlock(db, chainId, head.number, head.hash);
  return head.number;
}

export interface RoundResult {
  /** The blocks read, or null when there was nothing deep enough to read. */
  from: bigint | null;
  to: bigint | null;
  credited: number;
  held: number;
  released: number;
  /** The cursor went back this many kept blocks (a reorganisation below it). */
  rewound: number;
  /** The chain changed while the range was read: nothing credited, read again next round. */
  unsettled: boolean;
}

export interface TopUpWatcher {
  /** One round now (queued behind a round under way). */
  runOnce(): Promise<RoundResult>;
  /** Rounds every `pollMs` until stop(). */
  start(): void;
  stop(): Promise<void>;
}

export interface TopUpWatcherOptions {
  db: Db;
  chain: Chain;
  now: () => Date;
  /** The first block that may hold a top-up (the token's deployment); default 0. */
  startBlock?: bigint;
  /** Milliseconds between rounds; default 2 s. */
  pollMs?: number;
  /** Where a failed round is reported. */
  onError?: (error: unknown) => void;
}

/**
 * Creates the watcher of a chain.
 *
 * @param options - database, chain, clock, first block, poll interval
 * @returns runOnce, start and stop
 * @example
 * const watcher = createTopUpWatcher({ db, chain, now: () => new Date() });
 * watcher.start();
 */
export function createTopUpWatcher(options: TopUpWatcherOptions): TopUpWatcher {
  const { db, chain, now } = options;
  const { client, settings } = chain;
  const chainId = settings.chainId;
  const startBlock = options.startBlock ?? 0n;
  let queue: Promise<unknown> = Promise.resolve();

  const blockAt = (number: bigint): Promise<Block> => client.getBlock({ blockNumber: number, includeTransactions: false });

  /** The cursor: the newest kept block the chain still has (later kept blocks are dropped), or none. */
  async function cursor(): Promise<{ number: bigint; hash: string; rewound: number } | undefined> {
    const kept = await db.select().from(chainBlocks).where(eq(chainBlocks.chainId, chainId)).orderBy(desc(chainBlocks.number)).limit(KEPT_BLOCKS);
    for (const [index, block] of kept.entries()) {
      // A block the chain does not have (it is shorter now) is not on it; any other failure fails the round, never
      // the cursor (a node that stops answering must not send the watcher back to its first block).
      const onChain = await blockAt(block.number).catch((error: unknown) => {
        if (error instanceof BlockNotFoundError) return undefined;
        throw error;
      });
      if (onChain?.hash === block.hash) {
        if (index > 0) await db.delete(chainBlocks).where(and(eq(chainBlocks.chainId, chainId), gt(chainBlocks.number, block.number)));
        return { number: block.number, hash: block.hash, rewound: index };
      }
    }
    if (kept.length > 0) await db.delete(chainBlocks).where(eq(chainBlocks.chainId, chainId));
    return kept.length > 0 ? { number: startBlock - 1n, hash: '', rewound: kept.length } : undefined;
  }

  async function round(): Promise<RoundResult> {
    const head = await client.getBlockNumber({ cacheTime: 0 });
    const deepest = head - BigInt(settings.confirmations);
    const at = await cursor();
    const rewound = at?.rewound ?? 0;
    // The cursor, once there is one; the first block only before the first round.
    const from = at ? at.number + 1n : startBlock;
    const released = await releaseHeldTopUps(db, chainId, now());
    const idle: RoundResult = { from: null, to: null, credited: 0, held: 0, released, rewound, unsettled: false };
    if (deepest < from) return idle;
    const to = deepest - from + 1n > MAX_RANGE ? from + MAX_RANGE - 1n : deepest;

    const logs = await client.getLogs({ address: settings.token, event: transferEvent, args: { to: settings.treasury }, fromBlock: from, toBlock: to, strict: true });
    // The hashes of the range's ends and of every block with a log, in one batched request.
    const numbers = [...new Set([from, to, ...logs.map((log) => log.blockNumber)])];
    const blocks = new Map((await Promise.all(numbers.map(blockAt))).map((block) => [block.number, block]));
    const fromBlock = blocks.get(from);
    const followsCursor = !at?.hash || fromBlock?.parentHash === at.hash;
    const settled = followsCursor && logs.every((log) => !log.removed && blocks.get(log.blockNumber)?.hash === log.blockHash);
    if (!settled) return { ...idle, unsettled: true };

    const topUps: TopUpLog[] = logs.flatMap((log) => {
      const amount = toLedgerUnits(log.args.value, chain.token.decimals);
      // Less than a millionth of a token is nothing the ledger can hold.
      return amount > 0n ? [{ txHash: log.transactionHash, logIndex: log.logIndex, from: getAddress(log.args.from), amount, blockNumber: log.blockNumber }] : [];
    });
    const { credited, held } = await creditTopUps(db, chainId, topUps, now());
    const toHash = blocks.get(to)?.hash;
    if (!toHash) throw new Error(`block ${to} has no hash`);
    await keepBlock(db, chainId, to, toHash);
    return { from, to, credited, held, released, rewound, unsettled: false };
  }

  const runOnce = (): Promise<RoundResult> => {
    const next = queue.then(round, round);
    queue = next.catch(() => undefined);
    return next;
  };

  const loop = pollLoop(runOnce, options.pollMs ?? 2_000, options.onError);
  return {
    runOnce,
    start: loop.start,
    stop: async () => {
      await loop.stop();
      // Rounds asked for by hand (runOnce) too.
      await queue;
    },
  };
}
