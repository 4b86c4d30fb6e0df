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
