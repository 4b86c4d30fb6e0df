/**
 * Lays out one state diagram with ELK (elkjs, the Eclipse Layout Kernel compiled to JavaScript: no browser, no
 * native code) and writes it as an SVG string. Nodes are states (links to their section), edges are transitions,
 * numbered (each number a link to its transition), drawn happy path apart from error paths: the happy path solid
 * and given priority in the layered layout, so it runs straight down the middle; errors, refusals and timeouts
 * dashed beside it.
 *
 * ELK computes positions only; turning its boxes and polylines into SVG elements is the small part written here.
 */
import ELK from 'elkjs/lib/elk.bundled.js';
import type { ElkExtendedEdge, ElkNode } from 'elkjs/lib/elk-api';

export type DiagramNodeKind = 'state' | 'compound' | 'final' | 'start' | 'any' | 'outside';

export interface DiagramNode {
  id: string;
  label: string;
  /** The label in the other language: the node is sized for the longer, so both languages share one layout. */
  otherLabel?: string;
  /** A second, smaller line: the state's code name, or "+4 states" on a folded compound. */
  sub?: string;
  href?: string;
  kind: DiagramNodeKind;
  /** The state ids the node stands for (a folded compound stands for its descendants too). */
  states: readonly string[];
}

export interface DiagramEdgeLabel {
  text: string;
  href: string;
  title: string;
}

export interface DiagramEdge {
  id: string;
  source: string;
  target: string;
  labels: readonly DiagramEdgeLabel[];
  happy: boolean;
  /** The transition ids the edge stands for. */
  transitions: readonly string[];
}

export interface Diagram {
  id: string;
  title: string;
  nodes: readonly DiagramNode[];
  edges: readonly DiagramEdge[];
}

const elk = new ELK();
/** Layouts by their input: zh and en pages size nodes alike, so the second language reuses the first's layout. */
const layouts = new Map<string, Promise<ElkNode>>();

