// EngineHost: the one owner of everything long-lived around engines, for every long-running
// front end (the extension's engine thread, `cairn mcp`, `cairn serve`). Per root it holds the
// engine, the context registry and the refresh queue (refreshQueue.ts: coalescing, quiet time
// after file events, pause, the freshness policy), warms the engine up when idle, lets go of its
// caches once unused for a while, and keeps the index status current without re-reading the
// state table after every save. Reads never refresh on their own here: freshness is the queue's job.
import * as path from 'node:path';
import { Engine } from './engine';
import { RefreshQueue, type RefreshQueueOptions, type RefreshRequest } from './refreshQueue';
import { ContextRegistry } from '../registry';
import { registryGuidance } from '../pack/guidance';
import type { FetchOptions, RegistryFetchResult, RegistrySearchResponse, SearchOptions as RegistrySearchOptions } from '../registry/types';
import type { EngineHostApi, EngineHostListeners, HostRefreshRequest } from './hostApi';
import type {
  ContextPack,
  FileSearchResponse,
  FreshnessState,
  HostOpenOptions,
  IndexStatus,
  PackOptions,
  ReferenceOptions,
  ReferencesResponse,
  RefreshReport,
  RootState,
  SearchOptions,
  SearchResponse,
  SymbolOptions,
  SymbolResponse,
} from '../api';


export type HostQueueOptions = Pick<RefreshQueueOptions, 'minIntervalMs' | 'waitMs' | 'refreshWaitMs' | 'commitEveryFiles' | 'debounceMs' | 'log' | 'now'>;

export interface HostMemoryOptions {
  /**
   * After this long without a read or a refresh, a root's engine lets go of what it decoded
   * (Engine.releaseCaches); its next query reads what it needs again. Unset or 0: never.
   */
  releaseIdleMs?: number;
  /** Runs after a release (a full collection where the process exposes one), so the memory goes back at once. */
  collectGarbage?: () => void;
}

interface Root {
  engine: Engine;
  registry: ContextRegistry;
  queue: RefreshQueue;
  status: IndexStatus;
  /** When a read or a refresh last used the engine. */
  lastUseMs: number;
  releaseTimer?: NodeJS.Timeout;
}

/** Reads from a host answer from the index as it is; the queue keeps it fresh. */
const NEVER = { refresh: 'never' as const };

export class EngineHost implements EngineHostApi {
  private readonly roots = new Map<string, Root>();

  constructor(
    private readonly events: EngineHostListeners = {},
    private readonly queueOptions: HostQueueOptions = {},
    private readonly memory: HostMemoryOptions = {},
  ) {}

