// The MCP tools (src/mcp/tools.ts) run inside the extension against the extension's own engine:
// the worker thread behind `services.engine`, never a second engine. This adapts the
// multi-root EngineClient to the single-root `ToolDeps` the tools take, one per folder.
//
// Freshness is the engine thread's refresh queue, the policy every front end waits on: the
// extension's watcher reports every change, so a tool call waits (bounded) only for work already
// queued, and says which files are still pending.
import type { FileSearchResponse, IndexFreshness as SearchIndexFreshness, IndexStatus, SearchResponse, SymbolResponse, FreshnessPolicy, FreshnessState } from '../../core/api';
import type * as vscode from 'vscode';

import type { ContextRegistry } from '../../core/clientApi';
import { ToolError } from '../../tools/errors';
import type { ToolDeps, ToolEngine } from '../../tools/tools';
import { usageAllowedByEnv, UsageCounters } from '../../tools/usage';
import { storeDirFor } from '../assets';
import { discoveryOptions } from '../engineOptions';
import { findMergedReferences } from '../references/findReferences';
import type { CairnServices, FolderState } from '../services';

function stateOf(services: CairnServices, folder: vscode.WorkspaceFolder): FolderState | undefined {
  return services.engine.states().find((s) => s.folder.uri.toString() === folder.uri.toString());
}

/** The search-level freshness block the tools read (`generation` 0 = no index). */
function searchFreshness(s: FolderState | undefined): SearchIndexFreshness {
  const report = s?.lastReport;
  const status = s?.status;
  const generation = Math.max(report?.generation ?? 0, status?.exists ? status.generation : 0);
  return { files: report?.files ?? status?.files ?? 0, chunks: report?.chunks ?? status?.chunks ?? 0, fresh: s?.kind === 'ready', generation };
}

/**
 * The folder's freshness policy: the engine thread's refresh queue (core/engine/refreshQueue.ts),
 * the one every front end waits on. Asked per call, since the folder's index may open later.
 */
function folderFreshness(services: CairnServices, folder: vscode.WorkspaceFolder): FreshnessPolicy {
  const policy = (): FreshnessPolicy | undefined => services.engine.freshness(folder);
  const opening: FreshnessState = { kind: 'failed', message: `the index of ${folder.name} is still being opened` };
  return {
    ensureFresh: (options) => policy()?.ensureFresh(options) ?? Promise.resolve(opening),
    refreshNow: (paths) => policy()?.refreshNow(paths) ?? Promise.resolve(opening),
    describe: () => policy()?.describe() ?? { minIntervalMs: 0, watching: true },
  };
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

/** ToolDeps per workspace folder, created on first use and kept (their freshness is the engine thread's). */
export class FolderToolDeps implements vscode.Disposable {
  private readonly byFolder = new Map<string, { deps: ToolDeps; usage: UsageCounters }>();

  constructor(private readonly services: CairnServices) {}

  for(folder: vscode.WorkspaceFolder): ToolDeps {
    const key = folder.uri.toString();
    let entry = this.byFolder.get(key);
    if (!entry) {
      const freshness = folderFreshness(this.services, folder);
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
      entry = { deps, usage };
      this.byFolder.set(key, entry);
    }
    return entry.deps;
  }

  /** Forgets folders that left the workspace. */
  prune(current: readonly vscode.WorkspaceFolder[]): void {
    const keep = new Set(current.map((f) => f.uri.toString()));
    for (const [key, entry] of this.byFolder) {
      if (keep.has(key)) continue;
      void entry.usage.close();
      this.byFolder.delete(key);
    }
  }

  dispose(): void {
    for (const entry of this.byFolder.values()) {
      // Written in the background: a deactivating extension host gives it a moment.
      void entry.usage.close();
    }
    this.byFolder.clear();
  }
}
