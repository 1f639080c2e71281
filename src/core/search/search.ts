// Ranked chunk search over a snapshot: BM25F base scores, filters, boosts a user would expect,
// top-k selection with stable ordering, then hydration of the few hits that are shown.
import { TopK } from './topK';
import { DEFINITION_KINDS, FLAG_TEST, FLAG_VENDORED, bucketOfFlags } from '../index/fields';
import type { Segment } from '../index/segment';
import { compileQuery, DEFAULT_STOP_WORD_WEIGHT, type CompiledQuery } from './compiled';
import { compileFilters, unknownKinds } from './filters';
import type { Candidate, SnapshotScorer } from './scorer';
import type { FileHit, ScoreComponent, SearchHit, SearchOptions } from './types';
import { type FileReader } from './hydrate';
import { crossReferenceNames } from './crossref';
import type { SymbolIndex } from './symbols';
import { isKeyOnly, namedDefinitions, queryName, type NamedDefinition } from './namedDefinitions';
import { isPartial, wordsNeeded } from './allWords';
import type { RankingParams } from './types';
import { fileScore, round } from './fileScore';

export { fileNameOf, fileScore, round } from './fileScore';

export type { RankingParams };


export const DEFAULT_RANKING: RankingParams = {
  exactDefinition: 2.5,
  definition: 1.2,
  test: 0.6,
  vendored: 0.5,
  codeFirstProse: 0.3,
  codeFirstConfig: 0.75,
  autoCodeFirstProse: 0.4,
  joinedWords: 0.3,
  joinedName: 1.2,
  maxPerFile: 3,
  stopWords: DEFAULT_STOP_WORD_WEIGHT,
  fileOtherChunks: 0.5,
  fileChunkDecay: 0.5,
  fileName: 1.25,
  fileCoverage: 0,
  hybridRipgrep: 0.1,
};

/** A grouped search scores this many chunks per file asked for (bounded by MAX_FILE_POOL). */
const FILE_POOL_PER_FILE = 10;
const MIN_FILE_POOL = 200;
const MAX_FILE_POOL = 3000;
/** Best spans listed per file. */
export const SPANS_PER_FILE = 3;

interface Boost {
  name: string;
  factor: number;
}

interface Ranked {
  c: Candidate;
  score: number;
  /** Added to a definition of the query's name so it ranks above every other chunk. */
  lift?: number;
  /** Where the query's name is defined inside the chunk (a constant in a module's opening chunk). */
  namedAt?: { line: number; column: number };
}

/** Matches are counted exactly up to this many; past it, scoring may skip hopeless chunks. */
export const EXACT_TOTAL_UP_TO = 1000;

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

/**
 * For a ranked list, 0 for the first `maxPerFile` items of each file and 1 for the rest: a
 * stable sort by tier keeps every file's best chunks in score order and pushes a file's
 * extra chunks below the other files' chunks. A list from one file is left as it is.
 */
export function diversityTiers<T>(ranked: readonly T[], fileOf: (item: T) => string, maxPerFile: number): number[] {
  const seen = new Map<string, number>();
  return ranked.map((item) => {
    const f = fileOf(item);
    const n = (seen.get(f) ?? 0) + 1;
    seen.set(f, n);
    return n > maxPerFile ? 1 : 0;
  });
}

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
  const byFile = new Map<string, Ranked[]>();
  for (const x of run.ranked) {
    const p = (segs[x.c.seg] as Segment).pathOf(x.c.doc);
    const list = byFile.get(p);
    if (list) list.push(x);
    else byFile.set(p, [x]);
  }
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
  const byFile = new Map<string, SearchHit[]>();
  for (const h of [...hits].sort(compareHits)) {
    const list = byFile.get(h.path);
    if (list) list.push(h);
    else byFile.set(h.path, [h]);
  }
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

