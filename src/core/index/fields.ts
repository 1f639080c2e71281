// The searchable fields of a chunk and how a chunk is turned into per-field term frequencies.
import { bucketOf, type Bucket } from '../languages';
import type { Chunk, ChunkKind, FileAnalysis } from '../types';

export type { FileAnalysis };
import { grown } from './listPool';
import { WORD_TABLE_LIMITS, WordTable, type WordTableLimits } from './tokenizer';

/**
 * Bump when tokenising, field analysis or what chunks hold changes: stores built by another
 * version re-chunk every file. (4: code sharing a line with definitions has chunks of its own,
 * and chunks on shared lines record their byte ranges.)
 */
export const ANALYZER_VERSION = 4;

/** Field order is part of the on-disk format (field masks and length columns use it). */
export const FIELDS = ['symbol', 'context', 'path', 'signature', 'body', 'prose'] as const;
export type FieldName = (typeof FIELDS)[number];
export const FIELD_COUNT = FIELDS.length;
export const FIELD_INDEX: Readonly<Record<FieldName, number>> = Object.fromEntries(FIELDS.map((f, i) => [f, i])) as Record<FieldName, number>;
/** Fields analysed with the prose pipeline (stop words, stemming). All others keep identifiers intact. */
export const PROSE_FIELDS: ReadonlySet<FieldName> = new Set(['prose']);

export interface FieldParams {
  /** BM25F field weight. */
  weight: number;
  /** BM25F length normalisation for the field (0 = none, 1 = full). */
  b: number;
}

/**
 * Field weights: a chunk *named* after the query beats one that merely mentions it;
 * the breadcrumb and path locate; signatures and docstrings describe; bodies mention.
 * Tuned with `cairn eval` (docs/retrieval-quality.md).
 */
export const DEFAULT_FIELD_PARAMS: Readonly<Record<FieldName, FieldParams>> = {
  symbol: { weight: 5, b: 0.3 },
  context: { weight: 2.5, b: 0.5 },
  path: { weight: 2, b: 0.5 },
  signature: { weight: 2, b: 0.6 },
  body: { weight: 1, b: 0.75 },
  prose: { weight: 1, b: 0.75 },
};

/** The chunk kinds, in on-disk order (a kind is stored as its index). Append only. */
export const KINDS: readonly ChunkKind[] = [
  'function', 'method', 'constructor', 'class', 'interface', 'type', 'enum', 'struct', 'union', 'trait',
  'impl', 'module', 'namespace', 'constant', 'variable', 'property', 'macro', 'rule', 'element', 'key',
  'section', 'code', 'text',
];
export const KIND_INDEX: ReadonlyMap<string, number> = new Map(KINDS.map((k, i) => [k, i]));

/** Kinds that define something a user can go to by name. */
export const DEFINITION_KINDS: ReadonlySet<ChunkKind> = new Set<ChunkKind>([
  'function', 'method', 'constructor', 'class', 'interface', 'type', 'enum', 'struct', 'union', 'trait',
  'impl', 'module', 'namespace', 'constant', 'variable', 'property', 'macro',
]);

// Per-document flags (one byte).
export const FLAG_BUCKET_MASK = 0b11; // 0 code, 1 prose, 2 config
export const FLAG_TEST = 1 << 2;
export const FLAG_VENDORED = 1 << 3; // vendored, generated or minified
/** A later part of a definition split for size: found by search, never a symbol result. */
export const FLAG_CONTINUED = 1 << 4;
/** The document's record lists nested definitions (the symbol table reads only these records). */
export const FLAG_NESTED = 1 << 5;
const BUCKET_CODES: Record<Bucket, number> = { code: 0, prose: 1, config: 2 };
const BUCKETS: Bucket[] = ['code', 'prose', 'config'];

export function bucketOfFlags(flags: number): Bucket {
  return BUCKETS[flags & FLAG_BUCKET_MASK] ?? 'code';
}

const TEST_PATH = /(^|\/)(tests?|__tests__|spec|specs|testing|e2e|fixtures?)\/|(^|\/)test_[^/]*$|[._-](test|spec)s?\.[a-z0-9]+$|_test\.go$|Tests?\.(java|cs|kt|swift)$/i;
const VENDORED_PATH = /(^|\/)(vendor|vendored|third[_-]?party|external|deps|generated|gen)\/|\.min\.(js|css)$|\.pb\.go$|_pb2(_grpc)?\.py$|\.generated\.[a-z]+$|\.g\.dart$|(^|\/)package-lock\.json$|(^|\/)yarn\.lock$|\.lock$/i;

