// Past EXACT_TOTAL_UP_TO matches, scoring skips chunks that cannot make the results (MaxScore).
// The hits must be exactly those of exhaustive scoring: same chunks, order, scores and
// breakdowns; only the count becomes a lower bound.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { nameLengthBound, warmNamedDocuments } from '../../src/core/search/namedDocs';
import { SnapshotScorer } from '../../src/core/search/scorer';
import { forEachToken } from '../../src/core/index/tokenizer';
import { SymbolIndex } from '../../src/core/search/symbols';
import { FileReader } from '../../src/core/search/hydrate';
import { EXACT_TOTAL_UP_TO, searchSnapshot } from '../../src/core/search/search';
import type { SearchOptions } from '../../src/core/search/types';
import type { Chunk } from '../../src/core/types';
import { checkAll } from './check';
import { c, searcher, snapshotOf } from './helpers/snapshot';

/** A small deterministic generator, so the corpus is the same on every run. */
function random(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x / 2147483648;
  };
}

const WORDS = ['user', 'name', 'get', 'set', 'load', 'save', 'order', 'item', 'cache', 'index', 'parse', 'token', 'value', 'error', 'retry'];

/** ~3000 chunks over 300 files: code, tests, vendored code and docs, with skewed word counts. */
function corpus(): Chunk[] {
  const next = random(7);
  const pick = () => WORDS[Math.floor(next() ** 2 * WORDS.length)] as string;
  const chunks: Chunk[] = [];
  for (let f = 0; f < 300; f++) {
    const dir = f % 10 === 0 ? 'test' : f % 13 === 0 ? 'vendor/lib' : f % 7 === 0 ? 'docs' : `src/${pick()}`;
    const ext = dir === 'docs' ? 'md' : 'ts';
    const file = `${dir}/${pick()}_${f}.${ext}`;
    let line = 1;
    for (let k = 0; k < 10; k++) {
      const a = pick();
      const b = pick();
      // Some definitions are named by a single query word: they may get the name boost.
      const name = k === 3 && f % 3 === 0 ? a : `${a}${b[0]!.toUpperCase()}${b.slice(1)}${k}`;
      const body = Array.from({ length: 2 + Math.floor(next() * 12) }, pick).join(' ');
      const text = ext === 'md' ? `# ${a} ${b}\n${body}` : `function ${name}() {\n  ${body}\n}`;
      const end = line + text.split('\n').length - 1;
      chunks.push(c(`${file}:${line}-${end} ${ext === 'md' ? 'section' : 'function'} ${ext === 'md' ? `${a}` : name}`, text));
      line = end + 2;
    }
  }
  return chunks;
}

