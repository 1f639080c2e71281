// BM25F over the segments of one snapshot, term-at-a-time into dense per-segment accumulators.
// Dense accumulators are simple and fast at workspace scale (50k documents = 400 KB per query),
// and keep every score explainable: the breakdown of a hit is recomputed from the same
// postings, so its parts add up to the score exactly.
import { DEFAULT_FIELD_PARAMS, FIELD_COUNT, FIELDS, PROSE_FIELDS, type FieldName, type FieldParams } from '../index/fields';
import { proseForm } from '../index/tokenizer';
import type { Postings, Segment, SegmentFile } from '../index/segment';
import type { Snapshot } from '../store/store';
import { boundedLevenshtein, wildcardMatcher, type ParsedQuery } from './query';
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

interface PreparedTerm extends ScoredTerm {
  idf: number;
  /** Per segment: decoded postings, or undefined when the segment lacks the term. */
  postings: Array<Postings | undefined>;
  /** Per segment: the files whose path has the term (path postings are per file), or undefined. */
  pathPostings: Array<FilePostings | undefined>;
}

/** Postings longer than this read the whole field-length column instead of each document's lengths. */
const PER_DOC_LENGTH_READS = 256;

/** Scoring is synchronous, so one set of accumulators per immutable segment is enough. */
const scratchBySegment = new WeakMap<Segment, Scratch>();

interface Scratch {
  scores: Float64Array;
  bits: Uint32Array;
  /** A whole query word is in the document's symbol field. */
  named: Uint8Array;
  /** BM25F pseudo frequency per document for the term being scored (zeroed as it settles). */
  acc: Float64Array;
  /** Documents already counted in a term's document frequency (zeroed after each term). */
  seen: Uint8Array;
  /** Documents some term of the query touched (listed once in `touched`, zeroed at the end). */
  listed: Uint8Array;
  touched: Uint32Array;
}

interface FilePostings {
  files: Uint32Array;
  tfs: Uint16Array;
}

export interface ScoringResult {
  candidates: Candidate[];
  terms: PreparedTerm[];
  /** Presence requirements: all bits in `required` must be set. */
  required: number;
  /** Each group: a document matching all of the group's bits is excluded. */
  prohibited: number[];
  warnings: string[];
}

const ALL_FIELDS_MASK = (1 << FIELD_COUNT) - 1;
const PROSE_MASK = FIELDS.reduce((m, f, i) => (PROSE_FIELDS.has(f) ? m | (1 << i) : m), 0);
const CODE_MASK = ALL_FIELDS_MASK & ~PROSE_MASK;
const PATH_FIELD = FIELDS.indexOf('path');
const PATH_BIT = 1 << PATH_FIELD;

function maskOf(fields: readonly FieldName[]): number {
  return fields.reduce((m, f) => m | (1 << FIELDS.indexOf(f)), 0);
}

export class SnapshotScorer {
  readonly totalDocs: number;
  readonly liveDocs: number;
  readonly avgFieldLength: Float64Array;
  private readonly params: FieldParams[];

