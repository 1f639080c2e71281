import * as assert from 'node:assert/strict';
import { checkAll } from './check';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SymbolIndex } from '../../src/core/search/symbols';
import { c, snapshotOf, symbolIndex } from './helpers/snapshot';

const specs = [
  c('src/user/service.ts:1-5 function getUserName', 'function getUserName() {}'),
  c('src/user/service.ts:7-9 function getusername', 'function getusername() {}'),
  c('src/user/model.ts:1-20 class User', 'class User {}', 'User'),
  c('src/user/model.ts:3-6 method save', 'save() {}', 'User.save'),
  c('src/order/model.ts:1-20 class Order', 'class Order {}', 'Order'),
  c('src/order/model.ts:3-6 method save', 'save() {}', 'Order.save'),
  c('src/net/client.ts:1-4 function fetchUser', 'export function fetchUser() {}'),
  c('src/util/strings.ts:1-3 function formatUserLabel', 'function formatUserLabel() {}'),
  c('test/user.test.ts:1-3 function getUserName', 'function getUserName() {}'),
  c('docs/guide.md:1-9 section Installation', '# Installation', 'Installation'),
  c('src/util/http.rs:1-9 impl HttpClient', 'impl HttpClient {}', 'HttpClient'),
  c('src/util/http.rs:2-4 method send', 'fn send() {}', 'HttpClient::send'),
];
const table = symbolIndex(specs);

const find = (q: string, o = {}) => {
  const r = table.find(q, o);
  return { exact: r.exact, hits: r.candidates.map((x) => `${x.match} ${x.qualifiedName}`) };
};

