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

/**
 * A chunk analysed for the index: its distinct terms with per-field term frequencies
 * (`tfs[i * FIELD_COUNT + f]`), and the token count of each field.
 */
export interface AnalyzedDoc {
  terms: string[];
  tfs: Uint16Array;
  fieldLengths: Uint16Array;
}

const MAX_U16 = 0xffff;

/** Splits a chunk into its fields and counts terms. Identifiers are never stemmed; prose is. */
export function analyzeChunk(chunk: Chunk, bucket: Bucket = bucketOf(chunk.language)): AnalyzedDoc {
  const termIndex = new Map<string, number>();
  const terms: string[] = [];
  let counts: number[] = [];
  const fieldLengths = new Uint16Array(FIELD_COUNT);

  const add = (field: number) => (token: string) => {
    let i = termIndex.get(token);
    if (i === undefined) {
      i = terms.length;
      termIndex.set(token, i);
      terms.push(token);
      for (let f = 0; f < FIELD_COUNT; f++) counts.push(0);
    }
    const slot = i * FIELD_COUNT + field;
    counts[slot] = (counts[slot] as number) + 1;
    if ((fieldLengths[field] as number) < MAX_U16) fieldLengths[field] = (fieldLengths[field] as number) + 1;
  };

  if (chunk.symbol) forEachToken(chunk.symbol, add(FIELD_INDEX.symbol));
  if (chunk.context) forEachToken(chunk.context, add(FIELD_INDEX.context));
  forEachToken(chunk.path, add(FIELD_INDEX.path));
  const described = [chunk.signature, chunk.docstring, chunk.decorators?.join(' ')].filter(Boolean).join('\n');
  if (described) forEachToken(described, add(FIELD_INDEX.signature));
  if (bucket === 'prose') forEachProseToken(chunk.text, add(FIELD_INDEX.prose));
  else forEachToken(chunk.text, add(FIELD_INDEX.body));

  const tfs = new Uint16Array(counts.length);
  for (let i = 0; i < counts.length; i++) tfs[i] = Math.min(counts[i] as number, MAX_U16);
  counts = [];
  return { terms, tfs, fieldLengths };
}
