// BM25F over the segments of one snapshot, document at a time: each segment merges its query
// terms' postings in document order and hands every match to a visitor, with no per-document
// scratch. Past a threshold, MaxScore skips documents that cannot make the results. Every score
// stays explainable: a hit's breakdown is recomputed from the same postings, so its parts add
// up to the score exactly.
import { DEFAULT_FIELD_PARAMS, FIELD_COUNT, FIELDS, PROSE_FIELDS, type FieldName, type FieldParams } from '../index/fields';
import type { Postings } from '../index/postingsCodec';
import type { Segment } from '../index/segment';
import type { Snapshot } from '../store/store';
import { distanceWithin } from './query';
import { docsWithShortField, EMPTY_DOCS, nameLengthBound, SYMBOL_FIELD, unionDocs } from './namedDocs';
import { buildDocHeap, popDoc, pushDoc } from './docHeap';
import type { CompiledQuery, CompiledWildcard } from './compiled';
import type { ScoreComponent } from './types';

export const K1 = 1.2;
/** Identifier parts count less than the whole identifier the user typed. */
export const PART_WEIGHT = 0.35;
/** Wildcard/fuzzy expansions: at most this many dictionary terms per clause (most frequent first). */
const MAX_EXPANSIONS = 64;

/** One dictionary term to score, for some fields of one query clause. */
interface ScoredTerm {
  token: string;
  /** Bit f set when field f counts for this term. */
  fieldMask: number;
  weight: number;
  /** Presence bit of the clause word this term satisfies (primary terms only), or -1. */
  presenceBit: number;
  label: string;
  /** A whole query word (not a part or an expansion): a symbol field hit means the chunk is named by it. */
  whole?: boolean;
}

export interface Candidate {
  seg: number;
  doc: number;
  base: number;
  /** Presence bits matched. */
  bits: number;
  /** A whole query word occurs in the chunk's symbol: it may be named by the query. */
  namedByQuery: boolean;
}

/**
 * Receives every matching live document that meets the presence rules, in segment then
 * document order, its base score in `base[0]`. A callback rather than a list: a common word
 * matches a hundred thousand chunks, and in a fresh process every page of memory a list touches
 * costs a fault. The score comes in a cell, not as an argument: a fractional number passed to a
 * call that is not inlined is allocated, once per visited document.
 */
export type CandidateVisitor = (seg: number, doc: number, bits: number, namedByQuery: boolean, base: Float64Array) => void;

/**
 * Lets scoring skip documents that cannot make the results. `threshold[0]` is the final score a
 * document must reach (the k-th best so far, or -Infinity while every match must be seen, for
 * instance to count them), kept current by the visitor: a cell rather than a call, because a
 * number returned by a call that is not inlined is allocated, once per visited document.
 * `maxBoost` is the largest factor boosts can multiply a base score by, and `maxBoostUnnamed`
 * the largest for a document no whole query word names (no symbol-field hit), which is most of
 * them: the name boost is the largest, so their bounds are much tighter.
 */
export interface Pruning {
  threshold: Float64Array;
  maxBoost: number;
  maxBoostUnnamed: number;
}

interface PreparedTerm extends ScoredTerm {
  idf: number;
  /** Per segment: decoded postings, or undefined when the segment lacks the term. */
  postings: Array<Postings | undefined>;
  /** Per segment: the files whose path has the term (path postings are per file), or undefined. */
  pathPostings: Array<FilePostings | undefined>;
}

interface FilePostings {
  files: Uint32Array;
  tfs: Uint16Array;
}

export interface ScoringResult {
  terms: PreparedTerm[];
  /** True when some documents were skipped as unable to make the results (they were not visited). */
  pruned: boolean;
  /** Presence requirements: all bits in `required` must be set. */
  required: number;
  /** Each group: a document matching all of the group's bits is excluded. */
  prohibited: readonly number[];
  warnings: string[];
}

const ALL_FIELDS_MASK = (1 << FIELD_COUNT) - 1;
const PROSE_MASK = FIELDS.reduce((m, f, i) => (PROSE_FIELDS.has(f) ? m | (1 << i) : m), 0);
const CODE_MASK = ALL_FIELDS_MASK & ~PROSE_MASK;
const PATH_FIELD = FIELDS.indexOf('path');
const PATH_BIT = 1 << PATH_FIELD;

export class SnapshotScorer {
  readonly totalDocs: number;
  readonly liveDocs: number;
  readonly avgFieldLength: Float64Array;
  /** Per field: BM25F weight, length normalisation and average length over live documents. */
  private readonly norms: NormParams;
  /** Per segment: some document is deleted (most segments have none, and counting is then free). */
  private readonly hasDeleted: boolean[] = [];

