/**
 * Group commit for money requests, and batched reads for the access hook's token (ADR 0012): requests that arrive
 * while a batch is running wait and then go to the database together, as one call and one commit, the way
 * TigerBeetle takes transfers in batches. On PGlite (one connection, statements one at a time in its worker thread,
 * ADR 0017) a statement's fixed cost and the hop to the worker are most of a withdrawal's; on PostgreSQL the round
 * trips and commits are. Nothing waits for a timer: an idle batcher sends a request at once, on the next turn of
 * the event loop, with whatever else arrived in that turn.
 *
 * If a batch fails as a whole (an unexpected database error, a deadlock between instances), each of its items is
 * run again alone, so one bad item fails only its own request; the database rolled the batch back, so nothing of
 * it was written.
 */

import type { DatabaseDriver } from '../db/driver';

/**
 * Read batches of one kind (token reads, nonces, settlement inputs) running at once per server: PGlite runs one
 * statement at a time anyway; a PostgreSQL pool of 10 runs a few side by side.
 */
export const BATCHES_IN_FLIGHT: Readonly<Record<DatabaseDriver, number>> = { pglite: 1, 'node-postgres': 4 };

/**
 * Money batches (the ledger batcher) running at once per server, on either database: one. Every batch holds the
 * ledger's id counters and the system accounts it moves locked until it commits, so a second batch in flight on
 * PostgreSQL only waits for the first one's locks; one at a time, the requests that arrive meanwhile join the next
 * batch instead (ADR 0012 has the bench figures).
 */
export const LEDGER_BATCHES_IN_FLIGHT = 1;

export interface BatcherOptions {
  /** Most items in one batch. */
  maxBatch: number;
  /** Most batches running at once (1 on PGlite, a few on a PostgreSQL pool). */
  maxInFlight: number;
}

interface Waiting<I, O> {
  item: I;
  resolve: (outcome: O) => void;
  reject: (error: unknown) => void;
}

export interface Batcher<I, O> {
  /** Queues an item; resolves with its outcome once its batch committed. */
  submit(item: I): Promise<O>;
}

/**
 * Makes a batcher around a function that runs a batch and answers one outcome per item, in item order.
 *
 * @param run - runs the items in one transaction; must answer exactly one outcome per item, in order
 * @param options - batch size and parallel batches
 * @returns the batcher
 * @example
 * const withdrawals = createBatcher((items) => runWithdrawBatch(db, items), { maxBatch: 64, maxInFlight: 1 });
 * const outcome = await withdrawals.submit(item);
 */
export function createBatcher<I, O>(run: (items: I[]) => Promise<O[]>, options: BatcherOptions): Batcher<I, O> {
  const queue: Waiting<I, O>[] = [];
  let inFlight = 0;
  let scheduled = false;

  /**
   * Runs a batch in a slot, and frees the slot as soon as the database answered: the next batch (what arrived
   * meanwhile) goes out before this one's outcomes are handed back, so the database works on it while this thread
   * answers the requests (on PostgreSQL the gap between batches was a third of a batch's time). A batch that failed
   * keeps its slot while its items run again alone.
   */
  async function runBatch(batch: Waiting<I, O>[]): Promise<void> {
    let outcomes: O[];
    try {
      outcomes = await run(batch.map((waiting) => waiting.item));
      if (outcomes.length !== batch.length) throw new Error(`batch answered ${outcomes.length} outcomes for ${batch.length} items`);
    } catch (error) {
      if (batch.length === 1) batch[0]?.reject(error);
      // Alone, one at a time: only the item that fails the batch fails its request.
      else for (const waiting of batch) await runAlone(waiting);
      release();
      return;
    }
    release();
    batch.forEach((waiting, index) => waiting.resolve(outcomes[index] as O));
  }

  async function runAlone(waiting: Waiting<I, O>): Promise<void> {
    try {
      const [outcome] = await run([waiting.item]);
      if (outcome === undefined) throw new Error('batch answered 0 outcomes for 1 item');
      waiting.resolve(outcome);
    } catch (error) {
      waiting.reject(error);
    }
  }

  function release(): void {
    inFlight--;
    pump();
  }

  function pump(): void {
    scheduled = false;
    while (inFlight < options.maxInFlight && queue.length > 0) {
      inFlight++;
      void runBatch(queue.splice(0, options.maxBatch));
    }
  }

  function schedule(): void {
    if (scheduled || queue.length === 0 || inFlight >= options.maxInFlight) return;
    scheduled = true;
    // setImmediate, not a microtask: the requests whose bytes arrived in the same turn join this batch.
    setImmediate(pump);
  }

  return {
    submit(item) {
      return new Promise<O>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        schedule();
      });
    },
  };
}
