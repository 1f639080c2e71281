// Files ranked as files (`groupBy: 'file'`), diversified chunk pages, identifiers spelt by
// adjacent query words, stop words, and what the hybrid provider's ripgrep half looks for.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { checkAll } from './check';
import { c, searcher, snapshotOf } from './helpers/snapshot';
import { SnapshotScorer } from '../../src/core/search/scorer';
import { FileReader } from '../../src/core/search/hydrate';
import { DEFAULT_RANKING, diversityTiers, fileNameOf, fileScore, groupHitsByFile, searchFilesSnapshot } from '../../src/core/search/search';
import { parseQuery } from '../../src/core/search/query';
import { compileQuery, joinAdjacent } from '../../src/core/search/compiled';
import { ripgrepWords } from '../../src/core/providers/providers';
import type { Chunk } from '../../src/core/types';
import type { ScoreComponent, SearchHit, SearchOptions } from '../../src/core/search/types';

const sum = (parts: readonly ScoreComponent[]) => Math.round(parts.reduce((t, p) => t + p.value, 0) * 1e6) / 1e6;

/** Ten chunks of one file about sessions, one chunk each in two other files. */
const corpus: Chunk[] = [
  ...Array.from({ length: 10 }, (_, i) =>
    c(`src/session/store.ts:${i * 10 + 1}-${i * 10 + 8} function saveSession${i}`, `function saveSession${i}(session) {\n  // session cookie store ${i}\n  return session;\n}`),
  ),
  c('src/cookie.ts:1-6 function cookieSession', 'export function cookieSession(session) {\n  return sign(session.cookie);\n}'),
  c('src/router.ts:1-6 function route', 'export function route(path) {\n  // the session middleware runs first\n  return match(path);\n}'),
  c('src/lint/report.ts:1-9 function reportUnusedDisableDirectives', 'export function reportUnusedDisableDirectives(problems) {\n  return problems.filter(isUnused);\n}'),
  c('src/lint/report.ts:11-20 function reportProblems', 'export function reportProblems(problems) {\n  // unused rules and disable comments are listed here\n  return problems;\n}'),
  c('src/cli/args.py:1-8 function parse_args', 'def parse_args(argv):\n    return argv[1:]\n'),
  c('src/cli/main.py:1-8 function main', 'def main():\n    # parse the args and run\n    run(sys.argv)\n'),
];

