// The engine's API as front ends see it: the plain, serialisable data they pass in and get
// back (the CLI, the MCP server and the extension's RPC all carry these). Declared here once;
// the modules that implement them import from here, never the other way round.
import type { Diagnostic, SkippedFile, ChunkStrategy } from './types';
import type { DiscoveryOptions } from './discovery/options';
import type { ChunkingPolicy } from './chunking/policy';
import type { RankingParams } from './search/search';
import type { FieldName, FieldParams } from './index/fields';

export type * from './search/types';
export type * from './pack/types';
export type { Diagnostic, SkippedFile, ChunkStrategy, Chunk, ChunkKind, NestedDefinition, Span } from './types';

export interface EngineOptions {
  /** Absolute path of the folder to index. */
  root: string;
  /** Absolute path of this root's store directory. */
  storeDir: string;
  /** Folder holding `tree-sitter.wasm` and the grammar wasm files. */
  grammarsDir: string;
  /** Chunk worker entry (`dist/chunkWorker.js`); without it chunking runs in-process. */
  workerScript?: string;
  /** Worker threads for chunking (default: one per core). */
  workers?: number;
  discovery?: Partial<DiscoveryOptions>;
  policy?: Partial<ChunkingPolicy>;
  strategy?: ChunkStrategy;
  ranking?: Partial<RankingParams>;
  fieldParams?: Partial<Record<FieldName, FieldParams>>;
  lockTimeoutMs?: number;
  /** The ripgrep binary for the `ripgrep` and `hybrid` providers (the host knows where it is). */
  ripgrepPath?: string;
  /** Called before a chunker loads grammars (the CLI picks V8's wasm compiler there). */
  beforeGrammarsLoad?: () => void;
  /**
   * Index worker entry (`dist/indexWorker.js`). With it, an index built from nothing (first
   * run, rebuild, a discarded store) is built on a thread whose heap is capped at `indexHeapMb`;
   * without it, or for incremental refreshes, in the calling thread.
   */
  indexWorkerScript?: string;
  /** Heap cap of the index worker thread (default DEFAULT_INDEX_HEAP_MB; see indexWorker.ts). */
  indexHeapMb?: number;
  /** Told when a refresh waits for another writer's lock (the message says whose), so a wait is never silent. */
  onLockWait?: (message: string) => void;
}

/** One line of `cairn export --format jsonl`. */
export interface ExportedChunk {
  docid: string;
  id: string;
  path: string;
  startLine: number;
  endLine: number;
  language: string;
  kind: string;
  symbol: string;
  context: string;
  signature?: string;
  parent?: string;
  text: string;
  stale?: boolean;
}

/** When a query should first bring the index up to date. */
export type RefreshMode = 'never' | 'if-missing' | 'always';

export interface IndexStatus {
  root: string;
  storeDir: string;
  exists: boolean;
  generation: number;
  files: number;
  chunks: number;
  segments: number;
  deletedChunks: number;
  storeBytes: number;
  createdAt?: string;
  updatedAt?: string;
  lastRefresh?: RefreshSummary;
  skippedByReason: Record<string, number>;
  skipped: SkippedFile[];
  languages: Record<string, number>;
  diagnostics: Diagnostic[];
}

export interface RefreshSummary {
  at: string;
  durationMs: number;
  filesScanned: number;
  added: number;
  changed: number;
  removed: number;
  unchanged: number;
  chunksAdded: number;
  chunksRemoved: number;
}

export interface RefreshProgress {
  /** `wait`: another writer holds the store's lock (its message says who). */
  phase: 'wait' | 'discover' | 'read' | 'chunk' | 'write' | 'merge';
  done: number;
  total: number;
  message?: string;
}

export interface RefreshOptions {
  /** Refresh only these relative paths (files or directories); others are left as they are. */
  only?: string[];
  /**
   * Build the index again from nothing. The new one is built beside the old, which readers keep
   * using until the manifest switches to the new one.
   */
  rebuild?: boolean;
  /**
   * false: when another writer holds the lock, throw LockHeldError at once instead of waiting
   * (a query that would refresh first answers from the index as it is).
   */
  waitForWriter?: boolean;
  signal?: AbortSignal;
  onProgress?: (p: RefreshProgress) => void;
}

export interface RefreshReport extends RefreshSummary {
  generation: number;
  files: number;
  chunks: number;
  skipped: SkippedFile[];
  skippedByReason: Record<string, number>;
  diagnostics: Diagnostic[];
  /** True when the store was (re)created from nothing during this refresh. */
  rebuilt: boolean;
}