interface ChunkRun {
  ranked: Ranked[];
  total: number;
  pruned: boolean;
  scoring: ReturnType<SnapshotScorer['score']>;
  boostContext: BoostContext;
  filters: ReturnType<typeof compileFilters>;
}

/** The `k` best chunks for a query, boosted and filtered, best first. */
function rankChunks(
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
  // Candidates come in segment then document order, and files own consecutive documents:
  // a document's file is found by walking forward, not by a search per candidate.
  let fileSeg = -1;
  let file = 0;
  let fileEnd = 0;
  const scoring = scorer.score(compiled, (s, doc, base, bits, namedByQuery) => {
    const seg = segs[s] as Segment;
    if (s !== fileSeg || doc < seg.fileFirstDocOf(file)) {
      fileSeg = s;
      file = seg.fileIndexOf(doc);
      fileEnd = seg.fileFirstDocOf(file + 1);
    }
    while (doc >= fileEnd) fileEnd = seg.fileFirstDocOf(++file + 1);
    if (!(allowedFiles[s] as Uint8Array)[file]) return;
    if (!filters.docAllowed(seg, doc)) return;
    total++;
    // Not even the largest boost would lift it past the k-th best: skip the boosts (they may
    // read the chunk's symbol).
    if (heap.isFull && base * (namedByQuery ? maxBoost : maxBoostUnnamed) < (heap.worst as Ranked).score) return;
    const score = boostedScore(seg, doc, namedByQuery, base, boostContext);
    // Most matches of a common word score below the k kept so far: skip them without allocating.
    if (heap.isFull && score < (heap.worst as Ranked).score) return;
    heap.push({ c: { seg: s, doc, base, bits, namedByQuery }, score });
  }, {
    // Every match is counted up to EXACT_TOTAL_UP_TO; past it, only chunks that can still beat
    // the k-th best matter. Ties are kept (a tie can still win on path order).
    threshold: () => (total < exactTotalUpTo || !heap.isFull ? -Infinity : (heap.worst as Ranked).score),
    maxBoost,
    maxBoostUnnamed,
  });
  warnings.push(...scoring.warnings);
  const first = definitionsFirst(heap.sorted(), definitions, scorer, scoring, boostContext, k);
  return { run: { ranked: first.ranked, total: total + first.unmatched, pruned: scoring.pruned, scoring, boostContext, filters }, compiled, warnings };
}

/**
 * `ranked` with the chunks of `definitions` moved (or, when pruning passed them over, added)
 * to the top, in their own score order, each lifted by the best other chunk's score (at least
 * 1) so the scores still descend. `unmatched` counts the definitions the query's words did not
 * match (a name too long to be indexed as a word), which the caller adds to the total.
 */