  constructor(
    readonly snapshot: Snapshot,
    params: Readonly<Record<FieldName, FieldParams>> = DEFAULT_FIELD_PARAMS,
  ) {
    // Statistics count live documents only, so scores depend on what is indexed, not on the
    // history of refreshes that produced it (tombstoned documents linger until a merge).
    let docs = 0;
    let deleted = 0;
    const totals = new Float64Array(FIELD_COUNT);
    const lens = new Uint16Array(FIELD_COUNT);
    snapshot.segments.forEach((seg, i) => {
      docs += seg.docCount;
      for (let f = 0; f < FIELD_COUNT; f++) totals[f] = (totals[f] as number) + (seg.fieldTotals[f] as number);
      // The path is stored once per file, but every document counts its file's path length.
      totals[PATH_FIELD] = (totals[PATH_FIELD] as number) + seg.pathFieldTotal();
      const del = snapshot.deleted[i] as Uint8Array;
      this.hasDeleted[i] = del.indexOf(1) >= 0;
      // indexOf runs natively: a fresh process opens 600k chunks with few tombstones.
      for (let d = del.indexOf(1); d >= 0; d = del.indexOf(1, d + 1)) {
        deleted++;
        seg.readFieldLengths(d, lens, 0);
        for (let f = 0; f < FIELD_COUNT; f++) totals[f] = (totals[f] as number) - (lens[f] as number);
        totals[PATH_FIELD] = (totals[PATH_FIELD] as number) - seg.filePathLength(seg.fileIndexOf(d));
      }
    });
    this.totalDocs = docs;
    this.liveDocs = docs - deleted;
    this.avgFieldLength = totals.map((t) => (this.liveDocs > 0 ? Math.max(t / this.liveDocs, 1) : 1));
    this.norms = {
      weight: Float64Array.from(FIELDS, (f) => params[f].weight),
      unscaled: Float64Array.from(FIELDS, (f) => 1 - params[f].b),
      perToken: Float64Array.from(FIELDS, (f, i) => params[f].b / (this.avgFieldLength[i] as number)),
    };
  }

  /**
   * In how many chunks (and file paths) a token occurs, over all segments, deleted chunks
   * included: a dictionary lookup per segment, cheap enough to ask for every word of a text.
   */
  documentFrequency(token: string): number {
    let df = 0;
    for (const seg of this.snapshot.segments) {
      const i = seg.findTerm(token);
      if (i >= 0) df += seg.df(i) + seg.fileDf(i);
    }
    return df;
  }

  /** Expands the compiled clauses into dictionary terms with field masks, weights and presence bits. */
  private expand(query: CompiledQuery): { terms: ScoredTerm[]; warnings: string[] } {
    const terms: ScoredTerm[] = [];
    const warnings: string[] = [];
    const push = (token: string, fieldMask: number, weight: number, presenceBit: number, label: string, whole = false) => {
      if (token && fieldMask) terms.push({ token, fieldMask, weight, presenceBit, label, whole });
    };
    for (const clause of query.clauses) {
      const clauseMask = clause.fieldMask;
      const codeMask = clauseMask & CODE_MASK;
      const proseMask = clauseMask & PROSE_MASK;
      const w = clause.boost;
      if (clause.wildcard) {
        const expansions = this.expandWildcard(clause.wildcard);
        if (expansions.length === 0) warnings.push(`no indexed term matches ${clause.raw}`);
        for (const t of expansions) push(t, clauseMask, w, clause.wildcard.bit, `${clause.raw}→${t}`);
        continue;
      }
      for (const word of clause.words) {
        if (clause.editDistance > 0) {
          for (const [t, dist] of this.expandFuzzy(word.whole, clause.editDistance)) {
            push(t, clauseMask, w / (1 + dist), word.bit, dist === 0 ? t : `${word.whole}~${t}`);
          }
          continue;
        }
        // Code fields hold words as written, prose fields their stems.
        if (word.stem === word.whole) push(word.whole, codeMask | proseMask, w, word.bit, word.whole, true);
        else {
          push(word.whole, codeMask, w, word.bit, word.whole, true);
          push(word.stem, proseMask, w, word.bit, word.stem);
        }
        if (clause.presence === 'prohibited') continue;
        word.parts.forEach((part, k) => {
          const stem = word.partStems[k] as string;
          if (stem === part) push(part, codeMask | proseMask, w * PART_WEIGHT, -1, part);
          else {
            push(part, codeMask, w * PART_WEIGHT, -1, part);
            push(stem, proseMask, w * PART_WEIGHT, -1, stem);
          }
        });
      }
    }
    // Identifiers spelt by adjacent words: optional, and only scored where the index has them.
    for (const j of query.joins) {
      const mask = j.fieldMask;
      const label = `${j.words.join(' ')}→${j.token}`;
      if (j.stem === j.token) terms.push({ token: j.token, fieldMask: mask, weight: j.weight, presenceBit: -1, label, whole: true });
      else {
        if (mask & CODE_MASK) terms.push({ token: j.token, fieldMask: mask & CODE_MASK, weight: j.weight, presenceBit: -1, label, whole: true });
        if (j.stem && mask & PROSE_MASK) terms.push({ token: j.stem, fieldMask: mask & PROSE_MASK, weight: j.weight, presenceBit: -1, label: `${label}→${j.stem}` });
      }
    }
    return { terms: mergedParts(terms), warnings };
  }

