import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { grepWords, rankByQueryWords, WholeFileBm25 } from '../../src/eval/baselines';
import { TreeCorpus } from '../../src/eval/corpus';

const RG = (() => {
  try {
    return require.resolve(`@vscode/ripgrep-${process.platform}-${process.arch}/bin/rg`);
  } catch {
    return undefined;
  }
})();

describe('eval: whole-file BM25 baseline', () => {
  it('scores with k1 = 1.2, b = 0.75 over code-aware tokens (checked by hand)', () => {
    const bm25 = new WholeFileBm25();
    bm25.set('a.ts', 'parseConfig parseConfig'); // tokens: parseconfig parse config ×2 = 6
    bm25.set('b.ts', 'config loader'); // config loader = 2
    bm25.set('c.ts', 'unrelated words here too'); // 4
    // N = 3, avgdl = 4. "config": df 2, idf = ln(1 + 1.5/2.5); "parse": df 1, idf = ln(1 + 2.5/1.5)
    const idfConfig = Math.log(1 + 1.5 / 2.5);
    const idfParse = Math.log(1 + 2.5 / 1.5);
    const term = (idf: number, tf: number, len: number) => (idf * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * len) / 4));
    const results = bm25.search('parse config');
    assert.deepEqual(results.map((r) => r.path), ['a.ts', 'b.ts']);
    assert.ok(Math.abs((results[0]?.score ?? 0) - (term(idfParse, 2, 6) + term(idfConfig, 2, 6))) < 1e-12);
    assert.ok(Math.abs((results[1]?.score ?? 0) - term(idfConfig, 1, 2)) < 1e-12);
  });

  it('splits identifiers in queries and text alike', () => {
    const bm25 = new WholeFileBm25();
    bm25.set('src/retry.ts', 'export function retryWithBackoff() {}');
    bm25.set('src/other.ts', 'export function other() {}');
    assert.equal(bm25.search('backoff retry')[0]?.path, 'src/retry.ts');
    assert.equal(bm25.search('retry_with_backoff')[0]?.path, 'src/retry.ts');
  });

  it('updates file by file: replaced and deleted files leave no trace', () => {
    const bm25 = new WholeFileBm25();
    bm25.set('a.ts', 'alpha beta');
    bm25.set('b.ts', 'beta gamma');
    bm25.set('a.ts', 'delta');
    assert.deepEqual(bm25.search('alpha'), []);
    assert.equal(bm25.idf('beta'), Math.log(1 + 1.5 / 1.5));
    bm25.delete('b.ts');
    assert.equal(bm25.documentCount, 1);
    assert.deepEqual(bm25.search('beta gamma'), []);
    assert.deepEqual(bm25.search('delta').map((r) => r.path), ['a.ts']);
  });

  it('ties are broken by path so runs are reproducible', () => {
    const bm25 = new WholeFileBm25();
    for (const p of ['c.ts', 'a.ts', 'b.ts']) bm25.set(p, 'same words');
    assert.deepEqual(bm25.search('same').map((r) => r.path), ['a.ts', 'b.ts', 'c.ts']);
  });
});

describe('eval: grep-per-word baseline', function () {
  this.timeout(30000);
  let root: string;

  before(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-eval-rg-'));
    const files: Record<string, string> = {
      'src/client.ts': 'retry the request with backoff; retry again\n',
      'src/backoff.ts': 'exponential backoff\n',
      'src/noise.ts': 'retry retry retry retry retry\n',
      'README.md': 'retry with exponential backoff\n',
      '.github/ci.yml': 'retry: exponential backoff\n',
      'secret.env': 'retry exponential backoff\n',
    };
    for (const [rel, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      fs.writeFileSync(path.join(root, rel), text);
    }
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it('greps for the content words of a query', () => {
    assert.deepEqual(grepWords('Add retry with exponential backoff to the HTTP client, then retry'), ['add', 'retry', 'exponential', 'backoff', 'http', 'client']);
  });

  it('ranks the searchable files by distinct words found, then by matches', async function () {
    if (!RG) this.skip();
    const corpus = new TreeCorpus(root, { useGit: false }, false);
    await corpus.sync();
    assert.deepEqual([...corpus.searchable].sort(), ['.github/ci.yml', 'README.md', 'src/backoff.ts', 'src/client.ts', 'src/noise.ts'], 'files discovery leaves out are not searchable');
    const ranked = await rankByQueryWords(RG as string, root, 'retry with exponential backoff', corpus.searchable);
    assert.deepEqual(ranked, [
      { path: '.github/ci.yml', score: 3 },
      { path: 'README.md', score: 3 },
      { path: 'src/client.ts', score: 2 }, // 3 matches
      { path: 'src/backoff.ts', score: 2 }, // 2 matches
      { path: 'src/noise.ts', score: 1 },
    ]);
  });

  it('the corpus follows the tree incrementally', async () => {
    const corpus = new TreeCorpus(root, { useGit: false }, true);
    await corpus.sync();
    fs.writeFileSync(path.join(root, 'src/added.ts'), 'export const jitter = 1;\n');
    fs.rmSync(path.join(root, 'src/noise.ts'));
    await corpus.sync(['src/added.ts', 'src/noise.ts']);
    assert.ok(corpus.searchable.has('src/added.ts'));
    assert.equal(corpus.searchable.has('src/noise.ts'), false);
    assert.deepEqual(corpus.bm25.search('jitter').map((r) => r.path), ['src/added.ts']);
    assert.deepEqual(corpus.bm25.search('retry').map((r) => r.path).includes('src/noise.ts'), false);
  });
});