function definitionsFirst(
  ranked: Ranked[],
  definitions: readonly NamedDefinition[],
  scorer: SnapshotScorer,
  scoring: ReturnType<SnapshotScorer['score']>,
  ctx: BoostContext,
  k: number,
): { ranked: Ranked[]; unmatched: number } {
  if (definitions.length === 0) return { ranked, unmatched: 0 };
  const key = (seg: number, doc: number) => `${seg}:${doc}`;
  const wanted = new Set(definitions.map((d) => key(d.seg, d.doc)));
  const pinned: Ranked[] = [];
  const rest: Ranked[] = [];
  for (const x of ranked) (wanted.has(key(x.c.seg, x.c.doc)) ? pinned : rest).push(x);
  const present = new Set(pinned.map((x) => key(x.c.seg, x.c.doc)));
  let unmatched = 0;
  for (const d of definitions) {
    if (present.has(key(d.seg, d.doc))) continue;
    const parts = scorer.breakdown(scoring, d.seg, d.doc);
    const base = parts.reduce((t, p) => t + p.value, 0);
    // A definition the words did not match (a name too long to index) still holds the name.
    if (!(base > 0)) unmatched++;
    let bits = base > 0 ? 0 : ~0;
    for (const t of scoring.terms) if (t.presenceBit >= 0 && parts.some((p) => p.kind === 'field' && p.term === t.label)) bits |= 1 << t.presenceBit;
    const seg = scorer.snapshot.segments[d.seg] as Segment;
    pinned.push({ c: { seg: d.seg, doc: d.doc, base, bits, namedByQuery: true }, score: boostedScore(seg, d.doc, true, base, ctx) });
  }
  const at = new Map(definitions.filter((d) => d.nameLine !== undefined).map((d) => [key(d.seg, d.doc), { line: d.nameLine as number, column: d.nameColumn ?? 1 }]));
  for (const x of pinned) {
    const named = at.get(key(x.c.seg, x.c.doc));
    if (named) x.namedAt = named;
  }
  // A key of an anonymous object literal (`res.format({ html: function () {…} })`) defines the
  // name for that call only: a function, class or method with an owner comes first.
  const nestedKeys = new Set(definitions.filter((d) => d.nameLine !== undefined).map((d) => `${key(d.seg, d.doc)}:${d.keyOnly === true}`));
  const keyOnly = (x: Ranked) => {
    const k = key(x.c.seg, x.c.doc);
    if (at.has(k)) return nestedKeys.has(`${k}:true`) && !nestedKeys.has(`${k}:false`);
    const seg = scorer.snapshot.segments[x.c.seg] as Segment;
    return isKeyOnly(seg.kindOf(x.c.doc), seg.contextOf(x.c.doc));
  };
  const keys = pinned.filter(keyOnly).sort((a, b) => b.score - a.score);
  const owned = pinned.filter((x) => !keys.includes(x)).sort((a, b) => b.score - a.score);
  // Each tier is lifted past the one below, so the scores still descend.
  const lowLift = Math.max(1, rest[0]?.score ?? 0);
  const highLift = keys.length ? lowLift + Math.max(1, keys[0]?.score ?? 0) : lowLift;
  for (const x of keys) {
    x.lift = lowLift;
    x.score += lowLift;
  }
  for (const x of owned) {
    x.lift = highLift;
    x.score += highLift;
  }
  pinned.splice(0, pinned.length, ...owned, ...keys);
  return { ranked: [...pinned, ...rest].slice(0, Math.max(k, pinned.length)), unmatched };
}

interface BoostContext {
  identifiers: ReadonlySet<string>;
  /** Identifiers spelt by adjacent query words (not typed as such). */
  joinedNames: ReadonlySet<string>;
  mentionsTests: boolean;
  /** Code before prose: asked for (`code`), or the query looks like code (`auto`). */
  codeFirst?: 'code' | 'auto';
  ranking: RankingParams;
}

/**
 * A candidate's base score times the boosts that apply to it, in a fixed order. With `out`,
 * the boosts are also listed (for a hit's breakdown); without, nothing is allocated.
 */
function boostedScore(seg: Segment, doc: number, namedByQuery: boolean, base: number, ctx: BoostContext, out?: Boost[]): number {
  const { ranking } = ctx;
  let score = base;
  const isDefinition = DEFINITION_KINDS.has(seg.kindOf(doc));
  const name = isDefinition && namedByQuery ? normalisedName(seg.symbolOf(doc)) : '';
  if (name && ctx.identifiers.has(name)) score *= listed(out, 'exact-definition', ranking.exactDefinition);
  else if (name && ctx.joinedNames.has(name)) score *= listed(out, 'exact-definition:joined-words', ranking.joinedName);
  else if (isDefinition) score *= listed(out, 'definition', ranking.definition);
  const flags = seg.docFlags.at(doc);
  if (flags & FLAG_TEST && !ctx.mentionsTests) score *= listed(out, 'test-file', ranking.test);
  if (flags & FLAG_VENDORED) score *= listed(out, 'vendored-or-generated', ranking.vendored);
  if (ctx.codeFirst === 'code') {
    const bucket = bucketOfFlags(flags);
    if (bucket === 'prose') score *= listed(out, 'code-first:prose', ranking.codeFirstProse);
    if (bucket === 'config') score *= listed(out, 'code-first:config', ranking.codeFirstConfig);
  } else if (ctx.codeFirst === 'auto' && bucketOfFlags(flags) === 'prose') {
    score *= listed(out, 'code-like-query:prose', ranking.autoCodeFirstProse);
  }
  return score;
}

