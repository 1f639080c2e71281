import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { checkAll } from './check';
import { LazyLines } from '../../src/core/search/lazyLines';
import { markMatches } from '../../src/core/search/previewMatcher';
import { compileQuery } from '../../src/core/search/compiled';
import type { Chunk } from '../../src/core/types';
import type { SearchOptions } from '../../src/core/search/types';
import { c, searcher } from './helpers/snapshot';

let scratchDir: string | undefined;
let scratchCount = 0;
/** Writes `text` to a new file in a scratch folder and returns its path. */
function writeScratch(text: string): string {
  scratchDir ??= fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-lines-'));
  const file = path.join(scratchDir, `f${scratchCount++}.txt`);
  fs.writeFileSync(file, text);
  return file;
}

const corpus: Chunk[] = [
  c('src/user/service.ts:1-12 function fetchUserName', 'export async function fetchUserName(id: string) {\n  const user = await db.get(id);\n  return user.name;\n}', 'fetchUserName'),
  c('src/user/profile.ts:1-8 function renderProfile', 'function renderProfile(id) {\n  // shows the name via fetchUserName\n  const n = fetchUserName(id);\n  log(fetchUserName(id), fetchUserName(id));\n}'),
  c('src/config/parse.ts:1-9 function parseConfig', 'export function parseConfig(raw: string): Config {\n  return JSON.parse(raw);\n}'),
  c('src/config/parse.ts:11-20 class ConfigError', 'class ConfigError extends Error {\n  constructor(msg) { super(msg) }\n}'),
  c('test/config/parse.test.ts:1-10 function testParseConfig', "it('parses config', () => {\n  expect(parseConfig('{}')).toEqual({});\n});"),
  c('vendor/lib/parse.js:1-5 function parseConfig', 'function parseConfig(s) { return eval(s) }'),
  c('docs/config.md:1-6 section Configuration', 'Configuration is read by `parseConfig` in src/config/parse.ts.\nParsing errors raise ConfigError.', 'Configuration'),
  c('src/http/server.go:1-9 method Start', 'func (s *Server) Start() error {\n  return s.listen()\n}', 'Server.Start'),
  c('src/http/server.go:11-15 function NewServer', 'func NewServer() *Server { return &Server{} }'),
];

