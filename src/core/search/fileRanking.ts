// Files ranked by the evidence of their chunks, from a search's scored chunks or from another
// provider's hits, each with its best spans.
import { groupBy } from '../groupBy';
import type { Segment } from '../index/segment';
import { isPartial, wordsNeeded } from './allWords';
import { compareHits, toHit } from './chunkHits';
import { clampInt, EXACT_TOTAL_UP_TO, rankChunks } from './chunkRanking';
import { compileQuery, type CompiledQuery } from './compiled';
import { DEFAULT_RANKING } from './defaultRanking';
import { fileScore } from './fileScore';
import type { FileReader } from './hydrate';
import type { Ranked } from './rankedChunk';
import type { SnapshotScorer } from './scorer';
import type { SymbolIndex } from './symbols';
import type { FileHit, RankingParams, SearchHit, SearchOptions } from './types';

/** A grouped search scores this many chunks per file asked for (bounded by MAX_FILE_POOL). */
const FILE_POOL_PER_FILE = 10;
const MIN_FILE_POOL = 200;
/** The most chunks a search ranks for one page, grouped by file or diversified. */
export const MAX_FILE_POOL = 3000;
/** Best spans listed per file. */
export const SPANS_PER_FILE = 3;

export interface RawFileSearchResult {
  files: FileHit[];
  total: number;
  totalIsLowerBound: boolean;
  warnings: string[];
  compiled: CompiledQuery;
  /** Set when no matching file's chunks hold every word of the query between them: every file is partial. */
  partialOnly?: { words: string[] };
  /** Shown files with their spans, for files ranked past `previewFiles` (listed without spans) shown after all. */
  withPreviews(files: readonly FileHit[]): FileHit[];
}

/**
 * Files ranked by the evidence of their chunks: the best chunk's score, plus a damped sum of
 * the file's other matching chunks, times a boost when a query word is the file's name. The
 * chunks scored are bounded: `FILE_POOL_PER_FILE` per file asked for.
 */