  constructor(
    readonly snapshot: Snapshot,
    params: Readonly<Record<FieldName, FieldParams>> = DEFAULT_FIELD_PARAMS,
  ) {
    this.params = FIELDS.map((f) => params[f]);
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
      for (const file of seg.files) totals[PATH_FIELD] = (totals[PATH_FIELD] as number) + file.pathLength * file.docCount;
      const del = snapshot.deleted[i] as Uint8Array;
      for (let d = 0; d < del.length; d++) {
        if (!del[d]) continue;
        deleted++;
        seg.readFieldLengths(d, lens, 0);
        for (let f = 0; f < FIELD_COUNT; f++) totals[f] = (totals[f] as number) - (lens[f] as number);
        totals[PATH_FIELD] = (totals[PATH_FIELD] as number) - seg.fileOf(d).pathLength;
      }
    });
    this.totalDocs = docs;
    this.liveDocs = docs - deleted;
    this.avgFieldLength = totals.map((t) => (this.liveDocs > 0 ? Math.max(t / this.liveDocs, 1) : 1));
  }

  /** Expands clauses into dictionary terms with field masks, weights and presence bits. */
  private expand(query: ParsedQuery): { terms: ScoredTerm[]; required: number; prohibited: number[]; warnings: string[] } {
    const terms: ScoredTerm[] = [];
    const warnings: string[] = [];
    let required = 0;
    const prohibited: number[] = [];
    let nextBit = 0;
    const bit = () => (nextBit < 31 ? nextBit++ : -1);

    for (const clause of query.clauses) {
      const clauseMask = maskOf(clause.fields);
      const codeMask = clauseMask & CODE_MASK;
      const proseMask = clauseMask & PROSE_MASK;
      const w = clause.boost;
      const clauseBits: number[] = [];
      const push = (token: string, fieldMask: number, weight: number, presenceBit: number, label: string, whole = false) => {
        if (token && fieldMask) terms.push({ token, fieldMask, weight, presenceBit, label, whole });
      };

      if (clause.wildcard) {
        const b = bit();
        clauseBits.push(b);
        const expansions = this.expandWildcard(clause.wildcard);
        if (expansions.length === 0) warnings.push(`no indexed term matches ${clause.raw}`);
        for (const t of expansions) push(t, clauseMask, w, b, `${clause.raw}→${t}`);
      } else {
        for (const word of clause.words) {
          const b = bit();
          clauseBits.push(b);
          if (clause.editDistance > 0) {
            for (const [t, dist] of this.expandFuzzy(word.whole, clause.editDistance)) {
              push(t, clauseMask, w / (1 + dist), b, dist === 0 ? t : `${word.whole}~${t}`);
            }
            continue;
          }
          const prose = proseForm(word.whole);
          if (prose === word.whole) push(word.whole, codeMask | proseMask, w, b, word.whole, true);
          else {
            push(word.whole, codeMask, w, b, word.whole, true);
            push(prose, proseMask, w, b, prose);
          }
          if (clause.presence !== 'prohibited') {
            for (const part of word.parts) {
              const pp = proseForm(part);
              if (pp === part) push(part, codeMask | proseMask, w * PART_WEIGHT, -1, part);
              else {
                push(part, codeMask, w * PART_WEIGHT, -1, part);
                push(pp, proseMask, w * PART_WEIGHT, -1, pp);
              }
            }
          }
        }
      }
      const bits = clauseBits.filter((b) => b >= 0);
      if (clause.presence === 'required') for (const b of bits) required |= 1 << b;
      if (clause.presence === 'prohibited' && bits.length) prohibited.push(bits.reduce((m, b) => m | (1 << b), 0));
    }
    return { terms, required, prohibited, warnings };
  }

  private expandWildcard(pattern: string): string[] {
    const { prefix, test } = wildcardMatcher(pattern);
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
    for (const seg of this.snapshot.segments) {
      seg.terms().forEach((t, i) => {
        const d = boundedLevenshtein(term, t, maxDistance);
        if (d <= maxDistance) {
          found.set(t, (found.get(t) ?? 0) + seg.df(i) + seg.fileDf(i));
          dist.set(t, d);
        }
      });
    }
    return mostFrequent(found).map((t) => [t, dist.get(t) as number]);
  }

  /** Scores every matching live document; filters by presence. Boosts and filters come later. */
  score(query: ParsedQuery): ScoringResult {
    try {
      return this.scoreWithScratch(query);
    } catch (e) {
      // A read that failed half-way (a damaged segment) may leave accumulators dirty: drop them.
      for (const seg of this.snapshot.segments) scratchBySegment.delete(seg);
      throw e;
    }
  }

  private scoreWithScratch(query: ParsedQuery): ScoringResult {
    const { terms, required, prohibited, warnings } = this.expand(query);
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

    const candidates: Candidate[] = [];
    const positive = prepared.some((t) => t.presenceBit < 0 || !prohibited.some((g) => g & (1 << t.presenceBit)));
    if (!positive) return { candidates, terms: prepared, required, prohibited, warnings };

    const symbolField = FIELDS.indexOf('symbol');
    segs.forEach((seg, s) => {
      const { scores, bits, named, acc, listed, touched } = this.scratchFor(s, seg.docCount);
      let touchedCount = 0;
      for (const t of prepared) {
        const p = t.postings[s];
        if (!p) continue;
        const fp = t.pathPostings[s];
        const isProhibitedOnly = t.presenceBit >= 0 && prohibited.some((g) => g & (1 << t.presenceBit));
        const marksName = t.whole === true && !isProhibitedOnly && (t.fieldMask & (1 << symbolField)) !== 0;
        // A rare term reads its documents' lengths one by one; a common one reads the column.
        const wide = p.docs.length > PER_DOC_LENGTH_READS || seg.fieldLengthsLoaded;
        const lens = wide ? seg.allFieldLengths() : new Uint16Array(p.docs.length * FIELD_COUNT);
        if (!wide) for (let i = 0; i < p.docs.length; i++) seg.readFieldLengths(p.docs[i] as number, lens, i * FIELD_COUNT);
        for (let i = 0; i < p.docs.length; i++) {
          const doc = p.docs[i] as number;
          if (!listed[doc]) {
            listed[doc] = 1;
            touched[touchedCount++] = doc;
          }
          acc[doc] = (acc[doc] as number) + this.termFrequency(lens, wide ? doc * FIELD_COUNT : i * FIELD_COUNT, p.tfs, i * FIELD_COUNT, t.fieldMask);
          // A whole query word in the symbol field: the chunk may be named by it (search.ts confirms).
          if (marksName && (p.tfs[i * FIELD_COUNT + symbolField] as number) > 0) named[doc] = 1;
        }
        if (fp) {
          for (let i = 0; i < fp.files.length; i++) {
            const file = seg.files[fp.files[i] as number] as SegmentFile;
            const v = this.pathFrequency(fp.tfs[i] as number, file.pathLength);
            for (let doc = file.firstDoc; doc < file.firstDoc + file.docCount; doc++) {
              if (!listed[doc]) {
                listed[doc] = 1;
                touched[touchedCount++] = doc;
              }
              acc[doc] = (acc[doc] as number) + v;
            }
          }
        }
        const settle = (doc: number) => {
          const tf = acc[doc] as number;
          if (tf <= 0) return;
          acc[doc] = 0;
          if (t.presenceBit >= 0) bits[doc] = (bits[doc] as number) | (1 << t.presenceBit);
          if (!isProhibitedOnly) scores[doc] = (scores[doc] as number) + t.weight * t.idf * ((tf * (K1 + 1)) / (tf + K1));
        };
        for (let i = 0; i < p.docs.length; i++) settle(p.docs[i] as number);
        if (fp) {
          for (let i = 0; i < fp.files.length; i++) {
            const file = seg.files[fp.files[i] as number] as SegmentFile;
            for (let doc = file.firstDoc; doc < file.firstDoc + file.docCount; doc++) settle(doc);
          }
        }
      }
      const deleted = this.snapshot.deleted[s] as Uint8Array;
      // Visit the documents some term touched, in document order: sorting a short list beats
      // scanning every document; past an eighth of them the scan is cheaper.
      const sparse = touchedCount < seg.docCount / 8;
      const order = sparse ? touched.subarray(0, touchedCount).sort() : undefined;
      if (!sparse) listed.fill(0);
      const visits = order ? order.length : seg.docCount;
      for (let k = 0; k < visits; k++) {
        const doc = order ? (order[k] as number) : k;
        listed[doc] = 0;
        const sc = scores[doc] as number;
        const b = bits[doc] as number;
        const isNamed = named[doc] === 1;
        if (sc === 0 && b === 0 && !isNamed) continue;
        scores[doc] = 0; // the scratch arrays are reused by the next query
        bits[doc] = 0;
        named[doc] = 0;
        if (sc <= 0 || deleted[doc]) continue;
        if ((b & required) !== required) continue;
        if (prohibited.some((g) => (b & g) === g)) continue;
        candidates.push({ seg: s, doc, base: sc, bits: b, namedByQuery: isNamed });
      }
    });
    return { candidates, terms: prepared, required, prohibited, warnings };
  }

  /**
   * Per-segment accumulators, allocated once per segment (shared by the snapshots that hold it)
   * and left zeroed after each query: allocating them per query was a tenth of query time, and
   * per snapshot a third of the first query after each commit.
   */
  private scratchFor(s: number, docCount: number): Scratch {
    const seg = this.snapshot.segments[s] as Segment;
    let sc = scratchBySegment.get(seg);
    if (!sc) {
      sc = {
        scores: new Float64Array(docCount),
        bits: new Uint32Array(docCount),
        named: new Uint8Array(docCount),
        acc: new Float64Array(docCount),
        seen: new Uint8Array(docCount),
        listed: new Uint8Array(docCount),
        touched: new Uint32Array(docCount),
      };
      scratchBySegment.set(seg, sc);
    }
    return sc;
  }

  /** Live documents with the term in some field, counting every chunk of a file whose path has it. */
  private liveDocFrequency(s: number, p: Postings, fp: FilePostings | undefined): number {
    const deleted = this.snapshot.deleted[s] as Uint8Array;
    let df = 0;
    if (!fp) {
      for (let k = 0; k < p.docs.length; k++) if (!deleted[p.docs[k] as number]) df++;
      return df;
    }
    // Count the union of the term's documents and its path files' documents, marking each once.
    const seg = this.snapshot.segments[s] as Segment;
    const { seen } = this.scratchFor(s, seg.docCount);
    const mark = (d: number) => {
      if (seen[d]) return;
      seen[d] = 1;
      if (!deleted[d]) df++;
    };
    for (let k = 0; k < p.docs.length; k++) mark(p.docs[k] as number);
    for (let k = 0; k < fp.files.length; k++) {
      const file = seg.files[fp.files[k] as number] as SegmentFile;
      for (let d = file.firstDoc; d < file.firstDoc + file.docCount; d++) mark(d);
    }
    // Left zeroed for the next term.
    for (let k = 0; k < p.docs.length; k++) seen[p.docs[k] as number] = 0;
    for (let k = 0; k < fp.files.length; k++) {
      const file = seg.files[fp.files[k] as number] as SegmentFile;
      seen.fill(0, file.firstDoc, file.firstDoc + file.docCount);
    }
    return df;
  }

  /** The path field's share of a BM25F pseudo frequency (every chunk of the file shares it). */
  private pathFrequency(tf: number, pathLength: number): number {
    const p = this.params[PATH_FIELD] as FieldParams;
    return (p.weight * tf) / (1 - p.b + (p.b * pathLength) / (this.avgFieldLength[PATH_FIELD] as number));
  }

  /** BM25F pseudo term frequency: weighted, length-normalised sum over the allowed fields. */
  /** BM25F pseudo-frequency of a term in one document: `lens[lenBase + f]` are its field lengths. */
  private termFrequency(lens: Uint16Array, lenBase: number, tfs: Uint16Array, base: number, fieldMask: number): number {
    let sum = 0;
    for (let f = 0; f < FIELD_COUNT; f++) {
      const tf = tfs[base + f] as number;
      if (tf === 0 || !(fieldMask & (1 << f))) continue;
      const p = this.params[f] as FieldParams;
      const norm = 1 - p.b + (p.b * (lens[lenBase + f] as number)) / (this.avgFieldLength[f] as number);
      sum += (p.weight * tf) / norm;
    }
    return sum;
  }

  /** Per field and term contributions of one document; their values add up to its base score. */
  breakdown(result: ScoringResult, seg: number, doc: number): ScoreComponent[] {
    const out: ScoreComponent[] = [];
    const segment = this.snapshot.segments[seg] as Segment;
    const lens = new Uint16Array(FIELD_COUNT);
    segment.readFieldLengths(doc, lens, 0);
    const fileIndex = segment.docFile[doc] as number;
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
        const prm = this.params[f] as FieldParams;
        const norm = 1 - prm.b + (prm.b * (lens[f] as number)) / (this.avgFieldLength[f] as number);
        const v = (prm.weight * tf) / norm;
        parts.push([f, v]);
        total += v;
      }
      const fp = t.pathPostings[seg];
      const k = fp ? binarySearch(fp.files, fileIndex) : -1;
      if (fp && k >= 0) {
        const v = this.pathFrequency(fp.tfs[k] as number, (segment.files[fileIndex] as SegmentFile).pathLength);
        parts.push([PATH_FIELD, v]);
        total += v;
      }
      if (total <= 0) continue;
      const termScore = t.weight * t.idf * ((total * (K1 + 1)) / (total + K1));
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
