// The API the engine thread (src/server/engineThread.ts, an EngineHost on a worker thread) offers its owner, the
// VS Code extension. Declared once; the worker serves it and the extension calls it.
import type { FetchOptions, RegistryFetchResult, RegistrySearchResponse, SearchOptions as RegistrySearchOptions } from '../registry/types';
import type {
  ContextPack,
  FileSearchResponse,
  HostOpenOptions,
  IndexStatus,
  PackOptions,
  ReferenceOptions,
  ReferencesResponse,
  RefreshProgress,
  RefreshReport,
  RootState,
  SearchOptions,
  SearchResponse,
  SymbolOptions,
  SymbolResponse,
} from '../api';

export interface HostRefreshRequest {
  only?: string[];
  rebuild?: boolean;
  /** From file events: starts once they have been quiet for the queue's debounce time. */
  afterQuiet?: boolean;
}

export interface EngineHostApi {
  /** Opens (or re-opens with new options) the engine for `key` (a workspace folder). Never builds. */
  open(key: string, options: HostOpenOptions): Promise<IndexStatus>;
  /**
   * Also serves the opened root on its store's socket, watched, for `cairn` and MCP clients
   * (until close or re-open). Resolves with the socket's path. `watcherModule`: the
   * `@parcel/watcher` folder to use when none resolves beside the bundle.
   */
  serve(key: string, root: string, storeDir: string, watcherModule?: string): Promise<string>;
  /** Stops serving `key` on its socket (the engine stays open). */
  unserve(key: string): Promise<void>;
  /**
   * Queues a refresh, coalesced with whatever else is queued; resolves when the run that covered
   * it finished (undefined: it did not run, e.g. paused). Cancelling the call cancels that run.
   */
  refresh(key: string, request: HostRefreshRequest): Promise<RefreshReport | undefined>;
  /** Settings changed: the running refresh stops and its work runs again (after `open`). */
  restart(key: string): Promise<void>;
  pause(key: string): Promise<void>;
  resume(key: string): Promise<void>;
  /** Resolves once nothing is running or queued for `key`. */
  whenIdle(key: string): Promise<void>;
  state(key: string): Promise<RootState>;
  search(key: string, query: string, options: SearchOptions): Promise<SearchResponse>;
  /** Files ranked as files (`groupBy: 'file'`). */
  searchFiles(key: string, query: string, options: SearchOptions): Promise<FileSearchResponse>;
  findSymbol(key: string, name: string, options: SymbolOptions): Promise<SymbolResponse>;
  /** Where a name occurs as code, certain references first. */
  references(key: string, name: string, options: ReferenceOptions): Promise<ReferencesResponse>;
  /** A context pack, with registry guidance for the task. */
  buildPack(key: string, task: string, options: PackOptions): Promise<ContextPack>;
  contextSearch(key: string, query: string, options: RegistrySearchOptions): Promise<RegistrySearchResponse>;
  contextGet(key: string, id: string, options: FetchOptions): Promise<RegistryFetchResult>;
  status(key: string): Promise<IndexStatus>;
  close(key: string): Promise<void>;
}

/** Events the engine thread emits. */
export interface EngineHostEvents {
  progress: { key: string; progress: RefreshProgress };
  state: { key: string; state: RootState };
  refreshed: { key: string; report: RefreshReport; request: { only?: string[]; rebuild: boolean } };
  /** A line for the log (the socket server and its watcher). */
  log: { key: string; line: string };
}
