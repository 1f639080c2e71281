// EngineHost: the one owner of everything long-lived around engines, for every long-running
// front end (the extension's engine thread, `cairn mcp`, `cairn serve`). Per root it holds the
// engine, the context registry and the refresh queue (refreshQueue.ts: coalescing, quiet time
// after file events, pause, the freshness policy), warms the engine up when idle, and keeps the
// index status current without re-reading the state table after every save. Reads never
// refresh on their own here: freshness is the queue's job.
import * as path from 'node:path';
import { Engine } from './engine';
import { RefreshQueue, type RefreshQueueOptions, type RefreshRequest } from './refreshQueue';
import { ContextRegistry } from '../registry';
import { registryGuidance } from '../pack/guidance';
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

export interface EngineHostEvents {
  progress?(key: string, progress: RefreshProgress): void;
  /** A root's state changed (refresh started or ended, work queued, paused). */
  state?(key: string, state: RootState): void;
  refreshed?(key: string, report: RefreshReport, request: { only?: string[]; rebuild: boolean }): void;
}

export type HostQueueOptions = Pick<RefreshQueueOptions, 'minIntervalMs' | 'waitMs' | 'debounceMs' | 'log' | 'now'>;

interface Root {
  engine: Engine;
  registry: ContextRegistry;
  queue: RefreshQueue;
  status: IndexStatus;
}

/** Reads from a host answer from the index as it is; the queue keeps it fresh. */
const NEVER = { refresh: 'never' as const };

export class EngineHost {
  private readonly roots = new Map<string, Root>();

  constructor(
    private readonly events: EngineHostEvents = {},
    private readonly queueOptions: HostQueueOptions = {},
  ) {}

  /** Opens (or re-opens with new options) the engine for `key`. Never builds. */
  async open(key: string, options: HostOpenOptions): Promise<IndexStatus> {
    await this.close(key);
    const { registryDir, paused, ...engineOptions } = options;
    const engine = new Engine(engineOptions);
    const registry = new ContextRegistry({
      root: options.root,
      cacheDir: path.join(options.storeDir, 'registry-cache'),
      ...(registryDir ? { registryDir } : {}),
    });
    const queue: RefreshQueue = new RefreshQueue(engine, {
      ...this.queueOptions,
      onChange: () => this.emitState(key),
      onProgress: (p) => this.events.progress?.(key, p),
      onRefreshed: (report, request) => {
        const root = this.roots.get(key);
        if (root?.queue === queue) root.status = statusAfter(engine, root.status, request.only === undefined);
        this.events.refreshed?.(key, report, request);
      },
    });
    if (paused) queue.pause();
    const root: Root = { engine, registry, queue, status: engine.status() };
    this.roots.set(key, root);
    return root.status;
  }

  has(key: string): boolean {
    return this.roots.has(key);
  }

  private root(key: string): Root {
    const r = this.roots.get(key);
    if (!r) throw new Error(`no engine open for ${key}`);
    return r;
  }

  /** The engine of a root, for front ends that read in-process (the CLI, the MCP server). */
  engine(key: string): Engine {
    return this.root(key).engine;
  }

  registry(key: string): ContextRegistry {
    return this.root(key).registry;
  }

  /** The root's refresh queue: its freshness policy is what tools wait on. */
  queue(key: string): RefreshQueue {
    return this.root(key).queue;
  }

  /** Queues a refresh (coalesced); `afterQuiet` for file events. Resolves when it ran (undefined: it did not). */
  request(key: string, request: RefreshRequest, afterQuiet = false): Promise<RefreshReport | undefined> {
    return this.root(key).queue.request(request, afterQuiet);
  }

  /** Settings changed: cancel the running refresh (its work runs again on the new engine). */
  restart(key: string): void {
    this.roots.get(key)?.queue.restart();
  }

  cancel(key: string): void {
    this.roots.get(key)?.queue.cancelRunning();
  }

  pause(key: string): void {
    this.root(key).queue.pause();
  }

  resume(key: string): void {
    this.root(key).queue.resume();
  }

  whenIdle(key: string): Promise<void> {
    return this.roots.get(key)?.queue.whenIdle() ?? Promise.resolve();
  }

  ensureFresh(key: string): Promise<FreshnessState> {
    return this.root(key).queue.ensureFresh();
  }

  /** A watcher reports every change of this root from now on (or stopped doing so). */
  setWatching(key: string, watching: boolean): void {
    const { queue } = this.root(key);
    queue.watching = watching;
    this.emitState(key);
  }

  state(key: string): RootState {
    const { queue, status } = this.root(key);
    return { ...queue.state(), status, freshness: queue.describe() };
  }

  status(key: string): IndexStatus {
    return this.root(key).engine.status();
  }

  search(key: string, query: string, options: SearchOptions): Promise<SearchResponse> {
    return this.root(key).engine.search(query, { ...options, ...NEVER });
  }

  searchFiles(key: string, query: string, options: SearchOptions): Promise<FileSearchResponse> {
    return this.root(key).engine.searchFiles(query, { ...options, ...NEVER });
  }

  findSymbol(key: string, name: string, options: SymbolOptions): Promise<SymbolResponse> {
    return this.root(key).engine.findSymbol(name, { ...options, ...NEVER });
  }

  references(key: string, name: string, options: ReferenceOptions): Promise<ReferencesResponse> {
    return this.root(key).engine.references(name, { ...options, ...NEVER });
  }

  /** A context pack, with registry guidance for the task. */
  buildPack(key: string, task: string, options: PackOptions): Promise<ContextPack> {
    const { engine, registry } = this.root(key);
    return engine.buildPack(task, { ...options, ...NEVER, guidance: registryGuidance(registry) });
  }

  contextSearch(key: string, query: string, options: RegistrySearchOptions): Promise<RegistrySearchResponse> {
    return this.root(key).registry.search(query, options);
  }

  contextGet(key: string, id: string, options: FetchOptions): Promise<RegistryFetchResult> {
    return this.root(key).registry.get(id, options);
  }

  async close(key: string): Promise<void> {
    const root = this.roots.get(key);
    if (!root) return;
    this.roots.delete(key);
    await root.queue.close();
    await root.engine.close();
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.roots.keys()].map((k) => this.close(k)));
  }

  private emitState(key: string): void {
    if (this.events.state && this.roots.has(key)) this.events.state(key, this.state(key));
  }
}

/**
 * The status after a refresh. A whole-root refresh reads it again (languages and skipped files
 * may have changed anywhere); a refresh of some paths takes the counts from the manifest, without reading the state table (that costs as much as the save itself on a big tree).
 */
function statusAfter(engine: Engine, before: IndexStatus, wholeRoot: boolean): IndexStatus {
  if (wholeRoot || !before.exists) return engine.status();
  return { ...engine.status({ manifestOnly: true }), languages: before.languages, skipped: before.skipped, skippedByReason: before.skippedByReason };
}
