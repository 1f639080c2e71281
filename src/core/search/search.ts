// Ranked chunk search over a snapshot: the best chunks (chunkRanking.ts), diversified so a
// file's extra chunks make room for other files', hydrated as hits, with cross-references
// added. Grouped by file: fileRanking.ts.
import type { Segment } from '../index/segment';
import { isPartial, wordsNeeded } from './allWords';
import { compareHits, toHit } from './chunkHits';
import { clampInt, EXACT_TOTAL_UP_TO, rankChunks } from './chunkRanking';
import type { CompiledQuery } from './compiled';
import { addCrossReferences } from './crossReferenceHits';
import { DEFAULT_RANKING } from './defaultRanking';
import { diversityTiers } from './diversify';
import { MAX_FILE_POOL } from './fileRanking';
import type { FileReader } from './hydrate';
import type { SnapshotScorer } from './scorer';
import type { SymbolIndex } from './symbols';
import type { RankingParams, SearchHit, SearchOptions } from './types';

// The search API other modules and tests import from here.
export { compareHits } from './chunkHits';
export { EXACT_TOTAL_UP_TO } from './chunkRanking';
export { DEFAULT_RANKING } from './defaultRanking';
export { diversityTiers } from './diversify';
export { fileNameOf, fileScore, round } from './fileScore';
export { compareFiles, groupHitsByFile, searchFilesSnapshot, SPANS_PER_FILE, type RawFileSearchResult } from './fileRanking';
export type { RankingParams };

export interface RawSearchResult {
  hits: SearchHit[];
  total: number;
  /** More than `total` chunks match (counting stopped being exact past EXACT_TOTAL_UP_TO). */
  totalIsLowerBound: boolean;
  warnings: string[];
  compiled: CompiledQuery;
  /** Set when no matching chunk holds every word of the query (listed): every hit is partial. */
  partialOnly?: { words: string[] };
}

/** A page of chunk hits for a query, best first; a file's chunks past `maxPerFile` rank below other files'. */
export function searchSnapshot(
  scorer: SnapshotScorer,
  symbols: SymbolIndex,
  reader: FileReader,
  query: string,
  options: SearchOptions = {},
  ranking: RankingParams = DEFAULT_RANKING,
  /** Tests compare against exhaustive scoring with Infinity. */
  exactTotalUpTo = EXACT_TOTAL_UP_TO,
): RawSearchResult {
  const limit = clampInt(options.limit ?? 20, 1, 1000);
  const offset = clampInt(options.offset ?? 0, 0, 100_000);
  const maxPerFile = clampInt(options.maxPerFile ?? ranking.maxPerFile, 0, 1000);
  // Diversifying pushes a file's extra chunks down: rank more chunks than the page holds, so
  // other files' chunks are there to take their places.
  const pool = maxPerFile > 0 ? Math.min(Math.max(3 * (offset + limit), offset + limit + 30), MAX_FILE_POOL) : offset + limit;
  const r = rankChunks(scorer, query, options, ranking, pool, exactTotalUpTo, symbols);
  if (!r.run) return { hits: [], total: 0, totalIsLowerBound: false, warnings: r.warnings, compiled: r.compiled };
  const { run, compiled, warnings } = r;
  const segs = scorer.snapshot.segments;
  const tiers = maxPerFile > 0 ? diversityTiers(run.ranked, (x) => (segs[x.c.seg] as Segment).pathOf(x.c.doc), maxPerFile) : undefined;
  const order = run.ranked.map((x, i) => ({ x, tier: tiers ? (tiers[i] as number) : 0 }));
  if (tiers) order.sort((a, b) => a.tier - b.tier); // stable: score order within a tier
  const page = order.slice(offset, offset + limit);
  const needed = wordsNeeded(compiled);
  const hits = page.map(({ x }) => {
    const hit = toHit(scorer, run.scoring, x, run.boostContext, reader, compiled, options.previewLines ?? 3);
    if (isPartial(needed, x.c.bits)) hit.partial = true;
    return hit;
  });
  // The best chunks are the likeliest to hold every word: when none of those ranked does, none does.
  const partialOnly = run.ranked.length > 0 && run.ranked.every((x) => isPartial(needed, x.c.bits));
  // Pushed-down chunks stay below the others (a cross-reference ranks in the first tier).
  const tierOf = new Map(hits.map((h, i) => [h.docid, (page[i] as { tier: number }).tier]));
  const byTierThenScore = (a: SearchHit, b: SearchHit) => (tierOf.get(a.docid) ?? 0) - (tierOf.get(b.docid) ?? 0) || compareHits(a, b);
  hits.sort(byTierThenScore);
  if (options.crossReferences !== false) {
    // Cross-references obey the same filters as everything else.
    const allowed = (seg: Segment, segIndex: number, doc: number) =>
      run.filters.fileAllowed(segIndex, seg)[seg.fileIndexOf(doc)] === 1 && run.filters.docAllowed(seg, doc);
    addCrossReferences(hits, symbols, reader, scorer, options.previewLines ?? 3, limit, allowed);
    if (tiers) hits.sort(byTierThenScore);
  }
  return { hits, total: run.total, totalIsLowerBound: run.pruned, warnings, compiled, ...(partialOnly ? { partialOnly: { words: needed.words } } : {}) };
}
