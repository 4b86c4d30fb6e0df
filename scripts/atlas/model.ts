/**
 * The atlas' view of the machines: every state and transition of every machine, the key of its zh and en
 * text, the codes that lead there, the decision record behind it, whether it is on the happy path, and the generated
 * test path that walks it. Read from the machine definitions and the path planner, never written by hand, so the
 * atlas cannot draw what does not exist.
 *
 * Where the text comes from: a state's `description` and a transition's `description` are short keys
 * (e.g. `wallet.idle.noWallet`, `moneyFlow.submitting:user.cancel`) into locales/<lng>/atlas.json, which only the
 * atlas reads, so the prose never reaches the member's bundle. A transition without a description is keyed by what
 * it is, `<machine>.<source>:<event>[<guard>]`: the key changes when the transition does, so the check notices.
 */
import { initialTransition } from 'xstate';
import type { AnyStateMachine, AnyStateNode, EventObject, StateValue } from 'xstate';
import { machineEntries } from '../machineGraph/models';
import type { MachineEntry } from '../machineGraph/models';
import { planPaths } from '../machineGraph/pathWalker';
import { allStateNodes, definedTransitions } from '../machineGraph/modelPaths';
import type { DefinedTransition, MachineModel, ModelPath } from '../machineGraph/modelPaths';

import { eventLabel, transitionTextKey } from '../machineGraph/texts';

export interface AtlasState {
  /** XState id, e.g. `wallet.activating.requestingAccounts`. */
  id: string;
  /** The id without the machine: `activating.requestingAccounts`. */
  path: string;
  key: string;
  textKey: string;
  parent: string | null;
  children: string[];
  tags: string[];
  final: boolean;
  initial: boolean;
}

export interface AtlasStep {
  event: string;
  /** The transition this step takes (its id), as far as the states before and after tell. */
  transition: string | null;
  /** The event as the diagram labels it. */
  label: string;
  /** The state reached: its leaf state ids. */
  states: string[];
}

export interface AtlasPath {
  id: string;
  description: string;
  model: string;
  steps: AtlasStep[];
  /** Transition ids the path walks, in order. */
  transitions: string[];
}

export interface AtlasTransition {
  /** Stable anchor: t-<n> in definition order. */
  id: string;
  /** The walker's key: `<source>|<event>|<index>`. */
  key: string;
  textKey: string;
  source: string;
  targets: string[];
  event: string;
  label: string;
  guard: string | null;
  walletCodes: number[];
  apiCodes: number[];
  decision: string | null;
  /** On the member's intended path (no error, refusal, timeout or code): drawn apart from the rest. */
  happy: boolean;
  /** The generated test path that first walks it. */
  walkedBy: string | null;
}

export interface AtlasMachine {
  name: string;
  source: string;
  summary: string;
  states: AtlasState[];
  transitions: AtlasTransition[];
  paths: AtlasPath[];
}

/** Where a member meets each machine: the index groups them so. */
export const machineGroups: ReadonlyArray<{ id: string; machines: readonly string[] }> = [
  { id: 'gettingIn', machines: ['wallet', 'auth', 'config'] },
  { id: 'memberArea', machines: ['copy', 'pagedList', 'search', 'resource'] },
  { id: 'money', machines: ['withdraw', 'transfer', 'exchange', 'topUp', 'watchAsset'] },
  { id: 'shop', machines: ['settlement', 'addressForm', 'addressBook'] },
  { id: 'operators', machines: ['opsSession', 'withdrawalDecision', 'withdrawalBulkApproval', 'heldTopUp', 'orderShipping', 'noticePublication', 'opsAction'] },
];

/** Every machine entry, in index order. */
export function atlasEntries(): MachineEntry[] {
  return machineEntries;
}

const withoutMachine = (id: string) => id.split('.').slice(1).join('.');

/** States whose name says something went wrong or the member stopped: an edge into one is an error path. */
const ERROR_STATE = /fail|error|refus|reject|noWallet|sessionEnded|interrupted|timedOut|notFound|missing|soldOut|unavailable|invalid|replaced|lost|gone|blocked|expired/i;
/** Guards that pick a refusal or a fault out of an answer. */
const ERROR_GUARD = /Rejected|Refused|Pending|Error|Unsupported|Unknown|Expired|NotSignedIn|Retryable|FixedByEditing|StillProcessing|TimedOut|Gone|Short|Missing|isNot|Failed/;

function isHappy(row: DefinedTransition): boolean {
  if (row.event.startsWith('xstate.error.') || row.event.startsWith('xstate.after.')) return false;
  if (row.walletCodes.length > 0 || row.apiCodes.length > 0) return false;
  if (row.guard && ERROR_GUARD.test(row.guard)) return false;
  if (row.targets.some((target) => ERROR_STATE.test(target.split('.').at(-1) ?? ''))) return false;
  if (/^(user\.(cancel|leave|signOut|disconnect)|wallet\.disconnected|provider\.disconnect|server\.tokenExpired)/.test(row.event)) return false;
  return true;
}

function leafIds(machine: AnyStateMachine, value: StateValue): string[] {
  const out: string[] = [];
  const visit = (prefix: string, v: StateValue) => {
    if (typeof v === 'string') out.push(`${prefix}.${v}`);
    else for (const [key, child] of Object.entries(v)) visit(`${prefix}.${key}`, child as StateValue);
  };
  visit(machine.id, value);
  return out;
}

