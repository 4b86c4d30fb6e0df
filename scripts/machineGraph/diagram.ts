/**
 * Renders a machine as Markdown for product owners: a Mermaid stateDiagram-v2 drawn from the definition, what each
 * state means (its description), what each wallet answer (4902, 4001, -32002, ...) leads to and which decision
 * record decides it, and a table of every transition with its guard, its notes and the generated test path that
 * walks it.
 */
import type { AnyStateMachine, AnyStateNode } from 'xstate';
import { WalletErrorCodes, walletErrorNameOfCode } from '../../machines/shared/errorNames';
import type { DefinedTransition } from './modelPaths';
import { allStateNodes, definedTransitions } from './modelPaths';
import { atlasTexts, eventLabel, transitionTextKey } from './texts';

export { eventLabel };

/** The English texts of states and transitions (locales/en/atlas.json; the keys are the machines' descriptions). */
type Texts = Readonly<Record<string, string>>;

/** Where the decision records are, from docs/machines. */
const decisionsDir = '../decisions';

/** Table cell text: one line, pipes escaped. */
const cell = (text: string) => text.replace(/\s+/g, ' ').replace(/\|/g, '\\|').trim();

/** A link to a decision record: "[ADR 0003](../decisions/0003-....md)". */
export function decisionLink(decision: string): string {
  return `[ADR ${decision.slice(0, 4)}](${decisionsDir}/${decision}.md)`;
}

/** A wallet code with the error the app names it: "4902 UnrecognizedChainError". */
export function walletCodeLabel(code: number): string {
  const name = (walletErrorNameOfCode as Readonly<Record<number, string>>)[code];
  if (name) return `${code} ${name}`;
  if (code === WalletErrorCodes.reconnecting) return `${code} (reconnecting)`;
  return code === WalletErrorCodes.internalError ? `${code} (internal error, in any language)` : String(code);
}

/** The decision records the machine's transitions name (the diagrams script checks that each exists). */
export function decisionsOf(machine: AnyStateMachine): string[] {
  return [...new Set(definedTransitions(machine).flatMap((row) => (row.decision ? [row.decision] : [])))];
}

function notes(row: DefinedTransition, text: string): string {
  const parts: string[] = [];
  if (row.walletCodes.length > 0) parts.push(`wallet ${row.walletCodes.map(walletCodeLabel).join(', ')}`);
  if (row.apiCodes.length > 0) parts.push(`API ${row.apiCodes.join(', ')}`);
  if (text) parts.push(text);
  if (row.decision) parts.push(decisionLink(row.decision));
  return cell(parts.join('. ').replace(/\.\. /g, '. '));
}

function statesTable(machine: AnyStateMachine, texts: Texts): string[] {
  const rows = allStateNodes(machine)
    .filter((node) => node !== machine.root)
    .map((node) => `| ${node.id} | ${[...node.tags].join(', ')} | ${cell(texts[node.description ?? ''] ?? node.description ?? '')} |`);
  return ['## States', '', '| state | tags | what it means |', '|---|---|---|', ...rows, ''];
}

function walletAnswersTable(rows: DefinedTransition[], textOf: (row: DefinedTransition) => string): string[] {
  const byCode = rows.flatMap((row) => row.walletCodes.map((code) => ({ code, row })));
  if (byCode.length === 0) return [];
  byCode.sort((a, b) => Math.abs(a.code) - Math.abs(b.code) || a.row.source.localeCompare(b.row.source));
  const lines = byCode.map(({ code, row }) => {
    const to = row.targets.length > 0 ? row.targets.join(', ') : '(stays)';
    const decided = row.decision ? decisionLink(row.decision) : '';
    return `| ${walletCodeLabel(code)} | ${row.source} | ${eventLabel(row.event)} | ${to} | ${cell(textOf(row))} | ${decided} |`;
  });
  return [
    '## What the wallet\'s answers do',
    '',
    'Each wallet error code the app tells apart, the state it can arrive in, and where it leads. The member sees the',
    'error as `wallet.errors.{name}` in their language.',
    '',
    '| wallet code | in state | on | leads to | what happens | decided in |',
    '|---|---|---|---|---|---|',
    ...lines,
    '',
  ];
}

