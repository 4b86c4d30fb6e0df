/**
 * The batcher (server/ledger/batcher.ts) on its own: what arrives in one turn goes together, batches never exceed
 * their size or their number in flight, the next batch goes out before the finished one's outcomes are handed back,
 * outcomes go back to their own requests, and a batch that fails as a whole is run again item by item so only the
 * bad item fails.
 */
import { describe, expect, it } from 'vitest';
import { createBatcher } from './batcher';

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => undefined;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

describe('createBatcher', () => {
  it('sends what arrives in one turn as one batch, and each request gets its own outcome', async () => {
    const batches: number[][] = [];
    const batcher = createBatcher(async (items: number[]) => {
      batches.push(items);
      return items.map((item) => item * 10);
    }, { maxBatch: 64, maxInFlight: 1 });
    const answers = await Promise.all([1, 2, 3].map((item) => batcher.submit(item)));
    expect(answers).toEqual([10, 20, 30]);
    expect(batches).toEqual([[1, 2, 3]]);
  });

  it('queues what arrives while a batch runs, respects maxBatch and maxInFlight', async () => {
    const gate = deferred();
    const batches: number[][] = [];
    let running = 0;
    let mostRunning = 0;
    const batcher = createBatcher(async (items: number[]) => {
      running++;
      mostRunning = Math.max(mostRunning, running);
      batches.push(items);
      await gate.promise;
      running--;
      return items;
    }, { maxBatch: 2, maxInFlight: 1 });
    const first = batcher.submit(1);
    await new Promise((resolve) => setImmediate(resolve));
    const rest = [2, 3, 4, 5, 6].map((item) => batcher.submit(item));
    gate.resolve();
    expect(await Promise.all([first, ...rest])).toEqual([1, 2, 3, 4, 5, 6]);
    expect(batches).toEqual([[1], [2, 3], [4, 5], [6]]);
    expect(mostRunning).toBe(1);
  });

  it('starts the next batch as soon as the running one is answered, before handing back its outcomes', async () => {
    const gate = deferred();
    const events: string[] = [];
    const batcher = createBatcher(async (items: number[]) => {
      events.push(`run ${items.join(',')}`);
      if (items.includes(1)) await gate.promise;
      return items;
    }, { maxBatch: 64, maxInFlight: 1 });
    const first = batcher.submit(1).then(() => events.push('answered 1'));
    await new Promise((resolve) => setImmediate(resolve));
    const rest = [2, 3].map((item) => batcher.submit(item));
    gate.resolve();
    await Promise.all([first, ...rest]);
    expect(events).toEqual(['run 1', 'run 2,3', 'answered 1']);
  });

  it('runs the items of a failed batch alone, so only the bad one fails', async () => {
    const batches: string[][] = [];
    const batcher = createBatcher(async (items: string[]) => {
      batches.push(items);
      if (items.includes('bad')) throw new Error('deadlock detected');
      return items.map((item) => item.toUpperCase());
    }, { maxBatch: 64, maxInFlight: 2 });
    const answers = await Promise.allSettled(['a', 'bad', 'c'].map((item) => batcher.submit(item)));
    expect(answers.map((answer) => (answer.status === 'fulfilled' ? answer.value : (answer.reason as Error).message))).toEqual(['A', 'deadlock detected', 'C']);
    expect(batches).toEqual([['a', 'bad', 'c'], ['a'], ['bad'], ['c']]);
  });

  it('fails every request of a batch that answers the wrong number of outcomes', async () => {
    const batcher = createBatcher(async (items: number[]) => items.slice(1), { maxBatch: 64, maxInFlight: 1 });
    await expect(batcher.submit(1)).rejects.toThrow('batch answered 0 outcomes for 1 items');
  });
});
