// The MCP tools (src/mcp/tools.ts) run inside the extension against the extension's own engine:
// the worker thread behind `services.engine`, never a second engine. This adapts the
// multi-root EngineClient to the single-root `ToolDeps` the tools take, one per folder.
//
// Freshness differs from the MCP server's: the extension already re-indexes on saves and
// file-system changes, so a tool call does not trigger a refresh of its own. It waits
// (bounded) for a refresh that is running, says how current the index is, and refresh_index
// asks the extension for an immediate one.
import type { FileSearchResponse, IndexFreshness as SearchIndexFreshness, IndexStatus, SearchResponse, SymbolResponse, FreshnessPolicy, FreshnessState, FreshnessSummary } from '../../core/api';
import type * as vscode from 'vscode';

import type { ContextRegistry } from '../../core/clientApi';
import { ToolError } from '../../tools/errors';
import type { ToolDeps, ToolEngine } from '../../tools/tools';
import { usageAllowedByEnv, UsageCounters } from '../../tools/usage';
import { storeDirFor } from '../assets';
import { discoveryOptions } from '../engineOptions';
import { findMergedReferences } from '../references/findReferences';
import type { CairnServices, FolderState } from '../services';

/** How long a tool call waits for a running refresh before answering from the index as it is. */
export const TOOL_WAIT_MS = 20_000;

function stateOf(services: CairnServices, folder: vscode.WorkspaceFolder): FolderState | undefined {
  return services.engine.states().find((s) => s.folder.uri.toString() === folder.uri.toString());
}

const busy = (s: FolderState | undefined): boolean => !s || s.kind === 'starting' || s.kind === 'indexing';

/** Resolves when `done(state)` holds or the time is up; returns the state then. */
function waitForState(services: CairnServices, folder: vscode.WorkspaceFolder, done: (s: FolderState | undefined) => boolean, waitMs: number): Promise<FolderState | undefined> {
  return new Promise((resolve) => {
    const check = (): boolean => {
      const s = stateOf(services, folder);
      if (!done(s)) return false;
      finish(s);
      return true;
    };
    const finish = (s: FolderState | undefined): void => {
      clearTimeout(timer);
      subscription.dispose();
      resolve(s);
    };
    const timer = setTimeout(() => finish(stateOf(services, folder)), waitMs);
    const subscription = services.engine.onDidChangeState(() => void check());
    check();
  });
}

/** The search-level freshness block the tools read (`generation` 0 = no index). */
function searchFreshness(s: FolderState | undefined): SearchIndexFreshness {
  const report = s?.lastReport;
  const status = s?.status;
  const generation = Math.max(report?.generation ?? 0, status?.exists ? status.generation : 0);
  return { files: report?.files ?? status?.files ?? 0, chunks: report?.chunks ?? status?.chunks ?? 0, fresh: s?.kind === 'ready', generation };
}

