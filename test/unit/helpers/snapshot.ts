// In-memory snapshots built from hand-written chunks: ranking and symbol tests stay independent
// of the chunkers and of the store.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Segment } from '../../../src/core/index/segment';
import { SegmentBuilder } from '../../../src/core/index/segmentBuilder';
import { SnapshotScorer } from '../../../src/core/search/scorer';
import { SymbolIndex } from '../../../src/core/search/symbols';
import { FileReader } from '../../../src/core/search/hydrate';
import { searchSnapshot } from '../../../src/core/search/search';
import { makeChunkId, makeDocid } from '../../../src/core/chunking/ids';
import { languageForPath } from '../../../src/core/languages';
import type { Snapshot } from '../../../src/core/store/store';
import type { Chunk, ChunkKind } from '../../../src/core/types';
import type { SearchOptions } from '../../../src/core/search/types';

/** A chunk from a compact spec: `path:start-end kind symbol | text`. */
export function c(spec: string, text: string, context?: string): Chunk {
  const m = /^(.+):(\d+)-(\d+) (\w+)(?: (\S+))?$/.exec(spec);
  if (!m) throw new Error(`bad spec ${spec}`);
  const [, p, s, e, kind, symbol = ''] = m as unknown as [string, string, string, string, ChunkKind, string?];
  const start = Number(s);
  const end = Number(e);
  return {
    docid: makeDocid(p, start, end), id: makeChunkId(p, kind, symbol, start, text), path: p, startLine: start, endLine: end,
    text, language: languageForPath(p)?.id ?? 'text', kind, symbol, context: context ?? symbol,
  };
}

/** Builds an in-memory snapshot (one segment per file group) from chunks, writing the files to a temp root. */
export function snapshotOf(chunks: Chunk[], root: string): Snapshot {
  const seg = new Segment('seg-test.cseg', segmentBytesOf(chunks, root));
  return {
    manifest: { format: 'cairn-index', version: 0, generation: 1, root, configHash: '', segments: [], state: '', createdAt: '', updatedAt: '', files: new Set(chunks.map((ch) => ch.path)).size, chunks: chunks.length },
    segments: [seg],
    deleted: [new Uint8Array(seg.docCount)],
  };
}

/** The bytes of one segment holding `chunks`, their files written to `root`. */
export function segmentBytesOf(chunks: Chunk[], root: string): Uint8Array {
  const byPath = new Map<string, Chunk[]>();
  for (const ch of chunks) byPath.set(ch.path, [...(byPath.get(ch.path) ?? []), ch]);
  const builder = new SegmentBuilder();
  for (const [p, list] of byPath) {
    const lines: string[] = [];
    for (const ch of list) ch.text.split('\n').forEach((l, i) => (lines[ch.startLine - 1 + i] = l));
    const text = Array.from(lines, (l) => l ?? '').join('\n');
    fs.mkdirSync(path.dirname(path.join(root, p)), { recursive: true });
    fs.writeFileSync(path.join(root, p), text);
    const st = fs.statSync(path.join(root, p));
    builder.addFile({ path: p, size: st.size, mtimeMs: st.mtimeMs, hash: 'unused', language: list[0]!.language }, list, undefined, text);
  }
  return builder.build();
}

export function searcher(chunks: Chunk[]) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-search-'));
  const snapshot = snapshotOf(chunks, root);
  const scorer = new SnapshotScorer(snapshot);
  const symbols = new SymbolIndex(snapshot);
  return (query: string, options: SearchOptions = {}) => searchSnapshot(scorer, symbols, new FileReader(root), query, { crossReferences: false, ...options });
}


export function symbolIndex(chunks: Chunk[]): SymbolIndex {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-symbols-'));
  return new SymbolIndex(snapshotOf(chunks, root));
}
