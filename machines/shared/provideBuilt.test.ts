import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, setup, waitFor } from 'xstate';
import { provideBuilt } from './provideBuilt';

/** One setup for every machine of the factory, as the app's machines have: placeholders the app provides. */
const probeSetup = setup({
  types: { context: {} as { log: string[] } },
  actors: {
    load: fromPromise<string>(async () => {
      throw new Error('load is not provided');
    }),
  },
  actions: { note: () => undefined },
  guards: { allowed: () => false },
  delays: { pause: 10_000 },
});

function createProbeMachine() {
  return probeSetup.createMachine({
    context: { log: [] },
    initial: 'loading',
    states: {
      loading: {
        invoke: { src: 'load', onDone: { target: 'checking', actions: [{ type: 'note' }] }, onError: 'failed' },
      },
      checking: { always: [{ guard: 'allowed', target: 'waiting' }, { target: 'refused' }] },
      waiting: { after: { pause: 'done' } },
      failed: { type: 'final' },
      refused: { type: 'final' },
      done: { type: 'final' },
    },
  });
}

async function run(machine: ReturnType<typeof createProbeMachine>) {
  const actor = createActor(machine).start();
  const snapshot = await waitFor(actor, (current) => current.status === 'done', { timeout: 1_000 });
  return snapshot.value;
}

describe('provideBuilt', () => {
  it('runs the provided actor, action, guard and delay, as provide() does', async () => {
    const notes: string[] = [];
    const implementations = {
      actors: { load: fromPromise<string>(async () => 'real') },
      actions: { note: () => void notes.push('noted') },
      guards: { allowed: () => true },
      delays: { pause: 1 },
    };
    expect(await run(createProbeMachine().provide(implementations))).toBe('done');
    expect(await run(provideBuilt(createProbeMachine(), implementations))).toBe('done');
    expect(notes).toEqual(['noted', 'noted']);
  });

  it('keeps what it is not given, and leaves other machines of the same factory as they were', async () => {
    const provided = provideBuilt(createProbeMachine(), { actors: { load: fromPromise<string>(async () => 'real') } });
    // The setup's guard (false) is kept: the provided actor ran, then the guard refused.
    expect(await run(provided)).toBe('refused');
    // A machine built after it still has the setup's placeholder actor.
    expect(await run(createProbeMachine())).toBe('failed');
  });
});
