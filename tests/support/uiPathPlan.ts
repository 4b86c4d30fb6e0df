/**
 * Chooses which generated paths the UI tests replay, and measures which transitions the rendered app really takes.
 *
 * A UI test can replay a path only when each of its events is something a member, the wallet or the server can do
 * to the rendered page (a "step mapping"). The plan starts from the machine test's own paths (planPaths), keeps
 * the ones the UI can drive, then, for each transition they miss, looks for a drivable path that walks it among
 * the shortest paths and the candidate paths of tests/support/modelPaths.ts. Every choice is checked by walking the
 * path against the machine first, so the plan knows which transitions the UI run should take.
 */
import type { AnyActorRef, InspectionEvent } from 'xstate';
import { candidatePathsFor, shortestPaths, transitionKey } from './modelPaths';
import type { DefinedTransition, MachineModel, ModelPath, PathStep } from './modelPaths';
import { planPaths, startHarness, walkPath } from './pathWalker';

/** How one path event is produced through the UI, or why it cannot be. */
export type StepMapping<TAction> = { kind: 'action'; action: TAction } | { kind: 'unmapped'; reason: string };

/** Maps one step; `previous` is the step before (null for the first), `initial` the machine's state after start. */
export type StepMapper<TAction> = (step: PathStep, context: { index: number; path: ModelPath; previous: PathStep | null; initial: PathStep }) => StepMapping<TAction>;

export interface UiPathPlan {
  model: MachineModel;
  /** The paths the UI replays. */
  paths: ModelPath[];
  /** Every transition the machine defines. */
  transitions: DefinedTransition[];
  /**
   * Transitions the chosen paths walk at machine level (those taken on start included) and that `covered` did not
   * already hold, with the first path walking each.
   */
  planned: Map<string, string>;
  /** Transitions no drivable path walks, with the reason the UI cannot produce the event that would. */
  notDrivable: { key: string; reason: string }[];
}

/** The machine's state right after start (a restoring machine settles through `always`), and what start walked. */
export function initialStep(model: MachineModel): { step: PathStep; taken: Set<string> } {
  const cached = initialSteps.get(model);
  if (cached) return cached;
  const harness = startHarness(model);
  try {
    const snapshot = harness.actor.getSnapshot() as { value: PathStep['value']; context: unknown };
    const initial = { step: { event: { type: 'xstate.init' }, value: snapshot.value, context: snapshot.context }, taken: new Set(harness.taken) };
    initialSteps.set(model, initial);
    return initial;
  } finally {
    harness.stop();
  }
}

const initialSteps = new WeakMap<MachineModel, { step: PathStep; taken: Set<string> }>();

/**
 * Maps every step of a path.
 *
 * @returns the actions, or the first reason the path cannot be driven
 */
export function mapPath<TAction>(model: MachineModel, path: ModelPath, mapper: StepMapper<TAction>): TAction[] | { reason: string } {
  const initial = initialStep(model).step;
  const actions: TAction[] = [];
  for (const [index, step] of path.steps.entries()) {
    const mapping = mapper(step, { index, path, previous: index === 0 ? null : (path.steps[index - 1] ?? null), initial });
    if (mapping.kind === 'unmapped') return { reason: `${step.event.type}: ${mapping.reason}` };
    actions.push(mapping.action);
  }
  return actions;
}

/**
 * Plans the paths a UI test replays for one model.
 *
 * @param model - The machine model.
 * @param mapper - How each step is produced through the UI.
 * @param options - `covered`: transitions other models' plans already walk (a path is kept only for new ones).
 * @returns The drivable paths and the coverage they give.
 */
export async function planUiPaths<TAction>(
  model: MachineModel,
  mapper: StepMapper<TAction>,
  { covered = new Set<string>() }: { covered?: ReadonlySet<string> } = {},
): Promise<UiPathPlan> {
  const machinePlan = await planPaths(model);
  // Walks include the transitions taken on start (a restoring machine settles through `always`).
  const planned = new Map<string, string>();
  const paths: ModelPath[] = [];
  const reasons = new Map<string, string>();
  const walked = new Map<ModelPath, Set<string>>();
  const walk = async (path: ModelPath) => {
    let taken = walked.get(path);
    if (!taken) {
      taken = await walkPath(model, path);
      walked.set(path, taken);
    }
    return taken;
  };
  const drivable = (path: ModelPath) => {
    const mapped = mapPath(model, path, mapper);
    return 'reason' in mapped ? mapped.reason : null;
  };
  const keep = (path: ModelPath, taken: Set<string>) => {
    let added = false;
    for (const key of taken) {
      if (!planned.has(key) && !covered.has(key)) {
        planned.set(key, path.description);
        added = true;
      }
    }
    if (added) paths.push(path);
  };

  for (const path of machinePlan.paths) {
    const reason = drivable(path);
    if (reason === null) keep(path, await walk(path));
    else for (const key of await walk(path)) if (!reasons.has(key)) reasons.set(key, reason);
  }

  const base = shortestPaths(model);
  const drivableBase = base.filter((path) => path.steps.length > 0 && drivable(path) === null).sort((a, b) => a.steps.length - b.steps.length);
  for (const transition of machinePlan.transitions) {
    if (planned.has(transition.key) || covered.has(transition.key)) continue;
    // Only a path with an event of the transition's type can take it (an `always` one may follow any event).
    const hasEvent = (path: ModelPath) => transition.event === 'always' || path.steps.some((step) => step.event.type === transition.event);
    const candidates = candidatePathsFor(model, transition, base).filter((path) => drivable(path) === null);
    for (const candidate of [...candidates, ...drivableBase.filter(hasEvent)]) {
      const taken = await walk(candidate);
      if (taken.has(transition.key)) {
        keep(candidate, taken);
        break;
      }
    }
  }

  const notDrivable = machinePlan.transitions
    .filter((transition) => !planned.has(transition.key) && !covered.has(transition.key))
    .map((transition) => ({ key: transition.key, reason: reasons.get(transition.key) ?? 'no generated path reaches it' }));
  return { model, paths, transitions: machinePlan.transitions, planned, notDrivable };
}

/**
 * Records, from XState's inspection API, each transition the given root actor takes from now on.
 *
 * @returns a function that stops recording
 */
export function recordTransitions(actor: AnyActorRef, taken: Set<string>): () => void {
  const subscription = actor.system.inspect((inspection: InspectionEvent) => {
    if (inspection.type !== '@xstate.microstep' || inspection.actorRef !== actor) return;
    for (const transition of inspection._transitions) taken.add(transitionKey(transition as never));
  });
  return () => subscription.unsubscribe();
}
