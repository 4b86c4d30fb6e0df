/**
 * The top-up watcher (docs/API.md, "Credit on chain"; ADR 0018): reads the token's Transfer logs to the treasury from a
 * cursor kept in the database (chain_blocks) and credits each through the ledger engine (topUps.ts), only once its
 * block has `confirmations` blocks on top and is still on the chain. It never moves past a block it has not read.
 * Each round:
 *   1. the chain's head; the newest block deep enough is head - confirmations;
 *   2. the cursor (the last block read and its hash): when the chain has another block at that height (a
 *      reorganisation deeper than the confirmations), the cursor goes back to the newest kept block the chain still
 *      has, and what follows is read again: a log already credited is left alone, one mined again is credited once.
 *      A kept block the node answers "not found" for is doubt: the round ends unsettled and nothing kept is dropped
 *      (a lagging backend is no shorter chain);
 *   3. the next range, read as topUpReads.ts says: every header, linked to the cursor, and the logs by block hash;
 *      any doubt ends the round without crediting or moving (the next round reads again);
 *   4. credit, flag the credits of the range the chain no longer has, then move the cursor; a crash between them
 *      reads the range again and credits nothing twice.
 * A node that is down or slow fails the round (logged); the server goes on answering, and the next round starts
 * from the cursor. Rounds never overlap, and rounds asked for while one waits to start share it (the timer's, the
 * topUp call's, the operator's re-read queue behind it).
 */
import { and, desc, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { chainBlocks, topUpWatchStarts } from '../db/schema';
import type { Chain } from './chain';
import { blockHashAt } from './chainReads';
import { pollLoop, type LoopHealth } from './pollLoop';
import { readTopUps } from './topUpReads';
import { creditTopUps, flagReorgedAway, releaseHeldTopUps } from './topUps';

export { transferEvent } from './transferEvent';

/** Blocks read in one round at most (a backlog is read over several rounds). */
const MAX_RANGE = 2_000n;
/** Cursor blocks kept per chain: how deep a reorganisation below the cursor can be followed back. */
const KEPT_BLOCKS = 64;

/** The block the watcher reads after, the first time it reads a chain (top_up_watch_starts: reconcile's inflow check). */
async function keepWatchStart(db: Db, chainId: number, after: bigint): Promise<void> {
  await db.insert(topUpWatchStarts).values({ chainId, firstCursor: after }).onConflictDoNothing();
}

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
  await keepWatchStart(db, chainId, head.number);
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
  /** A node lagged or the chain changed while the range was read: nothing credited, the cursor kept, read again next round. */
  unsettled: boolean;
}

/** What an operator's re-read found and credited; `settled` false: a node lagged or disagreed, read it again. */
export interface RereadResult {
  found: number;
  credited: number;
  held: number;
  settled: boolean;
}

/** The audit row of a re-read's range, written with its credits. */
export type RereadAudit = (tx: Db, range: { from: bigint; to: bigint; credited: number; held: number }) => Promise<void>;

export interface TopUpWatcher {
  /** One round now: queued behind a round under way, or the round already queued (shared). */
  runOnce(): Promise<RoundResult>;
  /**
   * Reads blocks `fromBlock`..`toBlock` again (queued like a round), crediting only what was missed; `audit` writes
   * the operator's row in the transaction of each range that credited something.
   */
  reread(fromBlock: bigint, toBlock: bigint, audit?: RereadAudit): Promise<RereadResult>;
  /** Rounds every `pollMs` until stop(). */
  start(): void;
  stop(): Promise<void>;
  /** Its timer's rounds: running, since when, the last settled one (readiness: server/health/readiness.ts). */
  health(): LoopHealth;
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

