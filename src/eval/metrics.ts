// Retrieval metrics, as pure functions of ranked results and ground truth.
//
//   file level   a result list becomes a ranked list of distinct files (first occurrence wins);
//                Recall@k = share of the case's ground-truth files among the first k files,
//                reciprocal rank = 1 / rank of the first ground-truth file (0 when absent)
//   span level   Hit@10 = some span among the first 10 results overlaps a changed range
//   packs        coverage = share of ground-truth files among the must-inspect spans
// Means are taken over cases (every case weighs the same, however many files it changed).
import type { Span } from '../core/types';
import { overlapsAny } from './diffRanges';
import type { CaseOutcome, SystemMetrics, TruthFile } from './types';

export type { Span };

/** What a system answered for one case. */
export interface SystemAnswer {
  /** Ranked results: spans, or whole files (no line range). */
  results: Array<Span | { path: string }>;
  /** True when `results` point at spans; whole-file systems cannot score Hit@10. */
  spans: boolean;
  /** For packs: the must-inspect spans within the budget. */
  pack?: Span[];
  ms: number;
}

/** Distinct paths in order of first appearance. */
export function rankedFiles(results: ReadonlyArray<{ path: string }>): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const r of results) {
    if (seen.has(r.path)) continue;
    seen.add(r.path);
    out.push(r.path);
  }
  return out;
}

/** Share of `truth` among the first k of `files`. */
export function recallAt(files: readonly string[], truth: ReadonlySet<string>, k: number): number {
  if (truth.size === 0) return 0;
  let found = 0;
  for (const f of files.slice(0, k)) if (truth.has(f)) found++;
  return found / truth.size;
}

/** 1-based rank of the first ground-truth file, or null. */
export function firstRelevantRank(files: readonly string[], truth: ReadonlySet<string>): number | null {
  const i = files.findIndex((f) => truth.has(f));
  return i < 0 ? null : i + 1;
}

export function reciprocalRank(files: readonly string[], truth: ReadonlySet<string>): number {
  const rank = firstRelevantRank(files, truth);
  return rank === null ? 0 : 1 / rank;
}

/** True when one of the first k spans overlaps a changed range of its file. */
export function spanHitAt(spans: readonly Span[], truth: readonly TruthFile[], k: number): boolean {
  const byPath = new Map(truth.map((t) => [t.path, t.ranges]));
  return spans.slice(0, k).some((s) => {
    const ranges = byPath.get(s.path);
    return ranges !== undefined && overlapsAny(s.startLine, s.endLine, ranges);
  });
}

function isSpan(r: Span | { path: string }): r is Span {
  return 'startLine' in r && 'endLine' in r;
}

/** Per-case scores of one answer. */
export interface CaseScores {
  recallAt1: number;
  recallAt5: number;
  recallAt10: number;
  reciprocalRank: number;
  firstRelevantRank: number | null;
  hitAt10: boolean | null;
  packCoverage: number | null;
  topFiles: string[];
}

export function scoreAnswer(answer: SystemAnswer, truth: readonly TruthFile[]): CaseScores {
  const truthPaths = new Set(truth.map((t) => t.path));
  const files = rankedFiles(answer.results);
  const spans = answer.results.filter(isSpan);
  return {
    recallAt1: recallAt(files, truthPaths, 1),
    recallAt5: recallAt(files, truthPaths, 5),
    recallAt10: recallAt(files, truthPaths, 10),
    reciprocalRank: reciprocalRank(files, truthPaths),
    firstRelevantRank: firstRelevantRank(files, truthPaths),
    hitAt10: answer.spans ? spanHitAt(spans, truth, 10) : null,
    packCoverage: answer.pack ? recallAt(rankedFiles(answer.pack), truthPaths, Number.POSITIVE_INFINITY) : null,
    topFiles: files.slice(0, 10),
  };
}

export function outcomeOf(scores: CaseScores, ms: number): CaseOutcome {
  return { firstRelevantRank: scores.firstRelevantRank, recallAt10: scores.recallAt10, hitAt10: scores.hitAt10, packCoverage: scores.packCoverage, topFiles: scores.topFiles, ms };
}

const mean = (values: readonly number[]): number => (values.length === 0 ? 0 : values.reduce((s, v) => s + v, 0) / values.length);

/** Mean over cases; a metric some case could not score is null (n/a) for the system. */
export function meanMetrics(scores: readonly CaseScores[]): SystemMetrics {
  const optional = (pick: (s: CaseScores) => number | boolean | null): number | null => {
    const values = scores.map(pick);
    if (values.length === 0 || values.some((v) => v === null)) return null;
    return mean(values.map((v) => (v === true ? 1 : v === false ? 0 : (v as number))));
  };
  return {
    recallAt1: mean(scores.map((s) => s.recallAt1)),
    recallAt5: mean(scores.map((s) => s.recallAt5)),
    recallAt10: mean(scores.map((s) => s.recallAt10)),
    mrr: mean(scores.map((s) => s.reciprocalRank)),
    hitAt10: optional((s) => s.hitAt10),
    packCoverage: optional((s) => s.packCoverage),
  };
}
