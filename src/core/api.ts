// The engine's API as front ends see it: the plain, serialisable data they pass in and get
// back (the CLI, the MCP server and the extension's RPC all carry these). Declared here once;
// the modules that implement them import from here, never the other way round.
import type { Diagnostic, SkippedFile, SkipReason, ChunkStrategy } from './types';
import type { DiscoveryOptions } from './discovery/options';
import type { ChunkingPolicy } from './chunking/policy';
import type { RankingParams } from './search/types';
import type { FieldName, FieldParams } from './index/fields';
import type { RemoteSourceConfig } from './registry/types';
import type { StageTimes } from './timingStages';

export type * from './search/types';
/** The longest query text a search reads; front ends' schemas allow as much. */
export { MAX_QUERY_CHARS } from './search/query';
export type * from './pack/types';
export type { Diagnostic, SkippedFile, SkipReason, ChunkStrategy, Chunk, ChunkKind, NestedDefinition, Span } from './types';
/** The context registry's answers, as plain data (the webview renders them). */
export type {
  AnnotationKind,
  FetchMode,
  FetchOptions,
  RegistryDiagnostic,
  RegistryFetchResult,
  RegistryHit,
  RegistryOptions,
  RegistryScoreComponent,
  RegistrySearchResponse,
  RemoteSourceConfig,
  SearchOptions as RegistrySearchOptions,
} from './registry/types';

/**
 * Why a file is neither indexed nor served (`checkEligibility` in `core/discovery`): a skip
 * reason of discovery's reader, or a reason found before reading — the path lies outside the
 * root, names nothing, is ignored by `.gitignore` or the extra ignore files, lies in a pruned
 * folder, falls outside the include/exclude globs, or its name is not on the allow-list.
 */
export type RefusalReason = SkipReason | 'outside-root' | 'missing' | 'ignored' | 'excluded-dir' | 'excluded-glob' | 'not-allowed';

export interface Refusal {
  /** The path as asked (relative POSIX form when it could be normalised). */
  path: string;
  reason: RefusalReason;
  detail?: string;
  /** One sentence for the caller: what was refused and why. */
  message: string;
}

/** Discovery's decision for one path: indexed and served, or refused with its reason. */
export type Eligibility = { eligible: true; path: string; size: number; mtimeMs: number } | { eligible: false; path: string; refusal: Refusal };

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
  /**
   * How long the refresh a query runs first may take when there is an index to answer from
   * (`cairn` answering in its own process): past it, the refresh commits the part it has done
   * and stops, and the answer counts the files left (`index.pending`) for the next run. Unset:
   * the query waits for the whole refresh.
   */
  queryRefreshBudgetMs?: number;
}

/** Options for opening a root in an EngineHost: the engine's, plus where the registry lives. */
export interface HostOpenOptions extends EngineOptions {
  /** Context registry folder relative to the root (default `.agent-context/registry`). */
  registryDir?: string;
  /** Remote registries (the CLI reads them from its configuration); default none. */
  registryRemote?: RemoteSourceConfig[];
  /** The repository registry notes are keyed to (default: the root folder's name). */
  registryRepository?: string;
  /** Where the registry keeps its caches (default `registry-cache` in the store). */
  registryCacheDir?: string;
  /** Start with indexing paused (requests wait for `resume`). */
  paused?: boolean;
  /** The caller's own watcher reports every change (the editor's): queries never wait for a tree check. */
  watched?: boolean;
}

/** What a root's refresh queue is doing. */
export interface RefreshQueueState {
  kind: 'idle' | 'refreshing' | 'paused' | 'error';
  /** Work waits (for quiet after file events, for resume, or behind the running refresh). */
  queued: boolean;
  running?: { startedAtMs: number; rebuild: boolean; paths?: number; progress?: RefreshProgress };
  /** Files the running and queued refreshes have still to bring into the index, as far as known. */
  pending: number;
  lastReport?: RefreshReport;
  error?: string;
}

/** One root of an EngineHost as front ends show it: its refresh queue, and the index. */
export interface RootState extends RefreshQueueState {
  /** The index as of the last refresh (languages and skipped files recounted after whole-root ones). */
  status: IndexStatus;
  freshness: FreshnessSummary;
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
  /**
   * The whole refresh's work done so far, 0-99 (100 is the report), weighted by what each stage
   * costs (engine/progressMeter.ts); never lower than an earlier report's. Absent while waiting.
   */
  percent?: number;
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
  /**
   * Commit a generation after about this many files were re-read, so readers see a long
   * incremental refresh land in parts (not for builds from nothing, whose parts would be an
   * index missing most files). Unset: one commit at the end.
   */
  commitEveryFiles?: number;
  /**
   * The files this refresh has still to bring into the index (relative paths, sorted): once it
   * knows what changed, and again after each commit.
   */
  onPending?: (paths: readonly string[]) => void;
  /**
   * With `commitEveryFiles`: once past this time (ms since the epoch), the refresh commits the
   * part under way and stops; the report's `pending` lists the files it left.
   */
  deadlineAtMs?: number;
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
  /** Milliseconds per stage, summed over threads, when timings are on (`cairn index --timings`). */
  timings?: StageTimes;
  /** Files a refresh stopped at its deadline left for the next one (relative paths, sorted). */
  pending?: string[];
}

/** How the index stood when a long-lived host answered (RefreshQueue's freshness policy). */
export type FreshnessState =
  /** Refreshed (or built) just before answering. */
  | { kind: 'refreshed'; report: RefreshReport }
  /** Current: a watcher reports every change, or the tree was checked within the interval. */
  | { kind: 'recent'; checkedAgoMs: number; lastFailure?: string }
  /**
   * A refresh is still running after the wait: answered from the index as it is. `pending`: the
   * files it (or one queued behind it) has still to index, as far as known; hits from them are stale.
   */
  | { kind: 'refreshing'; startedAgoMs: number; progress?: RefreshProgress; pending: string[] }
  /** The refresh failed (or indexing is paused): answered from the index as it was. */
  | { kind: 'failed'; message: string };

/** What tools wait on before answering: the host's refresh queue, or an editor's view of it. */
export interface FreshnessPolicy {
  /**
   * Makes the index current if it is due, waiting a bounded time (`waitMs`, at most the
   * policy's own bound) when there is an index to answer from.
   */
  ensureFresh(options?: { waitMs?: number }): Promise<FreshnessState>;
  /** Refreshes now (only `paths`, when given), waiting a bounded time. */
  refreshNow(paths?: string[]): Promise<FreshnessState>;
  describe(): FreshnessSummary;
}

export interface FreshnessSummary {
  /** Without a watcher, the whole root is checked before a query at most this often (0: a watcher, or every query). */
  minIntervalMs: number;
  /** A file watcher reports changes as they happen, so no query waits for a whole-tree check. */
  watching?: boolean;
  /** When the tree was last verified whole (ms since the epoch). */
  lastCheckedAtMs?: number;
  running?: { startedAgoMs: number; paths?: string[]; progress?: RefreshProgress };
  /** Files still to be indexed by the running and queued refreshes, as far as known. */
  pending?: number;
  lastFailure?: string;
}

// Display helpers every front end shares (plain functions, no engine state).
export { breadcrumbSeparator, displayBreadcrumb } from './breadcrumbs';
export { evidenceParts, evidenceSignals } from './search/evidenceParts';
export { liftInlineFilters, type LiftedFilters } from './search/inlineFilters';
export { STAGES, type Stage } from './timingStages';
export { markPending, pendingMatcher, refreshingFiles } from './engine/pendingFiles';