const isAtOrBelow = (id: string, ancestor: string) => id === ancestor || id.startsWith(`${ancestor}.`);

/**
 * The transition a step takes: one on this event from a state the member was in (or above it) whose target holds a
 * state the member is in after it (or none, for a transition that stays). Guards are not evaluated: among several
 * candidates the machine's order decides, as it does for the machine.
 */
function stepTransition(transitions: readonly AtlasTransition[], before: readonly string[], event: string, after: readonly string[]): string | null {
  const candidates = transitions.filter((t) => t.event === event && before.some((id) => isAtOrBelow(id, t.source)));
  const taken = candidates.find((t) => (t.targets.length === 0 ? after.some((id) => isAtOrBelow(id, t.source)) : t.targets.some((target) => after.some((id) => isAtOrBelow(id, target)))));
  return taken?.id ?? null;
}

/**
 * A planned or named path as the atlas shows it: its steps, each with the states reached and the transition taken.
 *
 * @example toAtlasPath(machine, walletMachine, path, 'p-1', 'wallet')
 */
export function toAtlasPath(machine: Pick<AtlasMachine, 'transitions'>, model: MachineModel, path: ModelPath, id: string): AtlasPath {
  const definition = model.machine;
  let before = leafIds(definition, initialTransition(definition, model.input)[0].value as StateValue);
  const steps: AtlasStep[] = path.steps.map((step: { event: EventObject; value: StateValue }) => {
    const after = leafIds(definition, step.value);
    const transition = stepTransition(machine.transitions, before, step.event.type, after);
    before = after;
    return { event: step.event.type, transition, label: eventLabel(step.event.type), states: after };
  });
  return { id, description: path.description, model: model.name, steps, transitions: [...new Set(steps.flatMap((step) => (step.transition ? [step.transition] : [])))] };
}

/**
 * Reads one machine into the atlas' shape, planning its test paths (the same planner as the path tests and
 * docs/machines).
 *
 * @param entry - the machine's entry in scripts/machineGraph/models.ts (or the buy flow's)
 * @returns states, transitions and paths
 * @example
 * const wallet = await readMachine(atlasEntries()[0]);
 */
export async function readMachine(entry: MachineEntry): Promise<AtlasMachine> {
  const machine = entry.models[0]?.machine;
  if (!machine) throw new Error(`${entry.name} has no model`);
  const nodes = allStateNodes(machine);
  const states: AtlasState[] = nodes.map((node: AnyStateNode) => {
    const parent = node.parent;
    const initial = parent?.initial?.target?.[0] === node || (node === machine.root);
    return {
      id: node.id,
      path: withoutMachine(node.id),
      key: node.key,
      textKey: node.description ?? '',
      parent: parent ? parent.id : null,
      children: (Object.values(node.states) as AnyStateNode[]).map((child) => child.id),
      tags: [...node.tags],
      final: node.type === 'final',
      initial,
    };
  });
  const rows = definedTransitions(machine);
  const transitions: AtlasTransition[] = rows.map((row, index) => ({
    id: `t-${index + 1}`,
    key: row.key,
    textKey: transitionTextKey(entry.name, row),
    source: row.source,
    targets: row.targets,
    event: row.event,
    label: eventLabel(row.event),
    guard: row.guard,
    walletCodes: row.walletCodes,
    apiCodes: row.apiCodes,
    decision: row.decision,
    happy: isHappy(row),
    walkedBy: null,
  }));
  const byKey = new Map(transitions.map((t) => [t.key, t]));
  const paths: AtlasPath[] = [];
  for (const model of entry.models) {
    const plan = await planPaths(model);
    for (const path of plan.paths) {
      const atlasPath = toAtlasPath({ transitions }, model, path, `p-${paths.length + 1}`);
      paths.push(atlasPath);
      for (const [key, description] of plan.walkedBy) {
        const t = byKey.get(key);
        if (t && t.walkedBy === null && description === path.description) t.walkedBy = atlasPath.id;
      }
    }
  }
  return { name: entry.name, source: entry.source, summary: entry.summary, states, transitions, paths };
}

/**
 * Reads every machine.
 *
 * @returns the machines in index order
 * @example
 * const machines = await readAtlas();
 */
export async function readAtlas(): Promise<AtlasMachine[]> {
  const out: AtlasMachine[] = [];
  for (const entry of atlasEntries()) out.push(await readMachine(entry));
  return out;
}

/** Every text key the machines use, with what uses it (for the check and for writing the texts). */
export function usedTextKeys(machines: readonly AtlasMachine[]): Map<string, string[]> {
  const used = new Map<string, string[]>();
  const add = (key: string, by: string) => used.set(key, [...(used.get(key) ?? []), by]);
  for (const machine of machines) {
    for (const state of machine.states) if (state.textKey) add(state.textKey, `state ${state.id}`);
    for (const t of machine.transitions) add(t.textKey, `transition ${t.source} ${t.label}${t.guard ? ` [${t.guard}]` : ''} → ${t.targets.join(', ') || '(stays)'}`);
  }
  return used;
}
