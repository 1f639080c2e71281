// The searchable fields of a chunk and how a chunk is turned into per-field term frequencies.
import { bucketOf, type Bucket } from '../languages';
import type { Chunk, ChunkKind } from '../types';
import { forEachProseToken, forEachToken } from './tokenizer';

/** Bump when tokenising or field analysis changes: stores built by another version re-chunk every file. */
export const ANALYZER_VERSION = 3;

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

const MAX_U16 = 0xffff;

/**
 * A file's chunks analysed for the index, with one term dictionary for the whole file, so the
 * segment builder looks each distinct term up once per file instead of once per chunk. Built
 * on the chunk worker threads; typed arrays travel back without copying.
 */
export interface FileAnalysis {
  /** Distinct terms of the file. */
  terms: string[];
  /** Chunk `d` owns entries `docStarts[d] .. docStarts[d+1]-1` of termRefs. */
  docStarts: Uint32Array;
  /** Index into `terms` of each (chunk, term) entry. */
  termRefs: Uint32Array;
  /** FIELD_COUNT field frequencies per (chunk, term) entry. */
  tfs: Uint16Array;
  /** FIELD_COUNT token counts per chunk. */
  fieldLengths: Uint16Array;
}

export function analyzeFile(chunks: readonly Chunk[], language: string): FileAnalysis {
  const bucket = bucketOf(language);
  const termIndex = new Map<string, number>();
  const terms: string[] = [];
  const docStarts = new Uint32Array(chunks.length + 1);
  const fieldLengths = new Uint16Array(chunks.length * FIELD_COUNT);
  let refs = new Uint32Array(1024);
  let tfs = new Uint16Array(1024 * FIELD_COUNT);
  let entries = 0;
  // Per term: the chunk that last saw it and its entry there. One map lookup per token, no per-chunk maps.
  let seenIn = new Int32Array(256).fill(-1);
  let entryOf = new Uint32Array(256);
  let doc = 0;
  const emitters = FIELDS.map((_, field) => (token: string) => {
    let t = termIndex.get(token);
    if (t === undefined) {
      t = terms.length;
      termIndex.set(token, t);
      terms.push(token);
      if (t >= seenIn.length) {
        const grownSeen = new Int32Array(seenIn.length * 2).fill(-1);
        grownSeen.set(seenIn);
        seenIn = grownSeen;
        const grownEntry = new Uint32Array(entryOf.length * 2);
        grownEntry.set(entryOf);
        entryOf = grownEntry;
      }
    }
    let e: number;
    if (seenIn[t] === doc) e = entryOf[t] as number;
    else {
      e = entries++;
      if (e >= refs.length) {
        const grownRefs = new Uint32Array(refs.length * 2);
        grownRefs.set(refs);
        refs = grownRefs;
        const grownTfs = new Uint16Array(tfs.length * 2);
        grownTfs.set(tfs);
        tfs = grownTfs;
      }
      refs[e] = t;
      seenIn[t] = doc;
      entryOf[t] = e;
    }
    const slot = e * FIELD_COUNT + field;
    if ((tfs[slot] as number) < MAX_U16) tfs[slot] = (tfs[slot] as number) + 1;
    const len = doc * FIELD_COUNT + field;
    if ((fieldLengths[len] as number) < MAX_U16) fieldLengths[len] = (fieldLengths[len] as number) + 1;
  });
  const [symbolF, contextF, , signatureF, bodyF, proseF] = emitters as [typeof emitters[0], typeof emitters[0], typeof emitters[0], typeof emitters[0], typeof emitters[0], typeof emitters[0]];
  for (; doc < chunks.length; doc++) {
    const chunk = chunks[doc] as Chunk;
    docStarts[doc] = entries;
    if (chunk.symbol) forEachToken(chunk.symbol, symbolF);
    if (chunk.context) forEachToken(chunk.context, contextF);
    // The path is indexed once per file (segment.ts), not per chunk.
    const described = [chunk.signature, chunk.docstring, chunk.decorators?.join(' ')].filter(Boolean).join('\n');
    if (described) forEachToken(described, signatureF);
    if (bucket === 'prose') forEachProseToken(chunk.text, proseF);
    else forEachToken(chunk.text, bodyF);
  }
  docStarts[chunks.length] = entries;
  return { terms, docStarts, termRefs: refs.slice(0, entries), tfs: tfs.slice(0, entries * FIELD_COUNT), fieldLengths };
}

/** The buffers of an analysis, for a zero-copy transfer between threads. */
export function analysisBuffers(a: FileAnalysis): ArrayBuffer[] {
  return [a.docStarts.buffer as ArrayBuffer, a.termRefs.buffer as ArrayBuffer, a.tfs.buffer as ArrayBuffer, a.fieldLengths.buffer as ArrayBuffer];
}
