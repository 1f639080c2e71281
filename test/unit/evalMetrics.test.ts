import * as assert from 'node:assert/strict';
import { checkAll } from './check';
import { meanMetrics, rankedFiles, scoreAnswer, type CaseScores, type SystemAnswer } from '../../src/eval/metrics';
import { formatTable } from '../../src/eval/table';
import type { SystemReport, TruthFile } from '../../src/eval/types';

const span = (path: string, startLine: number, endLine: number) => ({ path, startLine, endLine });
const file = (path: string) => ({ path });

const TWO_FILES: TruthFile[] = [
  { path: 'src/a.ts', ranges: [{ start: 10, end: 12 }] },
  { path: 'src/b.ts', ranges: [{ start: 1, end: 1 }, { start: 40, end: 45 }] },
];

interface Row {
  answer: Omit<SystemAnswer, 'ms'>;
  truth: TruthFile[];
}

/** The scores that matter, rounded so fractions compare exactly. */
const scores = ({ answer, truth }: Row) => {
  const s = scoreAnswer({ ...answer, ms: 0 }, truth);
  const r = (v: number) => Math.round(v * 1e6) / 1e6;
  return { r1: r(s.recallAt1), r5: r(s.recallAt5), r10: r(s.recallAt10), rr: r(s.reciprocalRank), rank: s.firstRelevantRank, hit: s.hitAt10, cov: s.packCoverage === null ? null : r(s.packCoverage) };
};

describe('eval: metrics', () => {
  it('a list of hits becomes a list of distinct files, first occurrence first', () => {
    assert.deepEqual(rankedFiles([span('a', 1, 2), span('b', 1, 2), span('a', 5, 9), file('c'), span('b', 3, 3)]), ['a', 'b', 'c']);
  });

  checkAll<Row, ReturnType<typeof scores>>(
    [
      {
        name: 'both files first, a span on a changed line at rank 2',
        input: { answer: { spans: true, results: [span('src/b.ts', 20, 30), span('src/a.ts', 12, 20)] }, truth: TWO_FILES },
        expected: { r1: 0.5, r5: 1, r10: 1, rr: 1, rank: 1, hit: true, cov: null },
      },
      {
        name: 'right files, wrong spans: no hit',
        input: { answer: { spans: true, results: [span('src/b.ts', 2, 39), span('src/a.ts', 13, 30), span('src/b.ts', 46, 60)] }, truth: TWO_FILES },
        expected: { r1: 0.5, r5: 1, r10: 1, rr: 1, rank: 1, hit: false, cov: null },
      },
      {
        name: 'the first relevant file at rank 3 (several hits in one file count once)',
        input: { answer: { spans: true, results: [span('x.ts', 1, 2), span('x.ts', 3, 4), span('y.ts', 1, 9), span('src/a.ts', 1, 9)] }, truth: TWO_FILES },
        expected: { r1: 0, r5: 0.5, r10: 0.5, rr: 0.333333, rank: 3, hit: false, cov: null },
      },
      {
        name: 'a matching span beyond the 10th hit does not count',
        input: { answer: { spans: true, results: [...Array.from({ length: 10 }, (_, i) => span('src/a.ts', 100 + i, 100 + i)), span('src/a.ts', 11, 11)] }, truth: TWO_FILES },
        expected: { r1: 0.5, r5: 0.5, r10: 0.5, rr: 1, rank: 1, hit: false, cov: null },
      },
      {
        name: 'the relevant file at rank 11 is outside Recall@10 but still counts for MRR',
        input: { answer: { spans: false, results: [...Array.from({ length: 10 }, (_, i) => file(`f${i}.ts`)), file('src/b.ts')] }, truth: TWO_FILES },
        expected: { r1: 0, r5: 0, r10: 0, rr: 0.090909, rank: 11, hit: null, cov: null },
      },
      {
        name: 'whole files cannot point at spans: Hit@10 is n/a',
        input: { answer: { spans: false, results: [file('src/a.ts')] }, truth: TWO_FILES },
        expected: { r1: 0.5, r5: 0.5, r10: 0.5, rr: 1, rank: 1, hit: null, cov: null },
      },
      {
        name: 'nothing relevant',
        input: { answer: { spans: true, results: [span('z.ts', 1, 1)] }, truth: TWO_FILES },
        expected: { r1: 0, r5: 0, r10: 0, rr: 0, rank: null, hit: false, cov: null },
      },
      {
        name: 'a pack covering one of two files, its span touching an inserted line',
        input: { answer: { spans: true, results: [span('src/b.ts', 45, 50), span('src/c.ts', 1, 9)], pack: [span('src/b.ts', 45, 50), span('src/c.ts', 1, 9)] }, truth: TWO_FILES },
        expected: { r1: 0.5, r5: 0.5, r10: 0.5, rr: 1, rank: 1, hit: true, cov: 0.5 },
      },
    ],
    scores,
  );

  it('means over cases; a metric one case cannot score is n/a for the system', () => {
    const base: CaseScores = { recallAt1: 0, recallAt5: 0, recallAt10: 0, reciprocalRank: 0, firstRelevantRank: null, hitAt10: false, packCoverage: null, topFiles: [] };
    const m = meanMetrics([
      { ...base, recallAt1: 1, recallAt5: 1, recallAt10: 1, reciprocalRank: 1, hitAt10: true },
      { ...base, recallAt5: 0.5, recallAt10: 1, reciprocalRank: 0.25 },
      { ...base },
      { ...base, recallAt10: 0.5, reciprocalRank: 0.1, hitAt10: true },
    ]);
    assert.deepEqual(m, { recallAt1: 0.25, recallAt5: 0.375, recallAt10: 0.625, mrr: (1 + 0.25 + 0 + 0.1) / 4, hitAt10: 0.5, packCoverage: null });
    assert.equal(meanMetrics([{ ...base, hitAt10: null }, { ...base, hitAt10: true }]).hitAt10, null);
  });

  it('prints an aligned table with n/a for what a system cannot score', () => {
    const row = (name: string, spans: boolean, hit: number | null): SystemReport => ({
      name, system: spans ? 'index' : 'bm25', spans, cases: 12, meanMs: 3.25,
      metrics: { recallAt1: 0.5, recallAt5: 0.75, recallAt10: 1, mrr: 0.6125, hitAt10: hit, packCoverage: null },
    });
    const lines = formatTable([row('cairn index', true, 0.5), row('bm25 whole-file', false, null)]);
    assert.deepEqual(lines, [
      'system           cases    R@1    R@5   R@10    MRR  Hit@10 span  pack cov  ms/query',
      '---------------  -----  -----  -----  -----  -----  -----------  --------  --------',
      'cairn index         12  0.500  0.750  1.000  0.613        0.500       n/a       3.3',
      'bm25 whole-file     12  0.500  0.750  1.000  0.613          n/a       n/a       3.3',
    ]);
  });
});