  private expandWildcard({ prefix, test }: CompiledWildcard): string[] {
    const found = new Map<string, number>();
    for (const seg of this.snapshot.segments) {
      if (prefix) {
        for (let i = seg.lowerBound(prefix); i < seg.termCount; i++) {
          const t = seg.termAt(i);
          if (!t.startsWith(prefix)) break;
          if (test(t)) found.set(t, (found.get(t) ?? 0) + seg.df(i) + seg.fileDf(i));
        }
      } else {
        seg.terms().forEach((t, i) => {
          if (test(t)) found.set(t, (found.get(t) ?? 0) + seg.df(i) + seg.fileDf(i));
        });
      }
    }
    return mostFrequent(found);
  }

  private expandFuzzy(term: string, maxDistance: number): Array<[string, number]> {
    const found = new Map<string, number>();
    const dist = new Map<string, number>();
    const distanceTo = distanceWithin(term, maxDistance);
    for (const seg of this.snapshot.segments) {
      seg.terms().forEach((t, i) => {
        const d = distanceTo(t);
        if (d <= maxDistance) {
          found.set(t, (found.get(t) ?? 0) + seg.df(i) + seg.fileDf(i));
          dist.set(t, d);
        }
      });
    }
    return mostFrequent(found).map((t) => [t, dist.get(t) as number]);
  }

  /** Scores every matching live document, filtered by presence, into `visit`. Boosts and filters come later. */
  score(query: CompiledQuery, visit: CandidateVisitor, pruning?: Pruning): ScoringResult {
    const { terms, warnings } = this.expand(query);
    const { required, prohibited } = query;
    const segs = this.snapshot.segments;
    const prepared: PreparedTerm[] = terms.map((t) => {
      let df = 0;
      const postings: Array<Postings | undefined> = [];
      const pathPostings: Array<FilePostings | undefined> = [];
      segs.forEach((seg, s) => {
        const i = seg.findTerm(t.token);
        if (i < 0) return;
        const p = seg.postings(i);
        const fp = t.fieldMask & PATH_BIT && seg.fileDf(i) > 0 ? seg.filePostings(i) : undefined;
        postings[s] = p;
        pathPostings[s] = fp;
        df += this.liveDocFrequency(s, p, fp);
      });
      const n = Math.max(this.liveDocs, 1);
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      return { ...t, idf, postings, pathPostings };
    });

    const positive = prepared.some((t) => t.presenceBit < 0 || !prohibited.some((g) => g & (1 << t.presenceBit)));
    if (!positive) return { terms: prepared, pruned: false, required, prohibited, warnings };

    const norms = this.norms;
    let pruned = false;
    segs.forEach((seg, s) => {
      const cursors: TermCursor[] = [];
      const lengths = new DocLengths(seg);
      for (const t of prepared) {
        const p = t.postings[s];
        if (!p) continue;
        const fp = t.pathPostings[s];
        const isProhibitedOnly = t.presenceBit >= 0 && prohibited.some((g) => g & (1 << t.presenceBit));
        const marksName = t.whole === true && !isProhibitedOnly && (t.fieldMask & (1 << SYMBOL_FIELD)) !== 0;
        const pathValues = fp ? Float64Array.from(fp.files, (file, i) => this.pathFrequency(fp.tfs[i] as number, seg.filePathLength(file))) : undefined;
        cursors.push(
          new TermCursor(seg, p, fp?.files, pathValues, {
            fieldMask: t.fieldMask,
            factor: isProhibitedOnly ? 0 : t.weight * t.idf,
            presence: t.presenceBit >= 0 ? 1 << t.presenceBit : 0,
            nameField: marksName ? SYMBOL_FIELD : -1,
            nameMaxLength: nameLengthBound(t.token),
          }, lengths),
        );
      }
      if (!cursors.length) return;
      const deleted = this.snapshot.deleted[s] as Uint8Array;
      // Skipping documents is safe only when a document's terms alone decide whether it
      // matches: with +required or -excluded words, every document must be checked. One word
      // is pruned too: once the k-th best beats what the name boost's absence allows, only the
      // chunks the word may name are left to visit (common single words: ~30 % faster).
      if (pruning && required === 0 && prohibited.length === 0) pruned = scoreSegmentPruned(s, cursors, norms, deleted, visit, pruning) || pruned;
      else scoreSegment(s, cursors, norms, deleted, required, prohibited, visit);
    });
    return { terms: prepared, pruned, required, prohibited, warnings };
  }

