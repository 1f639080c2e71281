// Which definition a reference resolves to (`resolvesTo`), and asking from one definition
// (`PATH:LINE`): CommonJS requires (destructured, a member of the require, an alias of a
// module's member, `exports.x`), ES imports (renamed, namespace), a file with its own
// same-named definition, methods through a receiver of known type, Rust methods of two types.
import * as assert from 'node:assert/strict';
import { checkAll } from './check';
import { brief, indexedForRefs } from './helpers/refsOf';

const FILES: Record<string, string> = {
  'lib/a.js': ["function isFunction(node) {", "  return node && node.type === 'Function';", "}", "function helper() {", "  return isFunction(null);", "}", "module.exports = { isFunction, helper };", ''].join('\n'),
  'lib/b.js': ["const { isFunction } = require('./a');", "isFunction(1);", ''].join('\n'),
  'lib/c.js': ["const isFunction = require('./a').isFunction;", "isFunction(2);", ''].join('\n'),
  'lib/d.js': ["const astUtils = require('./a');", "const isFunction = astUtils.isFunction;", "isFunction(3);", "astUtils.isFunction(4);", ''].join('\n'),
  'lib/e.js': ["const astUtils = require('./a');", "function isFunction(x) {", "  return typeof x === 'function';", "}", "isFunction(5);", "astUtils.helper();", ''].join('\n'),
  'lib/other.js': ["exports.isFunction = function (x) {", "  return !!x;", "};", ''].join('\n'),
  'lib/f.js': ["const other = require('./other');", "other.isFunction(6);", ''].join('\n'),
  'lib/g.js': ["exports.isFunction = isFunction;", "function isFunction(y) {", "  return y;", "}", ''].join('\n'),
  'lib/h.js': ["const g = require('./g');", "g.isFunction(7);", ''].join('\n'),
  'src/m.ts': ["export function parseIt(s: string): number {", "  return s.length;", "}", ''].join('\n'),
  'src/n.ts': ["import { parseIt as parseOne } from './m';", "import * as m from './m';", "export const a = parseOne('x') + m.parseIt('y');", ''].join('\n'),
  'src/own.ts': ["import { parseIt as theirs } from './m';", "export function parseIt(s: string): number {", "  return theirs(s) + 1;", "}", "export const b = parseIt('z');", ''].join('\n'),
  'src/x.ts': ["import { parseIt } from './own';", "export const c = parseIt('w');", ''].join('\n'),
  'src/store.ts': ["export class Store {", "  save(): void {", "    this.save();", "  }", "}", "export class Cache {", "  save(): void {", "    this.save();", "  }", "}", "export function use(s: Store, other: { save(): void }): void {", "  const fresh = new Store();", "  fresh.save();", "  other.save();", "}", ''].join('\n'),
  'rs/rt.rs': ["pub struct Runtime;", "", "impl Runtime {", "    pub fn block_on_inner(&self) {}", "", "    pub fn run(&self) {", "        self.block_on_inner();", "    }", "}", "", "pub struct Handle;", "", "impl Handle {", "    pub fn block_on_inner(&self) {}", "", "    pub fn go(&self) {", "        self.block_on_inner();", "        Self::block_on_inner(self);", "    }", "}", "", "pub fn other(h: &Handle) {", "    h.block_on_inner();", "}", ''].join('\n'),  // A local of the definition's name, an object key, and what a module does not export.
  'lib/k.js': ['function range(size) {', '  var range = size * 2;', '  return { range: range };', '}', 'exports.range = range;', 'exports.secret = makeSecret();', 'const r = range(1);', ''].join('\n'),
  'lib/hidden.js': ['function secret() {', '  return 1;', '}', 'module.exports = {};', ''].join('\n'),
  // ESLint's ast-utils: methods and values come before the shorthand export in the literal.
  'lib/utils.js': ['function isNode(node) {', '  return node !== null;', '}', 'module.exports = {', '  isEmpty(node) {', '    return !node.body.length;', '  },', "  BREAKS: new Set(['}']),", '  isNode,', '};', ''].join('\n'),
  'lib/p.js': ["const astUtils = require('./utils');", 'astUtils.isNode(8);', ''].join('\n'),
  'lib/uses.js': ["const k = require('./k');", "const hidden = require('./hidden');", 'k.range(2) + hidden.secret();', ''].join('\n'),
};

/** lib/a.js's isFunction, as each way of reaching it writes it. */
const A_IS_FUNCTION = [
  'lib/a.js:1:10 definition certain → lib/a.js:1',
  'lib/a.js:5:10 code certain → lib/a.js:1',
  'lib/a.js:7:20 code certain → lib/a.js:1',
  'lib/b.js:1:9 import certain → lib/a.js:1',
  'lib/b.js:2:1 code certain → lib/a.js:1',
  'lib/c.js:1:7 import certain → lib/a.js:1',
  'lib/c.js:1:35 import certain → lib/a.js:1',
  'lib/c.js:2:1 code certain → lib/a.js:1',
  'lib/d.js:2:7 definition certain → lib/a.js:1',
  'lib/d.js:2:29 member certain → lib/a.js:1',
  'lib/d.js:3:1 code certain → lib/a.js:1',
  'lib/d.js:4:10 member certain → lib/a.js:1',
];

