/**
 * Path generation for model-based tests (docs/architecture.md, "Model-based tests").
 *
 * @xstate/graph's createTestModel refuses machines that invoke actors or use `after` (ours do both), so this
 * module asks @xstate/graph for the graph and the shortest paths itself, offering the done, error and timer
 * events with real payloads through the `events` option, and scripts/machineGraph/pathWalker.ts walks each path
 * against the real machine. Nothing here runs an actor: it is pure graph work, shared by the tests and the
 * diagrams script.
 */
import { getAdjacencyMap, getShortestPaths } from '@xstate/graph';
import { pathToStateValue } from 'xstate';
import type { AnyStateMachine, AnyStateNode, EventObject, StateValue } from 'xstate';

/** An event with its payload fields. */
export type ModelEvent = EventObject & Record<string, unknown>;

/** What a model test knows about one machine: the events it may receive, with payloads. */
/** One machine of the diagrams and the atlas: its file, where it is defined, and the models that walk it. */
export interface MachineEntry {
  /** File name under machines/ and docs/machines/. */
  name: string;
  source: string;
  summary: string;
  models: MachineModel[];
}

export interface MachineModel {
  name: string;
  machine: AnyStateMachine;
  input?: unknown;
  /**
   * Every event the machine may get, user and provider events as well as `xstate.done.actor.<id>` (with
   * `output`) and `xstate.error.actor.<id>` (with `error`). Timer events need not be listed.
   */
  events: readonly ModelEvent[];
  /** Invoked actors that only listen (callback actors): the walker supplies silent fakes for these. */
  callbackActors?: readonly string[];
  /** Upper bound on traversal steps: a model that grows past it is a bug in the model. */
  limit?: number;
}

export interface PathStep {
  event: EventObject;
  value: StateValue;
  context: unknown;
}

export interface ModelPath {
  /** Stable, readable name: the events of the path joined by arrows. */
  description: string;
  steps: PathStep[];
}

/** A transition as the machine defines it: one row of the diagram's table. */
export interface DefinedTransition {
  key: string;
  source: string;
  event: string;
  guard: string | null;
  targets: string[];
  description: string | null;
  /** The wallet error codes that take this transition (the machine's transition meta). */
  walletCodes: number[];
  apiCodes: number[];
  /** The decision record (docs/decisions/<name>.md) behind it (the machine's transition meta). */
  decision: string | null;
}

type TransitionDefinitionLike = {
  source: AnyStateNode;
  eventType: string;
  target?: readonly AnyStateNode[] | undefined;
  guard?: unknown;
  description?: string | undefined;
  meta?: { walletCodes?: readonly number[]; apiCodes?: readonly number[]; decision?: string } | undefined;
};

/** Lists every state node of a machine, the root first. */
export function allStateNodes(machine: AnyStateMachine): AnyStateNode[] {
  const nodes: AnyStateNode[] = [];
  const visit = (node: AnyStateNode) => {
    nodes.push(node);
    for (const child of Object.values(node.states) as AnyStateNode[]) visit(child);
  };
  visit(machine.root);
  return nodes;
}

/**
 * A guard as the diagram names it: its name, or xstate's and/or/not written out ("and(hasMainToken, hasAddress)").
 * Those combinators are functions that carry their operands in `guards` (xstate packages/core/src/guards.ts).
 */
export function guardName(guard: unknown): string | null {
  if (guard === undefined || guard === null) return null;
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'object' && 'type' in guard && typeof guard.type === 'string') return guard.type;
  if (typeof guard === 'function' && 'guards' in guard && Array.isArray(guard.guards)) {
    const operands = (guard.guards as unknown[]).map((operand) => guardName(operand) ?? 'inline');
    return `${guard.name}(${operands.join(', ')})`;
  }
  return 'inline';
}

/** The unique key of a transition definition: source, event and its place among the candidates. */
export function transitionKey(transition: TransitionDefinitionLike): string {
  const source = transition.source;
  const candidates: readonly unknown[] =
    transition.eventType === '' ? (source.always ?? []) : (source.transitions.get(transition.eventType) ?? []);
  const index = candidates.indexOf(transition);
  return `${source.id}|${transition.eventType || 'always'}|${index}`;
}

function describeTransition(transition: TransitionDefinitionLike): DefinedTransition {
  return {
    key: transitionKey(transition),
    source: transition.source.id,
    event: transition.eventType || 'always',
    guard: guardName(transition.guard),
    targets: (transition.target ?? []).map((node) => node.id),
    description: transition.description ?? null,
    walletCodes: [...(transition.meta?.walletCodes ?? [])],
    apiCodes: [...(transition.meta?.apiCodes ?? [])],
    decision: transition.meta?.decision ?? null,
  };
}

/** Every (source state, event, guard, target) transition the machine defines, including `always` and `after`. */
export function definedTransitions(machine: AnyStateMachine): DefinedTransition[] {
  const rows: DefinedTransition[] = [];
  for (const node of allStateNodes(machine)) {
    for (const candidates of node.transitions.values()) {
      for (const transition of candidates) rows.push(describeTransition(transition as TransitionDefinitionLike));
    }
    for (const transition of node.always ?? []) rows.push(describeTransition(transition as TransitionDefinitionLike));
  }
  return rows;
}

/** Timer events (`xstate.after.<delay>.<state id>`) of every `after` the machine defines. */
function timerEvents(machine: AnyStateMachine): EventObject[] {
  const types = new Set(definedTransitions(machine).map((row) => row.event).filter((type) => type.startsWith('xstate.after.')));
  return [...types].map((type) => ({ type }));
}

