/**
 * Writes the atlas' pages: an index of the machines grouped as a member meets them, and per machine and
 * language one page with its diagrams (an overview with nested states folded, and each nested state unfolded in a
 * <details>), every state (its text, the screen the member sees, how the member gets there, the codes and wallet
 * answers in words, the decision record) and every transition (what happens, the generated test path that walks it,
 * with its steps), and the journeys: each generated test path and the named journeys, as storyboards that the
 * diagram highlights.
 *
 * Pages are static HTML with no inline script or style (the server's CSP holds): atlas.css and atlas.js beside them.
 */
import type { AtlasMachine, AtlasPath, AtlasState, AtlasTransition } from './model';
import { machineGroups } from './model';
import { renderDiagram } from './diagram';
import type { DiagramEdge, DiagramNode } from './diagram';
import type { AtlasLanguage } from '../machineGraph/texts';
import type { Journey, ScreenOf } from './screens';
import { questions } from './journeys';
import { PAGE_POLICY, serializeCsp } from '../../server/plugins/contentSecurityPolicy';

export interface RenderContext {
  lng: AtlasLanguage;
  texts: Readonly<Record<string, string>>;
  /** The other language's texts: diagram nodes are sized for the longer name, so both pages share a layout. */
  otherTexts: Readonly<Record<string, string>>;
  /** The member's own texts (locales/<lng>/common.json): what a code makes the screen say. */
  common: CommonTexts;
  /** Decision record file name → its title. */
  decisions: ReadonlyMap<string, string>;
  screenOf: ScreenOf;
  /** The screen right after a transition, where it differs from its target's usual one (by the transition's text key). */
  shotAfter: (textKey: string) => string | null;
  journeys: readonly Journey[];
}

export interface CommonTexts {
  Common: Record<string, string>;
  wallet: { errors: Record<string, string> };
}

const otherLanguage: Record<AtlasLanguage, AtlasLanguage> = { zh: 'en', en: 'zh' };
const htmlLang: Record<AtlasLanguage, string> = { zh: 'zh-CN', en: 'en' };

export const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The anchor of a state: "s-" and its id. */
export const stateAnchor = (id: string) => `s-${id}`;

function text(ctx: RenderContext, key: string): string {
  const value = ctx.texts[key];
  if (value === undefined) throw new Error(`locales/${ctx.lng}/atlas.json has no text for "${key}" (npm run atlas -- --check lists every gap)`);
  return value;
}

const ui = (ctx: RenderContext, key: string) => text(ctx, `ui.${key}`);

function stateName(ctx: RenderContext, machine: AtlasMachine, state: AtlasState): string {
  if (state.parent === null) return text(ctx, `machine.${machine.name}.title`);
  return text(ctx, `${state.textKey}#name`);
}

