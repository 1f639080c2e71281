// References through the engine: occurrences as code only, each certain (it resolves to the
// definitions) or a name match, certain ones first; grouped by file and by caller; filtered;
// and never a stale place.
import * as assert from 'node:assert/strict';
import { checkAll } from './check';
import { TempWorkspace } from './helpers/workspace';
import type { ReferenceHit, ReferencesResponse } from '../../src/core/api';
import { parseReferenceName } from '../../src/core/search/refs';

const FILES: Record<string, string> = {
  'src/shared.ts': [
    '// shared is mentioned in a comment',
    'export function shared(s: string): string {',
    "  const label = 'shared';",
    '  return s + label;',
    '}',
    '',
    'export class Store {',
    '  save(): void {',
    '    this.save();',
    '  }',
    '}',
    '',
  ].join('\n'),
  'src/index.ts': ["export { shared, Store } from './shared';", ''].join('\n'),
  'src/app.ts': [
    "import { shared, Store } from './index';",
    '',
    'export function main(): void {',
    "  shared('x');",
    '  const store = new Store();',
    '  store.save();',
    '}',
    '',
    "shared('top');",
    '',
  ].join('\n'),
  'src/other.ts': ['export function twice(shared: number): number {', '  return shared * 2; // not the function', '}', '', 'export function save(): void {}', ''].join('\n'),
  'src/getter.ts': ['export function get(key: string): string {', '  return key;', '}', ''].join('\n'),
  'src/use.ts': ["import { get } from './getter';", '', 'const cache = new Map<string, string>();', "export const value = get('a') + cache.get('b');", ''].join('\n'),
  // CommonJS: `helpers` reaches the module object's members; its own `etag` is a local.
  'lib/utils.js': ["var etag = require('etag');", "var isIP = require('node:net').isIP;", 'exports.makeTag = function makeTag(body) {', '  return etag(body) + isIP(body);', '};', ''].join('\n'),
  'lib/response.js': ["var helpers = require('./utils');", "var { makeTag } = require('./utils');", 'function send(body) {', '  var etag;', '  etag = helpers.etag(body);', '  return etag || makeTag(body);', '}', ''].join('\n'),
  // A named function expression's name is bound inside it only.
  'lib/request.js': ['defineGetter(req, "host", function host() {', '  return host.name;', '});', '', 'defineGetter(req, "hostname", function hostname() {', '  var host = this.host;', '  return host;', '});', ''].join('\n'),
  'src/notes.ts': ['// onlyInComments appears here', "export const text = 'onlyInComments';", ''].join('\n'),
  'pkg/a.go': ['package pkg', '', 'func Helper() int { return 1 }', ''].join('\n'),
  'pkg/b.go': ['package pkg', '', 'func Use() int { return Helper() }', ''].join('\n'),
  'py/models.py': ['def fetch():', '    return 1', ''].join('\n'),
  'py/views.py': ['from .models import fetch', '', 'def show():', '    return fetch()', ''].join('\n'),
  'py/other.py': ['def show_other(fetch):', '    return fetch', ''].join('\n'),
  // Sigil forms: Ruby's `@x`, `@@x`, `$x` and PHP's `$x` are the plain name's variables; JavaScript's `$x` is another name.
  'rb/cart.rb': ['class Cart', '  attr_reader :owner', '  @@owner = nil', '  def owner', '    @owner || @@owner || $owner', '  end', 'end', ''].join('\n'),
  'php/User.php': ['<?php', 'class User {', '    private $email;', '    public function mail() {', '        return $this->email . $email;', '    }', '}', ''].join('\n'),
  'src/dollar.ts': ['export const $owner = 1;', ''].join('\n'),
};

/** A reference as `path:line:column role certainty`. */
const brief = (r: ReferenceHit) => `${r.path}:${r.line}:${r.column} ${r.role} ${r.certainty}`;

