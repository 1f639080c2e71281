// Messages between ChunkPool and its worker threads. Plain data only: documents go in as
// text, chunks come back packed, a group of files per message; a shared progress cell says
// which file a worker was on, so a crash still costs exactly one file.
// A chunk whose text is a verbatim span of its document travels as offsets into that
// document instead of a copy: the pool already holds the text, and copying it back would
// double what crosses the thread boundary.
import type { Chunk, ChunkStrategy, FileChunks, SourceDocument } from '../types';
import type { ChunkingPolicy } from './policy';
import { makeDocid } from './ids';

/** `workerData` of a chunk worker. */
export interface WorkerInit {
  grammarsDir: string;
  policy: ChunkingPolicy;
  strategy: ChunkStrategy;
  /** Benchmark baseline: parse with tree-sitter and return no chunks (see `npm run bench`). */
  parseOnly?: boolean;
  /** Also analyse the chunks for the index (terms, frequencies), so the indexer's thread need not. */
  analyze?: boolean;
  /** Shared cells the worker keeps current: [PROGRESS_BATCH] and [PROGRESS_FILE] (see below). */
  progress: Int32Array;
  /** Where the worker adds its stage times (`cairn index --timings`); absent when off. */
  timings?: SharedArrayBuffer;
}

/**
 * Where a worker is: the batch it is on and the index of the file it is chunking, or IDLE
 * between files. The pool reads it after the worker died: the file it names is the culprit,
 * and the files before it that were chunked but not yet sent are simply chunked again.
 */
export const PROGRESS_BATCH = 0;
export const PROGRESS_FILE = 1;
export const PROGRESS_CELLS = 2;
export const IDLE = -1;

export interface BatchMessage {
  type: 'batch';
  batch: number;
  docs: SourceDocument[];
  /** The languages of the whole job this batch belongs to: their grammars load before any parse. */
  languages: readonly string[];
}

/**
 * A file's chunks in transit, packed: every number in one Int32Array (transferred, not
 * copied) and every string laid end to end in one string, with their lengths among the
 * numbers. The structured clone of one object per chunk cost the worker more than a tenth of
 * parsing (each object's keys and values are written one by one); two flat values cost a
 * copy. A chunk's text travels as offsets when it is a verbatim span of its document (the
 * pool already holds the text), and its path, language and docid not at all when they follow
 * from the document. A chunk whose keys are not in the canonical order travels as it is, so
 * every chunk comes back exactly as it left, its keys in the same order.
 */
export interface PackedChunks {
  count: number;
  ints: Int32Array;
  strings: string;
  /** Chunks that travel as plain objects, in order (flag AS_OBJECT). */
  objects: Chunk[];
}

export interface WireFileChunks extends Omit<FileChunks, 'chunks' | 'occurrences'> {
  /** Empty: it holds the key's place, so the unpacked result lists its keys in the same order. */
  chunks: [];
  packed: PackedChunks;
  /**
   * The file's occurrences (FileOccurrences) with their names newline-joined: one string
   * crosses the boundary rather than an array of thousands (no name holds a line break).
   */
  occurrences?: { names: string; entries: Int32Array };
}

export type FromWorker =
  /** Sent once after start-up; `astError` says why AST chunking is unavailable, if it is. */
  | { type: 'ready'; astError?: string }
  /**
   * Results for `docs[first]`, `docs[first + 1]`... of batch `batch`. Files of a batch are
   * answered in order; a batch's last group comes as soon as its last file is done.
   */
  | { type: 'files'; batch: number; first: number; results: WireFileChunks[] }
  /**
   * The worker has done `fraction` (0-1) of the work of file `index` of batch `batch`: sent
   * only for big files (PARTIAL_MIN_CHARS), each time the share grows by PARTIAL_STEP, so a
   * refresh's progress moves while one file keeps a worker busy and small files cost nothing.
   */
  | { type: 'working'; batch: number; index: number; fraction: number }
  /** The worker loaded what documents of `language` need, before the first of them in `batch`. */
  | { type: 'loaded'; batch: number; language: string };

/** Files at least this long report their progress while they are chunked. */
export const PARTIAL_MIN_CHARS = 64 * 1024;
/** The share of a big file's work between two progress reports. */
export const PARTIAL_STEP = 1 / 32;

/**
 * Test-only: when this environment variable is set, a worker asked to chunk a document whose
 * text contains its value exits on the spot, as a wasm abort would.
 */
export const CRASH_MARKER_ENV = 'CAIRN_TEST_CRASH_MARKER';

/** Test-only: when set, a worker fails during start-up, as it would with a broken install. */
export const FAIL_START_ENV = 'CAIRN_TEST_WORKER_FAIL_START';

