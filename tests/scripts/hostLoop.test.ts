/** The bench's host-speed log (bench/hostLoop.ts): each reading printed and kept, and the spread of a run. */
import { describe, expect, it } from 'vitest';
import { createHostLoopLog } from '../../bench/hostLoop';

describe('host loop log', () => {
  it('prints each reading and sums up the fastest, the slowest and when it was taken', () => {
    const printed: string[] = [];
    const readings = [280, 610, 305];
    const log = createHostLoopLog((text) => printed.push(text), () => readings.shift() ?? Number.NaN);

    expect(log.summary()).toBeUndefined();
    expect(log.read('start of ledger.pglite')).toBe(280);
    log.read('end of ledger.pglite');
    log.read('start of ledger.postgres');

    expect(printed).toEqual([
      'host loop at start of ledger.pglite: 280 ms',
      'host loop at end of ledger.pglite: 610 ms',
      'host loop at start of ledger.postgres: 305 ms',
    ]);
    expect(log.summary()).toBe('host loop 280-610 ms over 3 readings (slowest at end of ledger.pglite, 2.18x the fastest)');
  });
});
