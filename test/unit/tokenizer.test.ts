import * as assert from 'node:assert/strict';
import { checkAll } from './check';
import { analyzeQueryTerm, proseForm, tokenize, WordTable } from '../../src/core/index/tokenizer';
import { FIELDS, FileAnalyzer, type FileAnalysis } from '../../src/core/index/fields';
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
        { name: 'lower-casing may lengthen a word', input: 'İstanbul', expected: ['i̇stanbul'] },
        { name: 'a word of 13 characters or more', input: 'getElementsByClassName', expected: ['getelementsbyclassname', 'get', 'elements', 'by', 'class', 'name'] },
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

  describe('FileAnalyzer: terms and frequencies, whatever the word table has seen', () => {
    const base: Chunk = { docid: 'a.ts:1-1', id: 'x', path: 'src/a.ts', startLine: 1, endLine: 1, text: '', language: 'typescript', kind: 'function', symbol: '', context: '' };
    interface FileInput {
      language: string;
      chunks: Partial<Chunk>[];
    }
    const cases: { name: string; input: FileInput; expected: ReturnType<typeof described> }[] = [
      {
        name: 'camelCase, snake_case and digits: whole, then new parts; repeats counted',
        input: { language: 'typescript', chunks: [{ text: 'fetchUserName(fetch_user, HTTPServer2Go)' }] },
        expected: [{
          entries: ['fetchusername body=1', 'fetch body=2', 'user body=2', 'name body=1', 'fetch_user body=1', 'httpserver2go body=1', 'http body=1', 'server2 body=1', 'go body=1'],
          lengths: 'body=11',
        }],
      },
      {
        name: '`_`/`$` affixes trimmed, `$` inside kept',
        input: { language: 'typescript', chunks: [{ text: '__init__ $el _private_ x$y' }] },
        expected: [{ entries: ['init body=1', 'el body=1', 'private body=1', 'x$y body=1'], lengths: 'body=4' }],
      },
      {
        name: 'words of 13 characters or more, in two chunks',
        input: { language: 'typescript', chunks: [{ text: 'getElementsByClassName abcdefghijklmnop' }, { text: 'getElementsByClassName' }] },
        expected: [
          { entries: ['getelementsbyclassname body=1', 'get body=1', 'elements body=1', 'by body=1', 'class body=1', 'name body=1', 'abcdefghijklmnop body=1'], lengths: 'body=7' },
          { entries: ['getelementsbyclassname body=1', 'get body=1', 'elements body=1', 'by body=1', 'class body=1', 'name body=1'], lengths: 'body=6' },
        ],
      },
      {
        name: 'non-ASCII identifiers',
        input: { language: 'typescript', chunks: [{ text: 'größe_über naïveCafé 日本語 İstanbul' }] },
        expected: [{
          entries: ['größe_über body=1', 'größe body=1', 'über body=1', 'naïvecafé body=1', 'naïve body=1', 'café body=1', '日本語 body=1', 'i̇stanbul body=1'],
          lengths: 'body=8',
        }],
      },
      {
        name: 'words under 2 or over 48 characters are dropped',
        input: { language: 'typescript', chunks: [{ text: `x ab ${'c'.repeat(49)} ${'d'.repeat(48)}` }] },
        expected: [{ entries: ['ab body=1', `${'d'.repeat(48)} body=1`], lengths: 'body=2' }],
      },
      {
        name: 'numbers take letters and `_`, not `$`',
        input: { language: 'typescript', chunks: [{ text: '0x1F 1_000 12$ab' }] },
        expected: [{ entries: ['0x1f body=1', '0x body=1', '1_000 body=1', '000 body=1', '12 body=1', 'ab body=1'], lengths: 'body=6' }],
      },
      {
        name: 'prose: stop words dropped, words stemmed',
        input: { language: 'markdown', chunks: [{ text: 'The running indexes are indexed' }] },
        expected: [{ entries: ['run prose=1', 'index prose=2'], lengths: 'prose=3' }],
      },
      {
        name: 'symbol, context, and signature with docstring and decorators',
        input: {
          language: 'typescript',
          chunks: [{ text: 'return cache', symbol: 'loadUser', context: 'UserService.loadUser', signature: 'loadUser(id)', docstring: 'Loads the user', decorators: ['@cached', '@log'] }],
        },
        expected: [{
          entries: [
            'loaduser symbol=1 context=1 signature=1', 'load symbol=1 context=1 signature=1', 'user symbol=1 context=2 signature=2',
            'userservice context=1', 'service context=1', 'id signature=1', 'loads signature=1', 'the signature=1', 'cached signature=1',
            'log signature=1', 'return body=1', 'cache body=1',
          ],
          lengths: 'symbol=3 context=6 signature=9 body=2',
        }],
      },
    ];
    const chunksOf = (input: FileInput) => input.chunks.map((c) => ({ ...base, language: input.language, ...c }));
    const analyze = (analyzer: FileAnalyzer, input: FileInput) => analyzer.analyze(chunksOf(input), input.language);
    const other: FileInput = { language: 'typescript', chunks: [{ text: 'someOther words_here to FILL the table 42' }] };
    const tables: [string, (input: FileInput) => FileAnalysis][] = [
      // A budget of 0 empties the table before every file: every word is new.
      ['an empty table', (input) => analyze(new FileAnalyzer({ words: 0, chars: 0 }), input)],
      ['a table that has seen the same words', (input) => {
        const analyzer = new FileAnalyzer();
        analyze(analyzer, input);
        return analyze(analyzer, input);
      }],
      ['after a file that grew the working arrays (terms, entries)', (input) => {
        const analyzer = new FileAnalyzer();
        const many = Array.from({ length: 1500 }, (_, i) => `alpha${i} beta${i}`).join(' ');
        analyze(analyzer, { language: 'typescript', chunks: [{ text: many }, { text: many }] });
        return analyze(analyzer, input);
      }],
      ['a table emptied for size after another file', (input) => {
        const analyzer = new FileAnalyzer({ words: 3, chars: 1_000_000 });
        analyze(analyzer, other);
        return analyze(analyzer, input);
      }],
    ];
    for (const [table, run] of tables) {
      describe(table, () => checkAll(cases, (input) => described(run(input))));
    }

    it('a full table is emptied between files, and numbers tokens afresh', () => {
      const words = new WordTable();
      const tokensOf = (text: string) => [...words.ids.subarray(0, words.scan(text, false))].map((id) => words.token(id));
      assert.deepEqual(tokensOf('fetchUser fetchUser'), ['fetchuser', 'fetch', 'user', 'fetchuser', 'fetch', 'user']);
      words.clearWhenFull({ words: 10, chars: 100 });
      assert.equal(words.tokenCount, 3);
      words.clearWhenFull({ words: 0, chars: 0 });
      assert.equal(words.tokenCount, 0);
      assert.deepEqual(tokensOf('user fetchUser'), ['user', 'fetchuser', 'fetch', 'user']);
      assert.deepEqual(tokensOf('the'), ['the']);
      assert.deepEqual([...words.ids.subarray(0, words.scan('the running', true))].map((id) => words.token(id)), ['run']);
    });
  });

  it('analyses a chunk into fields; prose text is stemmed, code text is not', () => {
    const base: Chunk = {
      docid: 'a.ts:1-1', id: 'x', path: 'src/user/service.ts', startLine: 1, endLine: 1, text: 'running loadUser()',
      language: 'typescript', kind: 'function', symbol: 'loadUser', context: 'UserService.loadUser',
    };
    const analyzer = new FileAnalyzer();
    const analyze = (chunk: Chunk) => analyzer.analyze([chunk], chunk.language);
    const code = analyze(base);
    // One chunk: entry r of the file's dictionary is term termRefs[r] of that chunk.
    const tf = (a: FileAnalysis, term: string, field: string) => {
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

/** An analysis as text: per chunk, its entries in order ("term field=tf ...") and its field lengths. */
function described(a: FileAnalysis): { entries: string[]; lengths: string }[] {
  const fieldsOf = (values: ArrayLike<number>, at: number) =>
    FIELDS.map((field, f) => [field, values[at + f] as number] as const).filter(([, v]) => v > 0).map(([field, v]) => `${field}=${v}`);
  const chunks: { entries: string[]; lengths: string }[] = [];
  for (let d = 0; d + 1 < a.docStarts.length; d++) {
    const entries: string[] = [];
    for (let e = a.docStarts[d] as number; e < (a.docStarts[d + 1] as number); e++) {
      entries.push([a.terms[a.termRefs[e] as number], ...fieldsOf(a.tfs, e * FIELDS.length)].join(' '));
    }
    chunks.push({ entries, lengths: fieldsOf(a.fieldLengths, d * FIELDS.length).join(' ') });
  }
  return chunks;
}