/** Chunk keys in the order every chunker writes them; decoding restores this order. */
const CHUNK_KEYS = ['docid', 'id', 'path', 'startLine', 'endLine', 'text', 'language', 'kind', 'symbol', 'context', 'signature', 'docstring', 'parent', 'visibility', 'decorators', 'nameLine', 'nameColumn', 'definitionEndLine', 'continued', 'span', 'nested'] as const;
/** Fails to compile when Chunk gains a key the packing does not know. */
const EVERY_KEY_PACKED: Exclude<keyof Chunk, (typeof CHUNK_KEYS)[number]> extends never ? true : never = true;
void EVERY_KEY_PACKED;
const REQUIRED_KEYS = 10;

const SAME_PATH = 1;
const SAME_LANGUAGE = 2;
const SAME_DOCID = 4;
const TEXT_RANGE = 8;
const AS_OBJECT = 16;
/** The optional string keys, in order; bit OPTIONAL_SHIFT + k says key k is present. */
const OPTIONAL_STRINGS = ['signature', 'docstring', 'parent', 'visibility'] as const;
const OPTIONAL_SHIFT = 5;
const DECORATORS = 1 << (OPTIONAL_SHIFT + OPTIONAL_STRINGS.length);
/** nameLine and nameColumn, which come together. */
const NAME = DECORATORS << 1;
const DEFINITION_END = DECORATORS << 2;
const CONTINUED = DECORATORS << 3;
/** Nested definitions travel as one JSON string: few chunks have any. */
const NESTED = DECORATORS << 4;
/** The chunk's characters (`span`), two numbers. */
const SPAN = DECORATORS << 5;
type OptionalString = (typeof OPTIONAL_STRINGS)[number];

/** Numbers a packed chunk takes at most, besides one per decorator. */
const MAX_INTS_PER_CHUNK = 1 + 2 + 2 + 8 + 4 + 1 + 3 + 1 + 2;

/** True when a chunk's keys are the canonical ones in canonical order, with no key left undefined. */
function isCanonical(chunk: Chunk): boolean {
  let k = 0;
  // for-in rather than Object.keys: no array per chunk, in a check toWire makes for every
  // chunk. Chunks are plain objects, so it lists the same keys.
  for (const key in chunk) {
    while (k < CHUNK_KEYS.length && CHUNK_KEYS[k] !== key) {
      if (k < REQUIRED_KEYS) return false;
      k++;
    }
    if (k === CHUNK_KEYS.length || (chunk as unknown as Record<string, unknown>)[key] === undefined) return false;
    k++;
  }
  return k >= REQUIRED_KEYS;
}

/** Packs a file's chunks for the pool (see PackedChunks). */
export function toWire(doc: SourceDocument, result: FileChunks): WireFileChunks {
  const chunks = result.chunks;
  let capacity = chunks.length * MAX_INTS_PER_CHUNK;
  for (const c of chunks) capacity += c.decorators?.length ?? 0;
  // The most numbers the file can take, then the ones it took copied out: the message owns its array.
  const ints = new Int32Array(capacity);
  // Concatenated as it goes: V8 joins the pieces lazily, and copies them once when the message is written.
  let strings = '';
  const objects: Chunk[] = [];
  let n = 0;
  const put = (value: string): void => {
    ints[n++] = value.length;
    strings += value;
  };
  let starts: number[] | undefined;
  for (const chunk of chunks) {
    if (!isCanonical(chunk)) {
      ints[n++] = AS_OBJECT;
      objects.push(chunk);
      continue;
    }
    let flags = 0;
    if (chunk.path === doc.path) flags |= SAME_PATH;
    if (chunk.language === doc.language) flags |= SAME_LANGUAGE;
    if (chunk.docid === makeDocid(chunk.path, chunk.startLine, chunk.endLine)) flags |= SAME_DOCID;
    // A chunk's text is most often its span, else its lines.
    let start: number | undefined;
    let end: number;
    if (chunk.span) [start, end] = chunk.span;
    else {
      starts ??= lineStarts(doc.text);
      start = starts[chunk.startLine - 1];
      const next = starts[chunk.endLine];
      end = next === undefined ? doc.text.length : next - 1;
    }
    // A slice of the document shares its characters (no copy), and `===` compares them with
    // a block compare, where `startsWith` goes character by character.
    if (start !== undefined && chunk.endLine >= chunk.startLine && end - start === chunk.text.length && doc.text.slice(start, end) === chunk.text) flags |= TEXT_RANGE;
    for (let k = 0; k < OPTIONAL_STRINGS.length; k++) if (chunk[OPTIONAL_STRINGS[k] as OptionalString] !== undefined) flags |= 1 << (OPTIONAL_SHIFT + k);
    if (chunk.decorators !== undefined) flags |= DECORATORS;
    if (chunk.nameLine !== undefined) flags |= NAME;
    if (chunk.definitionEndLine !== undefined) flags |= DEFINITION_END;
    if (chunk.continued) flags |= CONTINUED;
    if (chunk.nested !== undefined) flags |= NESTED;
    if (chunk.span !== undefined) flags |= SPAN;
    ints[n++] = flags;
    ints[n++] = chunk.startLine;
    ints[n++] = chunk.endLine;
    if (flags & TEXT_RANGE) {
      ints[n++] = start as number;
      ints[n++] = end;
    } else put(chunk.text);
    if (!(flags & SAME_DOCID)) put(chunk.docid);
    put(chunk.id);
    if (!(flags & SAME_PATH)) put(chunk.path);
    if (!(flags & SAME_LANGUAGE)) put(chunk.language);
    put(chunk.kind);
    put(chunk.symbol);
    put(chunk.context);
    for (const key of OPTIONAL_STRINGS) {
      const value = chunk[key];
      if (value !== undefined) put(value);
    }
    if (chunk.decorators !== undefined) {
      ints[n++] = chunk.decorators.length;
      for (const d of chunk.decorators) put(d);
    }
    if (flags & NAME) {
      ints[n++] = chunk.nameLine as number;
      ints[n++] = chunk.nameColumn ?? 1;
    }
    if (flags & DEFINITION_END) ints[n++] = chunk.definitionEndLine as number;
    if (chunk.span !== undefined) {
      ints[n++] = chunk.span[0];
      ints[n++] = chunk.span[1];
    }
    if (flags & NESTED) put(JSON.stringify(chunk.nested));
  }
  const { occurrences, ...rest } = result;
  const wire: WireFileChunks = { ...rest, chunks: [], packed: { count: chunks.length, ints: ints.slice(0, n), strings, objects } };
  if (occurrences) wire.occurrences = { names: occurrences.names.join('\n'), entries: occurrences.entries };
  return wire;
}