describe('files ranked as files', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-files-'));
  const snapshot = snapshotOf(corpus, root);
  const scorer = new SnapshotScorer(snapshot);
  const files = (q: string, o: SearchOptions = {}) => searchFilesSnapshot(scorer, new FileReader(root), q, { previewLines: 1, ...o });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  describe('file order', () => {
    checkAll(
      [
        { name: 'many matching chunks make a file first', input: 'session cookie', expected: ['src/session/store.ts', 'src/cookie.ts', 'src/router.ts'] },
        { name: 'a file-name word counts for the file', input: 'route session', expected: ['src/router.ts', 'src/session/store.ts', 'src/cookie.ts'] },
        { name: 'limit counts files', input: 'session', expected: ['src/session/store.ts', 'src/cookie.ts'] },
      ],
      (q) => files(q, { limit: q === 'session' ? 2 : 10 }).files.map((f) => f.path),
    );
  });

  it('each file lists at most three spans, best first, and says how many chunks matched', () => {
    const r = files('session cookie');
    const store = r.files[0]!;
    assert.equal(store.spans.length, 3);
    assert.equal(store.matchedChunks, 10);
    assert.ok(store.spans[0]!.score >= store.spans[1]!.score && store.spans[1]!.score >= store.spans[2]!.score);
    assert.equal(r.total, 3);
  });

  it('a deep pool reads spans only for the files it will show; a file shown after all gets the same spans', () => {
    const shown = files('session cookie');
    const deep = searchFilesSnapshot(scorer, new FileReader(root), 'session cookie', { previewLines: 1 }, DEFAULT_RANKING, undefined, 1);
    assert.deepEqual(deep.files.map((f) => f.spans.length), [3, 0, 0]);
    assert.deepEqual(deep.files.map((f) => [f.path, f.score, f.language]), shown.files.map((f) => [f.path, f.score, f.language]));
    assert.deepEqual(deep.withPreviews([deep.files[2]!, deep.files[0]!]), [shown.files[2], shown.files[0]]);
  });

  it('every file score is the sum of its breakdown, and so is every span score', () => {
    for (const q of ['session cookie', 'route session', 'unused disable directives', 'parse args']) {
      for (const f of files(q).files) {
        assert.equal(sum(f.scoreBreakdown), f.score, `${q}: ${f.path}`);
        for (const h of f.spans) assert.ok(Math.abs(sum(h.scoreBreakdown) - h.score) < 1e-5, `${q}: ${h.docid}`);
      }
    }
  });

  describe('fileScore', () => {
    const names = new Set(['router']);
    checkAll(
      [
        { name: 'one chunk: its score', input: { path: 'src/a.ts', scores: [4] }, expected: { score: 4, parts: ['best chunk'] } },
        { name: 'others damped: 4 + 0.5·2 + 0.25·2', input: { path: 'src/a.ts', scores: [4, 2, 2] }, expected: { score: 5.5, parts: ['best chunk', '2 other matching chunks (damped)'] } },
        { name: 'file-name boost on the sum', input: { path: 'lib/router/index.js', scores: [4, 2] }, expected: { score: 6.25, parts: ['best chunk', '1 other matching chunk (damped)', 'file-name'] } },
        {
          name: 'words only other chunks match: half their weight',
          input: { path: 'src/a.ts', scores: [4, 2], coverage: { words: 2, weight: 3 } },
          expected: { score: 6.5, parts: ['best chunk', '1 other matching chunk (damped)', '2 more query words in other chunks'] },
        },
      ],
      ({ path: p, scores, coverage }: { path: string; scores: number[]; coverage?: { words: number; weight: number } }) => {
        const r = fileScore(p, scores.map((score) => ({ score })), names, { ...DEFAULT_RANKING, fileOtherChunks: 0.5, fileChunkDecay: 0.5, fileName: 1.25, fileCoverage: 0.5 }, coverage);
        assert.equal(sum(r.breakdown), r.score);
        return { score: r.score, parts: r.breakdown.map((b) => (b.kind === 'field' ? b.term : b.name)) };
      },
    );
  });

  describe('fileNameOf', () => {
    checkAll(
      [
        { input: 'lib/router.js', expected: 'router' },
        { input: 'lib/router/index.js', expected: 'router' },
        { input: 'src/flask/__init__.py', expected: 'flask' },
        { input: 'src/app.test.ts', expected: 'app' },
        { input: 'Makefile', expected: 'makefile' },
      ],
      fileNameOf,
    );
  });

  it('groups another provider\'s chunk hits the same way', () => {
    const hit = (p: string, score: number, line: number) => ({ path: p, score, startLine: line, docid: `${p}:${line}-${line}`, language: 'typescript' }) as SearchHit;
    const grouped = groupHitsByFile([hit('b.ts', 3, 1), hit('a.ts', 2, 1), hit('a.ts', 2, 5), hit('a.ts', 1, 9)], 'anything');
    assert.deepEqual(grouped.map((f) => [f.path, f.score, f.matchedChunks]), [['a.ts', 3.25, 3], ['b.ts', 3, 1]]);
  });
});

