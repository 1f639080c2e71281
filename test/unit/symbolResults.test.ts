// Go to symbol through the engine, on a small workspace: nested definitions are found with
// their breadcrumb, every hit carries the name's position inside its range, a definition split
// for size is one result over its whole range, and equal matches prefer source, then shorter paths.
import * as assert from 'node:assert/strict';
import type { Engine } from '../../src/core/engine/engine';
import { checkAll } from './check';
import { TempWorkspace } from './helpers/workspace';

const LONG_DOC = [
  '/**',
  ...Array.from({ length: 40 }, (_, i) => ` * Line ${i} of a long comment about the function, long enough to be split.`),
  ' */',
  'export function bigOne(a: number): number {',
  ...Array.from({ length: 60 }, (_, i) => `  const value${i} = a + ${i} * 2 + Math.max(a, ${i});`),
  '  return a;',
  '}',
  '',
].join('\n');

const FILES: Record<string, string> = {
  'lib/rules/no-array.js': [
    'module.exports = {',
    '  meta: { type: "problem" },',
    '  create(context) {',
    '    function isArrayType(node) {',
    '      return node.type === "ArrayExpression";',
    '    }',
    '    return { CallExpression(node) { if (isArrayType(node)) context.report({ node }); } };',
    '  },',
    '};',
    '',
  ].join('\n'),
  'src/greeter.ts': ['/**', ' * Greets.', ' */', '@sealed', 'export class Greeter {', '  greet(): string {', "    return 'hi';", '  }', '}', ''].join('\n'),
  'src/big.ts': LONG_DOC,
  'app/deep/nested/util.py': 'def helper():\n    return 1\n',
  'app/util.py': 'def helper():\n    return 2\n',
  'tests/test_util.py': 'def helper():\n    return 3\n',
};

/** `path:nameLine:nameColumn kind context start-end` per result. */
const rows = async (engine: Engine, name: string): Promise<string[]> =>
  (await engine.findSymbol(name, { refresh: 'never' })).results.map((r) => `${r.path}:${r.nameLine}:${r.nameColumn} ${r.kind} ${r.context} ${r.startLine}-${r.endLine} ${r.docid}`);

describe('symbol results', function () {
  this.timeout(60000);
  let ws: TempWorkspace;
  let engine: Engine;
  before(async () => {
    ws = new TempWorkspace(FILES);
    engine = ws.engine({ policy: { astMaxChars: 1200 } });
    await engine.refresh();
  });
  after(() => ws.dispose());

  checkAll(
    [
      {
        name: 'a helper nested in create() is found, with its breadcrumb and its own range',
        input: 'isArrayType',
        expected: ['lib/rules/no-array.js:4:14 function create.isArrayType 4-6 lib/rules/no-array.js:4-6'],
      },
      {
        name: 'an object-literal method is found',
        input: 'create',
        expected: ['lib/rules/no-array.js:3:3 method create 3-8 lib/rules/no-array.js:3-8'],
      },
      {
        name: 'the name after a doc comment and a decorator, the range over both',
        input: 'Greeter',
        expected: ['src/greeter.ts:5:14 class Greeter 1-9 src/greeter.ts:1-9'],
      },
      {
        name: 'a definition split for size is one result over its whole range, at its name',
        input: 'bigOne',
        expected: ['src/big.ts:43:17 function bigOne 1-105 src/big.ts:1-105'],
      },
      {
        name: 'equal matches: source before tests, then the shorter path',
        input: 'helper',
        expected: [
          'app/util.py:1:5 function helper 1-2 app/util.py:1-2',
          'app/deep/nested/util.py:1:5 function helper 1-2 app/deep/nested/util.py:1-2',
          'tests/test_util.py:1:5 function helper 1-2 tests/test_util.py:1-2',
        ],
      },
    ],
    (name) => rows(engine, name),
  );

  it('search hits of a split definition: only the part holding the name carries nameLine', async () => {
    const r = await engine.search('bigOne', { refresh: 'never', limit: 20 });
    const parts = r.results.filter((h) => h.path === 'src/big.ts');
    assert.ok(parts.length >= 2, `parts: ${parts.map((h) => h.docid).join(', ')}`);
    for (const h of parts) {
      if (h.nameLine !== undefined) assert.ok(h.startLine <= h.nameLine && h.nameLine <= h.endLine, `${h.docid} names line ${h.nameLine}`);
    }
    assert.ok(parts.some((h) => h.nameLine === 43));
  });
});