export function isTestPath(path: string): boolean {
  return TEST_PATH.test(path);
}

export function isVendoredPath(path: string): boolean {
  return VENDORED_PATH.test(path);
}

/** Flags of a file's documents, derived from its path and language. */
export function docFlags(path: string, language: string): number {
  let flags = BUCKET_CODES[bucketOf(language)];
  if (isTestPath(path)) flags |= FLAG_TEST;
  if (isVendoredPath(path)) flags |= FLAG_VENDORED;
  return flags;
}

/** Flags of one chunk, beside its file's (docFlags). */
export function chunkFlags(chunk: { continued?: boolean; nested?: readonly unknown[] }): number {
  return (chunk.continued ? FLAG_CONTINUED : 0) | (chunk.nested?.length ? FLAG_NESTED : 0);
}

const MAX_U16 = 0xffff;

/**
 * A file's chunks analysed for the index, with one term dictionary for the whole file, so the
 * segment builder looks each distinct term up once per file instead of once per chunk. Built
 * on the chunk worker threads; typed arrays travel back without copying.
 */
/**
 * Analyses files for the index with a word table kept across files (emptied between files once
 * it holds more than `limits`). Each chunk worker owns one, as does a segment builder for files
 * analysed on its own thread. An analysis depends on the chunks alone, never on what the table
 * has seen.
 */
export class FileAnalyzer {
  private readonly words = new WordTable();
  /**
   * File-local term of each token id of the word table, -1 when the token is not (yet) a term
   * of the file being analysed: numbering terms needs no map. Kept from file to file, as the
   * word table's ids are; each analysis puts back the -1s it wrote.
   */
  private termOfToken = new Int32Array(1024).fill(-1);
  /**
   * A file's working arrays, kept from file to file (each analysis hands them back cleared):
   * allocated per file, they were a fifth of the analysis' time.
   */
  private scratch: Scratch = newScratch();

  constructor(private readonly limits: WordTableLimits = WORD_TABLE_LIMITS) {}

  analyze(chunks: readonly Chunk[], language: string): FileAnalysis {
    const words = this.words;
    words.clearWhenFull(this.limits);
    const prose = bucketOf(language) === 'prose';
    const file = new FileTerms(chunks.length, words, this.termOfToken, this.scratch);
    try {
      for (let doc = 0; doc < chunks.length; doc++) {
        const chunk = chunks[doc] as Chunk;
        file.startChunk(doc);
        if (chunk.symbol) file.count(SYMBOL, words.scan(chunk.symbol, false));
        if (chunk.context) file.count(CONTEXT, words.scan(chunk.context, false));
        // The path is indexed once per file (segment.ts), not per chunk.
        // Signature, docstring and decorators make one field; scanned one by one, as no word spans two.
        if (chunk.signature) file.count(SIGNATURE, words.scan(chunk.signature, false));
        if (chunk.docstring) file.count(SIGNATURE, words.scan(chunk.docstring, false));
        for (const decorator of chunk.decorators ?? []) file.count(SIGNATURE, words.scan(decorator, false));
        if (prose) file.count(PROSE, words.scan(chunk.text, true));
        else file.count(BODY, words.scan(chunk.text, false));
      }
      return file.analysis();
    } finally {
      this.termOfToken = file.release();
      this.scratch = file.releaseScratch();
    }
  }
}

const SYMBOL = FIELD_INDEX.symbol;
const CONTEXT = FIELD_INDEX.context;
const SIGNATURE = FIELD_INDEX.signature;
const BODY = FIELD_INDEX.body;
const PROSE = FIELD_INDEX.prose;
/** FIELD_COUNT as a plain module constant (an exported one compiles to a property load). */
const STRIDE = FIELDS.length;

/** A file's working arrays: entries' terms and frequencies (zero), and per term the chunk that last saw it (-1). */
interface Scratch {
  refs: Uint32Array<ArrayBuffer>;
  tfs: Uint16Array<ArrayBuffer>;
  seenIn: Int32Array<ArrayBuffer>;
  entryOf: Uint32Array<ArrayBuffer>;
}

function newScratch(): Scratch {
  return { refs: new Uint32Array(1024), tfs: new Uint16Array(1024 * STRIDE), seenIn: new Int32Array(256).fill(-1), entryOf: new Uint32Array(256) };
}