  /**
   * The cursor: the newest kept block the chain still has (later kept blocks are dropped), none before the first
   * round, or doubt. A kept block is off the chain only when the node has another block at its height. A node that
   * answers "not found" for one lags (or its chain is shorter for now, which only waiting resolves): that is doubt,
   * and every kept block stays kept; taking it for a shorter chain would send the cursor back, on a backend 64
   * rounds behind as far as the token's deployment. When no kept block is on the chain (a reorganisation deeper
   * than all of them), the cursor is the block before the first, kept as such, so that a restart reads from there.
   */
  async function cursor(): Promise<{ number: bigint; hash: string; rewound: number } | 'doubt' | undefined> {
    const kept = await db.select().from(chainBlocks).where(eq(chainBlocks.chainId, chainId)).orderBy(desc(chainBlocks.number)).limit(KEPT_BLOCKS);
    for (const [index, block] of kept.entries()) {
      const hash = await blockHashAt(client, block.number);
      if (hash === block.hash) {
        if (index > 0) await db.delete(chainBlocks).where(and(eq(chainBlocks.chainId, chainId), gt(chainBlocks.number, block.number)));
        return { number: block.number, hash: block.hash, rewound: index };
      }
      if (hash === null) return 'doubt';
    }
    if (kept.length === 0) return undefined;
    const first = startBlock > 0n ? startBlock - 1n : 0n;
    const firstHash = await blockHashAt(client, first);
    if (!firstHash) return 'doubt';
    await db.delete(chainBlocks).where(eq(chainBlocks.chainId, chainId));
    await keepBlock(db, chainId, first, firstHash);
    return { number: first, hash: firstHash, rewound: kept.length };
  }

  async function round(): Promise<RoundResult> {
    const head = await client.getBlockNumber({ cacheTime: 0 });
    const deepest = head - BigInt(settings.confirmations);
    const at = await cursor();
    const released = await releaseHeldTopUps(db, chainId, now());
    if (at === 'doubt') return { from: null, to: null, credited: 0, held: 0, released, rewound: 0, unsettled: true };
    const rewound = at?.rewound ?? 0;
    // The cursor, once there is one; the first block only before the first round.
    const from = at ? at.number + 1n : startBlock;
    const idle: RoundResult = { from: null, to: null, credited: 0, held: 0, released, rewound, unsettled: false };
    if (deepest < from) return idle;
    const to = deepest - from + 1n > MAX_RANGE ? from + MAX_RANGE - 1n : deepest;

    const read = await readTopUps(chain, from, to, at?.hash);
    if (!read.settled) return { ...idle, unsettled: true };
    const when = now();
    if (!at) await keepWatchStart(db, chainId, from - 1n);
    const { credited, held } = await creditTopUps(db, chainId, read.logs, when);
    await flagReorgedAway(db, chainId, { from, to }, read.logs, when);
    await keepBlock(db, chainId, to, read.lastHash);
    return { from, to, credited, held, released, rewound, unsettled: false };
  }

  /**
   * The operator's re-read of blocks `fromBlock`..`toBlock` (at depth): credits what is not credited yet, flags what
   * the chain no longer has, and leaves the cursor where it is.
   */
  async function reread(fromBlock: bigint, toBlock: bigint, audit?: RereadAudit): Promise<RereadResult> {
    const result: RereadResult = { found: 0, credited: 0, held: 0, settled: true };
    for (let from = fromBlock; from <= toBlock; from += MAX_RANGE) {
      const to = from + MAX_RANGE - 1n < toBlock ? from + MAX_RANGE - 1n : toBlock;
      const read = await readTopUps(chain, from, to);
      if (!read.settled) return { ...result, settled: false };
      const when = now();
      // A range's credits and the operator's audit row commit together, or neither does.
      const outcome = await db.transaction(async (tx) => {
        const credited = await creditTopUps(tx, chainId, read.logs, when);
        await flagReorgedAway(tx, chainId, { from, to }, read.logs, when);
        if (credited.credited + credited.held > 0) await audit?.(tx, { from, to, ...credited });
        return credited;
      });
      result.found += read.logs.length;
      result.credited += outcome.credited;
      result.held += outcome.held;
    }
    return result;
  }

  let queue: Promise<unknown> = Promise.resolve();
  /** A round queued and not started yet: whoever asks for one now shares it (it starts after they asked). */
  let waiting: Promise<RoundResult> | undefined;
  const enqueue = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work, work);
    queue = next.catch(() => undefined);
    return next;
  };

  const runOnce = (): Promise<RoundResult> => {
    if (waiting) return waiting;
    const next = enqueue(() => {
      waiting = undefined;
      return round();
    });
    waiting = next;
    return next;
  };

  // A round a lagging or disagreeing node left unsettled read nothing: it does not count as the watcher keeping up.
  const loop = pollLoop(runOnce, options.pollMs ?? 2_000, { onError: options.onError, now, succeeded: (result) => !result.unsettled });
  return {
    runOnce,
    reread: (fromBlock, toBlock, audit) => enqueue(() => reread(fromBlock, toBlock, audit)),
    start: loop.start,
    stop: async () => {
      await loop.stop();
      // Rounds asked for by hand (runOnce) too.
      await queue;
    },
    health: loop.health,
  };
}
