// The must-inspect order: the best functions of the best files. Files come in the order file
// search ranks them for the task (`search --group file`), each file's spans together, best
// first; then what the pack adds (definitions they call, files the task names that file search
// did not rank). The budget is spent in another order: one span of each ranked file first, then
// the other spans by score, so a tight budget shows more files, not more of one.
import type { Candidate } from './candidates';

export interface MustInspectOrder {
  /** In the order the budget is spent on them: the ranked files' best spans, then the others by score. */
  must: Candidate[];
  /** How many of `must` are a ranked file's best span (the first ones): the budget shares its room among them first. */
  firstRound: number;
  /** Kept candidates beyond the must-inspect count, best first. */
  rest: Candidate[];
}

/** `kept` is best first (rank.ts); `fileOrder` is the file ranking's order; at most `maxMust` spans. */
export function orderMustInspect(kept: readonly Candidate[], fileOrder: readonly string[], maxMust: number): MustInspectOrder {
  // Within a file, the pack's score picks the spans: an exact name or a closer match can beat
  // the span file search previews first.
  const firsts = fileOrder.map((path) => kept.find((c) => c.hit.path === path)).filter((c): c is Candidate => c !== undefined).slice(0, maxMust);
  const taken = new Set(firsts);
  // Then by score: a definition the task names, or a file's second best span, before a weak one.
  const must = [...firsts, ...kept.filter((c) => !taken.has(c))].slice(0, maxMust);
  const chosen = new Set(must);
  return { must, firstRound: firsts.length, rest: kept.filter((c) => !chosen.has(c)) };
}

/**
 * The placed spans in reading order: each file's spans together, files in the order their
 * first span was placed (the file ranking's), spans within a file in the order placed.
 */
export function readingOrder<T extends { path: string }>(placed: readonly T[]): T[] {
  const fileRank = new Map<string, number>();
  placed.forEach((p) => fileRank.has(p.path) || fileRank.set(p.path, fileRank.size));
  return placed.map((p, i) => ({ p, i })).sort((a, b) => (fileRank.get(a.p.path) as number) - (fileRank.get(b.p.path) as number) || a.i - b.i).map((x) => x.p);
}
