// Ranked chunk search over a snapshot: BM25F base scores, filters, boosts a user would expect,
// top-k selection with stable ordering, then hydration of the few hits that are shown.
import { DEFINITION_KINDS, FLAG_TEST, FLAG_VENDORED, bucketOfFlags } from '../index/fields';
import type { Segment } from '../index/segment';
import { parseQuery, type ParsedQuery } from './query';
import { compileFilters, unknownKinds } from './filters';
import type { Candidate, SnapshotScorer } from './scorer';
import type { ScoreComponent, SearchHit, SearchOptions } from './types';
import { type FileReader } from './hydrate';
import { crossReferenceNames } from './crossref';
import type { SymbolIndex } from './symbols';

/** Multiplicative boosts; each shows up in a hit's breakdown as the score it added or removed. */
export interface RankingParams {
  /** A definition whose name is a word of the query. */
  exactDefinition: number;
  /** Any named definition (function, class…) over glue code and plain text. */
  definition: number;
  /** Tests, unless the query is about tests. */
  test: number;
  /** Vendored, generated or minified files. */
  vendored: number;
  /** Scope `code`: prose and config relative to code. */
  codeFirstProse: number;
  codeFirstConfig: number;
}

export const DEFAULT_RANKING: RankingParams = {
  exactDefinition: 2.5,
  definition: 1.2,
  test: 0.6,
  vendored: 0.5,
  codeFirstProse: 0.3,
  codeFirstConfig: 0.75,
};

interface Boost {
  name: string;
  factor: number;
}

interface Ranked {
  c: Candidate;
  score: number;
}

/** Matches are counted exactly up to this many; past it, scoring may skip hopeless chunks. */
export const EXACT_TOTAL_UP_TO = 1000;

export interface RawSearchResult {
  hits: SearchHit[];
  total: number;
  /** More than `total` chunks match (counting stopped being exact past EXACT_TOTAL_UP_TO). */
  totalIsLowerBound: boolean;
  warnings: string[];
  parsed: ParsedQuery;
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
  const parsed = parseQuery(query);
  const warnings = [...parsed.warnings];
  const badKinds = unknownKinds(options.kinds);
  if (badKinds.length) warnings.push(`unknown kind ${badKinds.join(', ')}`);
  if (parsed.clauses.length === 0) {
    if (query.trim()) warnings.push('nothing to search for in the query');
    return { hits: [], total: 0, totalIsLowerBound: false, warnings, parsed };
  }

  const filters = compileFilters(options);
  const segs = scorer.snapshot.segments;
  const identifiers = new Set(parsed.identifiers);
  const scope = options.scope ?? 'all';
  const heap = new TopK<Ranked>(offset + limit, (a, b) => better(a, b, segs));
  const boostContext: BoostContext = { identifiers, mentionsTests: parsed.mentionsTests, scope, ranking };
  const maxBoost = maxBoostOf(ranking);
  const maxBoostUnnamed = maxBoostOf(ranking, false);
  const allowedFiles = segs.map((seg, s) => filters.fileAllowed(s, seg));
  let total = 0;
  // Candidates come in segment then document order, and files own consecutive documents:
  // a document's file is found by walking forward, not by a search per candidate.
  let fileSeg = -1;
  let file = 0;
  let fileEnd = 0;
  const scoring = scorer.score(parsed, (s, doc, base, bits, namedByQuery) => {
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

  const ranked = heap.sorted().slice(offset);
  const hits = ranked.map((r) => toHit(scorer, scoring, r, boostContext, reader, parsed, options.previewLines ?? 3));
  hits.sort(compareHits);
  if (options.crossReferences !== false) {
    // Cross-references obey the same filters as everything else.
    const allowed = (seg: Segment, segIndex: number, doc: number) =>
      filters.fileAllowed(segIndex, seg)[seg.fileIndexOf(doc)] === 1 && filters.docAllowed(seg, doc);
    addCrossReferences(hits, symbols, reader, scorer, options.previewLines ?? 3, limit, allowed);
  }
  return { hits, total, totalIsLowerBound: scoring.pruned, warnings, parsed };
}

interface BoostContext {
  identifiers: ReadonlySet<string>;
  mentionsTests: boolean;
  scope: string;
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
  if (isDefinition && namedByQuery && ctx.identifiers.has(normalisedName(seg.symbolOf(doc)))) score *= listed(out, 'exact-definition', ranking.exactDefinition);
  else if (isDefinition) score *= listed(out, 'definition', ranking.definition);
  const flags = seg.docFlags.at(doc);
  if (flags & FLAG_TEST && !ctx.mentionsTests) score *= listed(out, 'test-file', ranking.test);
  if (flags & FLAG_VENDORED) score *= listed(out, 'vendored-or-generated', ranking.vendored);
  if (ctx.scope === 'code') {
    const bucket = bucketOfFlags(flags);
    if (bucket === 'prose') score *= listed(out, 'code-first:prose', ranking.codeFirstProse);
    if (bucket === 'config') score *= listed(out, 'code-first:config', ranking.codeFirstConfig);
  }
  return score;
}

/**
 * The largest factor `boostedScore` can multiply a base score by: one factor per group at most.
 * Without `namedByQuery` the exact-definition boost cannot apply.
 */
function maxBoostOf(r: RankingParams, namedByQuery = true): number {
  const definition = namedByQuery ? Math.max(1, r.exactDefinition, r.definition) : Math.max(1, r.definition);
  return definition * Math.max(1, r.test) * Math.max(1, r.vendored) * Math.max(1, r.codeFirstProse, r.codeFirstConfig);
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
  parsed: ParsedQuery,
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
  const hit = reader.hit(seg, r.c.doc, previewLines, parsed);
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

export function round(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

function clampInt(x: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, Math.floor(Number.isFinite(x) ? x : lo)));
}

/** Keeps the k best items seen; `better(a, b)` is true when a ranks above b. */
export class TopK<T> {
  private readonly heap: T[] = [];
  constructor(
    private readonly k: number,
    private readonly better: (a: T, b: T) => boolean,
  ) {}

  /** True once k items are kept: a newcomer must then beat `worst`. */
  get isFull(): boolean {
    return this.heap.length >= this.k;
  }

  /** The worst item kept (the next to be dropped), if any. */
  get worst(): T | undefined {
    return this.heap[0];
  }

  push(item: T): void {
    const h = this.heap;
    if (h.length < this.k) {
      h.push(item);
      this.up(h.length - 1);
    } else if (h.length > 0 && this.better(item, h[0] as T)) {
      h[0] = item;
      this.down(0);
    }
  }

  /** Best first. */
  sorted(): T[] {
    return [...this.heap].sort((a, b) => (this.better(a, b) ? -1 : this.better(b, a) ? 1 : 0));
  }

  // Min-heap on "better": the root is the worst kept item.
  private up(i: number): void {
    const h = this.heap;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.better(h[p] as T, h[i] as T)) break;
      [h[p], h[i]] = [h[i] as T, h[p] as T];
      i = p;
    }
  }

  private down(i: number): void {
    const h = this.heap;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let worst = i;
      if (l < h.length && this.better(h[worst] as T, h[l] as T)) worst = l;
      if (r < h.length && this.better(h[worst] as T, h[r] as T)) worst = r;
      if (worst === i) break;
      [h[worst], h[i]] = [h[i] as T, h[worst] as T];
      i = worst;
    }
  }
}
