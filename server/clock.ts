/** Where the server reads the time; tests pass their own to reach expiry without waiting. */
export type Clock = () => Date;

/**
 * The real clock.
 *
 * @returns the current instant
 * @example
 * const now = systemClock();
 */
export const systemClock: Clock = () => new Date();

/**
 * The UTC day of an instant (the ledger's days: the withdrawal cap's, the share pools').
 *
 * @param now - an instant
 * @returns YYYY-MM-DD
 * @example
 * utcDay(new Date('2026-11-25T23:59:59Z')); // '2026-11-25'
 */
export function utcDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/**
 * The start of an instant's UTC day.
 *
 * @param now - an instant
 * @returns 00:00 UTC of that day
 * @example
 * utcDayStart(new Date('2026-11-25T13:00:00Z')); // 2026-11-25T00:00:00.000Z
 */
export function utcDayStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}
