// Messages between ChunkPool and its worker threads. Plain data only: documents go in as
// text, chunks come back as plain objects, one message per file so a crash loses one file.
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
}

export interface BatchMessage {
  type: 'batch';
  batch: number;
  docs: SourceDocument[];
}

/**
 * A chunk in transit: `text` is empty when `textRange` ([start, end) in the document) gives it;
 * `path`, `language` and `docid` are empty when `fromDoc` says they follow from the document
 * (every chunk repeats them: ~170 bytes a chunk, 100 MB across the benchmark's corpus).
 */
export type WireChunk = Chunk & { textRange?: [number, number]; fromDoc?: number };

const SAME_PATH = 1;
const SAME_LANGUAGE = 2;
const SAME_DOCID = 4;

export interface WireFileChunks extends Omit<FileChunks, 'chunks'> {
  chunks: WireChunk[];
}

export type FromWorker =
  /** Sent once after start-up; `astError` says why AST chunking is unavailable, if it is. */
  | { type: 'ready'; astError?: string }
  /** The result for `docs[index]` of batch `batch`. Files of a batch are answered in order. */
  | { type: 'file'; batch: number; index: number; result: WireFileChunks };

/**
 * Test-only: when this environment variable is set, a worker asked to chunk a document whose
 * text contains its value exits on the spot, as a wasm abort would.
 */
export const CRASH_MARKER_ENV = 'CAIRN_TEST_CRASH_MARKER';

/** Test-only: when set, a worker fails during start-up, as it would with a broken install. */
export const FAIL_START_ENV = 'CAIRN_TEST_WORKER_FAIL_START';

/** Replaces each chunk's text by its offsets when it is exactly lines startLine..endLine of the document. */
export function toWire(doc: SourceDocument, result: FileChunks): WireFileChunks {
  const starts = lineStarts(doc.text);
  const chunks = result.chunks.map((chunk): WireChunk => {
    // Emptied fields keep their place among the keys, so a chunk prints the same after the round trip.
    let fromDoc = 0;
    if (chunk.path === doc.path) fromDoc |= SAME_PATH;
    if (chunk.language === doc.language) fromDoc |= SAME_LANGUAGE;
    if (chunk.docid === makeDocid(chunk.path, chunk.startLine, chunk.endLine)) fromDoc |= SAME_DOCID;
    const wire: WireChunk = {
      ...chunk,
      docid: fromDoc & SAME_DOCID ? '' : chunk.docid,
      path: fromDoc & SAME_PATH ? '' : chunk.path,
      language: fromDoc & SAME_LANGUAGE ? '' : chunk.language,
    };
    if (fromDoc) wire.fromDoc = fromDoc;
    const start = starts[chunk.startLine - 1];
    if (start === undefined || chunk.endLine < chunk.startLine) return wire;
    const next = starts[chunk.endLine];
    const end = next === undefined ? doc.text.length : next - 1;
    // A slice of the document shares its characters (no copy), and `===` compares them with
    // a block compare: 7x faster than `startsWith`, which goes character by character.
    if (end - start !== chunk.text.length || doc.text.slice(start, end) !== chunk.text) return wire;
    wire.text = '';
    wire.textRange = [start, end];
    return wire;
  });
  return { ...result, chunks };
}

/** Restores chunk texts from the document they were cut from. */
export function fromWire(doc: SourceDocument, wire: WireFileChunks): FileChunks {
  const chunks = wire.chunks.map((chunk): Chunk => {
    const { textRange, fromDoc = 0, ...rest } = chunk;
    if (textRange) rest.text = doc.text.slice(textRange[0], textRange[1]);
    if (fromDoc & SAME_PATH) rest.path = doc.path;
    if (fromDoc & SAME_LANGUAGE) rest.language = doc.language;
    if (fromDoc & SAME_DOCID) rest.docid = makeDocid(rest.path, rest.startLine, rest.endLine);
    return rest;
  });
  return { ...wire, chunks };
}

/** Offset of the first character of every line. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}
