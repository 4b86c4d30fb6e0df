/**
 * Declares the model-based tests of one machine: one test per planned path, each walked against the real machine
 * with fake actors, then a coverage test that fails on any defined transition no path walked. A machine whose
 * input decides where it starts (auth restores a session) has one model per start; coverage is their union.
 */
import { describe, expect, it } from 'vitest';
import { planPaths, walkPath } from '../../../scripts/machineGraph/pathWalker';
import type { PathPlan } from '../../../scripts/machineGraph/pathWalker';
import type { MachineModel } from '../../../scripts/machineGraph/modelPaths';
import { definedTransitions } from '../../../scripts/machineGraph/modelPaths';

export async function describeModelPaths(name: string, models: readonly MachineModel[]): Promise<void> {
  // One model after another: walks share the fake-actor registry slot (scripts/machineGraph/pathWalker.ts).
  const plans: { model: MachineModel; plan: PathPlan }[] = [];
  for (const model of models) plans.push({ model, plan: await planPaths(model) });
  const firstModel = models[0];
  if (!firstModel) throw new Error('describeModelPaths needs at least one model');
  const transitions = definedTransitions(firstModel.machine);
  describe(`${name} machine: generated paths`, () => {
    const walked = new Set<string>();
    for (const { model, plan } of plans) {
      it.each(plan.paths.map((path) => [path.description, path] as const))(`${model.name}: %s`, async (_, path) => {
        for (const key of await walkPath(model, path)) walked.add(key);
      });
    }
    it('walks every transition the machine defines', () => {
      const missing = transitions.filter((transition) => !walked.has(transition.key)).map((transition) => transition.key);
      expect(missing).toEqual([]);
      expect(walked.size).toBe(transitions.length);
    });
  });
}