/**
 * The largest factor `boostedScore` can multiply a base score by: one factor per group at most.
 * Without `namedByQuery` the exact-definition boost cannot apply.
 */
function maxBoostOf(r: RankingParams, namedByQuery = true): number {
  const definition = namedByQuery ? Math.max(1, r.exactDefinition, r.joinedName, r.definition) : Math.max(1, r.definition);
  return definition * Math.max(1, r.test) * Math.max(1, r.vendored) * Math.max(1, r.codeFirstProse, r.codeFirstConfig, r.autoCodeFirstProse);
}

/** Notes a boost in `out` (when listing them) and returns its factor. */
function listed(out: Boost[] | undefined, name: string, factor: number): number {
  out?.push({ name, factor });
  return factor;
}

function toHit(
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

/** Docs ↔ code: definitions named in the top prose hits, added as marked cross-references. */
function addCrossReferences(
  hits: SearchHit[],
  symbols: SymbolIndex,
  reader: FileReader,
  scorer: SnapshotScorer,
  previewLines: number,
  limit: number,
  allowed: (seg: Segment, segIndex: number, doc: number) => boolean,
): void {
  const seen = new Set(hits.map((h) => h.docid));
  const added: SearchHit[] = [];
  const maxAdded = Math.min(5, Math.max(1, Math.floor(limit / 2)));
  for (const from of hits.slice(0, 5)) {
    if (added.length >= maxAdded) break;
    if (!reader.isProse(from)) continue;
    const text = reader.text(from.path, from.startLine, from.endLine);
    if (!text) continue;
    for (const name of crossReferenceNames(text)) {
      if (added.length >= maxAdded) break;
      const target = name.includes('/') ? symbols.firstChunkOfPath(name) : symbols.definitionsNamed(name)[0];
      if (!target) continue;
      const seg = scorer.snapshot.segments[target.seg] as Segment;
      if (!allowed(seg, target.seg, target.doc)) continue;
      const hit = reader.hit(seg, target.doc, previewLines, undefined);
      if (seen.has(hit.docid)) continue;
      seen.add(hit.docid);
      const value = round(from.score * 0.5);
      hit.score = value;
      hit.scoreBreakdown = [{ kind: 'match', name: `cross-reference from ${from.docid}`, value }];
      hit.crossReferenceFrom = from.docid;
      added.push(hit);
    }
  }
  hits.push(...added);
  hits.sort(compareHits);
}

/** Stable order: score descending, then path, then start line. */
export function compareHits(a: SearchHit, b: SearchHit): number {
  return b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) || a.startLine - b.startLine;
}

function better(a: Ranked, b: Ranked, segs: readonly Segment[]): boolean {
  if (a.score !== b.score) return a.score > b.score;
  const sa = segs[a.c.seg] as Segment;
  const sb = segs[b.c.seg] as Segment;
  const pa = sa.pathOf(a.c.doc);
  const pb = sb.pathOf(b.c.doc);
  if (pa !== pb) return pa < pb;
  return sa.docStart.at(a.c.doc) < sb.docStart.at(b.c.doc);
}

/** A symbol as the tokenizer sees it whole: lower-cased, leading/trailing `_`/`$` dropped. */
function normalisedName(symbol: string): string {
  return symbol.toLowerCase().replace(/^[_$]+|[_$]+$/g, '');
}

function clampInt(x: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, Math.floor(Number.isFinite(x) ? x : lo)));
}