  /** Live documents with the term in some field, counting every chunk of a file whose path has it. */
  private liveDocFrequency(s: number, p: Postings, fp: FilePostings | undefined): number {
    if (!fp && !this.hasDeleted[s]) return p.docs.length;
    const deleted = this.snapshot.deleted[s] as Uint8Array;
    // Counting walks the whole list (with path files, a merge of two): remembered with the
    // segment's cached postings for as long as the tombstones stay the same.
    let known = liveCounts.get(p);
    if (!known || known.deleted !== deleted) liveCounts.set(p, (known = { deleted, withPath: -1, withoutPath: -1 }));
    const cached = fp ? known.withPath : known.withoutPath;
    if (cached >= 0) return cached;
    let df = 0;
    if (!fp) {
      for (let k = 0; k < p.docs.length; k++) if (!deleted[p.docs[k] as number]) df++;
      return (known.withoutPath = df);
    }
    // The union of the term's documents and its path files' documents, in document order.
    const cursor = new TermCursor(this.snapshot.segments[s] as Segment, p, fp.files, undefined, COUNT_ONLY);
    for (let doc = cursor.doc; doc !== NO_DOC; doc = cursor.doc) {
      if (!deleted[doc]) df++;
      cursor.skip(doc);
    }
    return (known.withPath = df);
  }

  /** The path field's share of a BM25F pseudo frequency (every chunk of the file shares it). */
  private pathFrequency(tf: number, pathLength: number): number {
    return fieldFrequency(this.norms, PATH_FIELD, tf, pathLength);
  }

  /** Per field and term contributions of one document; their values add up to its base score. */
  breakdown(result: ScoringResult, seg: number, doc: number): ScoreComponent[] {
    const out: ScoreComponent[] = [];
    const norms = this.norms;
    const segment = this.snapshot.segments[seg] as Segment;
    const lens = new Uint16Array(FIELD_COUNT);
    segment.readFieldLengths(doc, lens, 0);
    const fileIndex = segment.fileIndexOf(doc);
    for (const t of result.terms) {
      const p = t.postings[seg];
      if (!p) continue;
      if (t.presenceBit >= 0 && result.prohibited.some((g) => g & (1 << t.presenceBit))) continue;
      const parts: Array<[number, number]> = [];
      let total = 0;
      const i = binarySearch(p.docs, doc);
      for (let f = 0; i >= 0 && f < FIELD_COUNT; f++) {
        const tf = p.tfs[i * FIELD_COUNT + f] as number;
        if (tf === 0 || !(t.fieldMask & (1 << f))) continue;
        const v = fieldFrequency(norms, f, tf, lens[f] as number);
        parts.push([f, v]);
        total += v;
      }
      const fp = t.pathPostings[seg];
      const k = fp ? binarySearch(fp.files, fileIndex) : -1;
      if (fp && k >= 0) {
        const v = this.pathFrequency(fp.tfs[k] as number, segment.filePathLength(fileIndex));
        parts.push([PATH_FIELD, v]);
        total += v;
      }
      if (total <= 0) continue;
      const termScore = saturated(t.weight * t.idf, total);
      for (const [f, v] of parts) out.push({ kind: 'field', field: FIELDS[f] as FieldName, term: t.label, value: (termScore * v) / total });
    }
    return out;
  }
}

function mostFrequent(found: Map<string, number>): string[] {
  return [...found.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, MAX_EXPANSIONS)
    .map(([t]) => t);
}

