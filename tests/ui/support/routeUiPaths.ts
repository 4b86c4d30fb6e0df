/**
 * Replays a machine's generated paths through the route that creates its actor (a page-owned flow such as the
 * settlement or the address book), as tests/ui/support/moneyFlowUiPaths.ts does for the money-flow sheets. A route
 * spec says how each path event is produced on the page and what the page shows in each state; this driver plans
 * the paths (tests/ui/support/uiPathPlan.ts, one plan per model, later models adding only what earlier ones miss),
 * replays each through the rendered app with a check after every step, and declares the coverage test.
 *
 * The actor lives inside the route, out of the test's reach, so the transitions walked through the UI are those of
 * the replayed paths, each step of which the page confirmed.
 */
import { waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Answer } from '../../../machines/shared/answer';
import { candidatePathsFor, definedTransitions, shortestPaths } from '../../../scripts/machineGraph/modelPaths';
import type { MachineModel, ModelPath, PathStep } from '../../../scripts/machineGraph/modelPaths';
import { walkPath } from '../../../scripts/machineGraph/pathWalker';
import type { HeldApiCall } from '../../support/fakeApi';
import type { RenderedApp } from './renderApp';
import { describeUiPath, initialStep, mapPath, planUiPaths } from './uiPathPlan';
import type { StepMapper } from './uiPathPlan';

export interface NotDrivable {
  key: string;
  reason: string;
}

export interface RouteUiPathSpec<TAction> {
  /** The route as the describe block names it, e.g. /buy/settlement/:id?. */
  route: string;
  /** One model per way the route starts the machine; a later model adds only transitions earlier ones miss. */
  models: readonly MachineModel[];
  /** How each path event is produced on the page, or why it cannot be. */
  mapStep: StepMapper<TAction>;
  /** Renders the app at the route, with the stored member and fake API the model's input needs. */
  render: (model: MachineModel) => Promise<RenderedApp>;
  /** Does one action as the member or the server would; `before` is the path's step before it. */
  perform: (app: RenderedApp, action: TAction, before: PathStep, model: MachineModel) => Promise<void>;
  /** What the page shows in a step; runs inside waitFor, so it throws at the first difference. */
  expectStep: (app: RenderedApp, step: PathStep, model: MachineModel) => void;
  /** Transitions the page cannot drive, with the reason: the mapper's reason for the transition's own event. */
  notDrivable: readonly NotDrivable[];
}

/**
 * Answers a held API call with a machine's answer: code 0 with its result, -1 as a dropped connection (the client
 * reads it as -1), any other code as the server's refusal.
 */
export function answerWith(call: HeldApiCall, answer: Answer<unknown>): void {
  if (answer.code === -1) call.failNetwork();
  else call.answer(answer.code === 0 ? { code: 0, result: answer.result } : { code: answer.code });
}

const opening: ModelPath = { description: '(initial)', steps: [] };
const allShortestPaths = new WeakMap<MachineModel, ModelPath[]>();

/** The shortest paths with the opening one, so a transition out of the first state has its one-step candidate. */
function shortestPathsOf(model: MachineModel): ModelPath[] {
  let found = allShortestPaths.get(model);
  if (!found) {
    found = shortestPaths(model);
    allShortestPaths.set(model, found);
  }
  return found;
}

/**
 * Why no replayed path walks a transition: the mapper's reason for the transition's own event, found on the
 * shortest candidate path that takes it after a prefix the page can drive. When no prefix is drivable, the page
 * never reaches the transition's source state in a way that takes it.
 */
async function whyNotDrivable<TAction>(models: readonly MachineModel[], mapStep: StepMapper<TAction>, key: string): Promise<string> {
  for (const model of models) {
    const transition = definedTransitions(model.machine).find((candidate) => candidate.key === key);
    if (!transition) continue;
    for (const candidate of candidatePathsFor(model, transition, shortestPathsOf(model))) {
      if ('reason' in mapPath(model, { ...candidate, steps: candidate.steps.slice(0, -1) }, mapStep)) continue;
      if (!(await walkPath(model, candidate)).has(key)) continue;
      const mapped = mapPath(model, candidate, mapStep);
      return 'reason' in mapped ? mapped.reason : `drivable, yet not planned: ${describeUiPath(candidate)}`;
    }
  }
  return 'the page never reaches its source state';
}

/**
 * Declares the path tests of one route: one test per planned path (and one for the opening screen when no path
 * walks what the start walks), then one that the page walked every planned transition and no other.
 *
 * @param spec - the models, how events are produced, what each state shows, and what the page cannot drive
 * @returns when declared
 * @example
 * await describeRouteUiPaths({ route: '/buy/shipping-address', models: [addressBookModel], mapStep, render, perform, expectStep, notDrivable });
 */
export async function describeRouteUiPaths<TAction>(spec: RouteUiPathSpec<TAction>): Promise<void> {
  const [first] = spec.models;
  if (!first) throw new Error('describeRouteUiPaths needs a model');
  const machineName = first.machine.id;
  const transitions = definedTransitions(first.machine);
  const replays: { model: MachineModel; path: ModelPath }[] = [];
  const planned = new Set<string>();
  for (const model of spec.models) {
    const plan = await planUiPaths(model, spec.mapStep, { covered: planned });
    for (const key of plan.planned.keys()) planned.add(key);
    // A start no drivable path walks (the settlement opened without goods): the opening screen is a path of its own.
    const startOnly = [...initialStep(model).taken].filter((key) => !planned.has(key));
    if (startOnly.length > 0) replays.push({ model, path: opening });
    for (const key of startOnly) planned.add(key);
    replays.push(...plan.paths.map((path) => ({ model, path })));
  }
  const notDrivable: NotDrivable[] = [];
  for (const transition of transitions) {
    if (!planned.has(transition.key)) notDrivable.push({ key: transition.key, reason: await whyNotDrivable(spec.models, spec.mapStep, transition.key) });
  }
  const walkedInUi = new Set<string>();

  async function replay(model: MachineModel, path: ModelPath): Promise<void> {
    const actions = mapPath(model, path, spec.mapStep);
    if ('reason' in actions) throw new Error(`not drivable: ${actions.reason}`);
    const app = await spec.render(model);
    let previous = initialStep(model).step;
    await waitFor(() => spec.expectStep(app, previous, model));
    for (const [index, step] of path.steps.entries()) {
      const action = actions[index];
      if (action === undefined) throw new Error(`no action for step ${index + 1}`);
      await spec.perform(app, action, previous, model);
      await waitFor(() => spec.expectStep(app, step, model));
      previous = step;
    }
    for (const key of await walkPath(model, path)) walkedInUi.add(key);
  }

  describe(`${spec.route}: ${machineName} machine paths through the rendered page`, () => {
    it.each(replays.map(({ model, path }) => [`${model.name}: ${describeUiPath(path) || 'opens'}`, model, path] as const))('%s', (_, model, path) =>
      replay(model, path),
    );

    it(`walks ${planned.size} of the ${transitions.length} ${machineName} transitions through the page`, () => {
      expect(new Set(walkedInUi)).toEqual(planned);
      expect(notDrivable).toEqual(spec.notDrivable);
    });
  });
}
