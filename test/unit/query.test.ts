import * as assert from 'node:assert/strict';
import { checkAll } from './check';
import { boundedLevenshtein, boundQuery, distanceWithin, MAX_QUERY_CHARS, parseQuery, wildcardMatcher } from '../../src/core/search/query';
import { compileQuery } from '../../src/core/search/compiled';

describe('query parsing (lunr query language)', () => {
  checkAll(
    [
      { input: 'fetchUserName', expected: [{ fields: 'all', presence: 'optional', boost: 1, words: ['fetchusername'], edit: 0 }] },
      { input: '+parse -test', expected: [{ fields: 'all', presence: 'required', boost: 1, words: ['parse'], edit: 0 }, { fields: 'all', presence: 'prohibited', boost: 1, words: ['test'], edit: 0 }] },
      { input: 'symbol:Greeter', expected: [{ fields: 'symbol', presence: 'optional', boost: 1, words: ['greeter'], edit: 0 }] },
      { input: 'name:greet', expected: [{ fields: 'symbol', presence: 'optional', boost: 1, words: ['greet'], edit: 0 }] },
      { input: 'load^10', expected: [{ fields: 'all', presence: 'optional', boost: 10, words: ['load'], edit: 0 }] },
      { input: 'tokenzie~1', expected: [{ fields: 'all', presence: 'optional', boost: 1, words: ['tokenzie'], edit: 1 }] },
      { input: 'fetch*', expected: [{ fields: 'all', presence: 'optional', boost: 1, wildcard: 'fetch*', edit: 0 }] },
      { input: 'path:src/api/client.ts', expected: [{ fields: 'path', presence: 'optional', boost: 1, words: ['src', 'api', 'client', 'ts'], edit: 0 }] },
    ],
    (q) =>
      parseQuery(q).clauses.map((c) => ({
        fields: c.fields.length > 1 ? 'all' : c.fields[0],
        presence: c.presence,
        boost: c.boost,
        ...(c.wildcard ? { wildcard: c.wildcard } : { words: c.words.map((w) => w.whole) }),
        edit: c.editDistance,
      })),
  );

  describe('operators that do not form a query are read as words, with a warning', () => {
    checkAll(
      [
        { input: 'kind:function load', expected: { words: ['kind', 'function', 'load'], warned: true } },
        { input: '+ parse', expected: { words: ['parse'], warned: true } },
        { input: 'foo:', expected: { words: ['foo'], warned: false } },
        { input: 'plain words', expected: { words: ['plain', 'words'], warned: false } },
      ],
      (q) => {
        const p = parseQuery(q);
        return { words: p.clauses.flatMap((c) => c.words.map((w) => w.whole)), warned: p.warnings.length > 0 };
      },
    );
  });

  describe('no query shape is unbounded: what is cut is said', () => {
    const words = (n: number, form: (i: number) => string) => Array.from({ length: n }, (_, i) => form(i)).join(' ');
    checkAll(
      [
        { name: '3,000 fuzzy terms are a text: 32 of its words searched', input: words(3000, (i) => `w${i}~2`), expected: { clauses: 32, expanding: 0, warnings: 1 } },
        { name: '12 wildcard terms: 8 kept', input: words(12, (i) => `w${i}x*`), expected: { clauses: 8, expanding: 8, warnings: 1 } },
        { name: '12 fuzzy terms: 8 expanded, the rest exact', input: words(12, (i) => `w${i}~1`), expected: { clauses: 12, expanding: 8, warnings: 1 } },
        { name: '8 fuzzy terms: untouched', input: words(8, (i) => `w${i}~1`), expected: { clauses: 8, expanding: 8, warnings: 0 } },
        { name: '64 plain terms: untouched', input: words(64, (i) => `w${i}`), expected: { clauses: 64, expanding: 0, warnings: 0 } },
      ],
      (q) => {
        const p = parseQuery(q);
        return { clauses: p.clauses.length, expanding: p.clauses.filter((c) => c.wildcard || c.editDistance > 0).length, warnings: p.warnings.length };
      },
    );
    checkAll(
      [
        { name: 'a short query is kept whole', input: 'parse config', expected: { length: 12, endsAtWord: true, warned: false } },
        { name: '100 KB of words is cut at a space', input: words(20000, (i) => `t${i}`), expected: { length: 'within the bound', endsAtWord: true, warned: true } },
        { name: 'one long word is cut at the limit', input: 'x'.repeat(MAX_QUERY_CHARS + 4000), expected: { length: MAX_QUERY_CHARS, endsAtWord: false, warned: true } },
      ],
      (q) => {
        const b = boundQuery(q);
        const n = b.query.length;
        return { length: n === MAX_QUERY_CHARS || n === q.length ? n : n < MAX_QUERY_CHARS && n > MAX_QUERY_CHARS - 10 ? 'within the bound' : n, endsAtWord: n === q.length || q[n] === ' ', warned: b.warning !== undefined };
      },
    );
  });

  describe('a query that looks like code or a task puts code first (scope auto)', () => {
    checkAll(
      [
        { input: 'parseConfig', expected: true },
        { input: 'load_user retries', expected: true },
        { input: 'Server.start', expected: true },
        { input: 'fix the retry logic in the client', expected: true },
        { input: 'Add a timeout option', expected: true },
        { input: 'retries', expected: false },
        { input: 'installation guide', expected: false },
        { input: 'how do I configure parseConfig', expected: false },
        { input: 'fix', expected: false },
      ],
      (q) => compileQuery(q).codeLike,
    );
  });

  describe('tests are not demoted when the query is about tests', () => {
    checkAll(
      [
        { input: 'parser tests', expected: true },
        { input: 'spec for login', expected: true },
        { input: 'attestation', expected: false },
      ],
      (q) => compileQuery(q).mentionsTests,
    );
  });

  describe('wildcards', () => {
    checkAll(
      [
        { input: ['fetch*', 'fetchuser'], expected: true },
        { input: ['fetch*', 'prefetch'], expected: false },
        { input: ['*user', 'loaduser'], expected: true },
        { input: ['f*h', 'fetch'], expected: true },
      ],
      ([p, t]) => wildcardMatcher(p as string).test(t as string),
    );
  });

  describe('edit distance counts a transposition as one edit', () => {
    checkAll(
      [
        { input: ['tokenzie', 'tokenize'], expected: 1 },
        { input: ['kitten', 'sitting'], expected: 3 },
        { input: ['same', 'same'], expected: 0 },
        { input: ['a', 'abcd'], expected: 3 },
      ],
      ([a, b]) => boundedLevenshtein(a as string, b as string, 2) > 2 ? 3 : boundedLevenshtein(a as string, b as string, 3),
    );
  });

  describe('a scan against one target measures as boundedLevenshtein does (distance, or max + 1 past it)', () => {
    // Each target against a run of strings, in one scan: the scan's buffers carry over between strings.
    const strings = ['tokenize', 'tokenzie', 'tokens', 'token', 'otkenize', 'tokenizer', 'detokenize', 'kitten', 'sitting', '', 'a', 'zzzzzzzz', 'tökenize', 'tokenizé', '日本語', '日本', 'getusername', 'getuser_name', 'a'.repeat(40)];
    checkAll(
      [
        { input: ['tokenize', 2], expected: strings.map((s) => boundedLevenshtein('tokenize', s, 2)) },
        { input: ['tokenize', 1], expected: strings.map((s) => boundedLevenshtein('tokenize', s, 1)) },
        { input: ['kitten', 3], expected: strings.map((s) => boundedLevenshtein('kitten', s, 3)) },
        { input: ['tökenize', 2], expected: strings.map((s) => boundedLevenshtein('tökenize', s, 2)) },
        { input: ['日本', 1], expected: strings.map((s) => boundedLevenshtein('日本', s, 1)) },
        { input: ['a', 5], expected: strings.map((s) => boundedLevenshtein('a', s, 5)) },
        { input: ['getusrname', 3], expected: strings.map((s) => boundedLevenshtein('getusrname', s, 3)) },
      ],
      ([target, max]) => strings.map(distanceWithin(target as string, max as number)),
    );
    it('turns away strings that share too few characters, and still finds a transposition', () => {
      const d = distanceWithin('registry', 2);
      assert.equal(d('zzzzzzzz'), 3);
      assert.equal(d('regsitry'), 1);
      assert.equal(d('registry'), 0);
    });
  });
});
