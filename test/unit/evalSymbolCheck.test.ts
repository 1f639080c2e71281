import * as assert from 'node:assert/strict';
import { checkAll } from './check';
import {
  classifyTag,
  definitionPattern,
  formatMisses,
  formatSymbolTable,
  groundTruth,
  parseCtagsJson,
  parseGrepOutput,
  patternLine,
  rankGrepLines,
  sampleNames,
  scoreAnswers,
  summarise,
  type Definition,
  type HitPlace,
  type SymbolCheckReport,
} from '../../src/eval/symbolCheck';

/** A ctags JSON line as universal-ctags 5.9 prints it (`--fields=+nKlSe`). */
const tag = (language: string, kind: string, name: string, pattern: string, extra: Record<string, unknown> = {}): string =>
  JSON.stringify({ _type: 'tag', name, path: 'f', pattern: `/^${pattern.replace(/\//g, '\\/')}$/`, language, line: 3, kind, ...extra });

const verdict = (line: string): string => {
  const [t] = parseCtagsJson(line);
  if (!t) return 'unparsed';
  const v = classifyTag(t);
  return v.keep ? 'kept' : `dropped: ${v.reason}`;
};

describe('eval --symbols: which ctags tags are definitions', () => {
  checkAll<string, string>(
    [
      // Python
      { name: 'python function', input: tag('Python', 'function', 'load', 'def load(path):'), expected: 'kept' },
      { name: 'python method (member)', input: tag('Python', 'member', 'run', '    def run(self):', { scope: 'App', scopeKind: 'class' }), expected: 'kept' },
      { name: 'python closure', input: tag('Python', 'function', 'decorator', '    def decorator(f):', { scope: 'route', scopeKind: 'function' }), expected: 'dropped: nested' },
      { name: 'python function inside a method', input: tag('Python', 'function', 'inner', '        def inner():', { scope: 'App.run', scopeKind: 'member' }), expected: 'dropped: nested' },
      { name: 'python class inside a test function', input: tag('Python', 'class', 'Foo', '    class Foo:', { scope: 'test_x', scopeKind: 'function' }), expected: 'dropped: nested' },
      { name: 'python module-level variable', input: tag('Python', 'variable', 'current_app', 'current_app = LocalProxy(_cv_app)'), expected: 'kept' },
      { name: 'python class attribute', input: tag('Python', 'variable', 'default_config', '    default_config = {}', { scope: 'App', scopeKind: 'class' }), expected: 'dropped: not-top-level' },
      { name: 'python dunder module variable', input: tag('Python', 'variable', '__all__', '__all__ = ["x"]'), expected: 'dropped: kind' },
      { name: 'python import (unknown)', input: tag('Python', 'unknown', 'BaseResponse', 'from werkzeug.wrappers import Response as BaseResponse'), expected: 'dropped: kind' },
      { name: 'python import (namespace)', input: tag('Python', 'namespace', 'os', 'import os'), expected: 'dropped: kind' },
      // JavaScript
      { name: 'js function', input: tag('JavaScript', 'function', 'createApplication', 'function createApplication() {'), expected: 'kept' },
      { name: 'js method assigned at the top', input: tag('JavaScript', 'function', 'send', 'res.send = function send(body) {', { scope: 'res', scopeKind: 'function' }), expected: 'kept' },
      { name: 'js nested function', input: tag('JavaScript', 'function', 'next', '  function next(err) {', { scope: 'handle', scopeKind: 'function' }), expected: 'dropped: nested' },
      { name: 'js anonymous callback', input: tag('JavaScript', 'function', 'AnonymousFunction2dfcb5970100', 'app.use(function(req, res, next){'), expected: 'dropped: anonymous' },
      { name: 'js function inside a callback', input: tag('JavaScript', 'function', 'fn1', '      function fn1(req, res, next) {', { scope: 'AnonymousFunction1.AnonymousFunction2', scopeKind: 'function' }), expected: 'dropped: anonymous' },
      { name: 'js function expression inside a callback (ctags lost the scope)', input: tag('JavaScript', 'function', 'createError', '      route.all(function createError (req, res, next) {'), expected: 'dropped: nested' },
      { name: 'js named function expression at the top', input: tag('JavaScript', 'function', 'xhr', "defineGetter(req, 'xhr', function xhr(){"), expected: 'kept' },
      { name: 'js require', input: tag('JavaScript', 'variable', 'debug', "var debug = require('debug')('express');"), expected: 'dropped: import' },
      { name: 'js top-level var', input: tag('JavaScript', 'variable', 'app', 'var app = exports = module.exports = {};'), expected: 'kept' },
      { name: 'js object literal reported as a class', input: tag('JavaScript', 'class', 'users', 'var users = {'), expected: 'dropped: kind' },
      { name: 'js property', input: tag('JavaScript', 'property', 'name', "  tj: { name: 'tj' }", { scope: 'users.tj', scopeKind: 'class' }), expected: 'dropped: kind' },
      // TypeScript
      { name: 'ts exported arrow function', input: tag('TypeScript', 'constant', 'parseVary', 'export const parseVary = (vary: string): string[] => {'), expected: 'kept' },
      { name: 'ts local const (ctags says top level)', input: tag('TypeScript', 'constant', 'app', '    const app = new Hono()'), expected: 'dropped: not-top-level' },
      { name: 'ts object key misread as a constant', input: tag('TypeScript', 'constant', 'isBase64Encoded', '      isBase64Encoded: false,'), expected: 'dropped: not-top-level' },
      { name: 'ts type alias', input: tag('TypeScript', 'alias', 'Env', 'export type Env = {'), expected: 'kept' },
      { name: 'ts type alias inside a test callback (ctags lost the scope)', input: tag('TypeScript', 'alias', 'Expected', '    type Expected = { ok: true }'), expected: 'dropped: nested' },
      { name: 'ts class in a namespace', input: tag('TypeScript', 'class', 'Inner', '  export class Inner {', { scope: 'NS', scopeKind: 'namespace' }), expected: 'kept' },
      { name: 'ts class field holding an arrow function', input: tag('TypeScript', 'property', 'fetch', '  fetch = async (', { scope: 'ClientRequestImpl', scopeKind: 'class' }), expected: 'kept' },
      { name: 'ts class field holding a typed arrow function', input: tag('TypeScript', 'property', 'get', '  get: Handler = (c) => c.text("")', { scope: 'App', scopeKind: 'class' }), expected: 'kept' },
      { name: 'ts class field holding a value', input: tag('TypeScript', 'property', 'routes', '  routes: Route[] = []', { scope: 'App', scopeKind: 'class' }), expected: 'dropped: kind' },
      { name: 'ts function-typed interface member', input: tag('TypeScript', 'property', 'handler', '  handler: (c: Context) => Response', { scope: 'Options', scopeKind: 'interface' }), expected: 'dropped: kind' },
      { name: 'ts interface property', input: tag('TypeScript', 'property', 'url', '  url: string', { scope: 'Options', scopeKind: 'interface' }), expected: 'dropped: kind' },
      { name: 'ts const inside a function', input: tag('TypeScript', 'constant', 'x', '  const x = 1', { scope: 'f', scopeKind: 'function' }), expected: 'dropped: nested' },
      { name: 'ts enum member', input: tag('TypeScript', 'enumerator', 'A', '  A,', { scope: 'E', scopeKind: 'enum' }), expected: 'dropped: kind' },
      // Go
      { name: 'go method', input: tag('Go', 'func', 'Execute', 'func (c *Command) Execute() error {', { scope: 'cobra.Command', scopeKind: 'struct' }), expected: 'kept' },
      { name: 'go const in a const block', input: tag('Go', 'const', 'ShellCompDirectiveError', '\tShellCompDirectiveError ShellCompDirective = 1 << iota', { scope: 'cobra', scopeKind: 'package' }), expected: 'kept' },
      { name: 'go struct field', input: tag('Go', 'member', 'Use', '\tUse string', { scope: 'cobra.Command', scopeKind: 'struct' }), expected: 'dropped: kind' },
      { name: 'go package clause', input: tag('Go', 'package', 'cobra', 'package cobra'), expected: 'dropped: kind' },
      // Rust
      { name: 'rust impl block', input: tag('Rust', 'implementation', 'Searcher', 'impl Searcher {'), expected: 'dropped: kind' },
      { name: 'rust method', input: tag('Rust', 'method', 'search_path', '    pub fn search_path<P: AsRef<Path>>(', { scope: 'Searcher', scopeKind: 'implementation' }), expected: 'kept' },
      { name: 'rust associated type', input: tag('Rust', 'typedef', 'Err', '    type Err = io::Error;', { scope: 'Foo', scopeKind: 'implementation' }), expected: 'dropped: kind' },
      { name: 'rust function in a test module', input: tag('Rust', 'function', 'finds_it', '    fn finds_it() {', { scope: 'tests', scopeKind: 'module' }), expected: 'kept' },
      { name: 'rust const inside a method', input: tag('Rust', 'variable', 'LIMIT', '        const LIMIT: usize = 5;', { scope: 'Foo::bar', scopeKind: 'method' }), expected: 'dropped: nested' },
      { name: 'rust module declaration (the file is the definition)', input: tag('Rust', 'module', 'walk', 'mod walk;'), expected: 'dropped: kind' },
      { name: 'rust inline module', input: tag('Rust', 'module', 'tests', 'mod tests {'), expected: 'kept' },
      { name: 'rust macro', input: tag('Rust', 'macro', 'eprintln_locked', 'macro_rules! eprintln_locked {'), expected: 'kept' },
      { name: 'rust enum variant', input: tag('Rust', 'enumerator', 'Auto', '    Auto,', { scope: 'ColorChoice', scopeKind: 'enum' }), expected: 'dropped: kind' },
      // Java
      { name: 'java method', input: tag('Java', 'method', 'toJson', '  public String toJson(Object src) {', { scope: 'Gson', scopeKind: 'class' }), expected: 'kept' },
      { name: 'java field', input: tag('Java', 'field', 'DEFAULT_LENIENT', '  static final boolean DEFAULT_LENIENT = false;', { scope: 'Gson', scopeKind: 'class' }), expected: 'dropped: kind' },
      { name: 'java local class', input: tag('Java', 'class', 'Local', '    class Local {}', { scope: 'Foo.test', scopeKind: 'method' }), expected: 'dropped: nested' },
      { name: 'java enum constant', input: tag('Java', 'enumConstant', 'IDENTITY', '  IDENTITY {', { scope: 'FieldNamingPolicy', scopeKind: 'enum' }), expected: 'dropped: kind' },
      // Everywhere
      { name: 'a language without a mapping', input: tag('Markdown', 'chapter', 'Install', '# Install'), expected: 'dropped: language' },
      { name: 'a quoted key', input: tag('TypeScript', 'method', "'foo-bar'", "  'foo-bar'() {", { scope: 'A', scopeKind: 'class' }), expected: 'dropped: not-identifier' },
      { name: 'a line that does not hold the name', input: tag('Python', 'function', 'load', 'x = 1'), expected: 'dropped: bad-line' },
      { name: 'a ptag line', input: '{"_type": "ptag", "name": "JSON_OUTPUT_VERSION", "path": "0.0"}', expected: 'unparsed' },
    ],
    verdict,
  );

  describe('with --nested: functions, methods and classes inside functions are kept, their variables not', () => {
    const nestedVerdict = (line: string): string => {
      const [t] = parseCtagsJson(line);
      if (!t) return 'unparsed';
      const v = classifyTag(t, { nested: true });
      return v.keep ? 'kept' : `dropped: ${v.reason}`;
    };
    checkAll<string, string>(
      [
        { name: 'python closure', input: tag('Python', 'function', 'decorator', '    def decorator(f):', { scope: 'route', scopeKind: 'function' }), expected: 'kept' },
        { name: 'python class inside a test function', input: tag('Python', 'class', 'Foo', '    class Foo:', { scope: 'test_x', scopeKind: 'function' }), expected: 'kept' },
        { name: 'js nested function', input: tag('JavaScript', 'function', 'next', '  function next(err) {', { scope: 'handle', scopeKind: 'function' }), expected: 'kept' },
        { name: 'a variable inside a function stays out', input: tag('Python', 'variable', 'x', '    x = 1', { scope: 'route', scopeKind: 'function' }), expected: 'dropped: nested' },
      ],
      nestedVerdict,
    );
  });

  it('patterns are unescaped', () => {
    assert.equal(patternLine('/^var x = a \\/ b; \\\\n$/'), 'var x = a / b; \\n');
    assert.equal(patternLine(undefined), undefined);
  });

  it('ground truth groups definitions by name in file order and counts what was dropped', () => {
    const lines = [
      JSON.stringify({ _type: 'tag', name: 'run', path: 'b.py', pattern: '/^def run():$/', language: 'Python', line: 9, kind: 'function' }),
      JSON.stringify({ _type: 'tag', name: 'run', path: 'a.py', pattern: '/^    def run(self):$/', language: 'Python', line: 4, kind: 'member', scope: 'A', scopeKind: 'class' }),
      JSON.stringify({ _type: 'tag', name: 'run', path: 'a.py', pattern: '/^    def run(self):$/', language: 'Python', line: 4, kind: 'member', scope: 'A', scopeKind: 'class' }),
      JSON.stringify({ _type: 'tag', name: 'os', path: 'a.py', pattern: '/^import os$/', language: 'Python', line: 1, kind: 'namespace' }),
      'not json',
    ];
    const truth = groundTruth(parseCtagsJson(lines.join('\n')));
    assert.deepEqual([...truth.byName.keys()], ['run']);
    assert.deepEqual(truth.byName.get('run')?.map((d) => `${d.path}:${d.line}`), ['a.py:4', 'b.py:9']);
    assert.equal(truth.tags, 4);
    assert.equal(truth.kept, 2);
    assert.deepEqual(truth.dropped, { kind: 1 });
  });
});

