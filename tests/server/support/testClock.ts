/** A clock tests can move; the server reads it through buildApp's `now` option. */
export interface TestClock {
  now: () => Date;
  advance(ms: number): void;
  set(date: Date): void;
}

/** Fixed start: after every seeded notice, so all of them are published. */
export const TEST_START = new Date('2026-11-22T12:00:00.000Z');

export function createTestClock(start: Date = TEST_START): TestClock {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    advance: (ms) => {
      current += ms;
    },
    set: (date) => {
      current = date.getTime();
    },
  };
}