describe('search: skipping chunks that cannot make the results', function () {
  this.timeout(20000);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-pruning-'));
  const snapshot = snapshotOf(corpus(), root);
  const scorer = new SnapshotScorer(snapshot);
  const symbols = new SymbolIndex(snapshot);
  const reader = new FileReader(root);
  const run = (query: string, options: SearchOptions, exactTotalUpTo?: number) =>
    searchSnapshot(scorer, symbols, reader, query, { crossReferences: false, previewLines: 0, ...options }, undefined, exactTotalUpTo);
  const shape = (r: ReturnType<typeof run>) => r.hits.map((h) => ({ docid: h.docid, score: h.score, breakdown: h.scoreBreakdown }));

  after(() => fs.rmSync(root, { recursive: true, force: true }));

  const cases: Array<{ name: string; input: { query: string; options: SearchOptions; exactUpTo?: number } }> = [
    { name: 'one common word', input: { query: 'user', options: { limit: 10 } } },
    { name: 'three common words', input: { query: 'get user name', options: { limit: 10 } } },
    { name: 'a rare and a common word', input: { query: 'retry user', options: { limit: 5 } } },
    { name: 'an identifier and its parts', input: { query: 'getUserName3', options: { limit: 10 } } },
    { name: 'many words, one result', input: { query: 'user name get set load save order', options: { limit: 1 } } },
    { name: 'a deep page', input: { query: 'user name get', options: { limit: 20, offset: 40 } } },
    { name: 'scope code (prose is boosted down)', input: { query: 'user name', options: { limit: 10, scope: 'code' } } },
    { name: 'a path filter', input: { query: 'user name get', options: { limit: 10, paths: ['src/**'] } } },
    { name: 'tests asked for', input: { query: 'test user name', options: { limit: 10 } } },
    // Only chunks that boosts push down are allowed, and pruning starts at once (there are
    // fewer than EXACT_TOTAL_UP_TO of them): their own, smaller bounds must still hold.
    { name: 'vendored code only', input: { query: 'user name get', options: { limit: 10, paths: ['vendor/**'] }, exactUpTo: 0 } },
    { name: 'tests only, not asked for', input: { query: 'user name get', options: { limit: 10, paths: ['test/**'] }, exactUpTo: 0 } },
    { name: 'docs only, scope code', input: { query: 'user name get', options: { limit: 10, paths: ['docs/**'], scope: 'code' }, exactUpTo: 0 } },
    { name: 'definitions and glue code, pruned from the start', input: { query: 'retry token cache index parse value error', options: { limit: 10 }, exactUpTo: 0 } },
    { name: 'field-scoped words', input: { query: 'symbol:user body:name', options: { limit: 10 } } },
    { name: 'many words that name definitions', input: { query: 'retry token cache index parse value error', options: { limit: 10 } } },
    { name: 'a rare word naming definitions among common ones', input: { query: 'user name get set retry', options: { limit: 3 } } },
    // A task text: dozens of identifiers keep most terms essential, and the threshold that
    // rises as documents are kept makes the cheapest ones optional mid-segment.
    {
      name: 'a long text of many identifiers',
      input: {
        query: `getUserName3 fails after loadOrderItem5\n\n${WORDS.map((w, i) => `  at ${w}Cache${i}.parse${WORDS[(i * 7) % WORDS.length]}Token(${w}_${i * 3}.ts:${i + 4})`).join('\n')}\nretry the saveItemValue7 call`,
        options: { limit: 30 },
      },
    },
    { name: 'a long text, pruned from the start', input: { query: `${WORDS.map((w, i) => `${w}Order${i % 10} ${w}_value`).join(' ')} then retryTokenCache2`, options: { limit: 10 }, exactUpTo: 0 } },
  ];
  checkAll(
    cases.map((k) => ({ ...k, expected: true })),
    ({ query, options, exactUpTo }) => {
      const pruned = run(query, options, exactUpTo);
      const exhaustive = run(query, options, Infinity);
      assert.deepEqual(shape(pruned), shape(exhaustive));
      assert.equal(exhaustive.totalIsLowerBound, false);
      if (pruned.totalIsLowerBound) assert.ok(pruned.total >= Math.min(exactUpTo ?? EXACT_TOTAL_UP_TO, exhaustive.total) && pruned.total <= exhaustive.total);
      else assert.equal(pruned.total, exhaustive.total);
      return true;
    },
  );

  it('a query matching more than the exact-count limit says its total is a lower bound', () => {
    const r = run('get user name', { limit: 10 });
    const all = run('get user name', { limit: 10 }, Infinity);
    assert.ok(all.total > EXACT_TOTAL_UP_TO, `the corpus has ${all.total} matches`);
    assert.equal(r.totalIsLowerBound, true);
    assert.ok(r.total < all.total, 'some chunks were skipped');
  });

  it('a segment whose common words had their named chunks listed while idle answers as a fresh one', () => {
    const warmRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-pruning-warm-'));
    try {
      const warm = snapshotOf(corpus(), warmRoot);
      const segment = warm.segments[0]!;
      const common = segment.warmPostings();
      assert.ok(common.length > 0, 'some word is common enough for its postings to be kept');
      for (const term of common) warmNamedDocuments(segment, term);
      const warmRun = (query: string) =>
        searchSnapshot(new SnapshotScorer(warm), new SymbolIndex(warm), new FileReader(warmRoot), query, { crossReferences: false, previewLines: 0, limit: 10 });
      for (const query of ['user', 'user name get', 'retry token cache index parse value error', 'symbol:user body:name']) {
        assert.deepEqual(shape(warmRun(query)), shape(run(query, { limit: 10 })), query);
      }
    } finally {
      fs.rmSync(warmRoot, { recursive: true, force: true });
    }
  });

  it('with tombstones, pruned scoring still gives exactly the exhaustive hits', () => {
    const deleted = new Uint8Array(snapshot.segments[0]!.docCount);
    for (let d = 0; d < deleted.length; d += 7) deleted[d] = 1;
    const withTombstones = { ...snapshot, deleted: [deleted] };
    const scorerT = new SnapshotScorer(withTombstones);
    const symbolsT = new SymbolIndex(withTombstones);
    const runT = (query: string, exactTotalUpTo?: number) =>
      searchSnapshot(scorerT, symbolsT, reader, query, { crossReferences: false, previewLines: 0, limit: 10 }, undefined, exactTotalUpTo);
    for (const query of ['user', 'get user name', 'retry token cache index parse value error', 'user name get set load save order']) {
      const pruned = runT(query, 0);
      assert.ok(pruned.hits.length > 0, query);
      assert.deepEqual(shape(pruned), shape(runT(query, Infinity)), query);
    }
  });

  it('required and excluded words are never pruned: the total stays exact', () => {
    for (const query of ['+user name get', 'user name -get']) {
      const r = run(query, { limit: 10 });
      const all = run(query, { limit: 10 }, Infinity);
      assert.equal(r.totalIsLowerBound, false, query);
      assert.equal(r.total, all.total, query);
      assert.deepEqual(shape(r), shape(all), query);
    }
  });
});

