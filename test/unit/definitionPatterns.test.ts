// The definitions of a file, matched on the nodes of the one walk the occurrences share
// (chunking/ast/walk.ts), give what a tree-sitter query of the same patterns gives: the same
// definitions, kinds and name positions, the same choice when two patterns name one place,
// and only inside the searched text. The query is the oracle here.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import TreeSitter = require('web-tree-sitter');
import type { Node } from 'web-tree-sitter';
import { checkAll } from './check';
import { allFixtures, FIXTURES_DIR, GRAMMARS_DIR } from './astChunkerSupport';
import { astLanguageFor } from '../../src/core/chunking/ast';
import { definitionPatterns, findDefinitions, type Range } from '../../src/core/chunking/ast/nested';
import { GrammarCache, initRuntime, safeParse } from '../../src/core/chunking/ast/runtime';
import { unquote } from '../../src/core/chunking/ast/spec';
import { walkTree } from '../../src/core/chunking/ast/walk';

let grammars: GrammarCache | undefined;

async function parse(grammar: string, text: string): Promise<TreeSitter.Tree> {
  await initRuntime(path.join(GRAMMARS_DIR, 'tree-sitter.wasm'));
  grammars ??= new GrammarCache(GRAMMARS_DIR);
  const tree = safeParse(await grammars.parserFor(grammar), text);
  if (!tree) throw new Error(`${grammar}: no tree`);
  return tree;
}

/** `kind name @line:column` per definition, in name order. */
function rows(text: string, defs: ReadonlyArray<{ kind: string; name: string; nameAt: number }>): string[] {
  return defs.map((d) => {
    const before = text.slice(0, d.nameAt).split('\n');
    return `${d.kind} ${d.name} @${before.length}:${(before[before.length - 1] as string).length + 1}`;
  });
}

function walked(root: Node, grammar: string, ranges: readonly Range[]): Array<{ kind: string; name: string; nameAt: number; start: number; end: number }> {
  const w = walkTree(root, grammar);
  return w ? findDefinitions(root, grammar, ranges, w.definitions, w.definitionTypes) : [];
}

