// The one host API: what an EngineHost (host.ts) does for a root, declared once. The class
// implements it in-process (`cairn serve`, `cairn mcp`); the engine thread
// (src/server/engineThread.ts) serves it to the VS Code extension by forwarding every method
// listed in ENGINE_HOST_METHODS, a list the compiler checks against this interface, plus the
// socket methods of EngineThreadApi.
import type { FetchOptions, RegistryFetchResult, RegistrySearchResponse, SearchOptions as RegistrySearchOptions } from '../registry/types';
import type {
  ContextPack,
  FileSearchResponse,
  FreshnessState,
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
   * Queues a refresh, coalesced with whatever else is queued; resolves when the run that covered
   * it finished (undefined: it did not run, e.g. paused). Cancelling the call cancels that run.
   */
  refresh(key: string, request: HostRefreshRequest): Promise<RefreshReport | undefined>;
  /** Settings changed: the running refresh stops and its work runs again (after `open`). */
  restart(key: string): void;
  pause(key: string): void;
  resume(key: string): void;
  /** Resolves once nothing is running or queued for `key`. */
  whenIdle(key: string): Promise<void>;
  /** The root's freshness policy (refreshQueue.ts): a bounded wait for pending work, then what is still pending. */
  ensureFresh(key: string, options?: { waitMs?: number }): Promise<FreshnessState>;
  /** An explicit refresh (of `paths`, or the whole root), waited for as the policy says. */
  refreshNow(key: string, paths?: string[]): Promise<FreshnessState>;
  state(key: string): RootState;
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
  status(key: string): IndexStatus;
  close(key: string): Promise<void>;
}

/**
 * Every method of EngineHostApi, by name: what the engine thread forwards. A method added to the
 * interface and not here fails to compile (the check below), so the thread never lags the host.
 */
export const ENGINE_HOST_METHODS = [
  'open', 'refresh', 'restart', 'pause', 'resume', 'whenIdle', 'ensureFresh', 'refreshNow', 'state', 'search', 'searchFiles',
  'findSymbol', 'references', 'buildPack', 'contextSearch', 'contextGet', 'status', 'close',
] as const satisfies readonly (keyof EngineHostApi)[];
type Unlisted = Exclude<keyof EngineHostApi, (typeof ENGINE_HOST_METHODS)[number]>;
type NoneLeft<T extends never> = T;
/** Fails to compile while a method of EngineHostApi is missing from ENGINE_HOST_METHODS. */
export type EveryHostMethodListed = NoneLeft<Unlisted>;

/** An API as another thread sees it: every method resolves (its result crosses a port). */
export type Remote<A> = { [K in keyof A]: A[K] extends (...args: infer P) => infer R ? (...args: P) => Promise<Awaited<R>> : never };

/** What the engine thread offers the extension: the host, and serving a root on its socket. */
export interface EngineThreadApi extends Remote<EngineHostApi> {
  /**
   * Also serves the opened root on its store's socket, watched, for `cairn` and MCP clients
   * (until close or re-open). Resolves with the socket's path. `watcherModule`: the
   * `@parcel/watcher` folder to use when none resolves beside the bundle.
   */
  serve(key: string, root: string, storeDir: string, watcherModule?: string): Promise<string>;
  /** Stops serving `key` on its socket (the engine stays open). */
  unserve(key: string): Promise<void>;
}

/** Events a host emits (the engine thread passes them on to the extension as they are). */
export interface EngineHostEvents {
  progress: { key: string; progress: RefreshProgress };
  state: { key: string; state: RootState };
  refreshed: { key: string; report: RefreshReport; request: { only?: string[]; rebuild: boolean } };
  /** A line for the log (the socket server and its watcher). */
  log: { key: string; line: string };
}

/** Who listens to a host's events: one optional listener per event. */
export type EngineHostListeners = { [E in keyof EngineHostEvents]?: (event: EngineHostEvents[E]) => void };
