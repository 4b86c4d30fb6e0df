/**
 * Checks the buy machines' promises at every step of every generated path: the paths tests/support walks compare
 * each step with the graph drawn from the same machine, which proves the walk, not the rules. Here each planned
 * path is walked again against the real machine with fake actors, and the test's own check (tags, can(), context,
 * output) runs after every step.
 */
import { expect, it } from 'vitest';
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { planPaths, startHarness } from '../../../scripts/machineGraph/pathWalker';
import type { MachineModel } from '../../../scripts/machineGraph/modelPaths';

/** What a check sees after a step: the snapshot, the event just delivered and the path's name. */
export interface PathStepView {
  snapshot: AnyMachineSnapshot;
  event: EventObject;
  path: string;
}

/**
 * Declares one test per model that walks all its planned paths and runs `check` after every step.
 *
 * @param models - the machine's models (one per start)
 * @param check - assertions about one step; throw (expect) on a broken promise
 */
export function checkAlongPaths(models: readonly MachineModel[], check: (step: PathStepView) => void): void {
  for (const model of models) {
    it(`${model.name}: holds its promises at every step of every generated path`, async () => {
      const plan = await planPaths(model);
      let steps = 0;
      for (const path of plan.paths) {
        const harness = startHarness(model);
        try {
          for (const step of path.steps) {
            await harness.deliver(step.event);
            check({ snapshot: harness.actor.getSnapshot() as AnyMachineSnapshot, event: step.event, path: path.description });
            steps += 1;
          }
        } finally {
          harness.stop();
        }
      }
      expect(steps).toBeGreaterThan(0);
    });
  }
}