/** Text width estimate at 12 px: CJK characters are about a square, Latin ones a little over half of one. */
function textWidth(text: string, size = 12): number {
  let width = 0;
  for (const char of text) width += /[\u2e80-\u9fff\uff00-\uffef]/.test(char) ? size : size * 0.58;
  return Math.ceil(width);
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function nodeSize(node: DiagramNode): { width: number; height: number } {
  if (node.kind === 'start') return { width: 16, height: 16 };
  const width = Math.max(textWidth(node.label, 13), textWidth(node.otherLabel ?? '', 13), node.sub ? textWidth(node.sub, 10) : 0) + 24;
  return { width: Math.max(width, 72), height: node.sub ? 44 : 30 };
}

function labelText(edge: DiagramEdge): string {
  return edge.labels.map((label) => label.text).join(' ');
}

/**
 * Lays the diagram out and renders it.
 *
 * @param diagram - nodes and edges
 * @param legend - the words of the two edge kinds, in the page's language
 * @returns an `<svg>` element as a string
 * @example
 * const svg = await renderDiagram({ id: 'd-wallet', title: 'Wallet', nodes, edges }, { happy: 'happy path', error: 'error' });
 */
export async function renderDiagram(diagram: Diagram): Promise<string> {
  const graph: ElkNode = {
    id: 'root',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': 'DOWN',
      'elk.edgeRouting': 'ORTHOGONAL',
      'elk.spacing.nodeNode': '24',
      'elk.layered.spacing.nodeNodeBetweenLayers': '36',
      'elk.spacing.edgeLabel': '2',
      'elk.spacing.edgeEdge': '8',
      'elk.edgeLabels.inline': 'false',
      'elk.layered.nodePlacement.strategy': 'NETWORK_SIMPLEX',
      // The machine's own order decides which way a cycle's edges point: the start and the first states on top,
      // as the machine lists them.
      'elk.layered.cycleBreaking.strategy': 'MODEL_ORDER',
      'elk.layered.considerModelOrder.strategy': 'NODES_AND_EDGES',
      'elk.padding': '[top=12,left=12,bottom=12,right=12]',
    },
    children: [...diagram.nodes]
      .sort((a, b) => Number(b.kind === 'start') - Number(a.kind === 'start'))
      .map((node) => ({
        id: node.id,
        ...nodeSize(node),
        ...(node.kind === 'start' ? { layoutOptions: { 'elk.layered.layering.layerConstraint': 'FIRST' } } : {}),
      })),
    edges: diagram.edges.map(
      (edge): ElkExtendedEdge => ({
        id: edge.id,
        sources: [edge.source],
        targets: [edge.target],
        labels: [{ text: labelText(edge), width: textWidth(labelText(edge), 11) + 6, height: 14 }],
        // The happy path goes first and straight: ELK keeps high-priority edges short and pointing down.
        layoutOptions: edge.happy ? { 'elk.layered.priority.direction': '10', 'elk.layered.priority.straightness': '10' } : {},
      }),
    ),
  };
  const key = JSON.stringify(graph);
  let layout = layouts.get(key);
  if (!layout) {
    layout = elk.layout(graph);
    layouts.set(key, layout);
  }
  const laid = await layout;
  const width = Math.ceil(laid.width ?? 0);
  const height = Math.ceil(laid.height ?? 0);
  const nodesById = new Map(diagram.nodes.map((node) => [node.id, node]));
  const edgesById = new Map(diagram.edges.map((edge) => [edge.id, edge]));
  const marker = (kind: string) => `${diagram.id}-arrow-${kind}`;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" class="diagram" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="group" aria-label="${escapeXml(diagram.title)}">`,
    '<defs>',
    ...['happy', 'error'].map(
      (kind) => `<marker id="${marker(kind)}" viewBox="0 0 10 10" refX="9" refY="5" markerUnits="userSpaceOnUse" markerWidth="9" markerHeight="9" orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" class="arrow-${kind}"/></marker>`,
    ),
    '</defs>',
  ];
  for (const laidEdge of laid.edges ?? []) {
    const edge = edgesById.get(laidEdge.id);
    if (!edge) continue;
    const kind = edge.happy ? 'happy' : 'error';
    const sections = laidEdge.sections ?? [];
    const d = sections
      .map((section) => [section.startPoint, ...(section.bendPoints ?? []), section.endPoint].map((point, index) => `${index === 0 ? 'M' : 'L'}${round(point.x)},${round(point.y)}`).join(''))
      .join('');
    parts.push(`<g class="edge ${kind}" data-t="${edge.transitions.join(' ')}">`);
    parts.push(`<path d="${d}" marker-end="url(#${marker(kind)})"/>`);
    const label = laidEdge.labels?.[0];
    if (label) {
      let x = round(label.x ?? 0);
      const y = round((label.y ?? 0) + 11);
      parts.push(`<rect class="edge-label-bg" x="${x - 1}" y="${round(label.y ?? 0)}" width="${round((label.width ?? 0) - 4)}" height="14" rx="3"/>`);
      parts.push(`<text class="edge-label" y="${y}">`);
      for (const part of edge.labels) {
        parts.push(`<a href="${escapeXml(part.href)}" aria-label="${escapeXml(part.title)}"><tspan x="${x}">${escapeXml(part.text)}</tspan><title>${escapeXml(part.title)}</title></a>`);
        x += textWidth(`${part.text} `, 11);
      }
      parts.push('</text>');
    }
    parts.push('</g>');
  }
  for (const laidNode of laid.children ?? []) {
    const node = nodesById.get(laidNode.id);
    if (!node) continue;
    const x = round(laidNode.x ?? 0);
    const y = round(laidNode.y ?? 0);
    const w = round(laidNode.width ?? 0);
    const h = round(laidNode.height ?? 0);
    const data = `data-s="${escapeXml(node.states.join(' '))}"`;
    if (node.kind === 'start') {
      parts.push(`<circle class="start" cx="${x + w / 2}" cy="${y + h / 2}" r="7"><title>${escapeXml(node.label)}</title></circle>`);
      continue;
    }
    const shape = `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="${node.kind === 'any' || node.kind === 'outside' ? 4 : 10}"/>${
      node.kind === 'final' ? `<rect class="final-ring" x="${x + 3}" y="${y + 3}" width="${w - 6}" height="${h - 6}" rx="8"/>` : ''
    }`;
    const label = `<text class="node-label" x="${x + w / 2}" y="${y + (node.sub ? 19 : 19)}">${escapeXml(node.label)}</text>`;
    const sub = node.sub ? `<text class="node-sub" x="${x + w / 2}" y="${y + 35}">${escapeXml(node.sub)}</text>` : '';
    const body = `<g class="node ${node.kind}" ${data}>${shape}${label}${sub}</g>`;
    // The link's name is its visible text (the name and the code name), as axe's label-content-name-mismatch asks.
    parts.push(node.href ? `<a href="${escapeXml(node.href)}">${body}</a>` : body);
  }
  parts.push('</svg>');
  return parts.join('');
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
