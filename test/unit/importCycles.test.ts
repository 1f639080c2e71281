// No import circles in src/: a module's dependencies can be read top to bottom (api.ts at the
// top, implementations below it). Type-only imports count too: a circle of types is how the
// implementation circles started.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';

const SRC = path.resolve(__dirname, '../../../src');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

/** The local modules a file imports or re-exports from. */
function importsOf(file: string): string[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const found: string[] = [];
  source.forEachChild((node) => {
    if (!(ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) || !node.moduleSpecifier || !ts.isStringLiteral(node.moduleSpecifier)) return;
    const spec = node.moduleSpecifier.text;
    if (!spec.startsWith('.')) return;
    const base = path.resolve(path.dirname(file), spec);
    const target = [`${base}.ts`, path.join(base, 'index.ts')].find((c) => fs.existsSync(c));
    if (target) found.push(target);
  });
  return found;
}

/** Strongly connected components with more than one module (Tarjan). */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(path.relative(SRC, w));
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('import structure', function () {
  this.timeout(20000);
  it('src/ has no import circles', () => {
    const graph = new Map(sourceFiles(SRC).map((f) => [f, importsOf(f)]));
    assert.ok(graph.size > 100, 'the source tree was found');
    assert.deepEqual(circles(graph), []);
  });

  it('finds a circle when there is one', () => {
    assert.deepEqual(circles(new Map([['/a', ['/b']], ['/b', ['/c']], ['/c', ['/a']], ['/d', ['/a']]])).map((c) => c.length), [3]);
  });
});