describe('eval --symbols: sampling', () => {
  const names = Array.from({ length: 50 }, (_, i) => `name${i}`);

  it('is deterministic for a seed, whatever order the names come in, and draws each name once', () => {
    const a = sampleNames(names, 20, 7);
    assert.deepEqual(sampleNames([...names].reverse(), 20, 7), a);
    assert.equal(new Set(a).size, 20);
    assert.notDeepEqual(sampleNames(names, 20, 8), a);
  });

  it('a larger sample starts with the smaller one, and never exceeds the names', () => {
    assert.deepEqual(sampleNames(names, 30, 3).slice(0, 10), sampleNames(names, 10, 3));
    assert.equal(sampleNames(names, 500, 3).length, 50);
  });
});

const def = (path: string, line: number, name = 'load'): Definition => ({ name, path, line, kind: 'function', language: 'Python' });
const hit = (path: string, line: number, extra: Partial<HitPlace> = {}): HitPlace => ({ path, line, symbol: 'load', ...extra });

describe('eval --symbols: scoring', () => {
  const defs = [def('src/a.py', 10), def('src/b.py', 40)];
  checkAll<{ hits: HitPlace[]; defs?: Definition[] }, ReturnType<typeof scoreAnswers>>(
    [
      { name: 'top hit on the line', input: { hits: [hit('src/a.py', 10)] }, expected: { rank: 1, spanAt1: true } },
      { name: 'one line off still counts (either side)', input: { hits: [hit('src/b.py', 41)] }, expected: { rank: 1, spanAt1: true } },
      { name: 'any of the definitions counts', input: { hits: [hit('src/b.py', 39), hit('src/a.py', 10)] }, expected: { rank: 1, spanAt1: true } },
      { name: 'two lines off: the span holds it (a decorator, a doc comment)', input: { hits: [hit('src/a.py', 7, { startLine: 7, endLine: 20 })] }, expected: { rank: null, spanAt1: true, miss: 'line-off' } },
      { name: 'right file, another place', input: { hits: [hit('src/a.py', 80, { startLine: 80, endLine: 90 })] }, expected: { rank: null, spanAt1: false, miss: 'same-file' } },
      { name: 'another file, right at 3', input: { hits: [hit('test/a.py', 1), hit('docs/x.md', 4), hit('src/a.py', 11)] }, expected: { rank: 3, spanAt1: false, miss: 'other-file' } },
      { name: 'right at 6 is outside R@5', input: { hits: [1, 2, 3, 4, 5].map((i) => hit(`t${i}.py`, 1)).concat([hit('src/a.py', 10)]) }, expected: { rank: null, spanAt1: false, miss: 'other-file' } },
      { name: 'the closest name instead', input: { hits: [hit('src/c.py', 5, { symbol: 'loads' })] }, expected: { rank: null, spanAt1: false, miss: 'other-name' } },
      { name: 'nothing', input: { hits: [] }, expected: { rank: null, spanAt1: false, miss: 'no-hits' } },
      { name: 'a grep line is not judged by its text', input: { hits: [hit('src/a.py', 30, { symbol: 'x = load()', definitionPattern: false })] }, expected: { rank: null, spanAt1: false, miss: 'same-file' } },
    ],
    ({ hits, defs: d }) => scoreAnswers('load', hits, d ?? defs),
  );

  it('summaries: P@1, R@5 and misses by category', () => {
    const s = summarise('x', [{ rank: 1, spanAt1: true }, { rank: 2, spanAt1: false, miss: 'other-file' }, { rank: null, spanAt1: true, miss: 'line-off' }, { rank: null, spanAt1: true, miss: 'line-off' }]);
    assert.deepEqual(s, { system: 'x', names: 4, precisionAt1: 0.25, recallAt5: 0.5, spanAt1: 0.75, misses: 3, missesByCategory: { 'other-file': 1, 'line-off': 2 } });
  });
});

