/**
 * Declares the model-based tests of one machine: one test per planned path, each walked against the real machine
 * with fake actors, then a coverage test that fails on any defined transition no path walked.
 */
import { describe, expect, it } from 'vitest';
import { planPaths, walkPath } from './pathWalker';
import type { MachineModel } from './modelPaths';

export async function describeModelPaths(model: MachineModel): Promise<void> {
  const plan = await planPaths(model);
  describe(`${model.name} machine: generated paths`, () => {
    const walked = new Set<string>();
    it.each(plan.paths.map((path) => [path.description, path] as const))('%s', async (_, path) => {
      for (const key of await walkPath(model, path)) walked.add(key);
    });
    it('walks every transition the machine defines', () => {
      const missing = plan.transitions.filter((transition) => !walked.has(transition.key)).map((transition) => transition.key);
      expect(missing).toEqual([]);
      expect(walked.size).toBe(plan.transitions.length);
    });
  });
}
