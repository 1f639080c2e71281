// A receiver typed by an annotation is a known receiver: a parameter or variable annotated with
// a type its file reaches (Python `user: User`, TypeScript `h: Handle`, Rust `h: &Handle`) makes
// its method call certain and names that type's method; an annotation naming a type with no
// such method, or none, leaves a name match. And `module.exports = f` (a function, a named
// function expression, a class) is what `const f = require('./a')` binds.
import { checkAll } from './check';
import { indexedForRefs } from './helpers/refsOf';

const FILES: Record<string, string> = {
  'py/models.py': ['class User:', '    def display_name(self):', '        return "u"', '', 'class Group:', '    def display_name(self):', '        return "g"', ''].join('\n'),
  'py/views.py': [
    'from models import User',
    '',
    'def show(user: User):',
    '    return user.display_name()',
    '',
    'def show_any(thing):',
    '    return thing.display_name()',
    '',
    'def show_local():',
    '    owner: User = make()',
    '    return owner.display_name()',
    '',
  ].join('\n'),
  'ts/handle.ts': ['export class Handle {', '  run(): void {}', '}', 'export class Other {', '  run(): void {}', '}', ''].join('\n'),
  'ts/use.ts': [
    "import { Handle } from './handle';",
    'export const go = (h: Handle) => h.run();',
    'export function any(h: unknown): void {',
    '  (h as { run(): void }).run();',
    '}',
    'export function later(x: Handle | undefined, y: Stranger): void {',
    '  x?.run();',
    '  y.run();',
    '}',
    'export function local(): void {',
    '  const k: Handle = make();',
    '  k.run();',
    '}',
    '',
  ].join('\n'),
  'rs/rt.rs': [
    'pub struct Runtime;',
    '',
    'impl Runtime {',
    '    pub fn block_on_inner(&self) {}',
    '}',
    '',
    'pub struct Handle;',
    '',
    'impl Handle {',
    '    pub fn block_on_inner(&self) {}',
    '}',
    '',
    'pub fn other(h: &Handle, r: &mut Runtime, u: Unknown) {',
    '    h.block_on_inner();',
    '    r.block_on_inner();',
    '    u.block_on_inner();',
    '}',
    '',
  ].join('\n'),
  'cjs/parse.js': ['function parseIt(s) {', '  return s.length;', '}', 'module.exports = parseIt;', ''].join('\n'),
  'cjs/useParse.js': ["const parseIt = require('./parse');", 'parseIt("a");', ''].join('\n'),
  'cjs/expr.js': ['module.exports = function formatIt(s) {', '  return s;', '};', ''].join('\n'),
  'cjs/useExpr.js': ["const formatIt = require('./expr');", 'formatIt("b");', ''].join('\n'),
  'cjs/klass.js': ['module.exports = class Widget {', '  draw() {}', '};', ''].join('\n'),
  'cjs/useKlass.js': ["const Widget = require('./klass');", 'new Widget().draw();', ''].join('\n'),
  'cjs/useWrong.js': ["const parseIt = require('./expr');", 'parseIt("c");', ''].join('\n'),
};

describe('references through annotated receivers and module.exports', function () {
  this.timeout(60000);
  const { refs } = indexedForRefs(FILES);

  checkAll<string, string[]>(
    [
      {
        name: "python: a parameter and a variable annotated User call User's method; an unannotated one is a name match",
        input: 'py/models.py:2',
        expected: ['py/models.py:2:9 definition certain → py/models.py:2', 'py/views.py:4:17 member certain → py/models.py:2', 'py/views.py:11:18 member certain → py/models.py:2', 'py/views.py:7:18 member name-match'],
      },
      {
        name: "typescript: (h: Handle) => h.run() and const k: Handle are Handle's; unknown, a cast and a type the file cannot reach are name matches",
        input: 'ts/handle.ts:2',
        expected: [
          'ts/handle.ts:2:3 definition certain → ts/handle.ts:2',
          'ts/use.ts:2:36 member certain → ts/handle.ts:2',
          'ts/use.ts:7:6 member certain → ts/handle.ts:2',
          'ts/use.ts:12:5 member certain → ts/handle.ts:2',
          'ts/use.ts:4:26 member name-match',
          'ts/use.ts:8:5 member name-match',
        ],
      },
      {
        name: "rust: h: &Handle and r: &mut Runtime each call their own type's method; an unknown type is a name match",
        input: 'block_on_inner',
        expected: [
          'rs/rt.rs:4:12 definition certain → rs/rt.rs:4',
          'rs/rt.rs:10:12 definition certain → rs/rt.rs:10',
          'rs/rt.rs:14:7 member certain → rs/rt.rs:10',
          'rs/rt.rs:15:7 member certain → rs/rt.rs:4',
          'rs/rt.rs:16:7 member name-match',
        ],
      },
      {
        name: 'commonjs: module.exports = parseIt is what require binds; a module exporting another function is not it',
        input: 'cjs/parse.js:1',
        expected: [
          'cjs/parse.js:1:10 definition certain → cjs/parse.js:1',
          'cjs/parse.js:4:18 code certain → cjs/parse.js:1',
          'cjs/useParse.js:1:7 import certain → cjs/parse.js:1',
          'cjs/useParse.js:2:1 code certain → cjs/parse.js:1',
        ],
      },
      {
        name: 'commonjs: module.exports = function formatIt() {} is what require binds',
        input: 'cjs/expr.js:1:27',
        expected: ['cjs/expr.js:1:27 definition certain → cjs/expr.js:1', 'cjs/useExpr.js:1:7 import certain → cjs/expr.js:1', 'cjs/useExpr.js:2:1 code certain → cjs/expr.js:1'],
      },
      {
        name: 'commonjs: module.exports = class Widget {} is what require binds',
        input: 'cjs/klass.js:1:24',
        expected: ['cjs/klass.js:1:24 definition certain → cjs/klass.js:1', 'cjs/useKlass.js:1:7 import certain → cjs/klass.js:1', 'cjs/useKlass.js:2:5 code certain → cjs/klass.js:1'],
      },
    ],
    refs,
  );
});
