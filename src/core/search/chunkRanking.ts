// The k best chunks for a query over a snapshot: BM25F base scores from the scorer, the
// filters, the boosts, then top-k selection with stable ordering.
import type { Segment } from '../index/segment';
import { boostedScore, maxBoostOf, type BoostContext } from './boosts';
import { compileQuery, type CompiledQuery } from './compiled';
import { definitionsFirst } from './definitionsFirst';
import { compileFilters, unknownKinds } from './filters';
import { namedDefinitions, queryName } from './namedDefinitions';
import { better, type Ranked } from './rankedChunk';
import type { SnapshotScorer } from './scorer';
import type { SymbolIndex } from './symbols';
import { TopK } from './topK';
import type { RankingParams, SearchOptions } from './types';

/** Matches are counted exactly up to this many; past it, scoring may skip hopeless chunks. */
export const EXACT_TOTAL_UP_TO = 1000;

export interface ChunkRun {
  ranked: Ranked[];
  total: number;
  pruned: boolean;
  scoring: ReturnType<SnapshotScorer['score']>;
  boostContext: BoostContext;
  filters: ReturnType<typeof compileFilters>;
}

/** The `k` best chunks for a query, boosted and filtered, best first. */
export function rankChunks(
  scorer: SnapshotScorer,
  query: string,
  options: SearchOptions,
  ranking: RankingParams,
  k: number,
  exactTotalUpTo: number,
  symbols?: SymbolIndex,
): { run?: ChunkRun; compiled: CompiledQuery; warnings: string[] } {
  const rarity = { documentFrequency: (t: string) => scorer.documentFrequency(t), documents: scorer.liveDocs };
  const compiled = compileQuery(query, { joinWeight: ranking.joinedWords, stopWordWeight: ranking.stopWords, prefixLast: options.prefixLast, rarity });
  const warnings = [...compiled.warnings];
  const badKinds = unknownKinds(options.kinds);
  if (badKinds.length) warnings.push(`unknown kind ${badKinds.join(', ')}`);
  const filters = compileFilters(options);
  const segs = scorer.snapshot.segments;
  const allowedFiles = segs.map((seg, s) => filters.fileAllowed(s, seg));
  const name = symbols ? queryName(query) : undefined;
  const allowed = (ref: { seg: number; doc: number }) => {
    const seg = segs[ref.seg] as Segment;
    return (allowedFiles[ref.seg] as Uint8Array)[seg.fileIndexOf(ref.doc)] === 1 && filters.docAllowed(seg, ref.doc);
  };
  const definitions = symbols && name ? namedDefinitions(symbols, name).filter(allowed) : [];
  // A name too long to index as a word (over MAX_TOKEN_LENGTH) has no terms, but the symbol
  // table still knows where it is defined.
  if (compiled.clauses.length === 0 && definitions.length === 0) {
    if (query.trim()) warnings.push('nothing to search for in the query');
    return { compiled, warnings };
  }

  const scope = options.scope ?? 'auto';
  const heap = new TopK<Ranked>(k, (a, b) => better(a, b, segs));
  const codeFirst = scope === 'code' || (scope === 'auto' && compiled.codeLike);
  const { identifiers, joinedNames, mentionsTests } = compiled;
  const boostContext: BoostContext = { identifiers, joinedNames, mentionsTests, codeFirst: codeFirst ? scope : undefined, ranking };
  const maxBoost = maxBoostOf(ranking);
  const maxBoostUnnamed = maxBoostOf(ranking, false);
  let total = 0;
  // Every match is counted up to EXACT_TOTAL_UP_TO; past it, only chunks that can still beat
  // the k-th best matter. Ties are kept (a tie can still win on path order).
  const threshold = new Float64Array([-Infinity]);
  const raiseThreshold = () => {
    if (total >= exactTotalUpTo && heap.isFull) threshold[0] = (heap.worst as Ranked).score;
  };
  // Candidates come in segment then document order, and files own consecutive documents:
  // a document's file is found by walking forward, not by a search per candidate.
  let fileSeg = -1;
  let file = 0;
  let fileEnd = 0;
  const scoring = scorer.score(compiled, (s, doc, bits, namedByQuery, baseCell) => {
    const base = baseCell[0] as number;
    const seg = segs[s] as Segment;
    if (s !== fileSeg || doc < seg.fileFirstDocOf(file)) {
      fileSeg = s;
      file = seg.fileIndexOf(doc);
      fileEnd = seg.fileFirstDocOf(file + 1);
    }
    while (doc >= fileEnd) fileEnd = seg.fileFirstDocOf(++file + 1);
    if (!(allowedFiles[s] as Uint8Array)[file]) return;
    if (!filters.docAllowed(seg, doc)) return;
    if (++total === exactTotalUpTo) raiseThreshold();
    // Not even the largest boost would lift it past the k-th best: skip the boosts (they may
    // read the chunk's symbol).
    if (heap.isFull && base * (namedByQuery ? maxBoost : maxBoostUnnamed) < (heap.worst as Ranked).score) return;
    const score = boostedScore(seg, doc, namedByQuery, base, boostContext);
    // Most matches of a common word score below the k kept so far: skip them without allocating.
    if (heap.isFull && score < (heap.worst as Ranked).score) return;
    heap.push({ c: { seg: s, doc, base, bits, namedByQuery }, score });
    raiseThreshold();
  }, { threshold, maxBoost, maxBoostUnnamed });
  warnings.push(...scoring.warnings);
  const first = definitionsFirst(heap.sorted(), definitions, scorer, scoring, boostContext, k);
  return { run: { ranked: first.ranked, total: total + first.unmatched, pruned: scoring.pruned, scoring, boostContext, filters }, compiled, warnings };
}

/** `x` as an integer within [lo, hi] (lo when it is not a number): page sizes and offsets. */
export function clampInt(x: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, Math.floor(Number.isFinite(x) ? x : lo)));
}