describe('references resolve to one definition', function () {
  this.timeout(60000);
  const { refs, workspace } = indexedForRefs(FILES);

  checkAll<string, string[]>(
    [
      {
        name: 'commonjs, by name: each certain reference names its own definition — a.js through require, destructuring, a member of the require and an alias; e.js its own; other.js and g.js through exports',
        input: 'isFunction',
        expected: [
          ...A_IS_FUNCTION,
          'lib/e.js:2:10 definition certain → lib/e.js:2',
          'lib/e.js:5:1 code certain → lib/e.js:2',
          'lib/f.js:2:7 member certain → lib/other.js:1',
          'lib/g.js:1:9 member certain → lib/g.js:2',
          'lib/g.js:1:22 code certain → lib/g.js:2',
          'lib/g.js:2:10 definition certain → lib/g.js:2',
          'lib/h.js:2:3 member certain → lib/g.js:2',
          'lib/other.js:1:9 definition certain → lib/other.js:1',
        ],
      },
      {
        name: "commonjs, from a.js's definition: only what resolves to it — not e.js's own isFunction, nor other.js's or g.js's",
        input: 'lib/a.js:1',
        expected: A_IS_FUNCTION,
      },
      { name: 'from a definition given with its column', input: 'lib/a.js:1:12', expected: A_IS_FUNCTION },
      {
        name: 'commonjs, a member of a require whose module.exports literal holds methods before the shorthand key',
        input: 'lib/utils.js:1',
        expected: ['lib/p.js:2:10 member certain → lib/utils.js:1', 'lib/utils.js:1:10 definition certain → lib/utils.js:1', 'lib/utils.js:9:3 code certain → lib/utils.js:1'],
      },
      {
        name: "commonjs, from e.js's own definition: its call only, never a.js's importers",
        input: 'lib/e.js:2',
        expected: ['lib/e.js:2:10 definition certain → lib/e.js:2', 'lib/e.js:5:1 code certain → lib/e.js:2'],
      },
      {
        name: 'esm, from m.ts: a renamed import and a namespace member; own.ts imports it under another name, so its own parseIt and its importers are not m.ts\'s',
        input: 'src/m.ts:1',
        expected: ['src/m.ts:1:17 definition certain → src/m.ts:1', 'src/n.ts:1:10 import certain → src/m.ts:1', 'src/n.ts:3:36 member certain → src/m.ts:1', 'src/own.ts:1:10 import certain → src/m.ts:1'],
      },
      {
        name: "esm, from own.ts: its call and x.ts, which imports own.ts's",
        input: 'src/own.ts:2',
        expected: ['src/own.ts:2:17 definition certain → src/own.ts:2', 'src/own.ts:5:18 code certain → src/own.ts:2', 'src/x.ts:1:10 import certain → src/own.ts:2', 'src/x.ts:2:18 code certain → src/own.ts:2'],
      },
      {
        name: "methods: this.save() in each class is that class's; a new Store's save is Store's; a receiver of unknown type is a name match that may still be it",
        input: 'src/store.ts:2',
        expected: ['src/store.ts:2:3 definition certain → src/store.ts:2', 'src/store.ts:3:10 member certain → src/store.ts:2', 'src/store.ts:13:9 member certain → src/store.ts:2', 'src/store.ts:14:9 member name-match'],
      },
      {
        name: "rust: two types' methods of one name are never merged: self and Self inside each impl are its own, a receiver annotated &Handle is Handle's",
        input: 'block_on_inner',
        expected: [
          'rs/rt.rs:4:12 definition certain → rs/rt.rs:4',
          'rs/rt.rs:7:14 member certain → rs/rt.rs:4',
          'rs/rt.rs:14:12 definition certain → rs/rt.rs:14',
          'rs/rt.rs:17:14 member certain → rs/rt.rs:14',
          'rs/rt.rs:18:15 member certain → rs/rt.rs:14',
          'rs/rt.rs:23:7 member certain → rs/rt.rs:14',
        ],
      },
      {
        name: "rust, from Runtime's method: Handle's calls are left out, the one through h: &Handle too",
        input: 'rs/rt.rs:4',
        expected: ['rs/rt.rs:4:12 definition certain → rs/rt.rs:4', 'rs/rt.rs:7:14 member certain → rs/rt.rs:4'],
      },
      {
        name: 'javascript, from a definition: a local that shadows it and an object key of its name are left out; exports.x = x and a member of the module exporting it are certain',
        input: 'lib/k.js:1',
        expected: [
          'lib/k.js:1:10 definition certain → lib/k.js:1',
          'lib/k.js:5:9 member certain → lib/k.js:1',
          'lib/k.js:5:17 code certain → lib/k.js:1',
          'lib/k.js:7:11 code certain → lib/k.js:1',
          'lib/uses.js:3:3 member certain → lib/k.js:1',
        ],
      },
      {
        name: 'javascript: a module that does not export its function is not what a member of the module means; exports.x = other() is another value',
        input: 'secret',
        expected: ['lib/hidden.js:1:10 definition certain → lib/hidden.js:1', 'lib/k.js:6:9 member name-match', 'lib/uses.js:3:21 member name-match'],
      },
    ],
    refs,
  );

  it('a line with no definition\'s name says so, and lists nothing', async () => {
    const r = await workspace().engine().references('lib/a.js:2', { refresh: 'never' });
    assert.deepEqual([r.total, r.references, r.definitions], [0, [], []]);
    assert.equal(r.note, "no definition's name at lib/a.js:2");
    assert.deepEqual(r.diagnostics.map((d) => [d.code, d.severity]), [['no-definition-here', 'error']]);
  });

  it('from a definition, the answer lists that definition alone', async () => {
    const r = await workspace().engine().references('isFunction', { refresh: 'never', definition: { path: 'lib/g.js', line: 2 } });
    assert.deepEqual(r.definitions.map((d) => `${d.path}:${d.line}`), ['lib/g.js:2']);
    assert.deepEqual(r.references.map(brief), ['lib/g.js:1:9 member certain → lib/g.js:2', 'lib/g.js:1:22 code certain → lib/g.js:2', 'lib/g.js:2:10 definition certain → lib/g.js:2', 'lib/h.js:2:3 member certain → lib/g.js:2']);
  });
});
