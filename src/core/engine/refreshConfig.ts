// What a refresh is given: the root, its store, the discovery and chunking settings, and a
// chunker; and the hash of the chunking settings that tells a refresh to re-chunk every file.
import type { DiscoveryOptions } from '../discovery';
import type { ChunkingPolicy } from '../chunking/policy';
import { ANALYZER_VERSION } from '../index/fields';
import type { IndexStore } from '../store/store';
import type { ChunkStrategy, FileChunks, SourceDocument } from '../types';

/** What a refresh hears while a chunker works, to show its progress. */
export interface ChunkListener {
  /** The chunks of `docs[index]` (and of every document before it) are back. */
  file(index: number): void;
  /** `fraction` (0-1) of `docs[index]`'s work is done; heard for big files only. */
  partial?(index: number, fraction: number): void;
  /**
   * Starting the chunk workers: `done` of `total` steps (a thread started, a grammar loaded).
   * Heard only by the job that starts them.
   */
  startup?(done: number, total: number): void;
}

/** Chunks documents; the engine passes its worker pool (or an in-process chunker). */
export interface Chunker {
  chunk(docs: SourceDocument[], signal?: AbortSignal, listener?: ChunkListener): Promise<FileChunks[]>;
  /** This refresh chunks nothing more: worker threads no job is using may go now. */
  finished?(): Promise<void>;
}

export interface IndexerConfig {
  root: string;
  store: IndexStore;
  discovery: Partial<DiscoveryOptions>;
  policy: ChunkingPolicy;
  strategy: ChunkStrategy;
  chunker: () => Promise<Chunker>;
  lockTimeoutMs?: number;
}

/**
 * The settings that shape chunks and terms: an index built with other ones is re-chunked. A
 * fingerprint, not a digest: every refresh computes it, and node:crypto would cost a one-shot
 * query on an up-to-date index its load time.
 */
export function configHash(policy: ChunkingPolicy, strategy: ChunkStrategy): string {
  const text = JSON.stringify({ policy, strategy, analyzer: ANALYZER_VERSION });
  return fnv1a32(text, 0x811c9dc5) + fnv1a32(text, 0x050c5d1f);
}

/** FNV-1a over UTF-16 code units from `basis`, as 8 hex digits. */
function fnv1a32(text: string, basis: number): string {
  let h = basis >>> 0;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}