describe('eval --symbols: the grep baseline', () => {
  const defined = (language: string, name: string, line: string): boolean => definitionPattern(language, name).test(line);
  checkAll<[string, string, string], boolean>(
    [
      { input: ['python', 'load', 'def load(path):'], expected: true },
      { input: ['python', 'load', '    async def load(self):'], expected: true },
      { input: ['python', 'load', 'x = load(path)'], expected: false },
      { input: ['python', 'CONFIG', 'CONFIG: dict = {}'], expected: true },
      { input: ['typescript', 'Hono', 'export class Hono<E extends Env> {'], expected: true },
      { input: ['typescript', 'parseVary', 'export const parseVary = (v: string) => {'], expected: true },
      { input: ['typescript', 'get', '  get(path: string) {'], expected: true },
      { input: ['typescript', 'get', '  return app.get(path)'], expected: false },
      { input: ['javascript', 'send', 'res.send = function send(body) {'], expected: true },
      { input: ['javascript', '$el', 'const $el = 1'], expected: true },
      { input: ['javascript', 'el', 'const $el = 1'], expected: false },
      { input: ['go', 'Execute', 'func (c *Command) Execute() error {'], expected: true },
      { input: ['go', 'Command', 'type Command struct {'], expected: true },
      { input: ['go', 'Execute', '\terr := c.Execute()'], expected: false },
      { input: ['rust', 'eprintln_locked', 'macro_rules! eprintln_locked {'], expected: true },
      { input: ['rust', 'search', '    pub fn search(&self) -> bool {'], expected: true },
      { input: ['java', 'toJson', '  public String toJson(Object src) {'], expected: true },
      { input: ['java', 'toJson', '  public <T> List<T> toJson(Object src) {'], expected: true },
      { input: ['java', 'toJson', '    return toJson(src);'], expected: false },
      { input: ['java', 'Gson', '  public Gson() {'], expected: true },
      { input: ['unknown-language', 'thing', 'struct thing {'], expected: true },
    ],
    ([language, name, line]) => defined(language, name, line),
  );

  it('definition lines first in file order, then the others', () => {
    const lines = parseGrepOutput(['src/b.ts\x002:export function load() {', 'src/a.ts\x009:  load()', 'src/a.ts\x003:const x = load()', 'src/c.ts\x001:export function load() {', 'junk'].join('\n'));
    const ranked = rankGrepLines(lines, 'load', () => 'typescript');
    assert.deepEqual(ranked.map((h) => `${h.path}:${h.line}${h.definitionPattern ? '*' : ''}`), ['src/b.ts:2*', 'src/c.ts:1*', 'src/a.ts:3', 'src/a.ts:9']);
  });
});