describe('search ranking', () => {
  const search = searcher(corpus);
  const top = (q: string, o?: SearchOptions) => search(q, o).hits.map((h) => h.docid);

  describe('top hit for a query', () => {
    checkAll(
      [
        { name: 'a definition named like the query outranks mentions', input: 'fetchUserName', expected: 'src/user/service.ts:1-12' },
        { name: 'camelCase parts find the identifier', input: 'fetch user name', expected: 'src/user/service.ts:1-12' },
        { name: 'words match identifiers split into parts', input: 'parse config', expected: 'src/config/parse.ts:1-9' },
        { name: 'source outranks tests and vendored copies', input: 'parseConfig', expected: 'src/config/parse.ts:1-9' },
        { name: 'a query about tests does not demote tests', input: 'parseConfig test', expected: 'test/config/parse.test.ts:1-10' },
        { name: 'breadcrumbs match qualified names', input: 'Server Start', expected: 'src/http/server.go:1-9' },
        { name: 'prose is stemmed: "parsing" finds "parses"/"Parsing"', input: 'parsing errors', expected: 'docs/config.md:1-6' },
        { name: 'field query', input: 'symbol:ConfigError', expected: 'src/config/parse.ts:11-20' },
        { name: 'prefix wildcard', input: 'renderProf*', expected: 'src/user/profile.ts:1-8' },
        { name: 'fuzzy term', input: 'renderProfil~1', expected: 'src/user/profile.ts:1-8' },
      ],
      (q) => top(q)[0],
    );
  });

  it('required and excluded terms', () => {
    assert.deepEqual(top('+config +error'), ['src/config/parse.ts:11-20', 'docs/config.md:1-6']);
    assert.ok(!top('parseConfig -eval').includes('vendor/lib/parse.js:1-5'));
    assert.deepEqual(top('-parse'), [], 'only exclusions: nothing to search for');
  });

  describe('filters', () => {
    checkAll(
      [
        { name: 'language', input: { q: 'server', o: { languages: ['go'] } }, expected: ['src/http/server.go'] },
        { name: 'kind', input: { q: 'config', o: { kinds: ['class'] } }, expected: ['src/config/parse.ts'] },
        { name: 'path glob', input: { q: 'parseConfig', o: { paths: ['test/**'] } }, expected: ['test/config/parse.test.ts'] },
        { name: 'path substring', input: { q: 'parseConfig', o: { paths: ['vendor'] } }, expected: ['vendor/lib/parse.js'] },
        { name: 'negated glob', input: { q: 'parseConfig', o: { paths: ['!vendor/**', '!test/**', '!docs/**'] } }, expected: ['src/config/parse.ts'] },
        { name: 'scope docs', input: { q: 'parseConfig', o: { scope: 'docs' as const } }, expected: ['docs/config.md'] },
      ],
      ({ q, o }) => [...new Set(search(q, o).hits.map((h) => h.path))],
    );
  });

  it('scope code really prefers code: docs fall below every code hit', () => {
    const all = search('configuration parse', { scope: 'all' }).hits;
    const code = search('configuration parse', { scope: 'code' }).hits;
    assert.equal(all[0]?.path, 'docs/config.md', 'the docs hit wins without a preference');
    const docIndex = code.findIndex((h) => h.path === 'docs/config.md');
    assert.ok(docIndex > 0, 'still present, but not first');
    assert.ok(code.slice(0, docIndex).every((h) => h.language !== 'markdown'));
  });

  describe('scope auto (the default) weighs docs down for a query that looks like code or a task, and not for plain words', () => {
    const docScore = (q: string, o?: SearchOptions) => search(q, o).hits.find((h) => h.path === 'docs/config.md')?.score;
    checkAll(
      [
        { input: 'configuration parse', expected: 'same' },
        { input: 'parse configuration parseConfig', expected: 'lower' },
        { input: 'fix configuration parse', expected: 'lower' },
        { input: 'how is the configuration parsed', expected: 'same' },
      ],
      (q) => {
        const all = docScore(q, { scope: 'all' });
        const auto = docScore(q);
        assert.ok(all !== undefined && auto !== undefined, 'docs stay reachable');
        return auto === all ? 'same' : auto < all ? 'lower' : 'higher';
      },
    );
  });

  describe('search as you type: the last word is also a prefix, exact words first', () => {
    checkAll(
      [
        { name: 'a prefix finds the identifier', input: { q: 'renderprof', prefixLast: true }, expected: 'src/user/profile.ts:1-8' },
        { name: 'without the option it does not', input: { q: 'renderprof', prefixLast: false }, expected: undefined },
        { name: 'a trailing space ends the word', input: { q: 'renderprof ', prefixLast: true }, expected: undefined },
        { name: 'only the last word', input: { q: 'renderprof fetchUserName', prefixLast: true }, expected: 'src/user/service.ts:1-12' },
        { name: 'an exact word ranks above its longer prefix matches', input: { q: 'Server', prefixLast: true }, expected: 'src/http/server.go:11-15' },
      ],
      ({ q, prefixLast }) => search(q, { prefixLast }).hits[0]?.docid,
    );
  });

  it('a name joined by colons (an ESLint visitor "Program:exit") ranks above definitions of its first word', () => {
    // Thirty rules define a `Program` visitor and many an `X:exit` one: the query's words alone
    // gave every `Program` definition the exact-name boost, above the one chunk named by both.
    const chunks: Chunk[] = [];
    for (let r = 0; r < 30; r++) {
      chunks.push(c(`lib/rules/r${r}.js:4-6 method Program`, 'Program(node) {\n  check(node);\n}', 'create.Program'));
      for (const [k, line] of [['BlockStatement', 10], ['ForStatement', 20], ['SwitchStatement', 30]] as const) {
        chunks.push(c(`lib/rules/r${r}.js:${line}-${line + 2} method ${k}:exit`, `"${k}:exit"(node) {\n  leave(node);\n}`, `create.${k}:exit`));
      }
    }
    chunks.push(c('lib/rules/semi.js:40-42 method Program:exit', '"Program:exit"() {\n  done();\n}', 'create.Program:exit'));
    const first = searcher(chunks)('Program:exit', { limit: 3 }).hits[0];
    assert.equal(`${first?.path}:${first?.startLine}`, 'lib/rules/semi.js:40');
  });

  it('every score breakdown adds up to the score', () => {
    for (const q of ['fetchUserName', 'parse config', 'Server Start', 'renderProf*', '+config +error']) {
      for (const h of search(q).hits) {
        const sum = h.scoreBreakdown.reduce((s, p) => s + p.value, 0);
        assert.ok(Math.abs(sum - h.score) < 1e-5, `${q}: ${h.docid} ${sum} vs ${h.score}`);
        assert.ok(h.scoreBreakdown.length > 0);
      }
    }
    const b = search('parseConfig').hits[0]!.scoreBreakdown;
    assert.ok(b.some((p) => p.kind === 'field' && p.field === 'symbol'));
    assert.ok(b.some((p) => p.kind === 'boost' && p.name === 'exact-definition'));
  });

  it('the path field: a path word finds every chunk of the file, once per file in the statistics', () => {
    assert.deepEqual(new Set(top('path:http')), new Set(['src/http/server.go:1-9', 'src/http/server.go:11-15']));
    const hit = search('http server').hits.find((h) => h.docid === 'src/http/server.go:11-15')!;
    assert.ok(hit.scoreBreakdown.some((p) => p.kind === 'field' && p.field === 'path' && p.term === 'http'));
    assert.ok(Math.abs(hit.scoreBreakdown.reduce((s, p) => s + p.value, 0) - hit.score) < 1e-5);
    assert.deepEqual(new Set(top('+path:config -path:test')), new Set(['src/config/parse.ts:1-9', 'src/config/parse.ts:11-20', 'docs/config.md:1-6']));
  });

  it('ordering is stable: score, then path, then start line', () => {
    const dup = searcher([
      c('b.ts:5-6 text', 'same words here'),
      c('a.ts:9-9 text', 'same words here'),
      c('a.ts:1-1 text', 'same words here'),
    ]);
    assert.deepEqual(dup('same words').hits.map((h) => h.docid), ['a.ts:1-1', 'a.ts:9-9', 'b.ts:5-6']);
  });

  it('limit and offset page through the same order', () => {
    const all = top('config', { limit: 50 });
    assert.deepEqual([...top('config', { limit: 2 }), ...top('config', { limit: 2, offset: 2 })], all.slice(0, 4));
    assert.equal(search('config').total, all.length);
  });

  it('hits carry exact spans, metadata and a marked preview', () => {
    const h = search('parseConfig').hits[0]!;
    assert.deepEqual([h.path, h.startLine, h.endLine, h.kind, h.symbol, h.language], ['src/config/parse.ts', 1, 9, 'function', 'parseConfig', 'typescript']);
    assert.match(h.preview, /export function «parseConfig»\(raw: string\)/);
    assert.equal(h.stale, undefined);
  });

  it('marks matched words including identifier parts and stems', () => {
    const p = compileQuery('user parsing');
    assert.equal(markMatches('fetchUserName parses users', p), '«fetchUserName» «parses» «users»');
  });

  it('docs ↔ code: definitions named in a doc hit are added as cross-references', () => {
    const r = search('Configuration', { crossReferences: true, paths: ['docs/**', 'src/**'] });
    const xrefs = r.hits.filter((h) => h.crossReferenceFrom);
    assert.ok(xrefs.some((h) => h.docid === 'src/config/parse.ts:1-9'), JSON.stringify(r.hits.map((h) => h.docid)));
    assert.ok(xrefs.every((h) => h.crossReferenceFrom === 'docs/config.md:1-6'));
    const docsOnly = search('Configuration', { crossReferences: true, scope: 'docs' });
    assert.deepEqual(docsOnly.hits.filter((h) => h.crossReferenceFrom), [], 'cross-references obey the filters');
  });

  describe('file lines for previews are found and decoded on demand, like splitting on \\r?\\n', () => {
    checkAll(
      [
        { name: 'plain, trailing newline', input: 'a\nb\n', expected: ['a', 'b', ''] },
        { name: 'no trailing newline', input: 'a\nb', expected: ['a', 'b'] },
        { name: 'CRLF', input: 'a\r\nb\r\n', expected: ['a', 'b', ''] },
        { name: 'BOM stripped', input: '\ufeffx\ny', expected: ['x', 'y'] },
        { name: 'non-ASCII', input: 'naïve\ncafé ☕', expected: ['naïve', 'café ☕'] },
        { name: 'empty file', input: '', expected: [''] },
      ],
      (text) => {
        const reference = text.replace(/^\ufeff/, '').split(/\r?\n/);
        const fromFile = LazyLines.fromFile(writeScratch(text));
        assert.deepEqual(fromFile.slice(0, 100), reference, 'read from the file in blocks');
        const lines = LazyLines.of(Buffer.from(text, 'utf8'));
        assert.deepEqual(lines.slice(0, 100), reference);
        assert.equal(lines.get(reference.length), undefined);
        return lines.slice(0, 100);
      },
    );

    it('a file read in blocks gives the same lines across block boundaries, CRLFs and multi-byte characters', () => {
      const long = 'é'.repeat(40_000); // 80 KB of two-byte characters: crosses the first blocks
      const text = ['\ufeffstart', long, 'x\r', 'a'.repeat(32 * 1024 - 3), 'end ☕', ''].join('\n');
      const reference = text.replace(/^\ufeff/, '').split(/\r?\n/);
      const lines = LazyLines.fromFile(writeScratch(text));
      assert.deepEqual(lines.slice(0, reference.length + 1), reference);
    });

    it('a long line asked for with a character limit is cut after at least that many characters', () => {
      const text = `head\n${'ä'.repeat(300_000)}\ntail`;
      for (const lines of [LazyLines.fromFile(writeScratch(text)), LazyLines.of(Buffer.from(text))]) {
        const cut = lines.get(1, 240) as string;
        assert.ok(cut.length > 240 && cut.length < 1000, `cut to ${cut.length}`);
        assert.equal(cut.slice(0, 240), 'ä'.repeat(240));
        assert.equal(lines.get(0, 240), 'head');
        assert.equal(lines.get(2), 'tail', 'later lines are still found');
      }
    });

    it('short lines asked for with a character limit come one by one, from the top or from an offset', () => {
      // Previews ask with a limit. Lines of a file longer than the first 16 KB read once ran
      // together up to the limit.
      const lines = Array.from({ length: 3000 }, (_, i) => `line ${i} ${'x'.repeat(i % 30)}`);
      const file = writeScratch(lines.join('\n'));
      const fromTop = LazyLines.fromFile(file);
      assert.deepEqual([0, 1, 2, 100, 101, 102, 2999].map((i) => fromTop.get(i, 240)), [0, 1, 2, 100, 101, 102, 2999].map((i) => lines[i]));
      const offset = Buffer.byteLength(lines.slice(0, 500).join('\n')) + 1;
      const window = LazyLines.fromFileAt(file, offset);
      assert.deepEqual([0, 1, 2].map((i) => window?.get(i, 240)), lines.slice(500, 503));
    });

    it('lines read from an offset past the first small read: a long line, then more lines, whole or cut', () => {
      // A window starts with a 4 KB read: what lies beyond it is read as the lines ask for it.
      const lines = ['before', 'héllo ' + 'ü'.repeat(5000), 'short', 'y'.repeat(9000), 'last'];
      const file = writeScratch(lines.join('\n'));
      const window = LazyLines.fromFileAt(file, Buffer.byteLength('before\n'));
      assert.equal(window?.get(0), lines[1]);
      assert.equal(window?.get(3), 'last');
      const cut = LazyLines.fromFileAt(file, Buffer.byteLength('before\n'));
      assert.equal(cut?.get(0, 240)?.slice(0, 246), lines[1]?.slice(0, 246));
      // A cut line is read (241 × 4 bytes) far enough to hold 240 characters of any width.
      assert.deepEqual([1, 2, 3].map((i) => cut?.get(i, 240)?.length), [5, 964, 4]);
    });

    it('a file deleted after its stat yields the lines read so far instead of throwing', () => {
      const file = writeScratch('only line');
      const lines = LazyLines.fromFile(file);
      fs.rmSync(file);
      assert.equal(lines.get(0), 'only line');
      assert.equal(lines.get(1), undefined);
      const gone = LazyLines.fromFile(file);
      assert.equal(gone.get(0), '');
    });
  });
});
