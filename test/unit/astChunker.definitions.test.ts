// Every definition a person could "go to", with the place its name is: the chunks' own
// definitions (nameLine/nameColumn inside the range that includes doc comments and
// decorators) and definitions nested in function bodies and object literals, which have no
// chunk of their own but are listed on the chunk that holds them.
import type { Chunk } from '../../src/core/types';
import { checkAll } from './check';
import { chunkDoc, makeDoc } from './astChunkerSupport';
import { declarationLines } from '../../src/core/chunking/ast/nested';

/** One line per symbol: `kind breadcrumb start-end @nameLine:nameColumn`, nested ones marked. */
function symbolsOf(chunks: readonly Chunk[]): string[] {
  const out: string[] = [];
  for (const c of chunks) {
    if (c.symbol) {
      const split = `${c.continued ? ' continued' : ''}${c.definitionEndLine ? ` to ${c.definitionEndLine}` : ''}`;
      out.push(`${c.kind} ${c.context} ${c.startLine}-${c.endLine} @${c.nameLine ?? '-'}:${c.nameColumn ?? '-'}${split}`);
    }
    for (const n of c.nested ?? []) out.push(`nested ${n.kind} ${n.context} ${n.startLine}-${n.endLine} @${n.nameLine}:${n.nameColumn}`);
  }
  return out;
}


const cases: Array<{ name: string; input: { path: string; text: string; budget?: number }; expected: string[] }> = [
  {
    name: "javascript: an ESLint rule's helpers inside create(), object-literal methods, a named function expression",
    input: { path: 'rule.js', text: `/**
 * @fileoverview Disallow arrays.
 */
module.exports = {
  meta: { type: "problem" },
  create(context) {
    function isArrayType(node) {
      return node.type === "ArrayExpression";
    }
    const report = (node) => context.report({ node });
    return {
      CallExpression(node) {
        if (isArrayType(node)) report(node);
      },
    };
  },
};
const api = { load() { return 1; }, save: function () {} };
defineGetter(req, 'ip', function ip() { return 1; });
` },
    expected: [
      'method create 6-16 @6:3',
      'nested function create.isArrayType 7-9 @7:14',
      'nested function create.report 10-10 @10:11',
      'nested method create.CallExpression 12-14 @12:7',
      'nested variable api 18-18 @18:7',
      'nested method api.load 18-18 @18:15',
      'nested method api.save 18-18 @18:37',
      'nested function ip 19-19 @19:34',
    ],
  },
  {
    name: 'typescript: names after doc comments and decorators; an arrow in a method, a function in an arrow field',
    input: { path: 'greeter.ts', text: `/**
 * Greets people.
 */
@Component({ selector: 'x' })
export class Greeter {
  /** Says hi. */
  @log()
  greet(name: string): string {
    const inner = () => name;
    return inner();
  }
  handle = (e: Event) => {
    function deep() {}
  };
}
` },
    expected: [
      'class Greeter 1-15 @5:14',
      'method Greeter.greet 6-11 @8:3',
      'nested function Greeter.greet.inner 9-9 @9:11',
      'method Greeter.handle 12-14 @12:3',
      'nested function Greeter.handle.deep 13-13 @13:14',
    ],
  },
  {
    name: "python: a decorated function's name line; nested def, class and method",
    input: { path: 'app.py', text: `import typing as t


@app.route("/index")
def index():
    """Index page."""
    def render(name):
        return name

    class Local:
        def method(self):
            pass

    return render("x")
` },
    expected: [
      'function index 4-14 @5:5',
      'nested function index.render 7-8 @7:9',
      'nested class index.Local 10-12 @10:11',
      'nested function index.Local.method 11-12 @11:13',
    ],
  },
  {
    name: "go: a method's name after its receiver; closures assigned to names",
    input: { path: 'server.go', text: `package server

// Start starts.
func (s *Server) Start() error {
	handler := func(w int) {}
	var logf = func(f string) {}
	handler(1)
	logf("")
	return nil
}
` },
    expected: [
      'method Server.Start 3-10 @4:18',
      'nested function Server.Start.handler 5-5 @5:2',
      'nested function Server.Start.logf 6-6 @6:6',
    ],
  },
  {
    name: 'rust: names after doc comments and attributes; items inside a function body',
    input: { path: 'lib.rs', text: `/// An entry.
#[derive(Debug)]
pub struct Entry {
    name: String,
}

impl Entry {
    /// Makes one.
    #[inline]
    pub fn new() -> Self {
        fn helper() -> u8 { 1 }
        struct Scratch;
        Entry { name: String::new() }
    }
}
` },
    expected: [
      'struct Entry 1-5 @3:12',
      'impl Entry 7-15 @7:6',
      'method Entry.new 8-14 @10:12',
      'nested function Entry.new.helper 11-11 @11:12',
      'nested struct Entry.new.Scratch 12-12 @12:16',
    ],
  },
  {
    name: "java: a name after annotations; an anonymous class's method, an inner class",
    input: { path: 'Repo.java', text: `package x;

public class Repo {
    /** Finds all. */
    @Override
    public List<String> findAll() {
        Runnable r = new Runnable() {
            @Override
            public void run() {}
        };
        return null;
    }

    static class Inner {
        void work() {}
    }
}
` },
    expected: [
      'class Repo 3-17 @3:14',
      'method Repo.findAll 4-12 @6:25',
      'nested method Repo.findAll.run 8-9 @9:25',
      'class Repo.Inner 14-16 @14:18',
      'method Repo.Inner.work 15-15 @15:14',
    ],
  },
  {
    name: 'csharp: a name after an attribute; a local function',
    input: { path: 'Inv.cs', text: `namespace Shop {
    public class Inventory {
        /// <summary>Counts.</summary>
        [Obsolete]
        public int Count() {
            int Local(int x) => x + 1;
            return Local(1);
        }
    }
}
` },
    expected: [
      'namespace Shop 1-10 @1:11',
      'class Shop.Inventory 2-9 @2:18',
      'method Shop.Inventory.Count 3-8 @5:20',
      'nested function Shop.Inventory.Count.Local 6-6 @6:17',
    ],
  },
];
/** A function whose doc comment alone is over the budget: it is split, the name in a later part. */
const LONG_DOC = [
  '/**',
  ...Array.from({ length: 8 }, (_, i) => ` * Line ${i} of a long comment about the function.`),
  ' */',
  'export function big(a: number): number {',
  ...Array.from({ length: 12 }, (_, i) => `  const v${i} = a + ${i};`),
  '  return a;',
  '}',
  '',
].join('\n');

