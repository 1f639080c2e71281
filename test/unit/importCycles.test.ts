// No import circles in src/: a module's dependencies can be read top to bottom (api.ts at the
// top, implementations below it). Type-only imports count too: a circle of types is how the
// implementation circles started.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';
import { SRC, sourceFiles } from './helpers/sourceTree';

/** The modules of src/ (declaration files import nothing that runs). */
const isModule = (name: string) => name.endsWith('.ts') && !name.endsWith('.d.ts');


/**
 * The module specifiers a source text names, in every form that makes one module depend on
 * another: import and export declarations (type-only included), `import x = require()`, inline
 * `import('…')` types, dynamic `import()` and `require()` calls. A circle hidden in any of these
 * is still a circle: the reader has to understand both modules together.
 */
export function specifiersOf(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const literal = (node: ts.Node | undefined): void => {
    if (node && ts.isStringLiteralLike(node)) found.push(node.text);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) literal(node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) literal(node.moduleReference.expression);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) literal(node.argument.literal);
    else if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const isImport = callee.kind === ts.SyntaxKind.ImportKeyword;
      const isRequire = ts.isIdentifier(callee) && callee.text === 'require';
      if (isImport || isRequire) literal(node.arguments[0]);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The local modules a file depends on (see specifiersOf for the forms counted). */
function importsOf(file: string): string[] {
  const found: string[] = [];
  for (const spec of specifiersOf(file, fs.readFileSync(file, 'utf8'))) {
    if (!spec.startsWith('.')) continue;
    const base = path.resolve(path.dirname(file), spec);
    const target = [`${base}.ts`, path.join(base, 'index.ts')].find((c) => fs.existsSync(c));
    if (target) found.push(target);
  }
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
    const graph = new Map(sourceFiles(SRC, isModule).map((f) => [f, importsOf(f)]));
    assert.ok(graph.size > 100, 'the source tree was found');
    assert.deepEqual(circles(graph), []);
  });

  const forms: [string, string, string[]][] = [
    ['static import', "import { a } from './a';", ['./a']],
    ['type-only import', "import type { A } from './a';", ['./a']],
    ['re-export', "export * from './a'; export { b } from './b';", ['./a', './b']],
    ['export type *', "export type * from './a';", ['./a']],
    ['import = require', "import lunr = require('./lunr');", ['./lunr']],
    ['inline import() type', "let x: import('./fields').FieldName;", ['./fields']],
    ['dynamic import()', "async function f() { return import('./registry'); }", ['./registry']],
    ['require call', "const r = require('./run');", ['./run']],
    ['a string that is not an import', "const s = './a'; call('./b');", []],
  ];
  for (const [form, text, expected] of forms) {
    it(`sees a dependency in: ${form}`, () => assert.deepEqual(specifiersOf('x.ts', text), expected));
  }

  it('finds a circle when there is one', () => {
    assert.deepEqual(circles(new Map([['/a', ['/b']], ['/b', ['/c']], ['/c', ['/a']], ['/d', ['/a']]])).map((c) => c.length), [3]);
  });
});

/**
 * Who may not depend on whom, by path under src/, in every import form specifiersOf sees (lint's
 * no-restricted-imports misses dynamic import() and require). `allowed` names the targets that
 * stay open to every file the rule covers; `clientPath` the launcher's leaf modules, which load
 * no engine code and so take two engine leaves directly.
 */
interface Boundary {
  from: RegExp;
  to: RegExp;
  allowed?: RegExp;
  why: string;
}
const FRONT_ENDS = /^(cli|mcp|tools|server|vscode|webview|command)\//;
const BOUNDARIES: Boundary[] = [
  { from: /^server\//, to: /^cli\//, why: 'the server never imports the CLI (they share src/command/)' },
  { from: /^core\//, to: /^(eval|bench)\//, why: 'the engine never imports the eval and bench tools' },
  { from: /^core\//, to: FRONT_ENDS, why: 'the engine never imports a front end' },
  { from: FRONT_ENDS, to: /^core\//, allowed: /^core\/(api|clientApi|engineApi)\.ts$/, why: 'front ends reach the engine through core/api.ts, clientApi.ts or engineApi.ts' },
];
const CLIENT_PATH = /^(cli\/launch|server\/protocol|command\/storeLocation)\.ts$/;
const CLIENT_PATH_LEAVES = /^core\/(nodeCrypto|store\/atomic|chunking\/wasmTiers)\.ts$/;

/** The boundary an import from `from` to `to` (paths under src/) crosses, if any. */
function boundaryCrossed(from: string, to: string): string | undefined {
  if (CLIENT_PATH.test(from) && CLIENT_PATH_LEAVES.test(to)) return undefined;
  return BOUNDARIES.find((b) => b.from.test(from) && b.to.test(to) && !b.allowed?.test(to))?.why;
}

describe('module boundaries', function () {
  this.timeout(20000);
  it('no module of src/ crosses one', () => {
    const crossings = sourceFiles(SRC, isModule).flatMap((file) =>
      importsOf(file).flatMap((target) => {
        const [from, to] = [path.relative(SRC, file), path.relative(SRC, target)].map((p) => p.split(path.sep).join('/')) as [string, string];
        const why = boundaryCrossed(from, to);
        return why ? [`${from} -> ${to}: ${why}`] : [];
      }),
    );
    assert.deepEqual(crossings, []);
  });

  it('src/core has no eval folder', () => assert.equal(fs.existsSync(path.join(SRC, 'core', 'eval')), false));

  const cases: [string, string, string | undefined][] = [
    ['server/server.ts', 'cli/commandContext.ts', 'the server never imports the CLI (they share src/command/)'],
    ['server/server.ts', 'command/context.ts', undefined],
    ['cli/commands/serve.ts', 'server/daemon.ts', undefined],
    ['core/engine/engine.ts', 'eval/runner.ts', 'the engine never imports the eval and bench tools'],
    ['eval/runner.ts', 'core/engine/engine.ts', undefined],
    ['core/search/search.ts', 'vscode/format.ts', 'the engine never imports a front end'],
    ['vscode/settings.ts', 'core/languages.ts', 'front ends reach the engine through core/api.ts, clientApi.ts or engineApi.ts'],
    ['webview/pack/render.ts', 'core/pack/types.ts', 'front ends reach the engine through core/api.ts, clientApi.ts or engineApi.ts'],
    ['tools/tools.ts', 'core/clientApi.ts', undefined],
    ['cli/engineSetup.ts', 'core/engineApi.ts', undefined],
    ['mcp/server.ts', 'core/api.ts', undefined],
    ['cli/launch.ts', 'core/store/atomic.ts', undefined],
    ['cli/launch.ts', 'core/chunking/wasmTiers.ts', undefined],
    ['cli/launch.ts', 'core/chunking/pool.ts', 'front ends reach the engine through core/api.ts, clientApi.ts or engineApi.ts'],
    ['cli/run.ts', 'core/store/atomic.ts', 'front ends reach the engine through core/api.ts, clientApi.ts or engineApi.ts'],
  ];
  for (const [from, to, expected] of cases) {
    it(`${from} -> ${to}: ${expected ?? 'allowed'}`, () => assert.equal(boundaryCrossed(from, to), expected));
  }
});
