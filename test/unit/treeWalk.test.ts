// The one walk of a parsed tree (chunking/ast/walk.ts) reads the names straight from the
// runtime's memory instead of making a node object of each: it must find exactly what
// web-tree-sitter's own `descendantsOfType` finds (names with their rows, types and ends;
// definitions as node objects the patterns can read), and a process checks that on its first
// tree before trusting it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type TreeSitter = require('web-tree-sitter');
import { checkAll } from './check';
import { allFixtures, FIXTURES_DIR, GRAMMARS_DIR } from './astChunkerSupport';
import { astLanguageFor } from '../../src/core/chunking/ast';
import { GrammarCache, initRuntime, safeParse } from '../../src/core/chunking/ast/runtime';
import { resetWalkMode, sameWalk, walkMode, walkTree, type Walked } from '../../src/core/chunking/ast/walk';

let grammars: GrammarCache | undefined;

async function parse(grammar: string, text: string): Promise<TreeSitter.Tree> {
  await initRuntime(path.join(GRAMMARS_DIR, 'tree-sitter.wasm'));
  grammars ??= new GrammarCache(GRAMMARS_DIR);
  const tree = safeParse(await grammars.parserFor(grammar), text);
  if (!tree) throw new Error(`${grammar}: no tree`);
  return tree;
}

/** Both walks of one tree: the direct one and the library's. */
function bothWalks(tree: TreeSitter.Tree, grammar: string): { direct: Walked | undefined; library: Walked | undefined } {
  try {
    resetWalkMode('direct');
    const direct = walkTree(tree.rootNode, grammar);
    resetWalkMode('library');
    return { direct, library: walkTree(tree.rootNode, grammar) };
  } finally {
    resetWalkMode();
  }
}

/** `text@row:type` per name (its end asked of the tree), then `type@row` per definition. */
function summary(w: Walked | undefined, text: string, language: TreeSitter.Language): string[] {
  if (!w) return [];
  const out: string[] = [];
  for (let i = 0; i < w.names.count; i++) {
    const start = w.names.starts[i] as number;
    out.push(`${text.slice(start, w.names.endOf(i))}@${w.names.rows[i]}:${language.types[w.names.types[i] as number]}`);
  }
  w.definitions.forEach((d, i) => out.push(`def ${language.types[w.definitionTypes[i] as number]}@${d.startPosition.row} ${d.childForFieldName('name')?.text ?? ''}`));
  return out;
}

const cases: Array<{ name: string; input: { grammar: string; text: string }; expected: string[] }> = [
  {
    name: 'java: names with their rows and types, a class and a method as definitions',
    input: { grammar: 'java', text: 'import a.B;\nclass C {\n  void m(B b) { b.x(); }\n}\n' },
    expected: [
      'import a.B;@0:import_declaration', 'a@0:identifier', 'B@0:identifier', 'C@1:identifier', 'm@2:identifier', 'B@2:type_identifier', 'b@2:identifier', 'b@2:identifier', 'x@2:identifier',
      'def class_declaration@1 C', 'def method_declaration@2 m',
    ],
  },
  {
    name: 'javascript: an import statement ends where the tree says; non-ASCII names end at the node',
    input: { grammar: 'javascript', text: "import { a } from 'b';\nconst größe = a;\n" },
    expected: [
      "import { a } from 'b';@0:import_statement", 'a@0:identifier', 'const größe = a;@1:lexical_declaration', 'größe@1:identifier', 'a@1:identifier',
      'def lexical_declaration@1 ', 'def variable_declarator@1 größe',
    ],
  },
  {
    name: 'ruby: a symbol and an instance variable keep the ends their nodes give',
    input: { grammar: 'ruby', text: 'def f\n  @x = :y\nend\n' },
    expected: ['f@0:identifier', '@x@1:instance_variable', ':y@1:simple_symbol', 'def method@0 f', 'def assignment@1 '],
  },
  {
    name: 'c: a macro body is one opaque leaf',
    input: { grammar: 'c', text: '#define TWICE(a) add(a, a)\nint add(int x, int y);\n' },
    expected: ['TWICE@0:identifier', 'a@0:identifier', 'add(a, a)@0:preproc_arg', 'add@1:identifier', 'x@1:identifier', 'y@1:identifier'],
  },
  {
    name: 'python: a tree with a syntax error walks the same',
    input: { grammar: 'python', text: 'def f(:\n    return g(1)\n' },
    expected: ['f@0:identifier', 'g@1:identifier', 'def function_definition@0 f'],
  },
];

describe('the tree walk read from the runtime', function () {
  this.timeout(60_000);
  checkAll(cases, async ({ grammar, text }) => {
    const tree = await parse(grammar, text);
    try {
      const { direct, library } = bothWalks(tree, grammar);
      assert.ok(direct && library, 'a walk for the grammar');
      assert.deepEqual(summary(direct, text, tree.language), summary(library, text, tree.language), 'differs from descendantsOfType');
      return summary(direct, text, tree.language);
    } finally {
      tree.delete();
    }
  });

  it('finds what descendantsOfType finds on every chunking fixture', async () => {
    let compared = 0;
    for (const rel of allFixtures()) {
      const grammar = astLanguageFor(rel);
      if (!grammar) continue;
      const text = fs.readFileSync(path.join(FIXTURES_DIR, rel), 'utf8');
      const tree = await parse(grammar, text);
      try {
        const { direct, library } = bothWalks(tree, grammar);
        if (!direct || !library) continue;
        assert.ok(sameWalk(direct, library), rel);
        assert.deepEqual(summary(direct, text, tree.language), summary(library, text, tree.language), rel);
        compared++;
      } finally {
        tree.delete();
      }
    }
    assert.ok(compared >= 20, `only ${compared} fixtures compared`);
  });

  it('is trusted only after matching the library on a tree with names and definitions', async () => {
    const empty = await parse('java', '');
    const full = await parse('java', 'class A { int b() { return c; } }\n');
    try {
      resetWalkMode();
      walkTree(empty.rootNode, 'java');
      assert.equal(walkMode(), 'unchecked', 'an empty tree proves nothing');
      walkTree(full.rootNode, 'java');
      assert.equal(walkMode(), 'direct');
    } finally {
      empty.delete();
      full.delete();
      resetWalkMode();
    }
  });
});