const nodeId = (id: string) => id.replace(/\./g, '__');

/**
 * The diagram's name for a transition's source. A transition on the machine itself (`on` at the root) is taken in
 * whichever state the machine is; Mermaid would draw the root's id as a state of its own that does not exist, so it
 * starts from a pseudo-state named "(any state)".
 */
const sourceNodeId = (row: DefinedTransition, rootId: string) => (row.source === rootId ? `${nodeId(rootId)}__anyState` : nodeId(row.source));

function arrow(row: DefinedTransition, rootId: string): string[] {
  const label = `${eventLabel(row.event)}${row.guard ? ` [${row.guard}]` : ''}`;
  const source = sourceNodeId(row, rootId);
  const targets = row.targets.length > 0 ? row.targets.map(nodeId) : [source];
  return targets.map((target) => `${source} --> ${target} : ${label}`);
}

function renderNode(node: AnyStateNode, rows: DefinedTransition[], indent: string, rootId: string): string[] {
  const lines: string[] = [];
  const children = Object.values(node.states) as AnyStateNode[];
  for (const child of children) {
    const id = nodeId(child.id);
    const grandChildren = Object.values(child.states) as AnyStateNode[];
    if (grandChildren.length > 0) {
      lines.push(`${indent}state "${child.key}" as ${id} {`);
      lines.push(...renderNode(child, rows, `${indent}  `, rootId));
      lines.push(`${indent}}`);
    } else {
      lines.push(`${indent}state "${child.key}" as ${id}`);
    }
  }
  const initial = node.initial?.target?.[0] as AnyStateNode | undefined;
  if (initial) lines.push(`${indent}[*] --> ${nodeId(initial.id)}`);
  // Transitions are drawn inside the state that holds their source, so composite states stay readable.
  for (const child of children) {
    for (const row of rows.filter((r) => r.source === child.id)) lines.push(...arrow(row, rootId).map((line) => indent + line));
  }
  return lines;
}

/**
 * Renders one machine's Markdown page.
 *
 * @param walkedBy transition key → the description of the first test path walking it
 */
export function renderMachineMarkdown(
  entry: { name: string; source: string; summary: string },
  machine: AnyStateMachine,
  walkedBy: Map<string, string>,
  pathCount: number,
): string {
  const rows = definedTransitions(machine);
  const rootId = machine.root.id;
  const texts = atlasTexts('en');
  // A description that is not (yet) a key shows as written; npm run atlas:check asks for its zh and en texts.
  const textOf = (row: DefinedTransition) => texts[transitionTextKey(entry.name, row)] ?? row.description ?? '';
  const rootRows = rows.filter((row) => row.source === rootId);
  const anyState = rootRows.length > 0 ? [`  state "(any state)" as ${nodeId(rootId)}__anyState`] : [];
  const mermaid = [
    'stateDiagram-v2',
    ...renderNode(machine.root, rows, '  ', rootId),
    ...anyState,
    ...rootRows.flatMap((row) => arrow(row, rootId).map((l) => `  ${l}`)),
  ];
  const table = rows.map((row) => {
    const to = row.targets.length > 0 ? row.targets.join(', ') : '(stays)';
    const walked = walkedBy.get(row.key) ?? '**not walked**';
    return `| ${row.source} | ${eventLabel(row.event)} | ${row.guard ?? ''} | ${to} | ${notes(row, textOf(row))} | ${walked} |`;
  });
  return [
    `# ${entry.name} machine`,
    '',
    `<!-- GENERATED by npm run diagrams from ${entry.source}; do not edit. -->`,
    '',
    entry.summary,
    '',
    `Transitions: ${rows.length}; walked by the generated test paths: ${rows.filter((row) => walkedBy.has(row.key)).length}; paths: ${pathCount}.`,
    '',
    '```mermaid',
    ...mermaid,
    '```',
    '',
    ...statesTable(machine, texts),
    ...walletAnswersTable(rows, textOf),
    '## Transitions',
    '',
    '| from | event | guard | to | notes | walked by test path |',
    '|---|---|---|---|---|---|',
    ...table,
    '',
  ].join('\n');
}
