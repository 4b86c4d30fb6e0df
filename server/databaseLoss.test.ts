/**
 * What the server does when its PGlite worker dies (server/main.ts onDatabaseLost): it logs a restart and goes on;
 * when no worker can start, it stops like a signal would and exits with code 1, also when the stop fails or
 * takes too long.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { onDatabaseLost } from './main';

function handling(stop: () => Promise<void>) {
  const events: string[] = [];
  const onLost = onDatabaseLost({
    log: (level, fields, message) => events.push(`${level}: ${message} (${(fields.err as Error).message})`),
    stop: (reason) => {
      events.push(`stop: ${reason}`);
      return stop();
    },
    exit: (code) => events.push(`exit ${code}`),
    stopDeadlineMs: 5_000,
  });
  return { events, onLost };
}

describe('onDatabaseLost', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('logs a restart and does not stop', () => {
    const { events, onLost } = handling(() => Promise.resolve());
    onLost(new Error('PGlite worker exited with code 1'), 'restarting');
    expect(events).toEqual(['error: the database worker died; a new one is starting (PGlite worker exited with code 1)']);
  });

  it('stops the server when no worker can start, and exits with 1 once it has stopped', async () => {
    let finishStop: () => void = () => undefined;
    const { events, onLost } = handling(() => new Promise<void>((resolve) => (finishStop = resolve)));
    onLost(new Error('could not open'), 'stopped');
    expect(events).toEqual(['fatal: the database worker died and no new one can start; stopping (could not open)', 'stop: database lost']);
    await Promise.resolve();
    expect(events).not.toContain('exit 1');
    finishStop();
    await expect.poll(() => events.at(-1)).toBe('exit 1');
  });

  it('exits with 1 when the stop fails, after logging why', async () => {
    const { events, onLost } = handling(() => Promise.reject(new Error('close failed')));
    onLost(new Error('could not open'), 'stopped');
    await expect.poll(() => events.at(-1)).toBe('exit 1');
    expect(events).toContain('error: stopping failed (close failed)');
  });

  it('exits with 1 when the stop takes longer than its deadline', async () => {
    vi.useFakeTimers();
    const { events, onLost } = handling(() => new Promise<void>(() => undefined));
    onLost(new Error('could not open'), 'stopped');
    await vi.advanceTimersByTimeAsync(4_999);
    expect(events).not.toContain('exit 1');
    await vi.advanceTimersByTimeAsync(1);
    expect(events.at(-1)).toBe('exit 1');
  });
});