/** What a query of the grammar's patterns finds in each range in turn, a name kept at its first match. */
function queried(root: Node, grammar: string, ranges: readonly Range[]): Array<{ kind: string; name: string; nameAt: number; start: number; end: number }> {
  const language = root.tree.language;
  const usable = definitionPatterns(grammar).filter((p) => {
    for (const m of p.matchAll(/\((\w+)/g)) if (m[1] !== '_' && language.idForNodeType(m[1] as string, true) === null) return false;
    for (const m of p.matchAll(/(\w+):/g)) if (language.fieldIdForName(m[1] as string) === null) return false;
    return true;
  });
  if (usable.length === 0 || ranges.length === 0) return [];
  const query = new TreeSitter.Query(language, usable.join('\n'));
  const out: Array<{ kind: string; name: string; nameAt: number; start: number; end: number }> = [];
  const seen = new Set<number>();
  const keywords = new Set(['if', 'else', 'for', 'while', 'do', 'switch', 'case', 'catch', 'try', 'finally', 'return', 'const', 'let', 'var', 'function', 'new', 'typeof', 'await', 'yield', 'throw', 'import', 'export', 'class', 'delete', 'void', 'with', 'super', 'this']);
  for (const [start, end] of ranges) {
    for (const match of query.matches(root, { startIndex: start * 2, endIndex: end * 2 })) {
      const name = match.captures.find((c) => c.name === 'name')?.node;
      const def = match.captures.find((c) => c.name !== 'name');
      if (!name || !def) continue;
      const text = unquote(name.text);
      if (!text || text.length > 200 || keywords.has(text)) continue;
      const nameAt = name.startIndex + (name.text.length > text.length ? 1 : 0);
      if (seen.has(nameAt)) continue;
      seen.add(nameAt);
      out.push({ kind: def.name, name: text, nameAt, start: def.node.startIndex, end: def.node.endIndex });
    }
  }
  query.delete();
  return out.sort((a, b) => a.nameAt - b.nameAt);
}

const cases: Array<{ name: string; input: { grammar: string; text: string; ranges?: Range[] }; expected: string[] }> = [
  {
    name: 'javascript: a top-level arrow is the variable a query reports first; one inside a function is a function',
    input: { grammar: 'javascript', text: 'const f = () => 1;\nfunction g() {\n  const h = () => 2;\n  return { k() {}, v: 3 };\n}\n' },
    expected: ['variable f @1:7', 'function g @2:10', 'function h @3:9', 'method k @4:12'],
  },
  {
    name: 'javascript: only definitions inside the searched text, top-level variables wherever they are',
    input: { grammar: 'javascript', text: 'function a() { function inner() {} }\nconst top = 1;\nfunction b() { function other() {} }\n', ranges: [[50, 90]] },
    expected: ['variable top @2:7', 'function b @3:10', 'function other @3:25'],
  },
  {
    name: 'go: every name of a multi-name declaration, a func literal assigned to a name',
    input: { grammar: 'go', text: 'package p\n\nvar a, b = 1, 2\n\nfunc main() {\n\tf := func() {}\n\tf()\n}\n' },
    expected: ['variable a @3:5', 'variable b @3:8', 'function main @5:6', 'function f @6:2'],
  },
  {
    name: 'go: a top-level func literal is the variable a query reports first (its match ends at the name)',
    input: { grammar: 'go', text: 'package p\n\nvar handler = func() {}\n' },
    expected: ['variable handler @3:5'],
  },
  {
    name: 'typescript: an interface, a type, an enum, a method signature, an exported constant',
    input: { grammar: 'typescript', text: 'export const limit = 3;\ninterface Shape { area(): number }\ntype Id = string;\nenum Color { Red }\nabstract class Base { abstract run(): void }\n' },
    expected: ['variable limit @1:14', 'interface Shape @2:11', 'method area @2:19', 'type Id @3:6', 'enum Color @4:6', 'class Base @5:16', 'method run @5:32'],
  },
  {
    name: 'python: a module-level assignment, a nested function, a method',
    input: { grammar: 'python', text: 'LIMIT = 3\n\ndef outer():\n    def inner():\n        x = 1\n\nclass C:\n    def m(self):\n        pass\n' },
    expected: ['variable LIMIT @1:1', 'function outer @3:5', 'function inner @4:9', 'class C @7:7', 'function m @8:9'],
  },
  {
    name: 'cpp: a function by its declarator, a class and a struct with bodies, a declaration without one',
    input: { grammar: 'cpp', text: 'struct Fwd;\nclass Box { int v; };\nint twice(int x) { return 2 * x; }\n' },
    expected: ['class Box @2:7', 'function twice @3:5'],
  },
];

describe('definitions matched on the shared walk', function () {
  this.timeout(60_000);
  checkAll(cases, async ({ grammar, text, ranges }) => {
    const tree = await parse(grammar, text);
    try {
      const searched = ranges ?? [[0, text.length]];
      const found = walked(tree.rootNode, grammar, searched);
      assert.deepEqual(found, queried(tree.rootNode, grammar, searched), 'differs from the query');
      return rows(text, found);
    } finally {
      tree.delete();
    }
  });

  it('agrees with the query on every chunking fixture, whole and in every other top-level range', async () => {
    let compared = 0;
    for (const rel of allFixtures()) {
      const grammar = astLanguageFor(rel);
      if (!grammar || definitionPatterns(grammar).length === 0) continue;
      const text = fs.readFileSync(path.join(FIXTURES_DIR, rel), 'utf8');
      const tree = await parse(grammar, text);
      try {
        const kids = tree.rootNode.children.filter((k): k is Node => k !== null);
        const alternate: Range[] = kids.filter((_, i) => i % 2 === 1).map((k): Range => [k.startIndex, k.endIndex]).filter((r) => r[1] > r[0]);
        for (const ranges of [[[0, text.length]] as Range[], alternate]) {
          assert.deepEqual(walked(tree.rootNode, grammar, ranges), queried(tree.rootNode, grammar, ranges), `${rel}, ${ranges.length} range(s)`);
          compared++;
        }
      } finally {
        tree.delete();
      }
    }
    assert.ok(compared >= 20, `only ${compared} comparisons`);
  });
});
