/**
 * The chain's background rounds (the top-up watcher, the payer): a round every `pollMs` after the previous one ends,
 * never two at once, until stopped; a failed round is reported and the next goes on from what is stored. The loop
 * keeps when it started and when a round last succeeded, for readiness (server/health/readiness.ts).
 */
export interface PollLoop {
  start(): void;
  /** Stops the timer and waits for a round under way. */
  stop(): Promise<void>;
  /** Whether it runs on its timer, since when, and the end of its last successful round. */
  health(): LoopHealth;
}

export interface LoopHealth {
  running: boolean;
  /** When start() was called (undefined: never started). */
  startedAt: Date | undefined;
  /** When the last successful round ended (undefined: none yet). */
  lastSuccessAt: Date | undefined;
}

export interface PollLoopOptions<T> {
  /** Where a failed round is reported. */
  onError?: ((error: unknown) => void) | undefined;
  /** The clock the times are read on; default the real one. */
  now?: (() => Date) | undefined;
  /** Whether a round that resolved did its work (the watcher's `unsettled` rounds did not); default every one. */
  succeeded?: ((result: T) => boolean) | undefined;
}

/**
 * Creates the loop (stopped until start()).
 *
 * @param round - one round
 * @param pollMs - the pause between the end of a round and the next
 * @param options - where failures go, the clock, what counts as a successful round
 * @returns start(), stop() and health()
 * @example
 * const loop = pollLoop(() => payer.round(), 1_000, { onError: (error) => log.warn(error) });
 * loop.start();
 */
export function pollLoop<T>(round: () => Promise<T>, pollMs: number, options: PollLoopOptions<T> = {}): PollLoop {
  const now = options.now ?? (() => new Date());
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let stopped = true;
  let startedAt: Date | undefined;
  let lastSuccessAt: Date | undefined;
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = round()
        .then((result) => {
          if (options.succeeded?.(result) ?? true) lastSuccessAt = now();
        })
        .catch((error: unknown) => options.onError?.(error))
        .finally(schedule);
    }, pollMs);
  };
  return {
    start: () => {
      stopped = false;
      startedAt = now();
      schedule();
    },
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
    health: () => ({ running: !stopped, startedAt, lastSuccessAt }),
  };
}
