/**
 * The chain's background rounds (the top-up watcher, the payer): a round every `pollMs` after the previous one ends,
 * never two at once, until stopped; a failed round is reported and the next goes on from what is stored.
 */
export interface PollLoop {
  start(): void;
  /** Stops the timer and waits for a round under way. */
  stop(): Promise<void>;
}

/**
 * Creates the loop (stopped until start()).
 *
 * @param round - one round
 * @param pollMs - the pause between the end of a round and the next
 * @param onError - where a failed round is reported
 * @returns start() and stop()
 * @example
 * const loop = pollLoop(() => payer.round(), 1_000, (error) => log.warn(error));
 * loop.start();
 */
export function pollLoop(round: () => Promise<unknown>, pollMs: number, onError?: (error: unknown) => void): PollLoop {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let stopped = true;
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = round()
        .catch((error: unknown) => onError?.(error))
        .finally(schedule);
    }, pollMs);
  };
  return {
    start: () => {
      stopped = false;
      schedule();
    },
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
