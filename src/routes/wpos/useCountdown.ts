import { useEffect, useState } from 'react';

/** Milliseconds left until an instant, as hours, minutes and seconds (never negative). */
export interface Countdown {
  remainingMs: number;
  hours: number;
  minutes: number;
  seconds: number;
}

function countdownTo(target: number, now: number): Countdown {
  const remainingMs = Math.max(0, target - now);
  const total = Math.floor(remainingMs / 1000);
  return { remainingMs, hours: Math.floor(total / 3600), minutes: Math.floor((total % 3600) / 60), seconds: total % 60 };
}

/**
 * A live countdown to an instant the server named (nextDistributionAt). It is recomputed from the clock on every
 * tick and when the page becomes visible again, never counted down by itself, so it stays right across a reload
 * and a phone that slept (timers stop there; the clock does not).
 *
 * @param targetIso - the instant, ISO 8601
 * @returns what is left
 * @example
 * const { hours, minutes, seconds } = useCountdown(pool.nextDistributionAt);
 */
export function useCountdown(targetIso: string): Countdown {
  const target = Date.parse(targetIso);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const tick = () => setNow(Date.now());
    const timer = setInterval(tick, 1000);
    globalThis.document.addEventListener('visibilitychange', tick);
    return () => {
      clearInterval(timer);
      globalThis.document.removeEventListener('visibilitychange', tick);
    };
  }, []);
  return countdownTo(target, now);
}