/** The buffers `toWire`'s result can hand over instead of copying. */
export function wireTransfer(wire: WireFileChunks): ArrayBuffer[] {
  const buffers = [wire.packed.ints.buffer as ArrayBuffer];
  if (wire.occurrences) buffers.push(wire.occurrences.entries.buffer as ArrayBuffer);
  return buffers;
}

/** Unpacks what `toWire` packed, restoring texts from the document they were cut from. */
export function fromWire(doc: SourceDocument, wire: WireFileChunks): FileChunks {
  const { packed, occurrences, ...rest } = wire;
  const { ints, strings, objects } = packed;
  const chunks: Chunk[] = new Array<Chunk>(packed.count);
  let n = 0;
  let at = 0;
  let object = 0;
  const text = (): string => {
    const len = ints[n++] as number;
    at += len;
    return strings.slice(at - len, at);
  };
  for (let i = 0; i < packed.count; i++) {
    const flags = ints[n++] as number;
    if (flags & AS_OBJECT) {
      chunks[i] = objects[object++] as Chunk;
      continue;
    }
    const startLine = ints[n++] as number;
    const endLine = ints[n++] as number;
    let body: string;
    if (flags & TEXT_RANGE) {
      body = doc.text.slice(ints[n] as number, ints[n + 1] as number);
      n += 2;
    } else body = text();
    const docid = flags & SAME_DOCID ? undefined : text();
    const id = text();
    const path = flags & SAME_PATH ? doc.path : text();
    const chunk: Chunk = {
      docid: docid ?? makeDocid(path, startLine, endLine),
      id,
      path,
      startLine,
      endLine,
      text: body,
      language: flags & SAME_LANGUAGE ? doc.language : text(),
      kind: text() as Chunk['kind'],
      symbol: text(),
      context: text(),
    };
    for (let k = 0; k < OPTIONAL_STRINGS.length; k++) if (flags & (1 << (OPTIONAL_SHIFT + k))) chunk[OPTIONAL_STRINGS[k] as OptionalString] = text();
    if (flags & DECORATORS) {
      const decorators = new Array<string>(ints[n++] as number);
      for (let d = 0; d < decorators.length; d++) decorators[d] = text();
      chunk.decorators = decorators;
    }
    if (flags & NAME) {
      chunk.nameLine = ints[n++] as number;
      chunk.nameColumn = ints[n++] as number;
    }
    if (flags & DEFINITION_END) chunk.definitionEndLine = ints[n++] as number;
    if (flags & CONTINUED) chunk.continued = true;
    if (flags & SPAN) {
      chunk.span = [ints[n] as number, ints[n + 1] as number];
      n += 2;
    }
    if (flags & NESTED) chunk.nested = JSON.parse(text()) as Chunk['nested'];
    chunks[i] = chunk;
  }
  const result: FileChunks = { ...rest, chunks };
  if (occurrences) result.occurrences = { names: occurrences.names === '' ? [] : occurrences.names.split('\n'), entries: occurrences.entries };
  return result;
}

/** Offset of the first character of every line. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}