describe('eval --symbols: the report', () => {
  const report: SymbolCheckReport = {
    root: '/r',
    ctags: { version: 'Universal Ctags 5.9.0', files: 2, tags: 3, kept: 2, names: 2, dropped: {} },
    settings: { sample: 2, seed: 1, lineTolerance: 1, depth: 5 },
    systems: [summarise('cairn symbol', [{ rank: 1, spanAt1: true }, { rank: null, spanAt1: true, miss: 'line-off' }])],
    names: [
      { name: 'ok', definitions: [def('a.py', 1, 'ok')], systems: { 'cairn symbol': { rank: 1, spanAt1: true, top: [hit('a.py', 1)] } } },
      { name: 'load', definitions: [def('a.py', 10)], systems: { 'cairn symbol': { rank: null, spanAt1: true, miss: 'line-off', top: [hit('a.py', 7, { startLine: 7, endLine: 20, kind: 'function' })] } } },
    ],
    warnings: [],
    tookMs: 1,
  };

  it('a table row per system', () => {
    assert.deepEqual(formatSymbolTable(report), [
      'system        names    P@1    R@5  misses  P@1 span',
      '------------  -----  -----  -----  ------  --------',
      'cairn symbol      2  0.500  0.500       1     1.000',
    ]);
  });

  it('misses name the ctags place and the top hit', () => {
    assert.deepEqual(formatMisses(report, 'cairn symbol', 5), [
      'cairn symbol: 1 of 1 misses',
      '  load  [line-off]',
      '    ctags: a.py:10 function',
      '    top:   a.py:7 (7-20) function "load"',
    ]);
  });
});
