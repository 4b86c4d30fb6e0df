import { afterAll, beforeAll } from 'vitest';

/**
 * Runs the enclosing describe block with the runtime's time zone set to `zone`, as a phone set to it would be: the
 * screens format dates in the runtime's zone (src/components/dateFormat.ts) and never pass one. Node reads a changed
 * process.env.TZ for Date and Intl at once; the zone before is restored after the block, as the ui project shares a
 * worker between files.
 *
 * @example describe('in Beijing', () => { inTimeZone('Asia/Shanghai'); it(...) });
 */
export function inTimeZone(zone: string): void {
  let before: string | undefined;
  beforeAll(() => {
    before = process.env.TZ;
    process.env.TZ = zone;
  });
  afterAll(() => {
    if (before === undefined) delete process.env.TZ;
    else process.env.TZ = before;
  });
}
