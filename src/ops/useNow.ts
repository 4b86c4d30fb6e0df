import { useSyncExternalStore } from 'react';

// One clock for the desk's ages, moved on each minute: every row of a render reads the same time, and an age never
// reads a clock during render (React's purity rule).
let now = Date.now();
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | null = null;

const subscribe = (onChange: () => void) => {
  listeners.add(onChange);
  now = Date.now();
  timer ??= setInterval(() => {
    now = Date.now();
    for (const listener of listeners) listener();
  }, 60_000);
  return () => {
    listeners.delete(onChange);
    if (listeners.size === 0 && timer !== null) {
      clearInterval(timer);
      timer = null;
    }
  };
};

/**
 * The time (ms since the epoch) as of the last whole minute the screen has been open, for ages ("3 h") in lists.
 *
 * @example const now = useNow(); const age = (now - Date.parse(item.createdAt)) / 1000;
 */
export function useNow(): number {
  return useSyncExternalStore(
    subscribe,
    () => now,
    () => now,
  );
}
