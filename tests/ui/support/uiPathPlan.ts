/**
 * Chooses which generated paths the UI tests replay, and measures which transitions the rendered app really takes.
 *
 * A UI test can replay a path only when each of its events is something a member, the wallet or the server can do
 * to the rendered page (a "step mapping"). The plan draws on the same generated paths as the machine tests (the
 * shortest paths and candidate paths of scripts/machineGraph/modelPaths.ts), keeps the ones the UI can drive, and walks
 * each against the machine first, so it knows which transitions the UI run should take, and why the others cannot
 * be driven.
 */
import type { AnyActorRef, InspectionEvent } from 'xstate';
import { candidatePathsFor, definedTransitions, shortestPaths, transitionKey } from '../../../scripts/machineGraph/modelPaths';
import type { DefinedTransition, MachineModel, ModelPath, PathStep } from '../../../scripts/machineGraph/modelPaths';
import { startHarness, walkPath } from '../../../scripts/machineGraph/pathWalker';

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
 * Plans the paths a UI test replays for one model: few and short, yet together walking every transition a drivable
 * path can walk. The pool is every drivable shortest path, plus, for each transition the pool misses, the shortest
 * drivable candidate path that takes it; every pool path is walked against the machine to learn what it covers.
 * Paths are then chosen greedily by new transitions per step (a render counts as two steps).
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
  const transitions = definedTransitions(model.machine);
  const base = shortestPaths(model).filter((path) => path.steps.length > 0);
  const walked = new Map<ModelPath, Set<string>>();
  // Walks include the transitions taken on start (a restoring machine settles through `always`).
  const walk = async (path: ModelPath) => {
    let taken = walked.get(path);
    if (!taken) {
      taken = await walkPath(model, path);
      walked.set(path, taken);
    }
    return taken;
  };
  const reasonOf = (path: ModelPath) => {
    const mapped = mapPath(model, path, mapper);
    return 'reason' in mapped ? mapped.reason : null;
  };

  const pool = base.filter((path) => reasonOf(path) === null);
  const reachable = new Set<string>();
  for (const path of pool) for (const key of await walk(path)) reachable.add(key);

  const notDrivable: { key: string; reason: string }[] = [];
  for (const transition of transitions) {
    if (reachable.has(transition.key) || covered.has(transition.key)) continue;
    let reason: string | null = null;
    let found = false;
    for (const candidate of candidatePathsFor(model, transition, base)) {
      const why = reasonOf(candidate);
      if (why !== null && reason !== null) continue;
      const taken = await walk(candidate);
      if (!taken.has(transition.key)) continue;
      if (why !== null) {
        reason = why;
        continue;
      }
      pool.push(candidate);
      for (const key of taken) reachable.add(key);
      found = true;
      break;
    }
    if (!found) notDrivable.push({ key: transition.key, reason: reason ?? 'no generated path takes it' });
  }

  const target = new Set([...reachable].filter((key) => !covered.has(key)));
  const planned = new Map<string, string>();
  const paths: ModelPath[] = [];
  const gainOf = (path: ModelPath) => [...(walked.get(path) ?? [])].filter((key) => target.has(key) && !planned.has(key)).length;
  while (planned.size < target.size) {
    let best: ModelPath | undefined;
    let bestScore = 0;
    for (const path of pool) {
      const score = gainOf(path) / (path.steps.length + 2);
      if (score > bestScore) {
        best = path;
        bestScore = score;
      }
    }
    if (!best) break;
    paths.push(best);
    for (const key of walked.get(best) ?? []) if (target.has(key) && !planned.has(key)) planned.set(key, describeUiPath(best));
  }
  paths.sort((a, b) => a.steps.length - b.steps.length);
  // A candidate kept for one transition may also walk one listed as missing before it.
  return { model, paths, transitions, planned, notDrivable: notDrivable.filter((entry) => !reachable.has(entry.key)) };
}

/** A short form of a payload value: addresses cut, providers by id, errors by name, nested records as {…}. */
function brief(value: unknown, depth = 0): string {
  if (typeof value === 'string') return /^0x[0-9a-fA-F]{40}$/.test(value) ? `${value.slice(0, 6)}…` : JSON.stringify(value);
  if (typeof value !== 'object' || value === null) return String(value);
  if (Array.isArray(value)) return `[${value.map((item) => brief(item, depth + 1)).join(', ')}]`;
  const record = value as Record<string, unknown>;
  if (typeof record.id === 'string') return record.id;
  if (typeof record.name === 'string') return record.name;
  if (depth > 0) return '{…}';
  return Object.entries(record)
    .map(([key, field]) => `${key}: ${brief(field, depth + 1)}`)
    .join(', ');
}

function payloadOf(event: Record<string, unknown>): string {
  const { type: _type, ...fields } = event;
  if ('output' in fields) return `(${brief(fields.output)})`;
  if ('error' in fields && typeof (fields.error as { name?: unknown }).name === 'string') return `(${brief(fields.error)})`;
  return Object.keys(fields).length > 0 ? `(${brief(fields)})` : '';
}

/**
 * A path's name for test titles: each event with a short payload, e.g.
 * "user.connect(chainId: 56, chainParams: {…}) → done:findProviders([io.metamask]) → error:requestAccounts(UserRejectedError)".
 */
export function describeUiPath(path: ModelPath): string {
  return path.steps
    .map((step) => {
      const type = step.event.type
        .replace(/^xstate\.(done|error)\.actor\./, (_, kind: string) => `${kind}:`)
        .replace(/^xstate\.after\.([^.]+)\..*$/, 'after:$1');
      return `${type}${payloadOf(step.event as Record<string, unknown>)}`;
    })
    .join(' → ');
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