/** A file's term dictionary and per-chunk term frequencies, built from token ids. */
class FileTerms {
  /** Distinct terms in first-occurrence order, and the token id of each. */
  private readonly terms: string[] = [];
  private readonly termTokens: number[] = [];
  private readonly docStarts: Uint32Array;
  private readonly fieldLengths: Uint16Array;
  private refs: Uint32Array<ArrayBuffer>;
  private tfs: Uint16Array<ArrayBuffer>;
  private entries = 0;
  // Per term: the chunk that last saw it and its entry there. No per-chunk maps.
  private seenIn: Int32Array<ArrayBuffer>;
  private entryOf: Uint32Array<ArrayBuffer>;
  private doc = 0;

  /**
   * @param termOfToken the analyzer's file-local term of each token id, all -1 (see
   * FileAnalyzer); `release` hands it back, grown if need be, with its -1s put back.
   * @param scratch the analyzer's working arrays, cleared (see newScratch); `releaseScratch`
   * hands them back, grown if need be, cleared again.
   */
  constructor(
    private readonly chunkCount: number,
    private readonly words: WordTable,
    private termOfToken: Int32Array<ArrayBuffer>,
    scratch: Scratch,
  ) {
    this.docStarts = new Uint32Array(chunkCount + 1);
    this.fieldLengths = new Uint16Array(chunkCount * STRIDE);
    ({ refs: this.refs, tfs: this.tfs, seenIn: this.seenIn, entryOf: this.entryOf } = scratch);
  }

  startChunk(doc: number): void {
    this.doc = doc;
    this.docStarts[doc] = this.entries;
  }

  /** Counts, in `field` of the current chunk, the first `n` tokens of the word table's last scan. */
  count(field: number, n: number): void {
    const ids = this.words.ids;
    // Grown with -1s: still no term of the file being analysed beyond the old length.
    if (this.termOfToken.length < this.words.tokenCount) this.termOfToken = grown(this.termOfToken, Math.max(this.words.tokenCount, 2 * this.termOfToken.length), -1);
    const termOfToken = this.termOfToken;
    const doc = this.doc;
    for (let k = 0; k < n; k++) {
      const token = ids[k] as number;
      let t = termOfToken[token] as number;
      if (t < 0) t = this.addTerm(token);
      const e = this.seenIn[t] === doc ? (this.entryOf[t] as number) : this.addEntry(t);
      const slot = e * STRIDE + field;
      const tf = this.tfs[slot] as number;
      if (tf < MAX_U16) this.tfs[slot] = tf + 1;
    }
    // Saturating, like one increment per token.
    const len = doc * STRIDE + field;
    this.fieldLengths[len] = Math.min(MAX_U16, (this.fieldLengths[len] as number) + n);
  }

  analysis(): FileAnalysis {
    this.docStarts[this.chunkCount] = this.entries;
    const { terms, docStarts, fieldLengths, entries } = this;
    return { terms, docStarts, termRefs: this.refs.slice(0, entries), tfs: this.tfs.slice(0, entries * STRIDE), fieldLengths };
  }

  /** Forgets this file's terms in termOfToken, for the next file, and hands it back. */
  release(): Int32Array<ArrayBuffer> {
    for (const token of this.termTokens) this.termOfToken[token] = -1;
    return this.termOfToken;
  }

  /** Clears what this file wrote in the working arrays (frequencies, terms seen) and hands them back. */
  releaseScratch(): Scratch {
    this.tfs.fill(0, 0, this.entries * STRIDE);
    this.seenIn.fill(-1, 0, this.terms.length);
    return { refs: this.refs, tfs: this.tfs, seenIn: this.seenIn, entryOf: this.entryOf };
  }

  private addTerm(token: number): number {
    const t = this.terms.length;
    this.terms.push(this.words.token(token));
    this.termTokens.push(token);
    this.termOfToken[token] = t;
    if (t >= this.seenIn.length) {
      this.seenIn = grown(this.seenIn, this.seenIn.length * 2, -1);
      this.entryOf = grown(this.entryOf, this.entryOf.length * 2);
    }
    return t;
  }

  /** A new (chunk, term) entry for term `t` in the current chunk. */
  private addEntry(t: number): number {
    const e = this.entries++;
    if (e >= this.refs.length) {
      this.refs = grown(this.refs, this.refs.length * 2);
      this.tfs = grown(this.tfs, this.tfs.length * 2);
    }
    this.refs[e] = t;
    this.seenIn[t] = this.doc;
    this.entryOf[t] = e;
    return e;
  }
}

/** The buffers of an analysis, for a zero-copy transfer between threads. */
export function analysisBuffers(a: FileAnalysis): ArrayBuffer[] {
  return [a.docStarts.buffer as ArrayBuffer, a.termRefs.buffer as ArrayBuffer, a.tfs.buffer as ArrayBuffer, a.fieldLengths.buffer as ArrayBuffer];
}