/** Freshness as the extension keeps it: by watching files, not by checking before each query. */
export class WatchedFreshness implements FreshnessPolicy {
  private lastIdleAtMs: number | undefined;
  private busySinceMs: number | undefined;
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly services: CairnServices,
    private readonly folder: vscode.WorkspaceFolder,
    private readonly waitMs = TOOL_WAIT_MS,
  ) {
    this.observe();
    this.subscription = services.engine.onDidChangeState(() => this.observe());
  }

  private observe(): void {
    const s = stateOf(this.services, this.folder);
    if (busy(s)) this.busySinceMs ??= Date.now();
    else {
      if (this.busySinceMs !== undefined || this.lastIdleAtMs === undefined) this.lastIdleAtMs = Date.now();
      this.busySinceMs = undefined;
    }
  }

  private describeState(s: FolderState | undefined, refreshedJustNow: boolean): FreshnessState {
    if (this.services.engine.paused) return { kind: 'failed', message: 'indexing is paused in VS Code (run "Cairn: Resume Indexing")' };
    if (busy(s)) {
      return { kind: 'refreshing', startedAgoMs: Date.now() - (this.busySinceMs ?? Date.now()), ...(s?.progress ? { progress: s.progress } : {}) };
    }
    if (s?.kind === 'error') return { kind: 'failed', message: s.error ?? 'the last refresh failed' };
    if (refreshedJustNow && s?.lastReport) return { kind: 'refreshed', report: s.lastReport };
    return { kind: 'recent', checkedAgoMs: Date.now() - (this.lastIdleAtMs ?? Date.now()) };
  }

  async ensureFresh(): Promise<FreshnessState> {
    const before = stateOf(this.services, this.folder);
    if (!busy(before) || this.services.engine.paused) return this.describeState(before, false);
    const after = await waitForState(this.services, this.folder, (s) => !busy(s), this.waitMs);
    return this.describeState(after, !busy(after));
  }

  async refreshNow(paths?: string[]): Promise<FreshnessState> {
    // While paused the extension queues refreshes until resume: say so instead of waiting.
    if (this.services.engine.paused) return this.describeState(stateOf(this.services, this.folder), false);
    let failure: string | undefined;
    const refreshed = this.services.engine.refresh(this.folder, paths).then(
      () => true,
      (e: unknown) => ((failure = e instanceof Error ? e.message : String(e)), true),
    );
    const outcome = await Promise.race([refreshed, new Promise<false>((r) => setTimeout(() => r(false), this.waitMs))]);
    if (failure !== undefined) return { kind: 'failed', message: failure };
    const s = stateOf(this.services, this.folder);
    if (!outcome) return { kind: 'refreshing', startedAgoMs: this.waitMs, ...(s?.progress ? { progress: s.progress } : {}) };
    this.lastIdleAtMs = Date.now();
    // Done: another refresh (a file watcher's) may already be running, but ours has landed.
    return s?.lastReport ? { kind: 'refreshed', report: s.lastReport } : this.describeState(s, false);
  }

  describe(): FreshnessSummary {
    const s = stateOf(this.services, this.folder);
    return {
      // The extension refreshes on file changes, not on an interval.
      minIntervalMs: 0,
      ...(this.lastIdleAtMs !== undefined ? { lastCheckedAtMs: this.lastIdleAtMs } : {}),
      ...(busy(s) ? { running: { startedAgoMs: Date.now() - (this.busySinceMs ?? Date.now()), ...(s?.progress ? { progress: s.progress } : {}) } } : {}),
      ...(s?.kind === 'error' && s.error ? { lastFailure: s.error } : {}),
    };
  }

  dispose(): void {
    this.subscription.dispose();
  }
}

/** One folder of the extension's engine, as the tools see an engine. */
export function folderToolEngine(services: CairnServices, folder: vscode.WorkspaceFolder): ToolEngine {
  return {
    async search(query, options): Promise<SearchResponse> {
      const { refresh: _refresh, refreshStale: _refreshStale, ...rest } = options;
      const r = await services.engine.search(query, { ...rest, folder });
      return { query, results: r.results, total: r.total, ...(r.totalIsLowerBound ? { totalIsLowerBound: true as const } : {}), tookMs: r.tookMs, index: searchFreshness(stateOf(services, folder)), warnings: r.warnings, diagnostics: [] };
    },
    async searchFiles(query, options): Promise<FileSearchResponse> {
      const { refresh: _refresh, refreshStale: _refreshStale, ...rest } = options;
      const r = await services.engine.searchFiles(query, { ...rest, folder });
      return { query, files: r.files, total: r.total, ...(r.totalIsLowerBound ? { totalIsLowerBound: true as const } : {}), tookMs: r.tookMs, index: searchFreshness(stateOf(services, folder)), warnings: r.warnings, diagnostics: [] };
    },
    async findSymbol(name, options): Promise<SymbolResponse> {
      const { refresh: _refresh, ...rest } = options;
      const r = await services.engine.findSymbol(name, { ...rest, folder });
      return {
        query: name,
        exact: r.exact ?? false,
        results: r.results,
        ...(r.note ? { note: r.note } : {}),
        tookMs: r.tookMs,
        index: searchFreshness(stateOf(services, folder)),
        diagnostics: r.warnings.map((message) => ({ severity: 'warning' as const, code: 'folder-error', message })),
      };
    },
    async references(name, options) {
      // The index's references merged with the language servers' (the CLI and MCP server have only the index).
      const { refresh: _refresh, ...rest } = options;
      const { folder: _name, ...answer } = await findMergedReferences(services.engine, name, { ...rest, folder, folderOf: () => folder });
      return answer;
    },
    async buildPack(task, options) {
      // The worker adds registry guidance itself; the engine client never refreshes on a read.
      const { refresh: _refresh, guidance: _guidance, ...rest } = options;
      const { folder: _name, ...pack } = await services.engine.buildPack(task, { ...rest, folder });
      return pack;
    },
    status(): IndexStatus {
      const status = stateOf(services, folder)?.status;
      if (!status) throw new ToolError(`the index of ${folder.name} is still being opened; try again in a few seconds`);
      return status;
    },
  };
}