  /** Opens (or re-opens with new options) the engine for `key`. Never builds. */
  async open(key: string, options: HostOpenOptions): Promise<IndexStatus> {
    // One engine per root: two would refresh one store side by side and each keep its own caches.
    const asked = path.resolve(options.root);
    for (const [other, open] of this.roots) {
      if (other !== key && path.resolve(open.engine.root) === asked) throw new Error(`${options.root} is already open in this process (as ${other})`);
    }
    await this.close(key);
    const { registryDir, registryRemote, registryRepository, registryCacheDir, paused, watched, ...engineOptions } = options;
    const engine = new Engine(engineOptions);
    const registry = new ContextRegistry({
      root: options.root,
      cacheDir: registryCacheDir ?? path.join(options.storeDir, 'registry-cache'),
      ...(registryDir ? { registryDir } : {}),
      ...(registryRemote ? { remote: registryRemote } : {}),
      ...(registryRepository ? { repository: registryRepository } : {}),
    });
    const queue: RefreshQueue = new RefreshQueue(engine, {
      ...this.queueOptions,
      onChange: () => this.emitState(key),
      onProgress: (progress) => this.events.progress?.({ key, progress }),
      onRefreshed: (report, request) => {
        const root = this.roots.get(key);
        if (root?.queue === queue) {
          root.status = statusAfter(engine, root.status, request.only === undefined, report);
          this.used(root);
        }
        this.events.refreshed?.({ key, report, request });
      },
    });
    if (paused) queue.pause();
    if (watched) queue.watching = true;
    const root: Root = { engine, registry, queue, status: engine.status(), lastUseMs: this.now() };
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

  /** The engine of a root about to answer a read. */
  private reading(key: string): Engine {
    const root = this.root(key);
    this.used(root);
    return root.engine;
  }

  private now(): number {
    return (this.queueOptions.now ?? Date.now)();
  }

  /** Marks the root used now, and arms its release for when it has been unused long enough. */
  private used(root: Root): void {
    root.lastUseMs = this.now();
    this.armRelease(root);
  }

  /** Arms the release for when the root will have been unused `releaseIdleMs`, or in `delayMs`. */
  private armRelease(root: Root, delayMs?: number): void {
    const after = this.memory.releaseIdleMs;
    if (!after || root.releaseTimer) return;
    root.releaseTimer = setTimeout(() => {
      root.releaseTimer = undefined;
      const unusedFor = this.now() - root.lastUseMs;
      const queue = root.queue.state();
      // A refresh under way reads the segments it merges: look again a whole idle time later.
      if (queue.kind === 'refreshing' || queue.queued) {
        this.armRelease(root, after);
        return;
      }
      if (unusedFor < after) {
        this.armRelease(root);
        return;
      }
      root.engine.releaseCaches();
      this.memory.collectGarbage?.();
      this.queueOptions.log?.(`released the index's caches after ${Math.round(unusedFor / 1000)}s unused`);
    }, delayMs ?? Math.max(1, after - (this.now() - root.lastUseMs)));
    root.releaseTimer.unref?.();
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

  /**
   * A refresh as EngineHostApi asks for it: queued (after quiet time for file events); `signal`
   * (the caller cancelling, across the thread's port) cancels the run.
   */
  refresh(key: string, { afterQuiet, ...request }: HostRefreshRequest, signal?: AbortSignal): Promise<RefreshReport | undefined> {
    const done = this.request(key, request, afterQuiet);
    signal?.addEventListener('abort', () => this.cancel(key), { once: true });
    return done;
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

  /** The root's freshness policy (its queue's): a bounded wait, then what is still pending. */
  ensureFresh(key: string, options?: { waitMs?: number }): Promise<FreshnessState> {
    return this.root(key).queue.ensureFresh(options);
  }

  /** An explicit refresh (of `paths`, or the whole root), waited for as the policy says. */
  refreshNow(key: string, paths?: string[]): Promise<FreshnessState> {
    return this.root(key).queue.refreshNow(paths);
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
    return this.reading(key).search(query, { ...options, ...NEVER });
  }

  searchFiles(key: string, query: string, options: SearchOptions): Promise<FileSearchResponse> {
    return this.reading(key).searchFiles(query, { ...options, ...NEVER });
  }

  findSymbol(key: string, name: string, options: SymbolOptions): Promise<SymbolResponse> {
    return this.reading(key).findSymbol(name, { ...options, ...NEVER });
  }

  references(key: string, name: string, options: ReferenceOptions): Promise<ReferencesResponse> {
    return this.reading(key).references(name, { ...options, ...NEVER });
  }

  /** A context pack, with registry guidance for the task. */
  buildPack(key: string, task: string, options: PackOptions): Promise<ContextPack> {
    const { registry } = this.root(key);
    return this.reading(key).buildPack(task, { ...options, ...NEVER, guidance: registryGuidance(registry) });
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
    clearTimeout(root.releaseTimer);
    root.releaseTimer = undefined;
    await root.queue.close();
    await root.engine.close();
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.roots.keys()].map((k) => this.close(k)));
  }

  private emitState(key: string): void {
    if (this.events.state && this.roots.has(key)) this.events.state({ key, state: this.state(key) });
  }
}

/**
 * The status after a refresh. A whole-root refresh reads it again (languages and skipped files
 * may have changed anywhere); a refresh of some paths takes the counts from the manifest, without reading the state table (that costs as much as the save itself on a big tree).
 * Its skipped files are the report's (the whole root's, those paths' updated), so a file skipped
 * by a save or a checkout is listed as skipped at once, not after the next whole-root refresh.
 */
function statusAfter(engine: Engine, before: IndexStatus, wholeRoot: boolean, report: RefreshReport): IndexStatus {
  if (wholeRoot || !before.exists) return engine.status();
  return { ...engine.status({ manifestOnly: true }), languages: before.languages, skipped: report.skipped, skippedByReason: report.skippedByReason };
}