function binarySearch(a: Uint32Array, x: number): number {
  let lo = 0;
  let hi = a.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = a[mid] as number;
    if (v === x) return mid;
    if (v < x) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** Per field: BM25F weight and length normalisation, for the hot loops. */
interface NormParams {
  weight: Float64Array;
  /**
   * Length normalisation `1 - b + b · length / avg`, as `unscaled + perToken · length` (one
   * division per field and posting fewer in the hottest loop: ~5 % of a long query).
   */
  unscaled: Float64Array;
  perToken: Float64Array;
}

/** What the hot loops need of one query term. */
interface TermScoring {
  fieldMask: number;
  /** weight * idf, or 0 for a term that only excludes. */
  factor: number;
  /** The term's presence bit as a mask, or 0. */
  presence: number;
  /** The symbol field when a hit there means the chunk may be named by the query; else -1. */
  nameField: number;
  /** The longest symbol field (in tokens) of a chunk named by this term: `nameLengthBound`. */
  nameMaxLength: number;
}

const NO_DOC = 0xffffffff;

/**
 * The field lengths of the document a segment's scoring is on, copied from the segment once
 * per document, whichever of its term cursors takes it first (`take` reads them at once; they
 * never leave the scorer).
 */
class DocLengths {
  private doc = NO_DOC;
  private readonly lens = new Uint16Array(FIELD_COUNT);

  constructor(private readonly seg: Segment) {}

  of(doc: number): Uint16Array {
    if (doc !== this.doc) {
      this.seg.readFieldLengths(doc, this.lens, 0);
      this.doc = doc;
    }
    return this.lens;
  }
}

const COUNT_ONLY: TermScoring = { fieldMask: 0, factor: 0, presence: 0, nameField: -1, nameMaxLength: 0 };

/**
 * One term's documents in one segment, in document order: its postings merged with every
 * document of the files whose path has the term (path postings are per file).
 */
class TermCursor {
  /** Next posting. */
  private i = 0;
  /** Next path file, and the next document of the current one. */
  private j = -1;
  private pathDoc = NO_DOC;
  private pathEnd = 0;
  /** Set by `take`: a whole query word is in the taken document's symbol field. */
  named = false;
  /** The next document (NO_DOC past the end), kept current by every move (`settle`); only the cursor writes it. */
  doc = NO_DOC;

  constructor(
    readonly seg: Segment,
    readonly postings: Postings,
    private readonly pathFiles: Uint32Array | undefined,
    private readonly pathValues: Float64Array | undefined,
    readonly term: TermScoring,
    /** Shared by the cursors of one segment's scoring, which take the same documents. */
    private readonly lengths: DocLengths = new DocLengths(seg),
  ) {
    this.nextPathFile();
    this.settle();
  }

  private settle(): void {
    const docs = this.postings.docs;
    const a = this.i < docs.length ? (docs[this.i] as number) : NO_DOC;
    this.doc = a < this.pathDoc ? a : this.pathDoc;
  }

  /**
   * The term's BM25F pseudo-frequency in `doc` (the cursor's next document), and moves past it.
   */
  take(doc: number, norms: NormParams): number {
    let tf = 0;
    const { docs, tfs } = this.postings;
    const i = this.i;
    if (i < docs.length && docs[i] === doc) {
      this.i++;
      const base = i * FIELD_COUNT;
      // Lengths are read only for documents actually scored (pruning skips most of a common term's).
      const lens = this.lengths.of(doc);
      const f = this.term.nameField;
      this.named = f >= 0 && (tfs[base + f] as number) > 0 && (lens[f] as number) <= this.term.nameMaxLength;
      tf += termFrequency(norms, lens, 0, tfs, base, this.term.fieldMask);
    } else {
      this.named = false;
    }
    if (this.pathDoc === doc) {
      tf += (this.pathValues as Float64Array)[this.j] as number;
      this.advancePath();
    }
    this.settle();
    return tf;
  }

  /** Moves to the first document at or after `doc` (galloping: a skip may pass thousands of postings). */
  advanceTo(doc: number): void {
    const docs = this.postings.docs;
    if (this.i < docs.length && (docs[this.i] as number) < doc) {
      let step = 1;
      let lo = this.i;
      let hi = lo + 1;
      while (hi < docs.length && (docs[hi] as number) < doc) {
        lo = hi;
        step *= 2;
        hi = lo + step;
      }
      hi = Math.min(hi, docs.length);
      // docs[lo] < doc; the answer is in (lo, hi].
      while (lo + 1 < hi) {
        const mid = (lo + hi) >>> 1;
        if ((docs[mid] as number) < doc) lo = mid;
        else hi = mid;
      }
      this.i = hi;
    }
    if (this.pathDoc < doc) {
      // Whole path files before `doc` are passed over; inside a file, jump to `doc`.
      while (this.pathDoc !== NO_DOC && this.pathEnd <= doc) this.nextPathFile();
      if (this.pathDoc !== NO_DOC && this.pathDoc < doc) this.pathDoc = doc;
    }
    this.settle();
  }

  /** Moves past `doc` without scoring it. */
  skip(doc: number): void {
    const docs = this.postings.docs;
    if (this.i < docs.length && docs[this.i] === doc) this.i++;
    if (this.pathDoc === doc) this.advancePath();
    this.settle();
  }

  private advancePath(): void {
    if (++this.pathDoc >= this.pathEnd) this.nextPathFile();
  }

  /** Moves to the next path file that owns documents; NO_DOC when there is none. */
  private nextPathFile(): void {
    const files = this.pathFiles;
    this.pathDoc = NO_DOC;
    if (!files) return;
    while (++this.j < files.length) {
      const file = files[this.j] as number;
      const first = this.seg.fileFirstDocOf(file);
      const end = this.seg.fileFirstDocOf(file + 1);
      if (first < end) {
        this.pathDoc = first;
        this.pathEnd = end;
        return;
      }
    }
  }
}

/** BM25F pseudo-frequency of a term in one document: `lens[lenBase + f]` are its field lengths. */
function termFrequency(norms: NormParams, lens: Uint16Array, lenBase: number, tfs: Uint16Array, base: number, fieldMask: number): number {
  let sum = 0;
  for (let f = 0; f < FIELD_COUNT; f++) {
    const tf = tfs[base + f] as number;
    if (tf === 0 || !(fieldMask & (1 << f))) continue;
    sum += fieldFrequency(norms, f, tf, lens[lenBase + f] as number);
  }
  return sum;
}

/** One field's share of a BM25F pseudo-frequency: its term frequency, weighted and length-normalised. */
function fieldFrequency(norms: NormParams, f: number, tf: number, length: number): number {
  return ((norms.weight[f] as number) * tf) / ((norms.unscaled[f] as number) + (norms.perToken[f] as number) * length);
}

/** What a term adds to a score: `factor` (weight × idf) times its saturated pseudo-frequency. */
function saturated(factor: number, tf: number): number {
  return factor * ((tf * (K1 + 1)) / (tf + K1));
}

/**
 * Scores one segment document at a time: the query's term cursors are merged in document
 * order and each document's score is summed over the terms (in query order) and kept when it
 * meets the presence rules. Nothing is allocated per document of the segment: in a fresh
 * process every newly touched page of memory costs a fault, and per-document accumulators
 * (27 bytes per chunk) made up most of a cold query.
 */
function scoreSegment(
  s: number,
  cursors: readonly TermCursor[],
  norms: NormParams,
  deleted: Uint8Array,
  required: number,
  prohibited: readonly number[],
  visit: CandidateVisitor,
): void {
  const n = cursors.length;
  const cell = new Float64Array(1);
  for (;;) {
    let doc = NO_DOC;
    for (let c = 0; c < n; c++) {
      const d = (cursors[c] as TermCursor).doc;
      if (d < doc) doc = d;
    }
    if (doc === NO_DOC) return;
    let score = 0;
    let bits = 0;
    let named = false;
    for (let c = 0; c < n; c++) {
      const cursor = cursors[c] as TermCursor;
      if (cursor.doc !== doc) continue;
      const tf = cursor.take(doc, norms);
      if (cursor.named) named = true;
      if (tf <= 0) continue;
      const { term } = cursor;
      bits |= term.presence;
      if (term.factor !== 0) score += saturated(term.factor, tf);
    }
    if (score <= 0 || deleted[doc]) continue;
    if ((bits & required) !== required) continue;
    if (prohibited.length > 0 && matchesAnyGroup(bits, prohibited)) continue;
    cell[0] = score;
    visit(s, doc, bits, named, cell);
  }
}

/** True when `bits` has every bit of some group (a loop, not `some`: no closure per document). */
function matchesAnyGroup(bits: number, groups: readonly number[]): boolean {
  for (let i = 0; i < groups.length; i++) {
    const g = groups[i] as number;
    if ((bits & g) === g) return true;
  }
  return false;
}

/**
 * `scoreSegment` for a query of optional words, skipping documents that cannot reach the
 * results (MaxScore). A term's contribution is below weight * idf * (k1 + 1) whatever its
 * frequencies, so with the terms ordered by that bound, the cheapest terms whose bounds sum
 * (times the largest boost the document can get) below the current threshold cannot lift a
 * document into the results on their own: only documents of the other, *essential* terms are
 * visited. A visited document's terms are then taken from the largest bound down, each
 * replacing its bound with what it really adds, and the document is dropped as soon as even
 * the bounds of the terms left cannot lift it (the cheap terms' cursors are not even moved).
 * Scores are summed in query order, exactly as `scoreSegment` does, so every document that
 * reaches `visit` gets the same score. Returns true when some document was skipped.
 */
function scoreSegmentPruned(s: number, cursors: readonly TermCursor[], norms: NormParams, deleted: Uint8Array, visit: CandidateVisitor, pruning: Pruning): boolean {
  const n = cursors.length;
  // Cursors by ascending bound, with their places in the query (scores are summed in query order).
  const order = Array.from(cursors.keys()).sort((a, b) => bound(cursors[a] as TermCursor) - bound(cursors[b] as TermCursor));
  const sorted = order.map((c) => cursors[c] as TermCursor);
  const queryIndex = Int32Array.from(order);
  const bounds = Float64Array.from(sorted, bound);
  /** prefix[e]: the base-score bound of a document found only by the e cheapest terms. */
  const prefix = new Float64Array(n + 1);
  for (let e = 0; e < n; e++) prefix[e + 1] = (prefix[e] as number) + (bounds[e] as number);
  // Documents a whole query word may name get the name boost: they are always visited and
  // bounded with it. Every other document is bounded with the smaller unnamed boost.
  const named = namedDocuments(cursors);
  let nextNamed = 0;
  /** Sorted positions of the essential cursors on the current document. */
  const atDoc = new Int32Array(n);
  /** What each term adds to the current document, by query index, and which ones do. */
  const parts = new Float64Array(n);
  const present = new Int32Array(n);
  const cell = new Float64Array(1);
  // Plain locals, not captured by a closure: a captured number lives boxed in a context, and
  // every update would allocate one.
  let threshold = pruning.threshold[0] as number;
  let essentialFrom = firstEssential(prefix, 0, n, pruning.maxBoostUnnamed, threshold);
  // Each cursor's document, as the loop last moved it, and the essential cursors in a heap by
  // it: a long text keeps a hundred terms essential, a document holds two or three of them.
  const docs = Float64Array.from(sorted, (c) => c.doc);
  const heap = new Int32Array(n);
  let size = buildDocHeap(heap, docs, essentialFrom, NO_DOC);
  let skipped = false;
  for (;;) {
    if (essentialFrom > 0) skipped = true;
    let doc = nextNamed < named.length ? (named[nextNamed] as number) : NO_DOC;
    if (size > 0 && (docs[heap[0] as number] as number) < doc) doc = docs[heap[0] as number] as number;
    if (doc === NO_DOC) return skipped;
    let m = 0;
    while (size > 0 && (docs[heap[0] as number] as number) === doc) {
      atDoc[m++] = heap[0] as number;
      size = popDoc(heap, size, docs);
    }
    // Taken from the largest bound down, as the slots are ordered.
    sortSmall(atDoc, m);
    let boost = pruning.maxBoostUnnamed;
    if (named[nextNamed] === doc) {
      boost = pruning.maxBoost;
      nextNamed++;
    }
    if (deleted[doc]) {
      for (let j = 0; j < m; j++) {
        const k = atDoc[j] as number;
        (sorted[k] as TermCursor).skip(doc);
        docs[k] = (sorted[k] as TermCursor).doc;
        if (docs[k] !== NO_DOC) size = pushDoc(heap, size, docs, k);
      }
      continue;
    }
    // The document's bound: its essential terms' and every cheap term's. Terms are taken from
    // the largest bound down, each trading its bound for what it adds.
    let possible = prefix[essentialFrom] as number;
    for (let j = 0; j < m; j++) possible += bounds[atDoc[j] as number] as number;
    let found = 0;
    let bits = 0;
    let isNamed = false;
    let hopeless = false;
    for (let j = m - 1; j >= 0; j--) {
      const k = atDoc[j] as number;
      const cursor = sorted[k] as TermCursor;
      if (possible * boost < threshold) {
        hopeless = true;
        for (let r = j; r >= 0; r--) (sorted[atDoc[r] as number] as TermCursor).skip(doc);
        break;
      }
      possible -= bounds[k] as number;
      const tf = cursor.take(doc, norms);
      if (cursor.named) isNamed = true;
      if (tf <= 0) continue;
      const v = saturated(cursor.term.factor, tf);
      possible += v;
      parts[queryIndex[k] as number] = v;
      present[found++] = queryIndex[k] as number;
      bits |= cursor.term.presence;
    }
    // The cheap terms, taken like the essential ones above. (Written out twice on purpose: a
    // shared closure over these locals slows the loop every candidate goes through.)
    for (let k = essentialFrom - 1; k >= 0 && !hopeless; k--) {
      if (possible * boost < threshold) {
        hopeless = true; // even every cheap term left at its bound would not lift it
        break;
      }
      possible -= bounds[k] as number;
      const cursor = sorted[k] as TermCursor;
      cursor.advanceTo(doc);
      if (cursor.doc !== doc) continue;
      const tf = cursor.take(doc, norms);
      if (cursor.named) isNamed = true;
      if (tf <= 0) continue;
      const v = saturated(cursor.term.factor, tf);
      possible += v;
      parts[queryIndex[k] as number] = v;
      present[found++] = queryIndex[k] as number;
      bits |= cursor.term.presence;
    }
    for (let j = 0; j < m; j++) {
      const k = atDoc[j] as number;
      docs[k] = (sorted[k] as TermCursor).doc;
      if (docs[k] !== NO_DOC) size = pushDoc(heap, size, docs, k);
    }
    if (hopeless || found === 0) continue;
    // In query order, as scoreSegment adds them (floating-point sums depend on the order).
    sortSmall(present, found);
    let score = 0;
    for (let r = 0; r < found; r++) score += parts[present[r] as number] as number;
    if (score <= 0) continue;
    cell[0] = score;
    visit(s, doc, bits, isNamed, cell);
    threshold = pruning.threshold[0] as number;
    const essential = firstEssential(prefix, essentialFrom, n, pruning.maxBoostUnnamed, threshold);
    if (essential !== essentialFrom) size = buildDocHeap(heap, docs, (essentialFrom = essential), NO_DOC);
  }
}

/**
 * The first essential term from `from` on: the cheapest terms whose bounds sum (times the
 * unnamed boost) below the threshold cannot lift a document on their own.
 */
function firstEssential(prefix: Float64Array, from: number, n: number, maxBoostUnnamed: number, threshold: number): number {
  let e = from;
  while (e < n && (prefix[e + 1] as number) * maxBoostUnnamed < threshold) e++;
  return e;
}

/** Sorts `a[0..n)` ascending: insertion sort, for the handful of terms one document has. */
function sortSmall(a: Int32Array, n: number): void {
  for (let i = 1; i < n; i++) {
    const x = a[i] as number;
    let j = i - 1;
    while (j >= 0 && (a[j] as number) > x) {
      a[j + 1] = a[j] as number;
      j--;
    }
    a[j + 1] = x;
  }
}

/**
 * The documents (ascending, unique) some cursor's whole query word may name: the word is in
 * the symbol field, which is no longer than a symbol of that one word can make it. The only
 * ones `take` can mark as named by the query.
 */
function namedDocuments(cursors: readonly TermCursor[]): Uint32Array {
  let named: Uint32Array = EMPTY_DOCS;
  for (const c of cursors) {
    if (c.term.nameField < 0) continue;
    const mine = docsNamedBy(c);
    named = named.length === 0 ? mine : unionDocs(named, mine);
  }
  return named;
}

/**
 * The documents of a cursor's postings its term may name. A common word (`sk`, `type`) is a
 * part of tens of thousands of symbols; the length bound leaves the few chunks named by the
 * word alone.
 */
function docsNamedBy(cursor: TermCursor): Uint32Array {
  return docsWithShortField(cursor.seg, cursor.postings, cursor.term.nameField, cursor.term.nameMaxLength);
}

/**
 * Live document frequencies by postings list, for one set of tombstones (a segment's postings
 * and its tombstones are each one object for as long as they are unchanged). The term's path
 * files are part of its postings' segment and term, so one count each, with and without them.
 */
const liveCounts = new WeakMap<Postings, { deleted: Uint8Array; withPath: number; withoutPath: number }>();

/**
 * One term per identifier part: a long text's names share parts (`test`, `impl`, `query`), and
 * each repeat would walk the same postings again. A term's score is linear in its weight, so the
 * merged term scores what its repeats summed; it keeps the first one's place in the query.
 */
function mergedParts(terms: ScoredTerm[]): ScoredTerm[] {
  const first = new Map<string, ScoredTerm>();
  const out: ScoredTerm[] = [];
  for (const t of terms) {
    if (t.presenceBit >= 0 || t.whole) {
      out.push(t);
      continue;
    }
    const key = `${t.fieldMask} ${t.token} ${t.label}`;
    const seen = first.get(key);
    if (seen) seen.weight += t.weight;
    else {
      const own = { ...t };
      first.set(key, own);
      out.push(own);
    }
  }
  return out;
}

/** The most one term can add to a document's base score. */
function bound(cursor: TermCursor): number {
  return cursor.term.factor * (K1 + 1);
}