function traversalOptions(model: MachineModel) {
  return {
    input: model.input,
    events: [...model.events, ...timerEvents(model.machine)] as EventObject[],
    limit: model.limit ?? 200_000,
  };
}

function describeEvent(event: EventObject): string {
  return event.type.replace(/^xstate\.(done|error)\.actor\./, (_, kind: string) => `${kind}:`).replace(/^xstate\.after\.([^.]+)\..*$/, 'after:$1');
}

function toModelPath(steps: { event: EventObject; state: GraphSnapshot }[]): ModelPath {
  const walked = steps.filter((step) => step.event.type !== 'xstate.init');
  return {
    description: walked.length === 0 ? '(initial)' : walked.map((step) => describeEvent(step.event)).join(' → '),
    steps: walked.map((step) => ({ event: step.event, value: step.state.value, context: step.state.context })),
  };
}

/** A snapshot as the graph hands it over, read through the fields this file uses (xstate types them `any`). */
interface GraphSnapshot {
  value: StateValue;
  context: unknown;
  matches(value: StateValue): boolean;
  can(event: EventObject): boolean;
}

/** A state of @xstate/graph's adjacency map as this file reads it: its own types leave both fields `any`. */
interface AdjacencyEntry {
  state: GraphSnapshot;
  transitions: Record<string, { event: EventObject; state: GraphSnapshot }>;
}

const adjacencyMaps = new WeakMap<MachineModel, AdjacencyEntry[]>();

function adjacencyOf(model: MachineModel): AdjacencyEntry[] {
  let adjacency = adjacencyMaps.get(model);
  if (!adjacency) {
    adjacency = Object.values(getAdjacencyMap(model.machine, traversalOptions(model)) as unknown as Record<string, AdjacencyEntry>);
    adjacencyMaps.set(model, adjacency);
  }
  return adjacency;
}

/** The shortest path to every reachable state (value and context) of the model's machine. */
export function shortestPaths(model: MachineModel): ModelPath[] {
  const paths = getShortestPaths(model.machine, traversalOptions(model)) as { steps: { event: EventObject; state: GraphSnapshot }[] }[];
  return paths.map((path) => toModelPath(path.steps));
}

/**
 * Candidate paths for a transition the shortest paths may miss: the shortest path to each state that could take
 * it, followed by one event of the right type. The walker keeps the first that really takes the transition.
 */
export function candidatePathsFor(model: MachineModel, transition: DefinedTransition, base: ModelPath[]): ModelPath[] {
  const adjacency = adjacencyOf(model);
  const sourcePath = transition.source.split('.').slice(1);
  const byState = new Map<string, ModelPath>();
  for (const path of base) {
    const last = path.steps.at(-1);
    const key = JSON.stringify(last ? { value: last.value, context: last.context } : '(initial)');
    byState.set(key, path);
  }
  const candidates: ModelPath[] = [];
  for (const entry of adjacency) {
    const snapshot = entry.state;
    if (sourcePath.length > 0 && !snapshot.matches(pathToStateValue(sourcePath))) continue;
    const head = byState.get(JSON.stringify({ value: snapshot.value, context: snapshot.context })) ?? base.find((p) => p.steps.length === 0);
    if (!head) continue;
    for (const next of Object.values(entry.transitions)) {
      if (transition.event !== 'always' && next.event.type !== transition.event) continue;
      const nextSnapshot = next.state;
      const steps = [...head.steps, { event: next.event, value: nextSnapshot.value, context: nextSnapshot.context }];
      candidates.push({ description: steps.map((step) => describeEvent(step.event)).join(' → '), steps });
    }
  }
  return candidates.sort((a, b) => a.steps.length - b.steps.length);
}

/** One event of a named journey: its type, and the payload fields that pick it among the model's events. */
export type EventSpec = { type: string } & Record<string, unknown>;

function matchesSpec(event: EventObject, spec: EventSpec): boolean {
  if (event.type !== spec.type) return false;
  const fields = event as unknown as Record<string, unknown>;
  return Object.entries(spec).every(([field, value]) => JSON.stringify(fields[field]) === JSON.stringify(value));
}

/**
 * The path a named journey takes through the model's graph, one event after another from the start (the atlas'
 * storyboards). Throws when an event cannot happen where the journey has got to, so a journey that the
 * machine no longer allows fails the atlas check.
 *
 * @param model - the machine's test model
 * @param specs - the journey's events, each with the payload fields that pick it
 * @returns the path, ready for walkPath
 * @example
 * pathFromEvents(withdrawModel, [{ type: 'field.change', value: '12.5' }, { type: 'user.submit' }]);
 */
export function pathFromEvents(model: MachineModel, specs: readonly EventSpec[]): ModelPath {
  const entries = adjacencyOf(model);
  let current = entries[0];
  const steps: PathStep[] = [];
  for (const spec of specs) {
    if (!current) throw new Error(`${model.name}: the journey left the graph before ${spec.type}`);
    const snapshot = current.state;
    // The graph lists every event in every state, those the state ignores too: only one it can take counts.
    const next = Object.values(current.transitions).find(
      (candidate) => matchesSpec(candidate.event, spec) && (candidate.event.type.startsWith('xstate.after.') || snapshot.can(candidate.event)),
    );
    if (!next) throw new Error(`${model.name}: ${JSON.stringify(spec)} cannot happen in ${JSON.stringify(snapshot.value)}`);
    steps.push({ event: next.event, value: next.state.value, context: next.state.context });
    current = entries.find(
      (entry) =>
        JSON.stringify(entry.state.value) === JSON.stringify(next.state.value) &&
        JSON.stringify(entry.state.context) === JSON.stringify(next.state.context),
    );
  }
  return { description: steps.map((step) => describeEvent(step.event)).join(' → '), steps };
}
