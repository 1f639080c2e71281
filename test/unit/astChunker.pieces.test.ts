// A rule too big for one chunk (an ESLint `module.exports = { create(context) {…} }`): its
// helpers and the visitor methods of the object it returns each get a chunk named with a
// breadcrumb, and no chunk holds two of them under "lines N–M".
import * as assert from 'node:assert/strict';
import { checkAll } from './check';
import { chunkDoc, makeDoc } from './astChunkerSupport';

const helper = (i: number): string =>
  [`    /**`, `     * Helper ${i}.`, `     */`, `    function helper${i}(node) {`, ...Array.from({ length: 6 }, (_, j) => `      const v${j} = node.value + ${j} * ${i} + Math.max(node.x, ${j});`), '      return v0;', '    }', ''].join('\n');
const visitor = (name: string): string => [`      ${name}(node) {`, ...Array.from({ length: 6 }, (_, j) => `        context.report({ node, message: 'm${j}' + helper${j}(node) });`), '      },'].join('\n');

const RULE = [
  "'use strict';",
  '',
  'module.exports = {',
  "  meta: { type: 'problem' },",
  '  create(context) {',
  ...Array.from({ length: 8 }, (_, i) => helper(i)),
  '    return {',
  visitor('"Program:exit"'),
  visitor('CallExpression'),
  '      onKey: function (node) {',
  '        return helper1(node);',
  '      },',
  '      onArrow: (node) => {',
  '        return helper2(node);',
  '      },',
  '    };',
  '  },',
  '};',
  '',
].join('\n');

describe('AstChunker: definitions inside pieces packed for size', function () {
  this.timeout(60000);
  const rows = async (budget: number): Promise<string[]> => (await chunkDoc(makeDoc('lib/rules/rule.js', RULE), budget)).chunks.map((c) => `${c.kind} ${c.context || c.symbol || '-'}`);

  checkAll(
    [
      { name: 'a helper inside create() is a chunk named create.helperN', input: 'function create.helper5', expected: true },
      { name: 'a visitor method keeps its key', input: 'method create.Program:exit', expected: true },
      { name: 'a plain visitor method', input: 'method create.CallExpression', expected: true },
      { name: 'key: function () {}', input: 'method create.onKey', expected: true },
      { name: 'key: () => {}', input: 'method create.onArrow', expected: true },
    ],
    async (row) => (await rows(700)).includes(row),
  );

  it('no chunk holds two helpers or two visitors', async () => {
    const chunks = (await chunkDoc(makeDoc('lib/rules/rule.js', RULE), 700)).chunks;
    const crowded = chunks.filter((c) => (c.text.match(/function helper\d|^\s{6}[\w"]+(:\s*function|:\s*\(|\()/gm) ?? []).length > 1).map((c) => `${c.startLine}-${c.endLine} ${c.kind} ${c.symbol}`);
    assert.deepEqual(crowded, []);
  });
});
