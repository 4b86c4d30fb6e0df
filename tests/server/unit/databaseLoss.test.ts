/**
 * What the server does when its PGlite worker dies (server/main.ts onDatabaseLost): it logs a restart and goes on;
 * when no worker can start, it stops like a signal would and exits with code 1.
 */
import { describe, expect, it } from 'vitest';
import { onDatabaseLost } from '../../../server/main';

function handling() {
  const events: string[] = [];
  let finishStop: () => void = () => undefined;
  const onLost = onDatabaseLost({
    log: (level, fields, message) => events.push(`${level}: ${message} (${(fields.err as Error).message})`),
    stop: (reason) => {
      events.push(`stop: ${reason}`);
      return new Promise<void>((resolve) => (finishStop = resolve));
    },
    exit: (code) => events.push(`exit ${code}`),
  });
  return { events, onLost, finishStop: () => finishStop() };
}

describe('onDatabaseLost', () => {
  it('logs a restart and does not stop', () => {
    const { events, onLost } = handling();
    onLost(new Error('PGlite worker exited with code 1'), 'restarting');
    expect(events).toEqual(['error: the database worker died; a new one is starting (PGlite worker exited with code 1)']);
  });

  it('stops the server when no worker can start, and exits with 1 once it has stopped', async () => {
    const { events, onLost, finishStop } = handling();
    onLost(new Error('could not open'), 'stopped');
    expect(events).toEqual(['fatal: the database worker died and no new one can start; stopping (could not open)', 'stop: database lost']);
    finishStop();
    await expect.poll(() => events.at(-1)).toBe('exit 1');
  });
});
