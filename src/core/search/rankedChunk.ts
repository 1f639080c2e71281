// A chunk as ranking holds it (scored, boosted, maybe lifted), and the order between two.
import type { Segment } from '../index/segment';
import type { Candidate } from './scorer';

export interface Ranked {
  c: Candidate;
  score: number;
  /** Added to a definition of the query's name so it ranks above every other chunk. */
  lift?: number;
  /** Where the query's name is defined inside the chunk (a constant in a module's opening chunk). */
  namedAt?: { line: number; column: number };
}

/** Whether `a` ranks before `b`: higher score, then path, then start line (stable across runs). */
export function better(a: Ranked, b: Ranked, segs: readonly Segment[]): boolean {
  if (a.score !== b.score) return a.score > b.score;
  const sa = segs[a.c.seg] as Segment;
  const sb = segs[b.c.seg] as Segment;
  const pa = sa.pathOf(a.c.doc);
  const pb = sb.pathOf(b.c.doc);
  if (pa !== pb) return pa < pb;
  return sa.docStart.at(a.c.doc) < sb.docStart.at(b.c.doc);
}
