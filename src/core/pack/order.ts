// The must-inspect order: the best functions of the best files. Files come in the order file
// search ranks them for the task (`search --group file`), each with its best span, before any
// file gets a second span; then the other kept candidates (more spans of those files, and what
// the pack adds: definitions they call, files the task names that file search did not rank).
import type { Candidate } from './candidates';

export interface MustInspectOrder {
  /** Best first: the ranked files' best spans, then the other candidates by score. */
  must: Candidate[];
  /** How many of `must` are a ranked file's best span (the first ones): the budget keeps one of each first. */
  firstRound: number;
  /** Kept candidates beyond the must-inspect count, best first. */
  rest: Candidate[];
}

/** `kept` is best first (rank.ts); `fileOrder` is the file ranking's order; at most `maxMust` spans. */
export function orderMustInspect(kept: readonly Candidate[], fileOrder: readonly string[], maxMust: number): MustInspectOrder {
  const firsts: Candidate[] = [];
  for (const path of fileOrder) {
    if (firsts.length >= maxMust) break;
    // Within a file, the pack's score picks the span: an exact name or a closer match can beat
    // the span file search previews first.
    const best = kept.find((c) => c.hit.path === path);
    if (best && !firsts.includes(best)) firsts.push(best);
  }
  const others = kept.filter((c) => !firsts.includes(c));
  const must = [...firsts, ...others].slice(0, maxMust);
  return { must, firstRound: firsts.length, rest: others.slice(must.length - firsts.length) };
}
