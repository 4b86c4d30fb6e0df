/**
 * The bench's in-process Vite builds leave NODE_ENV as they found it: a build set it to production for the whole
 * process, and every server a later section spawned inherited it and refused to start (bench/keepNodeEnv.ts).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildFloorPage } from '../../bench/floorPage';

describe('the bench build', () => {
  it('leaves NODE_ENV unset when it was unset, and as it was otherwise', { timeout: 120_000 }, async () => {
    const before = process.env.NODE_ENV;
    try {
      for (const start of [undefined, 'development']) {
        if (start === undefined) delete process.env.NODE_ENV;
        else process.env.NODE_ENV = start;
        const floor = await buildFloorPage(path.resolve(import.meta.dirname, '../..'));
        await floor.cleanup();
        expect(process.env.NODE_ENV).toBe(start);
      }
    } finally {
      if (before === undefined) delete process.env.NODE_ENV;
      else process.env.NODE_ENV = before;
    }
  });
});
