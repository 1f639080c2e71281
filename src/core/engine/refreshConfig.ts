// What a refresh is given: the root, its store, the discovery and chunking settings, and a
// chunker; and the hash of the chunking settings that tells a refresh to re-chunk every file.
import { createHash } from 'node:crypto';
import type { DiscoveryOptions } from '../discovery';
import type { ChunkingPolicy } from '../chunking/policy';
import { ANALYZER_VERSION } from '../index/fields';
import type { IndexStore } from '../store/store';
import type { ChunkStrategy, FileChunks, SourceDocument } from '../types';

/** Chunks documents; the engine passes its worker pool (or an in-process chunker). */
export interface Chunker {
  /** `onFile(i)`: the chunks of `docs[i]` (and of every document before it) are back. */
  chunk(docs: SourceDocument[], signal?: AbortSignal, onFile?: (index: number) => void): Promise<FileChunks[]>;
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

/** The settings that shape chunks and terms: an index built with other ones is re-chunked. */
export function configHash(policy: ChunkingPolicy, strategy: ChunkStrategy): string {
  return createHash('sha256').update(JSON.stringify({ policy, strategy, analyzer: ANALYZER_VERSION })).digest('hex').slice(0, 16);
}