/**
 * The registry through the worker. The tools only call `search` and `get`; `ToolDeps` names the
 * class, whose private fields no adapter can have, hence the one cast.
 */
function folderRegistry(services: CairnServices, folder: vscode.WorkspaceFolder): ContextRegistry {
  const reader: Pick<ContextRegistry, 'search' | 'get'> = {
    search: (query, options) => services.engine.contextSearch(query, { ...options, folder }),
    get: (id, options) => services.engine.contextGet(id, { ...options, folder }),
  };
  return reader as ContextRegistry;
}

/** ToolDeps per workspace folder, created on first use and kept (their freshness tracks state). */
export class FolderToolDeps implements vscode.Disposable {
  private readonly byFolder = new Map<string, { deps: ToolDeps; freshness: WatchedFreshness; usage: UsageCounters }>();

  constructor(private readonly services: CairnServices) {}

  for(folder: vscode.WorkspaceFolder): ToolDeps {
    const key = folder.uri.toString();
    let entry = this.byFolder.get(key);
    if (!entry) {
      const freshness = new WatchedFreshness(this.services, folder);
      const log = (message: string): void => this.services.log.error(`[${folder.name}] ${message}`);
      // The setting is asked on every call, so turning it off stops counting at once.
      const usage = new UsageCounters({
        root: folder.uri.fsPath,
        storeDir: storeDirFor(this.services.context, folder),
        enabled: () => usageAllowedByEnv() && this.services.settings(folder).agent.usageCounters,
        log: (message) => this.services.log.warn(`[${folder.name}] ${message}`),
      });
      const services = this.services;
      const deps: ToolDeps = {
        root: folder.uri.fsPath,
        engine: folderToolEngine(this.services, folder),
        freshness,
        registry: folderRegistry(this.services, folder),
        log,
        usage,
        // Asked per call: read_span serves what the folder's index holds under today's settings.
        get discovery() {
          return discoveryOptions(services.settings(folder));
        },
      };
      entry = { deps, freshness, usage };
      this.byFolder.set(key, entry);
    }
    return entry.deps;
  }

  /** Forgets folders that left the workspace. */
  prune(current: readonly vscode.WorkspaceFolder[]): void {
    const keep = new Set(current.map((f) => f.uri.toString()));
    for (const [key, entry] of this.byFolder) {
      if (keep.has(key)) continue;
      entry.freshness.dispose();
      void entry.usage.close();
      this.byFolder.delete(key);
    }
  }

  dispose(): void {
    for (const entry of this.byFolder.values()) {
      entry.freshness.dispose();
      // Written in the background: a deactivating extension host gives it a moment.
      void entry.usage.close();
    }
    this.byFolder.clear();
  }
}
