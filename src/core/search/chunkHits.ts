// Ranked chunks as the hits a user sees: hydrated from the working tree, with the score's
// breakdown (each field's part, each boost, the lift), in a stable order.
import type { Segment } from '../index/segment';
import { boostedScore, type Boost, type BoostContext } from './boosts';
import type { CompiledQuery } from './compiled';
import { round } from './fileScore';
import type { FileReader } from './hydrate';
import type { Ranked } from './rankedChunk';
import type { SnapshotScorer } from './scorer';
import type { ScoreComponent, SearchHit } from './types';

export function toHit(
  scorer: SnapshotScorer,
  scoring: ReturnType<SnapshotScorer['score']>,
  r: Ranked,
  boostContext: BoostContext,
  reader: FileReader,
  compiled: CompiledQuery,
  previewLines: number,
): SearchHit {
  const seg = scorer.snapshot.segments[r.c.seg] as Segment;
  const components: ScoreComponent[] = scorer.breakdown(scoring, r.c.seg, r.c.doc).map((p) => ({ ...p, value: round(p.value) }));
  let running = components.reduce((s, p) => s + p.value, 0);
  const boosts: Boost[] = [];
  boostedScore(seg, r.c.doc, r.c.namedByQuery, r.c.base, boostContext, boosts);
  for (const b of boosts) {
    const value = round(running * (b.factor - 1));
    components.push({ kind: 'boost', name: b.name, factor: b.factor, value });
    running += value;
  }
  if (r.lift) components.push({ kind: 'match', name: 'defines the name searched for (ranked first)', value: round(r.lift) });
  const hit = reader.hit(seg, r.c.doc, previewLines, compiled);
  if (r.namedAt && r.namedAt.line >= hit.startLine && r.namedAt.line <= hit.endLine) {
    hit.nameLine = r.namedAt.line;
    hit.nameColumn = r.namedAt.column;
  }
  hit.score = round(components.reduce((s, p) => s + p.value, 0));
  hit.scoreBreakdown = components;
  return hit;
}

/** Stable order: score descending, then path, then start line. */
export function compareHits(a: SearchHit, b: SearchHit): number {
  return b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) || a.startLine - b.startLine;
}