// Scoring treats a chunk as possibly named by a query word only when its symbol field is no
// longer (in tokens) than a symbol of that one word can be: a common word that is merely a
// part of thousands of symbols (`sk` in `sk_X509_pop`) then leaves those chunks to the
// tighter bound. The name boost must still reach every chunk really named by the word.
describe('search: a definition named by a query word gets the name boost however it is spelled', () => {
  const spellings = ['getHTTPServer2Go', 'XMLHttpRequest', '__init__', '$el', 'AbCdEfGh', 'ABCdEFGh', 'ab_cd_ef_gh', 'a_b_c_d_e', 'ÄbÖdÜf', 'SK', 'sk_', 'Sk2Go'];
  const normalised = (s: string) => s.toLowerCase().replace(/^[_$]+|[_$]+$/g, '');

  checkAll(
    spellings.map((symbol) => ({ name: symbol, input: symbol, expected: true })),
    (symbol) => {
      let tokens = 0;
      forEachToken(symbol, () => tokens++);
      assert.ok(tokens <= nameLengthBound(normalised(symbol)), `${symbol}: ${tokens} tokens`);
      return true;
    },
  );

  const search = searcher([
    ...spellings.map((symbol, i) => c(`src/named${i}.ts:1-3 function ${symbol}`, `function ${symbol}() {\n  return ${i};\n}`)),
    // Symbols that have the query words as parts, and bodies that mention them.
    c('src/parts.ts:1-3 function sk_X509_pop_free', 'function sk_X509_pop_free() {\n  return sk;\n}'),
    c('src/parts.ts:5-7 function initElAll', 'function initElAll() {\n  init(); el();\n}'),
  ]);
  // Two spellings may share a name (`SK`, `sk_`): either may come first, both must be boosted.
  checkAll(
    spellings.map((symbol) => ({ name: `${symbol} found as ${normalised(symbol)}`, input: normalised(symbol), expected: { topNamedSo: true, boosted: true } })),
    (query) => {
      const top = search(query, { limit: 3 }).hits[0];
      return { topNamedSo: top !== undefined && normalised(top.symbol) === query, boosted: top?.scoreBreakdown.some((p) => p.kind === 'boost' && p.name === 'exact-definition') };
    },
  );
});