describe('references through the engine', function () {
  this.timeout(60000);
  let ws: TempWorkspace;
  const refs = (name: string, options: Parameters<ReturnType<TempWorkspace['engine']>['references']>[1] = {}): Promise<ReferencesResponse> => ws.engine().references(name, { refresh: 'never', ...options });
  before(async () => {
    ws = new TempWorkspace(FILES);
    await ws.engine().refresh();
  });
  after(async () => ws.dispose());

  checkAll<string, string[]>(
    [
      {
        name: 'a function: its definition, imports, a re-export and calls certain; a same-named parameter a name match; comments and strings never',
        input: 'shared',
        expected: [
          'src/app.ts:1:10 import certain',
          'src/app.ts:4:3 code certain',
          'src/app.ts:9:1 code certain',
          'src/index.ts:1:10 import certain',
          'src/shared.ts:2:17 definition certain',
          'src/other.ts:1:23 code name-match',
          'src/other.ts:2:10 code name-match',
        ],
      },
      {
        name: 'a method and a function of one name: this.save() in the class and store.save() where the class is imported (re-exported) are certain, and both definitions',
        input: 'save',
        expected: ['src/app.ts:6:9 member certain', 'src/other.ts:5:17 definition certain', 'src/shared.ts:8:3 definition certain', 'src/shared.ts:9:10 member certain'],
      },
      {
        name: 'Class.method: only the class\'s method is certain; the same-named function is a name match',
        input: 'Store.save',
        expected: ['src/app.ts:6:9 member certain', 'src/shared.ts:8:3 definition certain', 'src/shared.ts:9:10 member certain', 'src/other.ts:5:17 definition name-match'],
      },
      {
        name: 'a common member name: the imported function\'s call is certain, Map.get a name match',
        input: 'get',
        expected: ['src/getter.ts:1:17 definition certain', 'src/use.ts:1:10 import certain', 'src/use.ts:4:22 code certain', 'src/use.ts:4:39 member name-match'],
      },
      { name: 'go: a function of the same package, without an import, is certain', input: 'Helper', expected: ['pkg/a.go:3:6 definition certain', 'pkg/b.go:3:25 code certain'] },
      {
        name: 'python: a from-import and its call are certain; a parameter of the name elsewhere a name match',
        input: 'fetch',
        expected: ['py/models.py:1:5 definition certain', 'py/views.py:1:21 import certain', 'py/views.py:4:12 code certain', 'py/other.py:1:16 code name-match', 'py/other.py:2:12 code name-match'],
      },
      {
        name: "javascript: a require's binding is used in its own file; elsewhere a bare name not imported is a local, and a member is the module's export, not the binding",
        input: 'etag',
        expected: ['lib/utils.js:1:5 import certain', 'lib/utils.js:4:10 code certain', 'lib/response.js:4:7 code name-match', 'lib/response.js:5:3 code name-match', 'lib/response.js:5:18 member name-match', 'lib/response.js:6:10 code name-match'],
      },
      {
        name: "javascript: `var isIP = require('node:net').isIP`: the binding and its call are certain, the module's own isIP a name match",
        input: 'isIP',
        expected: ['lib/utils.js:2:5 import certain', 'lib/utils.js:4:23 code certain', 'lib/utils.js:2:32 import name-match'],
      },
      {
        name: 'javascript: a name destructured from a require, and its call, are certain',
        input: 'makeTag',
        expected: ['lib/response.js:2:7 import certain', 'lib/response.js:6:18 code certain', 'lib/utils.js:3:9 definition certain', 'lib/utils.js:3:28 definition certain'],
      },
      {
        name: 'javascript: a named function expression\'s name inside it is certain; the same name outside it (a local) a name match',
        input: 'host',
        expected: ['lib/request.js:1:36 definition certain', 'lib/request.js:2:10 code certain', 'lib/request.js:6:7 code name-match', 'lib/request.js:6:19 member name-match', 'lib/request.js:7:10 code name-match'],
      },
      { name: 'a name only in comments and strings has no references', input: 'onlyInComments', expected: [] },
      {
        name: "ruby: a plain name finds its instance, class and global variables too, as name matches (a variable is not the method), but not JavaScript's $owner",
        input: 'owner',
        expected: ['rb/cart.rb:2:16 code certain', 'rb/cart.rb:4:7 definition certain', 'rb/cart.rb:3:3 code name-match', 'rb/cart.rb:5:5 code name-match', 'rb/cart.rb:5:15 code name-match', 'rb/cart.rb:5:26 code name-match'],
      },
      { name: 'ruby: a query with the sigil finds exactly that form', input: '@owner', expected: ['rb/cart.rb:5:5 code name-match'] },
      { name: 'ruby: @@ is its own form', input: '@@owner', expected: ['rb/cart.rb:3:3 code name-match', 'rb/cart.rb:5:15 code name-match'] },
      { name: '$owner: the Ruby global and the JavaScript name spelled so', input: '$owner', expected: ['src/dollar.ts:1:14 definition certain', 'rb/cart.rb:5:26 code name-match'] },
      { name: 'php: a plain name finds the property declared as $email and the variable, with $this->email', input: 'email', expected: ['php/User.php:3:13 code name-match', 'php/User.php:5:23 member name-match', 'php/User.php:5:31 code name-match'] },
      { name: 'php: $email finds the variables only, not the member access', input: '$email', expected: ['php/User.php:3:13 code name-match', 'php/User.php:5:31 code name-match'] },
    ],
    async (name) => (await refs(name)).references.map(brief),
  );

  it('says why, lists the definitions, and counts by file', async () => {
    const r = await refs('shared');
    assert.deepEqual(r.definitions.map((d) => `${d.path}:${d.line}:${d.column} ${d.kind} ${d.qualifiedName}`), ['src/shared.ts:2:17 function shared']);
    assert.equal(r.total, 7);
    assert.equal(r.certain, 5);
    assert.equal(r.truncated, false);
    const reasons = Object.fromEntries(r.references.map((h) => [`${h.path}:${h.line}:${h.column}`, h.reason]));
    assert.equal(reasons['src/index.ts:1:10'], 'imports it from src/shared.ts');
    assert.equal(reasons['src/app.ts:4:3'], 'imports it from src/index.ts, which gets it from src/shared.ts');
    assert.equal(reasons['src/other.ts:1:23'], 'the name is not imported here');
    assert.deepEqual(r.byFile.map((f) => `${f.path} ${f.references}/${f.certain}`), ['src/app.ts 3/3', 'src/index.ts 1/1', 'src/shared.ts 1/1', 'src/other.ts 2/0']);
    const call = r.references.find((h) => h.line === 4 && h.path === 'src/app.ts');
    assert.deepEqual([call?.context, call?.contextKind, call?.text, call?.endColumn], ['main', 'function', "shared('x');", 9]);
  });

  it('--callers groups the references by the definition they are in', async () => {
    const r = await refs('shared', { callers: true });
    assert.deepEqual(r.callers?.map((g) => `${g.path} ${g.context || '(top)'} ${g.kind} ${g.references}/${g.certain} ${g.lines.join(',')}`), ['src/app.ts main function 1/1 4', 'src/app.ts (top) code 1/1 9', 'src/other.ts twice function 2/0 1,2']);
  });

  it('a limit returns the certain ones first and says more were found; filters narrow by path and language', async () => {
    const limited = await refs('shared', { limit: 2 });
    assert.deepEqual(limited.references.map(brief), ['src/app.ts:1:10 import certain', 'src/app.ts:4:3 code certain']);
    assert.equal(limited.truncated, true);
    assert.equal(limited.total, 7);
    assert.deepEqual((await refs('shared', { paths: ['src/other.ts'] })).references.map(brief), ['src/other.ts:1:23 code name-match', 'src/other.ts:2:10 code name-match']);
    assert.deepEqual((await refs('fetch', { languages: ['go'] })).references, []);
  });

  it('a name the index does not define: every reference is a name match, and the answer says so', async () => {
    const r = await refs('Map');
    assert.ok(r.total > 0);
    assert.ok(r.references.every((h) => h.certainty === 'name-match' && h.reason === 'not defined in the index'));
    assert.match(r.note ?? '', /no definition of Map/);
  });

  it('a file changed since indexing: a place the name left is not served; one it stayed at is, marked stale', async () => {
    const edited = new TempWorkspace(FILES);
    try {
      await edited.engine().refresh();
      edited.write('src/app.ts', FILES['src/app.ts']!.replace("  shared('x');", "  other('x');").replace("shared('top');", "shared('top'); // still here"));
      const r = await edited.engine().references('shared', { refresh: 'never' });
      const inApp = r.references.filter((h) => h.path === 'src/app.ts');
      assert.deepEqual(inApp.map((h) => `${h.line}:${h.column} ${h.stale ? 'stale' : 'fresh'}`), ['1:10 stale', '9:1 stale']);
      assert.deepEqual(r.diagnostics.map((d) => d.code), ['stale-references']);
      // Refreshed, the index knows the file as it is.
      const fresh = await edited.engine().references('shared', { refresh: 'always' });
      assert.deepEqual(fresh.references.filter((h) => h.path === 'src/app.ts').map((h) => `${h.line}:${h.column}${h.stale ? ' stale' : ''}`), ['1:10', '9:1']);
    } finally {
      await edited.dispose();
    }
  });
});

describe('reference names', () => {
  checkAll(
    [
      { input: 'parse', expected: { name: 'parse' } },
      { input: 'Linter.verify', expected: { name: 'verify', qualifier: 'Linter' } },
      { input: 'net::Client::send', expected: { name: 'send', qualifier: 'net::Client' } },
      { input: 'Cart#total', expected: { name: 'total', qualifier: 'Cart' } },
      { input: '#privateField', expected: { name: '#privateField' } },
      { input: '.method', expected: { name: 'method' } },
      { input: '  spaced  ', expected: { name: 'spaced' } },
    ],
    parseReferenceName,
  );
});
