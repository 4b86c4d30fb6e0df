import { describe, expect, it } from 'vitest';
import { assign, fromPromise, setup } from 'xstate';
import { planPaths, walkPath } from '../../scripts/machineGraph/pathWalker';
import type { MachineModel } from '../../scripts/machineGraph/modelPaths';

// A small machine with an invoke, a delay and a transition no event can reach.
const sample = setup({
  types: { context: {} as { n: number }, events: {} as { type: 'go' } | { type: 'never' } },
  actors: { work: fromPromise<number>(async () => 0) },
  delays: { slow: 1000 },
}).createMachine({
  id: 'sample',
  context: { n: 0 },
  initial: 'idle',
  states: {
    idle: { on: { go: 'working' } },
    working: {
      invoke: { id: 'work', src: 'work', onDone: { target: 'idle', actions: assign({ n: ({ event }) => event.output }) } },
      after: { slow: 'idle' },
    },
    orphan: { on: { never: 'idle' } },
  },
});

const model: MachineModel = {
  name: 'sample',
  machine: sample,
  events: [{ type: 'go' }, { type: 'xstate.done.actor.work', output: 7 }],
};

describe('path tooling', () => {
  it('reports a defined transition that no path walks', async () => {
    const plan = await planPaths(model);
    const missing = plan.transitions.filter((t) => !plan.walkedBy.has(t.key)).map((t) => t.key);
    expect(missing).toEqual(['sample.orphan|never|0']);
  });

  it('walks done and timer events against the real machine', async () => {
    const plan = await planPaths(model);
    expect([...plan.walkedBy.keys()].sort()).toEqual([
      'sample.idle|go|0',
      'sample.working|xstate.after.slow.sample.working|0',
      'sample.working|xstate.done.actor.work|0',
    ]);
  });

  it('fails a path whose expected context the machine does not reach', async () => {
    const path = {
      description: 'go → done:work',
      steps: [
        { event: { type: 'go' }, value: 'working', context: { n: 0 } },
        { event: { type: 'xstate.done.actor.work', output: 7 }, value: 'idle', context: { n: 8 } },
      ],
    };
    await expect(walkPath(model, path)).rejects.toThrow(/step 2 \(xstate.done.actor.work\)/);
  });
});