cases.push(
  {
    name: 'typescript: module-level variables are symbols, locals are not',
    input: { path: 'vars.ts', text: 'const cache = new Map<string, number>();\nexport const handler = (x: number) => x;\nlet counter = 0;\nfunction f() {\n  const local = 1;\n  return local + counter;\n}\n' },
    expected: ['nested variable cache 1-1 @1:7', 'function handler 2-2 @2:14', 'nested variable counter 3-3 @3:5', 'function f 4-7 @4:10'],
  },
  {
    name: 'python: module-level assignments are symbols, locals are not',
    input: { path: 'sig.py', text: 'import os\n\nrequest_finished = signal("x")\n_cv = 1\n\ndef f():\n    local = 2\n    return local\n' },
    expected: ['nested variable request_finished 3-3 @3:1', 'nested variable _cv 4-4 @4:1', 'function f 6-8 @6:5'],
  },
  {
    name: 'go: package-level constants and variables are symbols, a function\'s are not',
    input: { path: 'c.go', text: 'package p\n\nconst (\n\tA = 1\n\tB = 2\n)\n\nvar ErrX = errors.New("x")\n\nfunc f() {\n\tconst inner = 3\n}\n' },
    expected: ['nested constant A 4-4 @4:2', 'nested constant B 5-5 @5:2', 'nested variable ErrX 8-8 @8:5', 'function f 10-12 @10:6'],
  },
);

cases.push({
  name: 'non-ASCII and astral text before nested definitions leaves their places right',
  input: { path: 'i18n.js', text: "function outer() {\n  const s = 'größe 😀😀 ünïcode';\n  function inner() { return s; }\n  const après = () => s;\n}\n" },
  expected: ['function outer 1-5 @1:10', 'nested function outer.inner 3-3 @3:12', 'nested function outer.après 4-4 @4:9'],
});

cases.push({
  name: 'a definition split for size: the first part names it over its whole range, later parts are continued',
  input: { path: 'big.ts', text: LONG_DOC, budget: 300 },
  expected: ['function big 1-7 @11:17 to 25', 'function big 8-10 @-:- continued', 'function big 11-25 @11:17 continued'],
});

describe('AstChunker definitions and name positions', function () {
  this.timeout(60000);
  checkAll(cases, async ({ path, text, budget }) => symbolsOf((await chunkDoc(makeDoc(path, text), budget)).chunks));
});

describe('declarations read from the text of a file the grammar could not parse', () => {
  const TEXT = [
    "import { x } from './x'",
    'export type AddDollar<T> = `$${T}`',
    'interface JSONRespond {',
    '  <T>(object: T): Response',
    '}',
    'export default class Context {',
    '  const inner = 1',
    '}',
    'declare function f(a: number): void',
    'const if_ = 1',
    '',
  ].join('\n');
  checkAll(
    [
      {
        name: 'every top-level declaration line, none indented',
        input: [] as number[],
        expected: ['type AddDollar @2', 'interface JSONRespond @3', 'class Context @6', 'function f @9', 'variable if_ @10'],
      },
      { name: 'a name the query found already is not added again', input: [TEXT.indexOf('Context')], expected: ['type AddDollar @2', 'interface JSONRespond @3', 'function f @9', 'variable if_ @10'] },
    ],
    (knownAt) => {
      const known = knownAt.map((nameAt) => ({ kind: 'class' as const, name: 'Context', nameAt, start: nameAt, end: nameAt + 7 }));
      return declarationLines(TEXT, known).map((d) => `${d.kind} ${d.name} @${TEXT.slice(0, d.nameAt).split('\n').length}`);
    },
  );
});