describe('diversified chunk pages', () => {
  const search = searcher(corpus);
  const paths = (q: string, o?: SearchOptions) => search(q, o).hits.map((h) => h.path);

  it('a page holds at most three chunks of one file before the other files\' chunks', () => {
    const got = paths('session', { limit: 6 });
    assert.deepEqual([...got.slice(0, 5)].sort(), ['src/cookie.ts', 'src/router.ts', 'src/session/store.ts', 'src/session/store.ts', 'src/session/store.ts'], JSON.stringify(got));
    assert.equal(got[5], 'src/session/store.ts');
  });

  it('without diversifying, one file fills the page', () => {
    const got = paths('session', { limit: 6, maxPerFile: 0 });
    assert.ok(got.filter((p) => p === 'src/session/store.ts').length >= 5, JSON.stringify(got));
    assert.ok(!got.includes('src/router.ts'));
  });

  it('a query restricted to one file keeps all its chunks in score order', () => {
    const one = search('session', { limit: 6, paths: ['src/session/store.ts'] }).hits;
    assert.equal(one.length, 6);
    assert.deepEqual(one.map((h) => h.score), [...one.map((h) => h.score)].sort((a, b) => b - a));
  });

  it('pages do not overlap', () => {
    const first = search('session', { limit: 5 }).hits.map((h) => h.docid);
    const second = search('session', { limit: 5, offset: 5 }).hits.map((h) => h.docid);
    assert.deepEqual(first.filter((d) => second.includes(d)), []);
  });

  describe('diversityTiers', () => {
    checkAll(
      [
        { input: { files: ['a', 'a', 'a', 'b', 'a', 'c'], max: 3 }, expected: [0, 0, 0, 0, 1, 0] },
        { input: { files: ['a', 'a', 'b', 'a', 'b', 'b'], max: 2 }, expected: [0, 0, 0, 1, 0, 1] },
        { input: { files: ['a', 'a', 'a', 'a'], max: 3 }, expected: [0, 0, 0, 1] },
      ],
      ({ files, max }) => diversityTiers(files, (f) => f, max),
    );
  });
});

describe('identifiers spelt by adjacent query words', () => {
  const search = searcher(corpus);
  const top = (q: string) => search(q, { limit: 3 }).hits[0]?.symbol;

  describe('joined terms', () => {
    checkAll(
      [
        { input: 'parse args', expected: ['parseargs', 'parse_args'] },
        { input: 'unused disable directives', expected: ['unuseddisable', 'unused_disable', 'unuseddisabledirectives', 'unused_disable_directives', 'disabledirectives', 'disable_directives'] },
        { name: 'an identifier breaks the run', input: 'get parseConfig now', expected: [] },
        { name: 'an excluded word breaks the run', input: 'parse -the args', expected: [] },
        { input: 'one', expected: [] },
      ],
      (q) => joinAdjacent(parseQuery(q).clauses, 1).map((j) => j.token),
    );
  });

  checkAll(
    [
      { name: 'camelCase: unused disable directives', input: 'report unused disable directives', expected: 'reportUnusedDisableDirectives' },
      { name: 'snake_case: parse args', input: 'parse args', expected: 'parse_args' },
    ],
    top,
  );

  it('a joined term shows in the breakdown and the breakdown still adds up', () => {
    const hit = search('parse args', { limit: 1 }).hits[0]!;
    assert.ok(hit.scoreBreakdown.some((p) => p.kind === 'field' && p.term === 'parse args→parse_args'), JSON.stringify(hit.scoreBreakdown));
    assert.ok(Math.abs(sum(hit.scoreBreakdown) - hit.score) < 1e-5);
  });
});

describe('stop words in long queries', () => {
  checkAll(
    [
      { name: 'weighed down among three content words', input: { q: 'fix the session cookie for routes', words: ['the', 'for', 'session'] }, expected: [0.2, 0.2, 1] },
      { name: 'kept in a short query', input: { q: 'the session', words: ['the', 'session'] }, expected: [1, 1] },
      { name: 'required stop words keep their weight', input: { q: 'fix +the session cookie routes', words: ['the', 'session'] }, expected: [1, 1] },
    ],
    ({ q, words }) => words.map((w) => compileQuery(q).clauses.find((k) => k.raw === w)?.boost),
  );
});

describe('what the hybrid provider greps for', () => {
  checkAll(
    [
      { name: 'content words, stop words dropped', input: 'Fix the handling of empty query strings', expected: ['Fix', 'handling', 'empty', 'query', 'strings'] },
      { name: 'identifiers as typed', input: 'make parseArgs accept load_user ids', expected: ['make', 'parseArgs', 'accept', 'load_user', 'ids'] },
      { name: 'qualified names stay whole', input: 'Server.start fails', expected: ['Server.start', 'fails'] },
      { name: 'query syntax removed, excluded words left out', input: '+router path:middleware -legacy order^2', expected: ['router', 'middleware', 'order'] },
      { name: 'distinct, case-insensitively', input: 'Router router ROUTER', expected: ['Router'] },
      { name: 'short words dropped', input: 'go to db', expected: [] },
    ],
    ripgrepWords,
  );
});