function page(ctx: RenderContext, title: string, body: string, otherHref: string): string {
  return [
    '<!doctype html>',
    `<html lang="${htmlLang[ctx.lng]}">`,
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${serializeCsp(PAGE_POLICY)}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<meta name="description" content="${escapeHtml(ui(ctx, 'intro'))}">`,
    `<title>${escapeHtml(title)} · ${escapeHtml(ui(ctx, 'atlas'))}</title>`,
    '<link rel="stylesheet" href="../atlas.css">',
    '<script src="../atlas.js" defer></script>',
    '</head>',
    '<body>',
    `<header class="top"><a href="index.html">${escapeHtml(ui(ctx, 'atlas'))}</a><a href="${otherHref}" lang="${htmlLang[otherLanguage[ctx.lng]]}" hreflang="${htmlLang[otherLanguage[ctx.lng]]}">${escapeHtml(ui(ctx, 'otherLanguage'))}</a></header>`,
    `<main>${body}</main>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/**
 * The index of one language: the machines in the groups a member meets them in.
 *
 * @example renderIndex(ctx, machines)
 */
export function renderIndex(ctx: RenderContext, machines: readonly AtlasMachine[]): string {
  const byName = new Map(machines.map((machine) => [machine.name, machine]));
  const groups = machineGroups.map((group) => {
    const items = group.machines.map((name) => {
      const machine = byName.get(name);
      if (!machine) throw new Error(`the atlas groups a machine "${name}" that scripts/machineGraph/models.ts does not list`);
      const counts = `${machine.states.length - 1} · ${machine.transitions.length}`;
      return `<li><a href="${name}.html"><strong>${escapeHtml(text(ctx, `machine.${name}.title`))}</strong></a> <span class="counts" title="${escapeHtml(ui(ctx, 'counts'))}">${counts}</span><p>${escapeHtml(text(ctx, `machine.${name}.summary`))}</p></li>`;
    });
    return `<section><h2>${escapeHtml(text(ctx, `group.${group.id}`))}</h2><ul class="machines">${items.join('')}</ul></section>`;
  });
  const grouped = new Set(machineGroups.flatMap((group) => group.machines));
  const ungrouped = machines.filter((machine) => !grouped.has(machine.name));
  if (ungrouped.length > 0) throw new Error(`the atlas index has no group for ${ungrouped.map((m) => m.name).join(', ')} (scripts/atlas/model.ts machineGroups)`);
  const answers = questions.map((question) => {
    const machine = byName.get(question.machine);
    const t = machine?.transitions.find((candidate) => candidate.textKey === question.transition);
    if (!machine || !t) throw new Error(`the atlas question ${question.id} points at a transition ${question.transition} that no machine has`);
    const shot = ctx.shotAfter(t.textKey);
    const img = shot ? `<img src="../shots/${shot}.${ctx.lng}.webp" width="375" alt="${escapeHtml(text(ctx, `question.${question.id}`))}" loading="lazy">` : '';
    return `<li><h3>${escapeHtml(text(ctx, `question.${question.id}`))}</h3><p>${escapeHtml(text(ctx, t.textKey))} <a href="${machine.name}.html#${t.id}">${escapeHtml(text(ctx, `machine.${machine.name}.title`))} · ${t.id.slice(2)}</a></p>${img ? `<figure class="shot">${img}</figure>` : ''}</li>`;
  });
  const faq = `<section><h2>${escapeHtml(ui(ctx, 'questions'))}</h2><ul class="questions">${answers.join('')}</ul></section>`;
  const body = `<h1>${escapeHtml(ui(ctx, 'atlas'))}</h1><p class="intro">${escapeHtml(ui(ctx, 'intro'))}</p>${groups.join('')}${faq}`;
  return page(ctx, ui(ctx, 'index'), body, `../${otherLanguage[ctx.lng]}/index.html`);
}

/** The top-level ancestor of a state below `under` (the node that stands for it in a folded diagram). */
function ancestorBelow(machine: AtlasMachine, id: string, under: string): string | null {
  let current = machine.states.find((state) => state.id === id);
  while (current && current.parent !== under) {
    const parentId: string | null = current.parent;
    current = parentId === null ? undefined : machine.states.find((state) => state.id === parentId);
  }
  return current ? current.id : null;
}

function descendants(machine: AtlasMachine, id: string): string[] {
  const state = machine.states.find((s) => s.id === id);
  if (!state) return [];
  return [id, ...state.children.flatMap((child) => descendants(machine, child))];
}

function transitionTitle(ctx: RenderContext, t: AtlasTransition): string {
  return `${t.id.slice(2)}. ${text(ctx, t.textKey)}`;
}

/**
 * One diagram of the states directly inside `container` (the root for the overview): each child is a node (a
 * nested one folded, standing for its descendants); a transition between states below `container` becomes an edge
 * between the children that hold its ends; an end outside `container` becomes an "outside" node, a transition of
 * the container itself starts from "any state".
 */
async function containerDiagram(ctx: RenderContext, machine: AtlasMachine, container: AtlasState): Promise<string> {
  const nodes: DiagramNode[] = [];
  const nodeIds = new Set<string>();
  const addNode = (node: DiagramNode) => {
    if (!nodeIds.has(node.id)) {
      nodeIds.add(node.id);
      nodes.push(node);
    }
  };
  const childNodeId = (id: string) => `n-${id}`;
  for (const childId of container.children) {
    const child = machine.states.find((s) => s.id === childId);
    if (!child) continue;
    const nested = child.children.length > 0;
    addNode({
      id: childNodeId(child.id),
      label: stateName(ctx, machine, child),
      otherLabel: stateName({ ...ctx, texts: ctx.otherTexts }, machine, child),
      sub: nested ? `${child.key} ▸ ${descendants(machine, child.id).length - 1}` : child.key,
      href: `#${stateAnchor(child.id)}`,
      kind: nested ? 'compound' : child.final ? 'final' : 'state',
      states: descendants(machine, child.id),
    });
  }
  const initial = container.children.map((id) => machine.states.find((s) => s.id === id)).find((s) => s?.initial);
  const edges = new Map<string, { source: string; target: string; happy: boolean; transitions: AtlasTransition[] }>();
  const addEdge = (source: string, target: string, t: AtlasTransition | null, happy: boolean) => {
    const key = `${source}>${target}>${happy ? 'h' : 'e'}`;
    const edge = edges.get(key) ?? { source, target, happy, transitions: [] };
    if (t) edge.transitions.push(t);
    edges.set(key, edge);
  };
  if (initial) {
    addNode({ id: 'start', label: ui(ctx, 'start'), kind: 'start', states: [] });
    addEdge('start', childNodeId(initial.id), null, true);
  }
  const inside = new Set(descendants(machine, container.id));
  const endOf = (id: string): string => {
    if (id === container.id) {
      // A transition to the container itself re-enters it: drawn to its first state.
      return initial ? childNodeId(initial.id) : 'any';
    }
    if (inside.has(id)) {
      const top = ancestorBelow(machine, id, container.id);
      return top ? childNodeId(top) : 'any';
    }
    const outside = machine.states.find((s) => s.id === id);
    const nodeId = `o-${id}`;
    addNode({ id: nodeId, label: outside ? stateName(ctx, machine, outside) : id, otherLabel: outside ? stateName({ ...ctx, texts: ctx.otherTexts }, machine, outside) : id, sub: `↗ ${outside?.path ?? id}`, href: `#${stateAnchor(id)}`, kind: 'outside', states: [id] });
    return nodeId;
  };
  for (const t of machine.transitions) {
    if (!inside.has(t.source)) continue;
    let source: string;
    if (t.source === container.id) {
      addNode({ id: 'any', label: ui(ctx, 'anyState'), otherLabel: ctx.otherTexts['ui.anyState'] ?? '', kind: 'any', states: [], ...(container.parent === null ? {} : { href: `#${stateAnchor(container.id)}` }) });
      source = 'any';
    } else {
      source = endOf(t.source);
    }
    const targets = t.targets.length > 0 ? t.targets : [t.source];
    for (const target of targets) {
      const end = t.targets.length === 0 && t.source === container.id ? 'any' : endOf(target);
      if (source === end) {
        // A loop on a folded child is a transition inside it (drawn in that child's own diagram), unless the
        // child itself stays or re-enters itself.
        const sourceIsChild = t.source === container.id || ancestorBelow(machine, t.source, container.id) === t.source;
        const selfLoop = t.targets.length === 0 || target === t.source;
        if (!(sourceIsChild && selfLoop)) continue;
      }
      addEdge(source, end, t, t.happy);
    }
  }
  const edgeList: DiagramEdge[] = [...edges.values()].map((edge, index) => ({
    id: `e${index}`,
    source: edge.source,
    target: edge.target,
    happy: edge.happy,
    transitions: edge.transitions.map((t) => t.id),
    labels: edge.transitions.map((t) => ({ text: t.id.slice(2), href: `#${t.id}`, title: transitionTitle(ctx, t) })),
  }));
  const title = container.parent === null ? `${text(ctx, `machine.${machine.name}.title`)}: ${ui(ctx, 'overview')}` : `${ui(ctx, 'inside')}: ${stateName(ctx, machine, container)}`;
  return renderDiagram({ id: `d-${container.id}`, title, nodes, edges: edgeList });
}

function codeWords(ctx: RenderContext, t: AtlasTransition): string[] {
  const items: string[] = [];
  for (const code of t.walletCodes) {
    const words = ctx.texts[`code.wallet.${code}`] ?? String(code);
    items.push(`<li><span class="code">${ui(ctx, 'walletCode')} ${code}</span> ${escapeHtml(words)}</li>`);
  }
  for (const code of t.apiCodes) {
    const said = ctx.common.Common[String(code)] ?? ctx.common.Common.unknown ?? '';
    items.push(`<li><span class="code">${ui(ctx, 'apiCode')} ${code}</span> ${escapeHtml(ui(ctx, 'memberReads'))}: “${escapeHtml(said)}”</li>`);
  }
  if (t.event.startsWith('xstate.error.actor.') && t.walletCodes.length === 0) items.push(`<li><span class="code">${escapeHtml(t.label)}</span> ${escapeHtml(text(ctx, 'code.network'))}</li>`);
  return items;
}

function decisionLink(ctx: RenderContext, decision: string | null): string {
  if (!decision) return '';
  const title = ctx.decisions.get(decision) ?? decision;
  return `<p class="decision">${escapeHtml(ui(ctx, 'decision'))}: <a href="../../decisions/${decision}.md">${escapeHtml(title)}</a></p>`;
}

function stateLink(ctx: RenderContext, machine: AtlasMachine, id: string): string {
  const state = machine.states.find((s) => s.id === id);
  // The machine itself has no section: its own transitions are taken in any state, drawn from "any state".
  if (state?.parent === null) return `<a href="#diagram">${escapeHtml(ui(ctx, 'anyState'))}</a>`;
  return `<a href="#${stateAnchor(id)}">${escapeHtml(state ? stateName(ctx, machine, state) : id)}</a>`;
}

function transitionLine(ctx: RenderContext, machine: AtlasMachine, t: AtlasTransition, show: 'from' | 'to'): string {
  const other = show === 'from' ? stateLink(ctx, machine, t.source) : t.targets.length > 0 ? t.targets.map((id) => stateLink(ctx, machine, id)).join(', ') : escapeHtml(ui(ctx, 'stays'));
  return `<li class="${t.happy ? 'happy' : 'error'}"><a href="#${t.id}">${t.id.slice(2)}</a> ${escapeHtml(ui(ctx, show))} ${other}: ${escapeHtml(text(ctx, t.textKey))}</li>`;
}

function screenBlock(ctx: RenderContext, machine: AtlasMachine, state: AtlasState): string {
  const screen = ctx.screenOf(machine.name, state.id);
  if (!screen) return `<p class="screen-none">${escapeHtml(ui(ctx, 'noScreen'))}</p>`;
  const img = `<img src="../shots/${screen.shot}.${ctx.lng}.webp" width="375" alt="${escapeHtml(`${ui(ctx, 'screen')}: ${stateName(ctx, machine, state)}`)}" loading="lazy">`;
  const caption = screen.own ? escapeHtml(ui(ctx, 'screen')) : `${escapeHtml(ui(ctx, 'shownOn'))} <code>${escapeHtml(screen.shot)}</code>`;
  return `<figure class="shot"><figcaption>${caption}</figcaption>${img}</figure>`;
}

function stateSection(ctx: RenderContext, machine: AtlasMachine, state: AtlasState, diagram: string | null): string {
  const incoming = machine.transitions.filter((t) => t.targets.includes(state.id));
  const outgoing = machine.transitions.filter((t) => t.source === state.id);
  const codes = incoming.flatMap((t) => codeWords(ctx, t).map((item) => item.replace('<li>', `<li><a href="#${t.id}">${t.id.slice(2)}</a> `)));
  const decisions = [...new Set(incoming.flatMap((t) => (t.decision ? [t.decision] : [])))];
  const parent = state.parent ? machine.states.find((s) => s.id === state.parent) : undefined;
  const lines = [
    `<section class="state" id="${stateAnchor(state.id)}" data-s="${escapeHtml(state.id)}">`,
    `<h3>${escapeHtml(stateName(ctx, machine, state))} <code>${escapeHtml(state.path || machine.name)}</code>${state.final ? ` <span class="tag">${escapeHtml(ui(ctx, 'final'))}</span>` : ''}</h3>`,
    state.textKey ? `<p class="what">${escapeHtml(text(ctx, state.textKey))}</p>` : `<p class="what">${escapeHtml(text(ctx, `machine.${machine.name}.summary`))}</p>`,
    parent && parent.parent !== null ? `<p class="part-of">${escapeHtml(ui(ctx, 'partOf'))}: ${stateLink(ctx, machine, parent.id)}</p>` : '',
    state.tags.length > 0 ? `<p class="tags">${escapeHtml(ui(ctx, 'tags'))}: ${state.tags.map((tag) => `<span class="tag">${escapeHtml(tag)}</span>`).join(' ')}</p>` : '',
    state.parent !== null ? screenBlock(ctx, machine, state) : '',
    codes.length > 0 ? `<h4>${escapeHtml(ui(ctx, 'codes'))}</h4><ul class="codes">${codes.join('')}</ul>` : '',
    ...decisions.map((decision) => decisionLink(ctx, decision)),
    incoming.length > 0 ? `<details><summary>${escapeHtml(ui(ctx, 'in'))} (${incoming.length})</summary><ul class="moves">${incoming.map((t) => transitionLine(ctx, machine, t, 'from')).join('')}</ul></details>` : '',
    outgoing.length > 0 ? `<details open><summary>${escapeHtml(ui(ctx, 'out'))} (${outgoing.length})</summary><ul class="moves">${outgoing.map((t) => transitionLine(ctx, machine, t, 'to')).join('')}</ul></details>` : '',
    state.children.length > 0
      ? `<details class="nested"><summary>${escapeHtml(ui(ctx, 'contains'))}: ${state.children.map((id) => escapeHtml(stateName(ctx, machine, machine.states.find((s) => s.id === id) ?? state))).join(', ')}</summary>${diagram ? `<div class="figure">${diagram}</div>` : ''}</details>`
      : '',
    '</section>',
  ];
  return lines.filter(Boolean).join('\n');
}

function stepsList(ctx: RenderContext, machine: AtlasMachine, path: AtlasPath): string {
  return `<ol class="steps">${path.steps
    .map((step) => `<li><code>${escapeHtml(step.label)}</code> → ${step.states.map((id) => stateLink(ctx, machine, id)).join(', ')}</li>`)
    .join('')}</ol>`;
}

function afterShot(ctx: RenderContext, t: AtlasTransition): string {
  const shot = ctx.shotAfter(t.textKey);
  if (!shot) return '';
  return `<figure class="shot"><figcaption>${escapeHtml(ui(ctx, 'screen'))}</figcaption><img src="../shots/${shot}.${ctx.lng}.webp" width="375" alt="${escapeHtml(`${ui(ctx, 'screen')}: ${text(ctx, t.textKey)}`)}" loading="lazy"></figure>`;
}

function transitionSection(ctx: RenderContext, machine: AtlasMachine, t: AtlasTransition): string {
  const path = machine.paths.find((p) => p.id === t.walkedBy);
  const to = t.targets.length > 0 ? t.targets.map((id) => stateLink(ctx, machine, id)).join(', ') : escapeHtml(ui(ctx, 'stays'));
  const codes = codeWords(ctx, t);
  return [
    `<section class="transition ${t.happy ? 'happy' : 'error'}" id="${t.id}" data-t="${t.id}">`,
    `<h3><span class="num">${t.id.slice(2)}</span> ${stateLink(ctx, machine, t.source)} → ${to}</h3>`,
    `<p class="what">${escapeHtml(text(ctx, t.textKey))}</p>`,
    `<p class="code-line"><span>${escapeHtml(ui(ctx, 'event'))}</span> <code>${escapeHtml(t.label)}</code>${t.guard ? ` <span>${escapeHtml(ui(ctx, 'guard'))}</span> <code>${escapeHtml(t.guard)}</code>` : ''} <span class="kind">${escapeHtml(ui(ctx, t.happy ? 'happy' : 'error'))}</span></p>`,
    codes.length > 0 ? `<ul class="codes">${codes.join('')}</ul>` : '',
    decisionLink(ctx, t.decision),
    afterShot(ctx, t),
    path
      ? `<details><summary>${escapeHtml(ui(ctx, 'walkedBy'))} ${path.id} (${path.steps.length} ${escapeHtml(ui(ctx, 'steps'))})</summary><p><a href="#${path.id}">${path.id}</a> <code>${escapeHtml(path.description)}</code></p>${stepsList(ctx, machine, path)}</details>`
      : `<p class="not-walked">${escapeHtml(ui(ctx, 'notWalked'))}</p>`,
    '</section>',
  ]
    .filter(Boolean)
    .join('\n');
}

function storyboard(ctx: RenderContext, machine: AtlasMachine, path: AtlasPath): string {
  const frames = path.steps.map((step, index) => {
    const leaf = step.states[0] ?? '';
    const state = machine.states.find((s) => s.id === leaf);
    const t = machine.transitions.find((candidate) => candidate.id === step.transition);
    const after = t ? ctx.shotAfter(t.textKey) : null;
    const screen = after ? { shot: after, own: true } : state ? ctx.screenOf(machine.name, state.id) : null;
    const img = screen ? `<img src="../shots/${screen.shot}.${ctx.lng}.webp" width="160" alt="${escapeHtml(state ? stateName(ctx, machine, state) : leaf)}" loading="lazy">` : `<div class="no-shot">${escapeHtml(ui(ctx, 'noScreen'))}</div>`;
    return `<li><p class="frame-step">${index + 1}. <code>${escapeHtml(step.label)}</code></p>${t ? `<p class="frame-what">${escapeHtml(text(ctx, t.textKey))}</p>` : ''}<p class="frame-state">${step.states.map((id) => stateLink(ctx, machine, id)).join(', ')}</p>${img}</li>`;
  });
  return `<ol class="storyboard">${frames.join('')}</ol>`;
}

function journeySection(ctx: RenderContext, machine: AtlasMachine, path: AtlasPath, name: string | null): string {
  const summary = name ? `<strong>${escapeHtml(name)}</strong> <code>${escapeHtml(path.description)}</code>` : `<code>${escapeHtml(path.description)}</code>`;
  return [
    `<details class="journey" id="${path.id}" data-path="${path.id}">`,
    `<summary><span class="num">${path.id}</span> ${summary}</summary>`,
    `<p><a class="highlight" href="#${path.id}" data-path="${path.id}">${escapeHtml(ui(ctx, 'highlight'))}</a></p>`,
    storyboard(ctx, machine, path),
    '</details>',
  ].join('\n');
}

/**
 * One machine's page in one language.
 *
 * @example await renderMachinePage(ctx, wallet)
 */
export async function renderMachinePage(ctx: RenderContext, machine: AtlasMachine): Promise<string> {
  const root = machine.states.find((state) => state.parent === null);
  if (!root) throw new Error(`${machine.name} has no root state`);
  const overview = await containerDiagram(ctx, machine, root);
  const nestedDiagrams = new Map<string, string>();
  for (const state of machine.states) {
    if (state.parent !== null && state.children.length > 0) nestedDiagrams.set(state.id, await containerDiagram(ctx, machine, state));
  }
  const journeyNames = new Map(ctx.journeys.filter((j) => j.machine === machine.name).map((j) => [j.pathId, text(ctx, j.textKey)]));
  const named = machine.paths.filter((p) => journeyNames.has(p.id));
  const title = text(ctx, `machine.${machine.name}.title`);
  const pathData = Object.fromEntries(
    machine.paths.map((p) => [p.id, { t: p.transitions, s: [...new Set(p.steps.flatMap((step) => step.states.flatMap((id) => ancestorsOf(machine, id))))] }]),
  );
  const body = [
    `<h1>${escapeHtml(title)} <code>${escapeHtml(machine.name)}</code></h1>`,
    `<p class="intro">${escapeHtml(text(ctx, `machine.${machine.name}.summary`))}</p>`,
    `<nav class="toc"><a href="#diagram">${escapeHtml(ui(ctx, 'diagram'))}</a><a href="#journeys">${escapeHtml(ui(ctx, 'journeys'))}</a><a href="#states">${escapeHtml(ui(ctx, 'states'))} (${machine.states.length - 1})</a><a href="#transitions">${escapeHtml(ui(ctx, 'transitions'))} (${machine.transitions.length})</a></nav>`,
    `<section id="diagram" class="diagram-section"><h2>${escapeHtml(ui(ctx, 'diagram'))}</h2>`,
    `<p class="legend"><span class="key happy">${escapeHtml(ui(ctx, 'happy'))}</span> <span class="key error">${escapeHtml(ui(ctx, 'error'))}</span> <label><input type="checkbox" class="show-errors" checked> ${escapeHtml(ui(ctx, 'showErrors'))}</label> <button type="button" class="clear-highlight" hidden>${escapeHtml(ui(ctx, 'clear'))}</button></p>`,
    `<div class="figure">${overview}</div>`,
    [...nestedDiagrams].map(([id, svg]) => `<details class="nested"><summary>${escapeHtml(ui(ctx, 'inside'))}: ${escapeHtml(stateName(ctx, machine, machine.states.find((state) => state.id === id) ?? root))}</summary><div class="figure">${svg}</div></details>`).join('\n'),
    '</section>',
    `<section id="journeys"><h2>${escapeHtml(ui(ctx, 'journeys'))}</h2><p>${escapeHtml(ui(ctx, 'pickJourney'))}</p>`,
    named.length > 0 ? `<h3>${escapeHtml(ui(ctx, 'curated'))}</h3>${named.map((p) => journeySection(ctx, machine, p, journeyNames.get(p.id) ?? null)).join('\n')}` : '',
    `<h3>${escapeHtml(ui(ctx, 'generatedPaths'))}</h3>`,
    machine.paths.filter((p) => !journeyNames.has(p.id)).map((p) => journeySection(ctx, machine, p, null)).join('\n'),
    '</section>',
    `<section id="states"><h2>${escapeHtml(ui(ctx, 'states'))}</h2>`,
    machine.states.filter((s) => s.parent !== null).map((s) => stateSection(ctx, machine, s, nestedDiagrams.get(s.id) ?? null)).join('\n'),
    '</section>',
    `<section id="transitions"><h2>${escapeHtml(ui(ctx, 'transitions'))}</h2>`,
    machine.transitions.map((t) => transitionSection(ctx, machine, t)).join('\n'),
    '</section>',
    `<script type="application/json" id="atlas-paths">${JSON.stringify(pathData).replace(/</g, '\\u003c')}</script>`,
  ].join('\n');
  return page(ctx, title, body, `../${otherLanguage[ctx.lng]}/${machine.name}.html`);
}

function ancestorsOf(machine: AtlasMachine, id: string): string[] {
  const out: string[] = [];
  let current = machine.states.find((s) => s.id === id);
  while (current && current.parent !== null) {
    out.push(current.id);
    const parentId: string = current.parent;
    current = machine.states.find((s) => s.id === parentId);
  }
  return out;
}
