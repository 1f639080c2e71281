// AstChunker behaviour beyond the outline: summaries, metadata, splitting, broken and
// pathological input, and the public API.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Language, Parser } from 'web-tree-sitter';
import { AstChunker, astLanguageFor, firstGrammar, showsRicherSyntax } from '../../src/core/chunking/ast';
import { safeParse } from '../../src/core/chunking/ast/runtime';
import type { Chunk, FileChunks } from '../../src/core/types';
import { checkAll } from './check';
import { chunkDoc, chunker, fixtureDoc, GRAMMARS_DIR, invariantViolations, makeDoc, outline, policy } from './astChunkerSupport';

function find(result: FileChunks, kind: string, context: string): Chunk {
  const c = result.chunks.find((x) => x.kind === kind && x.context === context);
  assert.ok(c, `no ${kind} ${context} among ${result.chunks.map((x) => `${x.kind}:${x.context}`).join(', ')}`);
  return c;
}

async function chunkText(path: string, text: string, budget = 2400): Promise<FileChunks | null> {
  return (await chunker()).chunk(makeDoc(path, text), policy(budget));
}

describe('AstChunker behaviour', function () {
  this.timeout(60000);

  describe('class summaries', () => {
    it('python: definition line, docstring, fields and decorated methods, over the full class range', async () => {
      const result = await chunkDoc(fixtureDoc('python/shapes.py'));
      const point = find(result, 'class', 'Point');
      assert.equal(point.text, [
        '@dataclass(frozen=True)',
        'class Point:',
        '    """A point in the plane."""',
        '    x: float = 0.0',
        '    y: float = 0.0',
        '    @property def norm(self) -> float',
        '    @staticmethod def origin() -> "Point"',
        '    def _scaled(self, k: float) -> "Point"',
      ].join('\n'));
      assert.deepEqual([point.startLine, point.endLine], [13, 30]);
      assert.equal(point.docstring, 'A point in the plane.');
      assert.equal(point.signature, 'class Point');
    });

    it('typescript: multi-line fields are named in the summary and kept whole in a code chunk', async () => {
      const result = await chunkDoc(fixtureDoc('typescript/shapes.ts'));
      const drawable = find(result, 'class', 'Drawable');
      assert.equal(drawable.text, [
        '/** Base class for drawable things. */',
        'export abstract class Drawable<T extends object> extends EventEmitter {',
        '  protected readonly items: T[] = [];',
        '  static readonly DEFAULTS = { …',
        '  constructor(private readonly options: Options)',
        '  abstract draw(ctx: CanvasRenderingContext2D): void;',
        '  @memoize() get size(): number',
        '  #reset(): void',
        '}',
      ].join('\n'));
      const defaults = find(result, 'code', 'Drawable');
      assert.match(defaults.text, /^ {2}static readonly DEFAULTS = \{\n {4}color: 'black',/);
      assert.equal(defaults.parent, 'Drawable');
    });

    it('rust: impl summary lists its methods; trait summary its signatures', async () => {
      const result = await chunkDoc(fixtureDoc('rust/lib.rs'));
      assert.equal(find(result, 'impl', 'Store').text, 'impl<B: Backend> Store<B> {\n    pub fn new(backend: B) -> Self\n    pub fn get(&mut self, key: &str) -> Option<&Entry>\n}');
      assert.equal(find(result, 'impl', 'Entry').signature, 'impl fmt::Display for Entry');
      assert.match(find(result, 'trait', 'Backend').text, /fn put\(&mut self, entry: Entry\);/);
    });

    it('a summary over the budget continues in further parts; the first covers the whole class', async () => {
      const methods = Array.from({ length: 40 }, (_, i) => `  method${i}(argument: number): number {\n    return argument + ${i};\n  }`);
      const text = `export class Big {\n${methods.join('\n')}\n}\n`;
      const result = (await chunkText('src/big.ts', text, 400))!;
      const parts = result.chunks.filter((c) => c.kind === 'class');
      assert.ok(parts.length > 1, 'expected several summary parts');
      assert.deepEqual([parts[0]!.startLine, parts[0]!.endLine], [1, 122]);
      for (const p of parts) assert.ok(p.text.length <= 400, `part of ${p.text.length} chars`);
      assert.equal(result.chunks.filter((c) => c.kind === 'method').length, 40);
      const listed = parts.map((p) => p.text).join('\n');
      for (let i = 0; i < 40; i++) assert.ok(listed.includes(`method${i}(argument: number): number`), `method${i} not listed`);
      assert.deepEqual(invariantViolations(makeDoc('src/big.ts', text), result, 400), []);
    });
  });

  describe('metadata', () => {
    checkAll<{ fixture: string; kind: string; context: string }, Partial<Chunk>>(
      [
        {
          input: { fixture: 'python/shapes.py', kind: 'method', context: 'Point.norm' },
          expected: { signature: 'def norm(self) -> float', docstring: 'Distance from the origin.', visibility: 'public', decorators: ['@property'], parent: 'Point' },
        },
        {
          input: { fixture: 'python/shapes.py', kind: 'method', context: 'Polygon.perimeter' },
          expected: { signature: 'def perimeter(self) -> float', docstring: 'Perimeter is cached per instance.', visibility: 'public', decorators: undefined, parent: 'Polygon' },
        },
        {
          input: { fixture: 'python/shapes.py', kind: 'method', context: 'Point._scaled' },
          expected: { signature: 'def _scaled(self, k: float) -> "Point"', docstring: undefined, visibility: 'private', decorators: undefined, parent: 'Point' },
        },
        {
          input: { fixture: 'typescript/shapes.ts', kind: 'method', context: 'Drawable.#reset' },
          expected: { signature: '#reset(): void', docstring: undefined, visibility: 'private', decorators: undefined, parent: 'Drawable' },
        },
        {
          input: { fixture: 'typescript/shapes.ts', kind: 'interface', context: 'Shape' },
          expected: { signature: 'export interface Shape<in out T>', docstring: 'Anything with an area.', visibility: 'export', decorators: undefined, parent: undefined },
        },
        {
          input: { fixture: 'typescript/shapes.ts', kind: 'function', context: 'load' },
          expected: { signature: 'export const load = async (id: string): Promise<Shape<number>> =>', docstring: undefined, visibility: 'export', decorators: undefined, parent: undefined },
        },
        {
          input: { fixture: 'go/server.go', kind: 'method', context: 'Server.Start' },
          expected: { signature: 'func (s *Server) Start(ctx context.Context) error', docstring: 'Start listens until the context ends.', visibility: 'public', decorators: undefined, parent: 'Server' },
        },
        {
          input: { fixture: 'go/server.go', kind: 'method', context: 'Server.handle' },
          expected: { signature: 'func (s Server) handle(pattern string, h Handler)', docstring: undefined, visibility: 'private', decorators: undefined, parent: 'Server' },
        },
        {
          input: { fixture: 'rust/lib.rs', kind: 'struct', context: 'Entry' },
          expected: { signature: 'pub struct Entry', docstring: 'A stored value.', visibility: 'pub', decorators: ['#[derive(Debug, Clone, PartialEq)]'], parent: undefined },
        },
        {
          input: { fixture: 'java/Repository.java', kind: 'method', context: 'Repository.findAll' },
          expected: { signature: 'public List<T> findAll()', docstring: undefined, visibility: 'public', decorators: ['@Override'], parent: 'Repository' },
        },
        {
          input: { fixture: 'cpp/shape.cpp', kind: 'method', context: 'geo.Shape.name' },
          expected: { signature: 'const std::string& name() const', docstring: undefined, visibility: 'public', decorators: undefined, parent: 'geo.Shape' },
        },
        {
          input: { fixture: 'ruby/account.rb', kind: 'method', context: 'Bank.Account.audit!' },
          expected: { signature: 'def audit!', docstring: undefined, visibility: 'private', decorators: undefined, parent: 'Bank.Account' },
        },
        {
          input: { fixture: 'ruby/account.rb', kind: 'method', context: 'Bank.Account.registry' },
          expected: { signature: 'def registry', docstring: undefined, visibility: 'public', decorators: undefined, parent: 'Bank.Account' },
        },
        {
          input: { fixture: 'csharp/Inventory.cs', kind: 'method', context: 'Shop.Inventory.Inventory.Has' },
          expected: { signature: 'internal bool Has(string sku)', docstring: undefined, visibility: 'internal', decorators: undefined, parent: 'Shop.Inventory.Inventory' },
        },
      ],
      async ({ fixture, kind, context }) => {
        const c = find(await chunkDoc(fixtureDoc(fixture)), kind, context);
        return { signature: c.signature, docstring: c.docstring, visibility: c.visibility, decorators: c.decorators, parent: c.parent };
      },
    );

    // A body-less definition's signature is its first line that is neither blank nor a
    // decorator, whitespace collapsed, without a trailing `{` or `:`.
    checkAll<{ path: string; text: string; symbol: string }, string | undefined>(
      [
        { name: 'c macro with tabs and runs of spaces', input: { path: 'm.h', text: '#define\tMAX_LEN  (64)\nint f(void);\n', symbol: 'MAX_LEN' }, expected: '#define MAX_LEN (64)' },
        { name: 'c macro with single spaces', input: { path: 'm.h', text: '#define MIN(a, b) ((a) < (b) ? (a) : (b))\n', symbol: 'MIN' }, expected: '#define MIN(a, b) ((a) < (b) ? (a) : (b))' },
        { name: 'c multi-line macro: first line only', input: { path: 'm.c', text: '#define SWAP(a, b) \\\n  do { int t = a; a = b; b = t; } while (0)\n', symbol: 'SWAP' }, expected: '#define SWAP(a, b) \\' },
        { name: 'json key opening an object', input: { path: 'p.json', text: '{\n  "scripts": {\n    "test": "mocha"\n  }\n}\n', symbol: 'scripts' }, expected: '"scripts":' },
        { name: 'rust unit struct under attributes', input: { path: 'u.rs', text: '#[derive(Debug)]\n#[allow(dead_code)]\npub   struct Unit;\n', symbol: 'Unit' }, expected: 'pub struct Unit;' },
      ],
      async ({ path: file, text, symbol }) => (await chunkText(file, text))?.chunks.find((c) => c.symbol === symbol)?.signature,
    );

    // A macro is named by the word after `#define`, and a JSON key by its string, read from the
    // text. The C grammar puts a block comment inside a macro's value in an ERROR node and gives
    // the `name` field to the identifier after it: OpenSSL's err.h had 33 macros misnamed so.
    checkAll<{ path: string; text: string }, Array<[string, string]>>(
      [
        { name: 'block comment inside the value', input: { path: 'err.h', text: '#define ERR_R_SYS_LIB (ERR_LIB_SYS /* 2 */ | ERR_RFLAG_COMMON)\n#define ERR_R_FATAL 64\n' }, expected: [['macro', 'ERR_R_SYS_LIB'], ['macro', 'ERR_R_FATAL']] },
        { name: 'the same in a C++ file', input: { path: 'err.hpp', text: '#define KIND (BASE /* why */ | FLAG)\n' }, expected: [['macro', 'KIND']] },
        { name: 'spaces after the hash, a function-like macro', input: { path: 'm.c', text: '#  define\tMIN(a, b) ((a) < (b) ? (a) : (b))\n' }, expected: [['macro', 'MIN']] },
        { name: 'a line continuation right after the name', input: { path: 'm.c', text: '#define LONG_NAME \\\n  42\n' }, expected: [['macro', 'LONG_NAME']] },
        { name: 'json keys with an escaped quote, a colon and nothing', input: { path: 'k.json', text: '{\n  "a\\"b": 1,\n  "c:d": 2,\n  "": 3\n}\n' }, expected: [['key', 'a\\"b'], ['key', 'c:d'], ['key', '']] },
      ],
      async ({ path: file, text }) => ((await chunkText(file, text))?.chunks ?? []).filter((c) => c.kind !== 'code').map((c): [string, string] => [c.kind, c.symbol]),
    );

    // A modifier is looked for only when a word of one appears before the member's name.
    const ACCOUNT = [
      'function Log(label: string) { return (_t: unknown, _k: string) => label; }',
      'export class Account {',
      "  @Log('private') deposit(amount: number): void {}",
      '  protected audit(): void {}',
      '  public static open(): Account { return new Account(); }',
      '  private readonly onClose = () => undefined;',
      '  static private_ok(): void {}',
      '  #secret(): void {}',
      '}',
    ].join('\n');
    checkAll<string, string | undefined>(
      [
        { name: "a decorator's argument names a modifier, the member has none", input: 'deposit', expected: undefined },
        { name: 'protected', input: 'audit', expected: 'protected' },
        { name: 'public before static', input: 'open', expected: 'public' },
        { name: 'an arrow-function field', input: 'onClose', expected: 'private' },
        { name: 'a name that contains a modifier', input: 'private_ok', expected: undefined },
        { name: 'a #private name', input: '#secret', expected: 'private' },
      ],
      async (member) => find((await chunkText('src/account.ts', ACCOUNT)) as FileChunks, 'method', `Account.${member}`).visibility,
    );

    it('every chunk carries the document language', async () => {
      const result = await chunkDoc(fixtureDoc('tsx/Button.tsx'));
      assert.deepEqual([...new Set(result.chunks.map((c) => c.language))], ['tsx']);
    });
  });

  describe('splitting', () => {
    it('pieces of an oversized function each fit the budget, in order, without gaps in its lines', async () => {
      const doc = fixtureDoc('typescript/reducer.ts');
      const result = await chunkDoc(doc, 600);
      const pieces = result.chunks.filter((c) => c.symbol === 'reducer');
      assert.ok(pieces.length >= 4, `only ${pieces.length} pieces`);
      assert.equal(pieces[0]!.startLine, 4);
      assert.equal(pieces[pieces.length - 1]!.endLine, 53);
      for (const p of pieces) {
        assert.ok(p.text.length <= 600);
        assert.equal(p.kind, 'function');
        assert.equal(p.context, 'reducer');
        assert.equal(p.signature, 'export function reducer(state: State, action: Action): State');
      }
      for (let i = 1; i < pieces.length; i++) assert.ok(pieces[i]!.startLine > pieces[i - 1]!.endLine);
    });

    it('a single line longer than the budget is cut into character ranges of it', async () => {
      const long = `export const TABLE = [${Array.from({ length: 300 }, (_, i) => i).join(', ')}];`;
      const result = (await chunkText('src/table.ts', `${long}\nexport function f() {}\n`, 200))!;
      const pieces = result.chunks.filter((c) => c.symbol === 'TABLE');
      assert.deepEqual(outline(result.chunks).slice(pieces.length), [{ kind: 'function', symbol: 'f', context: 'f', lines: '2-2' }]);
      assert.ok(pieces.length >= long.length / 200, `${pieces.length} pieces`);
      assert.deepEqual(pieces.map((c) => [c.kind, c.startLine, c.endLine, c.continued ?? false]), pieces.map((_, i) => ['constant', 1, 1, i > 0]));
      let at = 0;
      for (const c of pieces) {
        assert.ok(c.span && c.span[0] >= at, 'spans in order, apart');
        assert.equal(c.text, long.slice(c.span[0], c.span[1]));
        assert.ok(c.text.length <= 200, `${c.text.length} chars`);
        assert.ok(!/\d\d/.test(long.slice(c.span[0] - 1, c.span[0] + 1)), `cut inside a number: ${c.text.slice(0, 20)}`);
        assert.equal(long.slice(at, c.span[0]).trim(), '', 'nothing left out between pieces');
        at = c.span[1];
      }
      assert.equal(at, long.length);
    });

    it('the lines of a multi-line string are cut by lines when its function is split', async () => {
      const body = Array.from({ length: 60 }, (_, i) => `line ${i} of a long template literal`).join('\n');
      const text = `export function render() {\n  return \`\n${body}\n\`;\n}\n`;
      const doc = makeDoc('src/render.ts', text);
      const result = await chunkDoc(doc, 300);
      assert.ok(result.chunks.length > 5);
      assert.deepEqual(invariantViolations(doc, result, 300), []);
    });
  });

  describe('code sharing a line with definitions', () => {
    checkAll<{ path: string; text: string }, string[]>(
      [
        { name: 'a declaration before a function', input: { path: 'a.js', text: 'var marker=1;function f(){return 2}' }, expected: ['code : var marker=1;', 'function f: function f(){return 2}'] },
        {
          name: 'a declaration before two functions',
          input: { path: 'a.js', text: 'var marker=1;function f(){return 2}function g(){return 3}' },
          expected: ['code : var marker=1;', 'function f: function f(){return 2}', 'function g: function g(){return 3}'],
        },
        {
          name: 'code between and after functions, one chunk per run',
          input: { path: 'a.js', text: 'function f(){return 1}var mid=2;mid++;function g(){return 3}var tail=4' },
          expected: ['function f: function f(){return 1}', 'code : var mid=2;mid++;', 'function g: function g(){return 3}', 'code : var tail=4'],
        },
        { name: 'two definitions of one name', input: { path: 'a.js', text: 'function f(){}function f(){return 2}' }, expected: ['function f: function f(){}', 'function f: function f(){return 2}'] },
        { name: 'a comment between functions', input: { path: 'a.js', text: 'function a(){} /* note */ function b(){}' }, expected: ['function a: function a(){}', 'code : /* note */', 'function b: function b(){}'] },
        { name: 'bare punctuation between functions is no chunk', input: { path: 'a.js', text: 'function a(){};function b(){};' }, expected: ['function a: function a(){}', 'function b: function b(){}'] },
        { name: 'a one-line class and code after it', input: { path: 'a.js', text: 'class A{m(){return 1}}var marker=2;' }, expected: ['class A: class A{\n  m()\n}', 'method m: m(){return 1}', 'code : var marker=2;'] },
        {
          name: 'a statement on a function\'s first line',
          input: { path: 'a.js', text: 'const a = 1; function f() {\n  return 2;\n}\n' },
          expected: ['code : const a = 1;', 'function f: function f() {\n  return 2;\n}'],
        },
        { name: 'a comment after a function stays its own', input: { path: 'a.js', text: 'function f() {\n  return 2;\n} // two\n' }, expected: ['function f: function f() {\n  return 2;\n} // two'] },
        { name: 'Go: a variable between functions', input: { path: 'a.go', text: 'package p; func a() int { return 1 }; var marker = 2; func b() {}\n' }, expected: ['code : package p', 'function a: func a() int { return 1 }', 'code : var marker = 2', 'function b: func b() {}'] },
      ],
      async ({ path, text }) => {
        const doc = makeDoc(path, text);
        const result = await chunkDoc(doc);
        assert.deepEqual(invariantViolations(doc, result, 2400), []);
        return result.chunks.map((c) => `${c.kind} ${c.symbol}: ${c.text}`);
      },
    );

    it('the shared-line code holds the definitions in it, found by character', async () => {
      const result = (await chunkText('a.js', 'var marker=1;function f(){return 2}function g(){function inner(){}}'))!;
      const code = result.chunks.find((c) => c.kind === 'code')!;
      assert.deepEqual(code.nested?.map((n) => [n.symbol, n.nameColumn]), [['marker', 5]]);
      assert.equal(result.chunks.find((c) => c.symbol === 'g')!.nested?.[0]?.symbol, 'inner');
    });

    it('multi-line code without shared lines chunks by lines, as ever', async () => {
      const result = (await chunkText('a.js', 'var marker = 1;\nfunction f() {\n  return 2;\n}\n'))!;
      assert.deepEqual(result.chunks.map((c) => [c.kind, c.text, c.span]), [['code', 'var marker = 1;', undefined], ['function', 'function f() {\n  return 2;\n}', undefined]]);
    });

    checkAll<() => string, true>(
      [
        { name: 'functions and variables', input: () => Array.from({ length: 3000 }, (_, i) => `var v${i}=${i};function f${i}(a){return a+v${i}}`).join(''), expected: true },
        { name: 'classes and instances', input: () => Array.from({ length: 500 }, (_, i) => `class C${i}{m(a){return a}n(){return ${i}}}var k${i}=new C${i};`).join(''), expected: true },
        { name: 'functions over the budget', input: () => Array.from({ length: 20 }, (_, i) => `function big${i}(){${'x+=1;'.repeat(1000)}}var s${i}=1;`).join(''), expected: true },
        { name: 'a UMD wrapper', input: () => `!function(e,t){"object"==typeof exports?module.exports=t():e.L=t()}(this,function(){"use strict";${Array.from({ length: 400 }, (_, i) => `var v${i}=${i};function f${i}(a){return a+v${i}}`).join('')}return{f0:f0}});`, expected: true },
      ],
      async (text) => {
        const doc = makeDoc('bundle.min.js', `${text()}\n`);
        const result = await chunkDoc(doc);
        assert.deepEqual(invariantViolations(doc, result, 2400), []);
        // Each character is in one chunk's own text: summaries aside, texts add up to the file at most.
        const own = result.chunks.filter((c) => c.kind !== 'class').reduce((n, c) => n + c.text.length, 0);
        assert.ok(own <= doc.text.length, `${own} characters of chunk text for a line of ${doc.text.length}`);
        assert.ok(result.chunks.every((c) => c.span), 'every chunk stands for characters of the line');
        return true as const;
      },
    );
  });

  describe('broken and pathological input', () => {
    it('reports syntax errors as a warning diagnostic with their count', async () => {
      const result = await chunkDoc(fixtureDoc('typescript/broken.ts'));
      assert.equal(result.diagnostics.length, 1);
      const d = result.diagnostics[0]!;
      assert.deepEqual([d.code, d.severity, d.path], ['parse-errors', 'warning', 'typescript/broken.ts']);
      assert.match(d.message, /^3 syntax error nodes/);
      assert.equal(result.strategy, 'ast');
    });

    it('valid code has no diagnostics', async () => {
      assert.deepEqual((await chunkDoc(fixtureDoc('typescript/reducer.ts'))).diagnostics, []);
    });

    it('returns null when nothing parses and no definition is found', async () => {
      assert.equal(await chunkText('src/garbage.ts', '}}}} ))) class ((( function {{{ = = = ; ; let const var\n'), null);
    });

    it('a script without definitions becomes code chunks, not null', async () => {
      const result = await chunkText('scripts/run.js', "console.log('start');\nrunAll();\n\nprocess.exit(0);\n");
      assert.deepEqual(outline(result!.chunks), [{ kind: 'code', symbol: '', context: '', lines: '1-4' }]);
    });

    it('an empty file has no chunks', async () => {
      assert.deepEqual((await chunkText('src/empty.py', ''))!.chunks, []);
    });

    it('CRLF line endings: lines count as lines, texts keep no trailing carriage return', async () => {
      const text = 'def a():\r\n    return 1\r\n\r\ndef b():\r\n    return 2\r\n';
      const result = (await chunkText('src/crlf.py', text))!;
      assert.deepEqual(outline(result.chunks), [
        { kind: 'function', symbol: 'a', context: 'a', lines: '1-2' },
        { kind: 'function', symbol: 'b', context: 'b', lines: '4-5' },
      ]);
      assert.equal(result.chunks[0]!.text, 'def a():\r\n    return 1');
    });

    it('non-ASCII text and astral characters keep lines and names right', async () => {
      const text = 'const café = "😀😀";\n\nexport function grüße(名前: string) {\n  return `😀 ${名前}`;\n}\n';
      const result = (await chunkText('src/i18n.ts', text))!;
      assert.deepEqual(outline(result.chunks), [
        { kind: 'code', symbol: '', context: '', lines: '1-1' },
        { kind: 'function', symbol: 'grüße', context: 'grüße', lines: '3-5' },
      ]);
    });

    checkAll<{ path: string; text: () => string; budget: number }, string[]>(
      [
        { name: '5000 nested JSON arrays on one line', input: { path: 'deep.json', text: () => `{"a": ${'['.repeat(5000)}${']'.repeat(5000)}}\n`, budget: 400 }, expected: [] },
        { name: '5000 nested JSON arrays, one per line', input: { path: 'deep2.json', text: () => `{"a": ${'[\n'.repeat(5000)}${']\n'.repeat(5000)}}\n`, budget: 400 }, expected: [] },
        { name: '5000 nested JS arrays then a function', input: { path: 'deep.js', text: () => `const x = ${'['.repeat(5000)}${']'.repeat(5000)};\nfunction after() { return 1; }\n`, budget: 400 }, expected: [] },
        { name: '3000 nested JS blocks over many lines', input: { path: 'blocks.js', text: () => `function deep() {\n${'{\n'.repeat(3000)}${'}\n'.repeat(3000)}}\n`, budget: 400 }, expected: [] },
        { name: '1000 nested Python ifs', input: { path: 'deep.py', text: () => `${Array.from({ length: 1000 }, (_, i) => `${' '.repeat(i)}if x:`).join('\n')}\n${' '.repeat(1000)}pass\n`, budget: 2400 }, expected: [] },
        {
          name: 'a 1 MB minified line of 30000 functions',
          input: { path: 'bundle.min.js', text: () => Array.from({ length: 30000 }, (_, i) => `function f${i}(a){return a+${i}}`).join(''), budget: 2400 },
          expected: [],
        },
        { name: 'a 2 MB single-line array', input: { path: 'data.min.js', text: () => `var data=[${Array.from({ length: 350000 }, (_, i) => i).join(',')}];`, budget: 2400 }, expected: [] },
      ],
      async ({ path, text, budget }) => {
        const doc = makeDoc(path, text());
        const result = await chunkDoc(doc, budget);
        return invariantViolations(doc, result, budget);
      },
    );

    it('finds every function of a minified line', async () => {
      const text = Array.from({ length: 2000 }, (_, i) => `function f${i}(a){return a+${i}}`).join('');
      const result = (await chunkText('bundle.min.js', text))!;
      assert.equal(result.chunks.filter((c) => c.kind === 'function').length, 2000);
      assert.equal(result.chunks.find((c) => c.symbol === 'f1999')?.text, 'function f1999(a){return a+1999}');
    });

    it('looks inside a bundle IIFE for its definitions', async () => {
      const text = '(function () {\n  function inner() {\n    return 1;\n  }\n  class Hidden {\n    m() {}\n  }\n})();\n';
      const result = (await chunkText('bundle.js', text))!;
      assert.deepEqual(outline(result.chunks), [
        { kind: 'code', symbol: '', context: '', lines: '1-1' },
        { kind: 'function', symbol: 'inner', context: 'inner', lines: '2-4' },
        { kind: 'class', symbol: 'Hidden', context: 'Hidden', lines: '5-7' },
        { kind: 'method', symbol: 'm', context: 'Hidden.m', lines: '6-6' },
        { kind: 'code', symbol: '', context: '', lines: '8-8' },
      ]);
    });
  });

  describe('module wrappers', () => {
    checkAll<string, ReturnType<typeof outline>>(
      [
        {
          name: 'UMD: the factory body is the module',
          input: [
            '(function (global, factory) {',
            "  typeof exports === 'object' ? module.exports = factory() : (global.Lib = factory());",
            "}(this, (function () { 'use strict';",
            '  function parse(text) {',
            "    return text.split('\\n').map(function (line) { return line.trim(); });",
            '  }',
            '  function render(lines) {',
            "    return lines.join('\\n');",
            '  }',
            '  return { parse: parse, render: render };',
            '})));',
          ].join('\n'),
          expected: [
            { kind: 'code', symbol: '', context: '', lines: '1-3' },
            { kind: 'function', symbol: 'parse', context: 'parse', lines: '4-6' },
            { kind: 'function', symbol: 'render', context: 'render', lines: '7-9' },
            { kind: 'code', symbol: '', context: '', lines: '10-11' },
          ],
        },
        {
          name: 'AMD: the define callback is the module',
          input: "define(['dep'], function (dep) {\n  function use() {\n    return dep;\n  }\n  return { use: use };\n});\n",
          expected: [
            { kind: 'code', symbol: '', context: '', lines: '1-1' },
            { kind: 'function', symbol: 'use', context: 'use', lines: '2-4' },
            { kind: 'code', symbol: '', context: '', lines: '5-6' },
          ],
        },
        {
          name: 'a top-level call taking a callback is not a module wrapper',
          input: "describe('suite', () => {\n  function helper() {}\n  it('works', () => helper());\n});\n",
          expected: [{ kind: 'code', symbol: '', context: '', lines: '1-4' }],
        },
      ],
      async (text) => outline((await chunkText('lib/module.js', text))!.chunks),
    );
  });

  describe('which grammar reads a file first (C++ in .h files, Flow in .js files)', () => {
    checkAll<[string, string], boolean>(
      [
        { name: 'a C header', input: ['c', '#ifndef LIST_H\n#define LIST_H\nstruct node { int v; };\nint list_len(struct node *n);\n#endif\n'], expected: false },
        { name: 'a macro-heavy C header mentioning "class" in a comment', input: ['c', '#define SSL_TXT_kDHr "kDHr" /* this cipher class has been removed */\nint SSL_x(void);\n'], expected: false },
        { name: 'a namespace', input: ['c', '#pragma once\nnamespace ui {\nint f();\n}\n'], expected: true },
        { name: 'a class opening on its own line', input: ['c', 'class Widget\n{\n};\n'], expected: true },
        { name: 'a template', input: ['c', 'template <typename T>\nT id(T x);\n'], expected: true },
        { name: 'scope resolution', input: ['c', 'int a = std::max(1, 2);\n'], expected: true },
        { name: 'access specifiers', input: ['c', 'struct S {\n public:\n  int x;\n};\n'], expected: true },
        { name: 'a Flow pragma', input: ['javascript', '// @flow\nexport type A = {| a: number |};\n'], expected: true },
        { name: 'plain JavaScript', input: ['javascript', 'export function f() { return 1; }\n'], expected: false },
        { name: 'a language without a richer grammar', input: ['python', 'class A:\n  pass\n'], expected: false },
      ],
      ([language, text]) => showsRicherSyntax(language, text),
    );

    checkAll<{ path: string; language: string; text: string }, string>(
      [
        { name: 'a .h header is read as C++ first, whatever it shows', input: { path: 'include/list.h', language: 'c', text: 'struct node { int v; };\n' }, expected: 'cpp' },
        { name: 'a .c file is C', input: { path: 'src/list.c', language: 'c', text: 'int list_len(struct node *n) { return 0; }\n' }, expected: 'c' },
        { name: 'a .c file showing C++', input: { path: 'src/odd.c', language: 'c', text: 'namespace ui {\nint f();\n}\n' }, expected: 'cpp' },
        { name: 'a Flow file', input: { path: 'lib/a.js', language: 'javascript', text: '// @flow\nexport type A = number;\n' }, expected: 'tsx' },
        { name: 'plain JavaScript', input: { path: 'lib/a.js', language: 'javascript', text: 'export const a = 1;\n' }, expected: 'javascript' },
        { name: 'Python has one grammar', input: { path: 'a.py', language: 'python', text: 'x = 1\n' }, expected: 'python' },
      ],
      firstGrammar,
    );

    it('a macro-typed OpenSSL header keeps its later definitions (the C grammar loses the rest of the file)', async () => {
      const header = [
        'int GENERAL_NAME_print(BIO *out, GENERAL_NAME *gen);',
        '',
        'DECLARE_ASN1_FUNCTIONS(GENERAL_NAMES)',
        '',
        'STACK_OF(CONF_VALUE) *i2v_GENERAL_NAMES(X509V3_EXT_METHOD *method,',
        '    GENERAL_NAMES *gen,',
        '    STACK_OF(CONF_VALUE) *extlist);',
        'GENERAL_NAMES *v2i_GENERAL_NAMES(const X509V3_EXT_METHOD *method,',
        '    X509V3_CTX *ctx, STACK_OF(CONF_VALUE) *nval);',
        '',
        'DECLARE_ASN1_FUNCTIONS(OTHERNAME)',
        'DECLARE_ASN1_FUNCTIONS(EDIPARTYNAME)',
        '#define X509V3_ADD_DEFAULT 0L',
        '#define X509V3_ADD_APPEND 1L',
        'struct v3_ext_ctx {',
        '    int flags;',
        '};',
        '',
      ].join('\n');
      const chunks = (await chunkText('include/openssl/x509v3.h', header))!.chunks;
      const named = chunks.filter((c) => c.symbol).map((c) => `${c.kind} ${c.symbol} ${c.startLine}`);
      assert.deepEqual(named, ['macro X509V3_ADD_DEFAULT 13', 'macro X509V3_ADD_APPEND 14', 'struct v3_ext_ctx 15']);
      assert.ok(chunks.every((c) => c.language === 'c'), 'the file stays C');
    });
  });

  describe('API', () => {
    checkAll(
      [
        { input: 'src/App.tsx', expected: 'tsx' },
        { input: 'src/App.jsx', expected: 'javascript' },
        { input: 'lib/util.mjs', expected: 'javascript' },
        { input: 'pkg/main.go', expected: 'go' },
        { input: 'include/list.h', expected: 'c' },
        { input: 'python', expected: 'python' },
        { input: 'csharp', expected: 'csharp' },
        { input: 'config.yaml', expected: undefined },
        { input: 'README.md', expected: undefined },
        { input: 'kotlin', expected: undefined },
      ],
      astLanguageFor,
    );

    it('supports exactly the languages with a grammar and a spec, optionally restricted', async () => {
      const all = await chunker();
      assert.equal(all.supports('python'), true);
      assert.equal(all.supports('tsx'), true);
      assert.equal(all.supports('yaml'), false);
      assert.equal(all.supports('markdown'), false);
      const some = await AstChunker.create({ grammarsDir: GRAMMARS_DIR, languages: ['go'] });
      try {
        assert.equal(some.supports('go'), true);
        assert.equal(some.supports('python'), false);
        assert.equal(await some.chunk(fixtureDoc('python/shapes.py'), policy()), null);
      } finally {
        some.dispose();
      }
    });

    it('returns null for a language it does not support', async () => {
      const doc = { ...makeDoc('notes.ts', 'const a = 1;\n'), language: 'markdown' };
      assert.equal(await (await chunker()).chunk(doc, policy()), null);
    });

    it('a grammar that cannot be loaded gives null, and the language is no longer offered', async () => {
      const emptyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-grammars-'));
      const c = await AstChunker.create({ grammarsDir: emptyDir, runtimeWasm: path.join(GRAMMARS_DIR, 'tree-sitter.wasm') });
      try {
        assert.equal(c.supports('go'), true);
        assert.equal(await c.chunk(fixtureDoc('go/server.go'), policy()), null);
        assert.equal(c.supports('go'), false);
      } finally {
        c.dispose();
        fs.rmSync(emptyDir, { recursive: true, force: true });
      }
    });

    it('prepare loads what a job needs up front; a grammar it cannot load is dropped, not fatal', async () => {
      // Only the C grammar is there: a header, which parses with C++ first, still gets C chunks.
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-grammars-'));
      for (const f of ['tree-sitter.wasm', 'tree-sitter-c.wasm']) fs.copyFileSync(path.join(GRAMMARS_DIR, f), path.join(dir, f));
      const c = await AstChunker.create({ grammarsDir: dir });
      try {
        await c.prepare(['c', 'go', 'markdown', 'no-such-language']);
        assert.deepEqual(['c', 'cpp', 'go', 'markdown'].map((l) => c.supports(l)), [true, false, false, false]);
        const header = makeDoc('include/point.h', 'struct point { int x; int y; };\n\nint point_norm(const struct point *p) { return p->x + p->y; }\n');
        const result = await c.chunk(header, policy());
        assert.deepEqual(result?.chunks.map((k) => [k.kind, k.symbol]), [['struct', 'point'], ['function', 'point_norm']]);
      } finally {
        c.dispose();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });

    it('chunks the same after prepare as without it', async () => {
      const docs = ['c/list.c', 'c/widget.h', 'python/shapes.py', 'typescript/shapes.ts', 'json/package.json'].map(fixtureDoc);
      const fresh = await AstChunker.create({ grammarsDir: GRAMMARS_DIR });
      try {
        await fresh.prepare([...new Set(docs.map((d) => d.language))]);
        for (const d of docs) assert.deepEqual(await fresh.chunk(d, policy()), await (await chunker()).chunk(d, policy()), d.path);
      } finally {
        fresh.dispose();
      }
    });

    it('a grammar that throws while parsing gives null and leaves the runtime usable', async function () {
      // tree-sitter-yaml (not shipped: YAML is chunked elsewhere) imports C++ runtime functions
      // that web-tree-sitter lacks, so every parse throws inside wasm: the worst case to recover from.
      const yamlWasm = path.resolve(__dirname, '../../../node_modules/tree-sitter-wasms/out/tree-sitter-yaml.wasm');
      await chunker();
      const language = await Language.load(fs.readFileSync(yamlWasm));
      const parser = new Parser();
      parser.setLanguage(language);
      let failed = 0;
      for (let i = 0; i < 2000; i++) if (safeParse(parser, 'key: [1, 2]\nlist:\n  - a\n') === null) failed++;
      assert.equal(failed, 2000, 'the YAML grammar parses on this runtime now: pick another throwing grammar');
      parser.delete();
      const after = await chunkDoc(fixtureDoc('python/shapes.py'));
      assert.equal(after.chunks.length, 16);
    });

    it('can be created repeatedly and used concurrently', async () => {
      const [a, b] = await Promise.all([AstChunker.create({ grammarsDir: GRAMMARS_DIR }), AstChunker.create({ grammarsDir: GRAMMARS_DIR })]);
      try {
        const docs = ['python/shapes.py', 'go/server.go', 'rust/lib.rs', 'typescript/shapes.ts'].map(fixtureDoc);
        const results = await Promise.all(docs.flatMap((d) => [a.chunk(d, policy()), b.chunk(d, policy())]));
        for (let i = 0; i < results.length; i += 2) assert.deepEqual(results[i], results[i + 1]);
      } finally {
        a.dispose();
        b.dispose();
      }
    });
  });
});
