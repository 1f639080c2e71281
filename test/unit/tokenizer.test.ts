import * as assert from 'node:assert/strict';
import { checkAll } from './check';
import { analyzeQueryTerm, proseForm, tokenize } from '../../src/core/index/tokenizer';
import { analyzeFile, FIELDS } from '../../src/core/index/fields';
import type { Chunk } from '../../src/core/types';

describe('tokenizer', () => {
  describe('tokenize: identifiers whole and split into parts', () => {
    checkAll(
      [
        { input: 'fetchUserName', expected: ['fetchusername', 'fetch', 'user', 'name'] },
        { input: 'fetch_user', expected: ['fetch_user', 'fetch', 'user'] },
        { input: 'HTTPServer', expected: ['httpserver', 'http', 'server'] },
        { input: 'getHTTPResponseCode()', expected: ['gethttpresponsecode', 'get', 'http', 'response', 'code'] },
        { input: '__init__', expected: ['init'] },
        { input: '$el.value', expected: ['el', 'value'] },
        { input: 'parse(config)', expected: ['parse', 'config'] },
        { input: 'sha256sum 404', expected: ['sha256sum', 'sha256', 'sum', '404'] },
        { input: 'src/api/client.ts', expected: ['src', 'api', 'client', 'ts'] },
        { input: 'naïveCafé', expected: ['naïvecafé', 'naïve', 'café'] },
        { input: 'xy = yz + z1', expected: ['xy', 'yz', 'z1'] },
        { name: 'one-character tokens are dropped', input: 'x = y + 1; i++', expected: [] },
        { name: 'tokens longer than 48 characters are dropped', input: `ab ${'b'.repeat(60)} cd`, expected: ['ab', 'cd'] },
        { name: 'numbers keep letters and underscores, not $', input: '0x1F 1_000 12$ab', expected: ['0x1f', '0x', '1_000', '000', '12', 'ab'] },
        { name: 'non-ASCII letters are word characters', input: 'größe_über 日本語', expected: ['größe_über', 'größe', 'über', '日本語'] },
        { input: '', expected: [] },
      ],
      tokenize,
    );
  });

  describe('prose form: stop words dropped, words stemmed, identifiers kept', () => {
    checkAll(
      [
        { input: 'running', expected: 'run' },
        { input: 'the', expected: '' },
        { input: 'indexes', expected: 'index' },
        { input: 'fetch_user', expected: 'fetch_user' },
        { input: '404', expected: '404' },
      ],
      proseForm,
    );
  });

  describe('query terms are analysed like text', () => {
    checkAll(
      [
        { input: 'fetchUserName', expected: [{ whole: 'fetchusername', parts: ['fetch', 'user', 'name'], original: 'fetchUserName' }] },
        { input: 'parse', expected: [{ whole: 'parse', parts: [], original: 'parse' }] },
        { input: 'Bar.baz', expected: [{ whole: 'bar', parts: [], original: 'Bar' }, { whole: 'baz', parts: [], original: 'baz' }] },
      ],
      (t) => analyzeQueryTerm(t).map((w) => ({ ...w, parts: [...w.parts] })),
    );
  });

  it('analyses a chunk into fields; prose text is stemmed, code text is not', () => {
    const base: Chunk = {
      docid: 'a.ts:1-1', id: 'x', path: 'src/user/service.ts', startLine: 1, endLine: 1, text: 'running loadUser()',
      language: 'typescript', kind: 'function', symbol: 'loadUser', context: 'UserService.loadUser',
    };
    const analyze = (chunk: Chunk) => analyzeFile([chunk], chunk.language);
    const code = analyze(base);
    // One chunk: entry r of the file's dictionary is term termRefs[r] of that chunk.
    const tf = (a: ReturnType<typeof analyzeFile>, term: string, field: string) => {
      const r = [...a.termRefs].findIndex((t) => a.terms[t] === term);
      return r < 0 ? 0 : a.tfs[r * FIELDS.length + FIELDS.indexOf(field as (typeof FIELDS)[number])];
    };
    assert.equal(tf(code, 'loaduser', 'symbol'), 1);
    // The path is indexed once per file (segment file postings), never per chunk.
    assert.equal(tf(code, 'user', 'path'), 0);
    assert.equal(tf(code, 'userservice', 'context'), 1);
    assert.equal(tf(code, 'running', 'body'), 1);
    assert.equal(tf(code, 'run', 'body'), 0);
    const prose = analyze({ ...base, language: 'markdown', path: 'docs/a.md' });
    assert.equal(tf(prose, 'run', 'prose'), 1);
    assert.equal(tf(prose, 'running', 'prose'), 0);
    assert.equal(tf(prose, 'running', 'body'), 0);
  });
});
