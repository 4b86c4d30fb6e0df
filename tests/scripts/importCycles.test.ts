/**
 * No import cycles in the server, the machines, the API's schemas, the app, the scripts, the bench and the tests,
 * type imports included: two modules that import each other load in an order that depends on who is imported first, and neither
 * can be read, nor its types, without the other. The graph is built with the TypeScript compiler's parser and
 * resolver (tsconfig.json's options), so `import type`, `export ... from` and `import('./x').T` count; a dynamic
 * `import()` call loads lazily and does not.
 */
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const FOLDERS = ['server', 'machines', 'api-schema', 'src', 'scripts', 'bench', 'tests'];

function sourceFiles(folder: string): string[] {
  return readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.(m?ts|tsx)$/.test(name) && !/\.d\.m?ts$/.test(name) && !name.split(/[\\/]/).includes('node_modules'))
    .map((name) => join(root, folder, name));
}

/** The module names a file imports (statically or in a type), in the order they appear. */
function importedNames(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const names: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      names.push(node.moduleSpecifier.text);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference) && ts.isStringLiteral(node.moduleReference.expression)) {
      names.push(node.moduleReference.expression.text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      names.push(node.argument.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return names;
}

/** Each file of the folders with the files of the folders it imports. */
function importGraph(): Map<string, string[]> {
  const config = ts.getParsedCommandLineOfConfigFile(join(root, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  if (!config) throw new Error('tsconfig.json could not be read');
  const files = FOLDERS.flatMap(sourceFiles);
  const inGraph = new Set(files);
  const cache = ts.createModuleResolutionCache(root, (name) => name, config.options);
  return new Map(
    files.map((file) => {
      const targets = importedNames(file, ts.sys.readFile(file) ?? '')
        .map((name) => ts.resolveModuleName(name, file, config.options, ts.sys, cache).resolvedModule?.resolvedFileName)
        .filter((target): target is string => target !== undefined && inGraph.has(target));
      return [file, [...new Set(targets)]];
    }),
  );
}

/** A knot of files that all reach each other, and one cycle through it. */
interface Knot {
  files: string[];
  cycle: string[];
}

/** The knots of a graph (its strongly connected components, by Tarjan's algorithm), each with a cycle through it. */
function knotsOf(graph: ReadonlyMap<string, readonly string[]>): Knot[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const connect = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node) ?? 0);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        connect(next);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) ?? 0, index.get(next) ?? 0));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member === undefined) break;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) components.push(component);
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) connect(node);
  return components.map((component) => ({ files: component.sort(), cycle: cycleThrough(graph, new Set(component)) }));
}

/** A shortest path from the component's first file (by name) back to itself, within the component. */
function cycleThrough(graph: ReadonlyMap<string, readonly string[]>, component: ReadonlySet<string>): string[] {
  const start = [...component].sort()[0] ?? '';
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let at = queue.shift(); at !== undefined; at = queue.shift()) {
    for (const next of graph.get(at) ?? []) {
      if (!component.has(next)) continue;
      if (next === start) {
        const trail: string[] = [];
        for (let step: string | undefined = at; step !== undefined; step = cameFrom.get(step)) trail.unshift(step);
        return [...trail, start];
      }
      if (!cameFrom.has(next)) {
        cameFrom.set(next, at);
        queue.push(next);
      }
    }
  }
  return [start];
}

describe('import cycles', () => {
  it(`finds none in ${FOLDERS.join(', ')}`, () => {
    const graph = importGraph();
    const named = (file: string) => relative(root, file);
    const cycles = knotsOf(graph).map(({ files, cycle }) => `${cycle.map(named).join(' → ')}${files.length > 2 ? ` (a knot of ${files.length}: ${files.map(named).join(', ')})` : ''}`);
    expect(graph.size).toBeGreaterThan(100);
    expect(cycles, `import cycles:\n${cycles.join('\n')}`).toEqual([]);
  });

  it('tells a cycle by its files; type imports count, a dynamic import() does not', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', []],
      ['e', ['e']],
    ]);
    expect(knotsOf(graph)).toEqual([
      { files: ['a', 'b', 'c'], cycle: ['a', 'b', 'c', 'a'] },
      { files: ['e'], cycle: ['e', 'e'] },
    ]);
    const text = "import type { A } from './a';\nexport { b } from './b';\ntype C = import('./c').C;\nexport const d = () => import('./d');";
    expect(importedNames('x.ts', text)).toEqual(['./a', './b', './c']);
  });
});
