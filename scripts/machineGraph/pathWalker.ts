/**
 * Walks generated paths against the real machine: every invoked promise actor is replaced (through
 * `machine.provide`) by a fake that settles only when the path's next event says so, timers run on a simulated
 * clock, and after each step the real actor's state value and context must equal the path's. Each transition the
 * actor really takes is recorded from XState's inspection API, so coverage is measured, not assumed.
 */
import { isDeepStrictEqual } from 'node:util';
import { createActor, fromCallback, fromPromise, SimulatedClock } from 'xstate';
import type { AnyActorRef, AnyStateMachine, EventObject, InspectionEvent } from 'xstate';
import { candidatePathsFor, definedTransitions, shortestPaths, transitionKey } from './modelPaths';
import type { DefinedTransition, MachineModel, ModelPath } from './modelPaths';

interface Deferred {
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** The fakes of one walk: pending promise actors by invoke id. */
class FakeActorRegistry {
  readonly pending = new Map<string, Deferred>();

  settle(id: string, outcome: { output: unknown } | { error: unknown }): void {
    const deferred = this.pending.get(id);
    if (!deferred) throw new Error(`path expects actor "${id}" to settle, but it is not running`);
    this.pending.delete(id);
    if ('output' in outcome) deferred.resolve(outcome.output);
    else deferred.reject(outcome.error);
  }
}

/** The registry of the walk in progress; walks run one after another, so one slot serves them all. */
const activeRegistry: { current: FakeActorRegistry | null } = { current: null };
const providedMachines = new WeakMap<MachineModel, AnyStateMachine>();

/** The model's machine with fake actors that register with the walk in progress (cached: provide() is costly). */
function provideFakes(model: MachineModel, provided: { actions?: Record<string, unknown> }): AnyStateMachine {
  const cached = provided.actions ? undefined : providedMachines.get(model);
  if (cached) return cached;
  const fakes: Record<string, unknown> = {};
  for (const name of Object.keys(model.machine.implementations.actors)) {
    fakes[name] = model.callbackActors?.includes(name)
      ? fromCallback(() => () => undefined)
      : fromPromise(
          ({ self }) =>
            new Promise((resolve, reject) => {
              activeRegistry.current?.pending.set(self.id, { resolve, reject });
            }),
        );
  }
  const machine = model.machine.provide({ actors: fakes, actions: provided.actions ?? {} } as never) as AnyStateMachine;
  if (!provided.actions) providedMachines.set(model, machine);
  return machine;
}

/** Lets promise callbacks and the actor's reaction to them run. */
export async function flushPromises(): Promise<void> {
  // A settled fake reaches the machine a few promise jobs later; no timer is needed.
  for (let turn = 0; turn < 10; turn += 1) await Promise.resolve();
}

function delayMs(machine: AnyStateMachine, name: string): number {
  const delay = (machine.implementations.delays as Record<string, unknown>)[name];
  if (typeof delay === 'number') return delay;
  const numeric = Number(name);
  if (Number.isFinite(numeric)) return numeric;
  throw new Error(`unknown delay "${name}"`);
}

/** A machine with fake actors and a simulated clock, ready to walk paths on. */
export interface WalkHarness {
  actor: AnyActorRef;
  clock: SimulatedClock;
  taken: Set<string>;
  /** Delivers one path event: settles a fake actor, advances the clock, or sends the event. */
  deliver: (event: EventObject) => Promise<void>;
  stop: () => void;
}

/**
 * Starts the model's machine with fake actors, a simulated clock and transition recording.
 *
 * @param model the machine model
 * @param provided extra implementations (e.g. actions that record side effects)
 */
export function startHarness(model: MachineModel, provided: { actions?: Record<string, unknown> } = {}): WalkHarness {
  const registry = new FakeActorRegistry();
  const machine = provideFakes(model, provided);
  activeRegistry.current = registry;
  const clock = new SimulatedClock();
  const taken = new Set<string>();
  const actor = createActor(machine, {
    input: model.input,
    clock,
    inspect: (inspection: InspectionEvent) => {
      // Only the machine under test (the root actor), not its fake children.
      if (inspection.type !== '@xstate.microstep' || (inspection.actorRef as AnyActorRef).sessionId !== inspection.rootId) return;
      for (const transition of inspection._transitions) taken.add(transitionKey(transition as never));
    },
  });
  actor.start();
  const deliver = async (event: EventObject) => {
    const done = /^xstate\.done\.actor\.(.+)$/.exec(event.type);
    const failed = /^xstate\.error\.actor\.(.+)$/.exec(event.type);
    const timer = /^xstate\.after\.([^.]+)\./.exec(event.type);
    if (done?.[1]) registry.settle(done[1], { output: (event as EventObject & { output: unknown }).output });
    else if (failed?.[1]) registry.settle(failed[1], { error: (event as EventObject & { error: unknown }).error });
    else if (timer?.[1]) clock.increment(delayMs(model.machine, timer[1]));
    else actor.send(event);
    await flushPromises();
  };
  return { actor, clock, taken, deliver, stop: () => actor.stop() };
}

/**
 * Walks one path and throws at the first step where the real machine differs from the path.
 *
 * @returns the keys of the transitions the machine took
 */
export async function walkPath(model: MachineModel, path: ModelPath): Promise<Set<string>> {
  const harness = startHarness(model);
  try {
    for (const [index, step] of path.steps.entries()) {
      await harness.deliver(step.event);
      const snapshot = harness.actor.getSnapshot() as { value: unknown; context: unknown };
      if (!isDeepStrictEqual(snapshot.value, step.value) || !isDeepStrictEqual(snapshot.context, step.context)) {
        throw new Error(
          `${model.name}: step ${index + 1} (${step.event.type}) of "${path.description}"\n` +
            `expected ${JSON.stringify({ value: step.value, context: step.context })}\n` +
            `received ${JSON.stringify({ value: snapshot.value, context: snapshot.context })}`,
        );
      }
    }
    return harness.taken;
  } finally {
    harness.stop();
  }
}

/** The paths a model test walks, and which path first walks each transition. */
export interface PathPlan {
  paths: ModelPath[];
  transitions: DefinedTransition[];
  /** transition key → description of the first path that walks it */
  walkedBy: Map<string, string>;
}

/**
 * Plans the model's paths: the shortest path to every reachable state, plus, for any defined transition those
 * miss, the shortest candidate path that really takes it. Walks every path once to measure coverage.
 */
export async function planPaths(model: MachineModel): Promise<PathPlan> {
  const transitions = definedTransitions(model.machine);
  const base = shortestPaths(model);
  const paths: ModelPath[] = [];
  const walkedBy = new Map<string, string>();
  const record = (path: ModelPath, taken: Set<string>) => {
    let added = false;
    for (const key of taken) {
      if (!walkedBy.has(key)) {
        walkedBy.set(key, path.description);
        added = true;
      }
    }
    return added;
  };
  for (const path of base) {
    // The start alone is a path only when its eventless transitions (a decision closed from its input) are walked by
    // no other: record() keeps it then, and skips it otherwise.
    const taken = await walkPath(model, path);
    // A path that walks no new transition only re-proves the ones before it: keep the plan small.
    if (record(path, taken)) paths.push(path);
  }
  for (const transition of transitions) {
    if (walkedBy.has(transition.key)) continue;
    for (const candidate of candidatePathsFor(model, transition, base)) {
      const taken = await walkPath(model, candidate);
      if (taken.has(transition.key)) {
        record(candidate, taken);
        paths.push(candidate);
        break;
      }
    }
  }
  return { paths, transitions, walkedBy };
}