export function searchFilesSnapshot(
  scorer: SnapshotScorer,
  reader: FileReader,
  query: string,
  options: SearchOptions = {},
  ranking: RankingParams = DEFAULT_RANKING,
  /** With the symbol table, the files defining a name asked for alone rank first. */
  symbols?: SymbolIndex,
  /**
   * Files whose spans are hydrated now. A caller reranking a deep pool (a task text's
   * localization) shows only a few of its files: the others' spans wait for `withPreviews`.
   */
  previewFiles = Infinity,
): RawFileSearchResult {
  const limit = clampInt(options.limit ?? 20, 1, 1000);
  const offset = clampInt(options.offset ?? 0, 0, 100_000);
  const pool = Math.min(Math.max(FILE_POOL_PER_FILE * (offset + limit), MIN_FILE_POOL), MAX_FILE_POOL);
  const r = rankChunks(scorer, query, options, ranking, pool, EXACT_TOTAL_UP_TO, symbols);
  const asIs = (files: readonly FileHit[]) => [...files];
  if (!r.run) return { files: [], total: 0, totalIsLowerBound: false, warnings: r.warnings, compiled: r.compiled, withPreviews: asIs };
  const { run, compiled, warnings } = r;
  const segs = scorer.snapshot.segments;
  const byFile = groupBy(run.ranked, (x) => (segs[x.c.seg] as Segment).pathOf(x.c.doc));
  const names = compiled.fileNames;
  // What each query word is worth (weight × idf of its best term), by presence bit.
  const wordWeight = new Float64Array(32);
  for (const t of run.scoring.terms) if (t.presenceBit >= 0) wordWeight[t.presenceBit] = Math.max(wordWeight[t.presenceBit] as number, t.weight * t.idf);
  const grouped = [...byFile].map(([path, chunks]) => {
    let bits = 0;
    for (const x of chunks) bits |= x.c.bits;
    let more = bits & ~(chunks[0] as Ranked).c.bits;
    let words = 0;
    let coverage = 0;
    for (let b = 0; more !== 0 && b < 32; b++, more >>>= 1) {
      if (more & 1) {
        words++;
        coverage += wordWeight[b] as number;
      }
    }
    return { path, chunks, bits, ...fileScore(path, chunks, names, ranking, { words, weight: coverage }) };
  });
  grouped.sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  if (grouped.length === 0) return { files: [], total: 0, totalIsLowerBound: false, warnings, compiled, withPreviews: asIs };
  // A file is a full match when its chunks hold every word between them.
  const needed = wordsNeeded(compiled);
  const previewLines = options.previewLines ?? 3;
  const hitOf = (x: Ranked): SearchHit => {
    const hit = toHit(scorer, run.scoring, x, run.boostContext, reader, compiled, previewLines);
    if (isPartial(needed, x.c.bits)) hit.partial = true;
    return hit;
  };
  /** Chunks of the files ranked past `previewFiles`: hydrated only if shown (most of a deep pool is reordered away). */
  const deferred = new Map<string, Ranked[]>();
  const files = grouped.slice(offset, offset + limit).map((g, i): FileHit => {
    const best = g.chunks.slice(0, SPANS_PER_FILE);
    if (i >= previewFiles) deferred.set(g.path, best);
    const spans = i < previewFiles ? best.map(hitOf) : [];
    const first = g.chunks[0] as Ranked;
    return {
      path: g.path,
      score: g.score,
      scoreBreakdown: g.breakdown,
      spans,
      matchedChunks: g.chunks.length,
      language: (segs[first.c.seg] as Segment).fileOf(first.c.doc).language,
      ...(spans.some((h) => h.stale) ? { stale: true } : {}),
      ...(isPartial(needed, g.bits) ? { partial: true as const } : {}),
    };
  });
  const partialOnly = grouped.every((g) => isPartial(needed, g.bits));
  // A shown file's spans go after those it has (evidence a caller put first), up to SPANS_PER_FILE.
  const withPreviews = (shown: readonly FileHit[]): FileHit[] =>
    shown.map((f) => {
      const chunks = deferred.get(f.path);
      if (!chunks) return f;
      const spans = [...f.spans];
      for (const x of chunks) {
        if (spans.length >= SPANS_PER_FILE) break;
        const hit = hitOf(x);
        if (!spans.some((h) => h.docid === hit.docid)) spans.push(hit);
      }
      return { ...f, spans, ...(spans.some((h) => h.stale) ? { stale: true } : {}) };
    });
  return {
    files,
    total: grouped.length,
    totalIsLowerBound: run.pruned || run.total > run.ranked.length,
    warnings,
    compiled,
    withPreviews,
    ...(partialOnly ? { partialOnly: { words: needed.words } } : {}),
  };
}

/**
 * Files ranked from a list of chunk hits (another provider's answer), like
 * `searchFilesSnapshot` ranks them from scored chunks.
 */
export function groupHitsByFile(hits: readonly SearchHit[], query: string, ranking: RankingParams = DEFAULT_RANKING): FileHit[] {
  const byFile = groupBy([...hits].sort(compareHits), (h) => h.path);
  const names = compileQuery(query, { joinWeight: ranking.joinedWords, stopWordWeight: ranking.stopWords }).fileNames;
  const files = [...byFile].map(([path, chunks]): FileHit => {
    const { score, breakdown } = fileScore(path, chunks, names, ranking);
    const first = chunks[0] as SearchHit;
    return {
      path,
      score,
      scoreBreakdown: breakdown,
      spans: chunks.slice(0, SPANS_PER_FILE),
      matchedChunks: chunks.length,
      language: first.language,
      ...(chunks.some((h) => h.stale) ? { stale: true } : {}),
      ...(first.root !== undefined ? { root: first.root } : {}),
    };
  });
  return files.sort(compareFiles);
}

/** Stable order of files: score descending, then path. */
export function compareFiles(a: FileHit, b: FileHit): number {
  return b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
}