describe('symbol lookup', () => {
  describe('tiers: exact, case-insensitive, qualified, prefix, camel-case, fuzzy', () => {
    checkAll(
      [
        {
          name: 'exact (case-sensitive) first, then case-insensitive; source before tests',
          input: 'getUserName',
          expected: { exact: true, hits: ['exact getUserName', 'exact getUserName', 'exact-ignore-case getusername'] },
        },
        { name: 'qualified Class.method', input: 'User.save', expected: { exact: true, hits: ['qualified User.save'] } },
        { name: 'qualified prefix', input: 'User.sa', expected: { exact: false, hits: ['prefix User.save'] } },
        { name: 'qualified with ::', input: 'HttpClient::send', expected: { exact: true, hits: ['qualified HttpClient::send'] } },
        { name: 'module-qualified pkg.func', input: 'client.fetchUser', expected: { exact: true, hits: ['qualified fetchUser'] } },
        { name: 'camel-case humps', input: 'gUN', expected: { exact: false, hits: ['camel-case getUserName', 'camel-case getUserName'] } },
        { name: 'initials', input: 'ful', expected: { exact: false, hits: ['camel-case formatUserLabel'] } },
        { name: 'prefix', input: 'format', expected: { exact: false, hits: ['prefix formatUserLabel'] } },
        { name: 'fuzzy: closest when nothing matches', input: 'fetchUsr', expected: { exact: false, hits: ['fuzzy fetchUser'] } },
        { name: 'markdown headings are symbols too', input: 'Installation', expected: { exact: true, hits: ['exact Installation'] } },
        { name: 'nothing close', input: 'zzzzqqq', expected: { exact: false, hits: [] } },
      ],
      (q) => {
        const r = find(q);
        return { exact: r.exact, hits: r.hits.slice(0, 3) };
      },
    );
  });

  describe('exactOnly: definitions as written, never suggestions (a task text names many words that are not symbols)', () => {
    checkAll(
      [
        { name: 'exact name', input: 'getUserName', expected: { exact: true, hits: ['exact getUserName', 'exact getUserName', 'exact-ignore-case getusername'] } },
        { name: 'qualified name', input: 'User.save', expected: { exact: true, hits: ['qualified User.save'] } },
        { name: 'a prefix is not a definition', input: 'format', expected: { exact: false, hits: [] } },
        { name: 'initials are not a definition', input: 'gUN', expected: { exact: false, hits: [] } },
        { name: 'a near name is not a definition', input: 'fetchUsr', expected: { exact: false, hits: [] } },
        { name: 'a qualified prefix is not a definition', input: 'User.sa', expected: { exact: false, hits: [] } },
      ],
      (q) => find(q, { exactOnly: true }),
    );
  });

  it('beside an exact match only prefixes fill the list: names sharing its humps come only when nothing matched as typed', () => {
    const t = symbolIndex([
      c('src/a.ts:1-3 function getUserName', 'function getUserName() {}'),
      c('src/a.ts:5-7 function getUserNameNow', 'function getUserNameNow() {}'),
      c('py/b.py:1-2 function get_user_name_now', 'def get_user_name_now(): pass'),
    ]);
    const hits = (q: string) => t.find(q).candidates.map((x) => `${x.match} ${x.qualifiedName}`);
    assert.deepEqual(hits('getUserName'), ['exact getUserName', 'prefix getUserNameNow']);
    assert.deepEqual(hits('getUserNam'), ['prefix getUserName', 'prefix getUserNameNow', 'camel-case get_user_name_now']);
  });

  it('the exact-case match is listed before the same name in another case', () => {
    const r = table.find('getusername');
    assert.equal(r.candidates[0]?.match, 'exact');
    assert.equal(r.candidates[0]?.doc, 1);
  });

  it('filters by kind, language and path', () => {
    assert.deepEqual(find('save', { kinds: ['method'], paths: ['src/order/**'] }).hits, ['exact Order.save']);
    assert.deepEqual(find('getUserName', { paths: ['test/**'] }).hits, ['exact getUserName']);
    assert.deepEqual(find('send', { languages: ['rust'] }).hits, ['exact HttpClient::send']);
    assert.deepEqual(find('send', { languages: ['python'] }).hits, []);
  });

  it('returns at most five closest when nothing matches exactly', () => {
    const r = table.find('er');
    assert.equal(r.exact, false);
    assert.ok(r.candidates.length <= 5);
  });

  it('a name defined hundreds of times gives the best `limit` in the same order as ranking them all', () => {
    // Kinds and test paths interleave so that the selection has to look past the first entries.
    const specs = Array.from({ length: 300 }, (_, i) => {
      const kind = ['method', 'function', 'constructor'][i % 3] as string;
      const dir = i % 7 === 0 ? 'test' : 'src';
      return c(`${dir}/m${String(299 - i).padStart(3, '0')}.ts:${1 + (i % 4)}-${2 + (i % 4)} ${kind} run`, 'run() {}');
    });
    const many = symbolIndex(specs);
    const paths = (limit: number) => many.find('run', { limit }).candidates.map((x) => `${x.penalties.map((p) => p.name).join('+') || 'none'} ${x.doc}`);
    const all = paths(500);
    assert.equal(all.length, 300);
    assert.deepEqual(paths(10), all.slice(0, 10));
    assert.deepEqual(paths(1), all.slice(0, 1));
    // Functions first (rank 1), source before tests, then by path.
    const first = many.find('run', { limit: 3 }).candidates;
    assert.deepEqual(first.map((x) => x.penalties.map((p) => p.name)), [['kind:function'], ['kind:function'], ['kind:function']]);
  });

  describe('definitions named exactly (cross-references): the term index answers as the symbol dictionary does', () => {
    const SPELLINGS = ['getHTTPServer2Go', 'XMLHttpRequest', '$el', 'AbCdEfGh', 'ab_cd_ef_gh', 'a_b_c_d_e', 'ÄbÖdÜf', 'SK', 'sk_', 'Sk2Go', 'x1_y2_z3'];
    const snapshot = snapshotOf([
      ...specs,
      c('src/py/app.py:1-3 function __init__', 'def __init__(self): pass'),
      c('src/py/app.py:5-7 function get_user', 'def get_user(): pass'),
      c('src/py/app.py:9-9 variable get_user', 'get_user = 1'),
      c('src/a.ts:1-2 function GetUserName', 'function GetUserName() {}'),
      c('docs/getUserName.md:1-3 section getUserName', '# getUserName'),
      c('src/b.ts:1-9 class Holder', 'class Holder { getUserNameLater() {} }'),
      // Spellings whose symbol field is as long as a name can make it (the term index skips longer ones).
      ...SPELLINGS.map((symbol, i) => c(`src/spelled${i}.ts:1-1 function ${symbol}`, `function ${symbol}() {}`)),
      c('src/parts.ts:1-1 function sk_X509_pop_free', 'function sk_X509_pop_free() {}'),
    ], fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-defs-')));
    const defs = new SymbolIndex(snapshot);
    const names = ['getUserName', 'getusername', 'GETUSERNAME', '__init__', 'init', 'get_user', 'save', 'User', 'Holder', 'getUserNameLater', 'nothing', '$$$', ...SPELLINGS, 'sk', 'SK_X509_POP_FREE'];
    checkAll(
      names.map((name) => ({ name, input: name, expected: true })),
      (name) => {
        assert.deepEqual(defs.definitionsNamed(name), defs.definitionsNamedInDictionary(name), `${name}: term index and dictionary disagree`);
        return true;
      },
    );
    it('finds every same-named definition, best first, and no sections or other names', () => {
      const fresh = new SymbolIndex(snapshot);
      const where = (name: string) => fresh.definitionsNamed(name).map((r) => `${r.seg}:${r.doc}`);
      assert.equal(where('getUserName').length, 4, 'getUserName, getusername, GetUserName and the test copy; not the section');
      assert.equal(where('get_user').length, 2);
      assert.deepEqual(where('nothing'), []);
    });
  });
});
