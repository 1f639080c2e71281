// The API an engine host (a worker thread running engines for several roots) offers its owner.
// Declared once; the worker serves it (worker.ts) and the VS Code extension calls it.


import type { FileSearchResponse, SearchOptions, SearchResponse, SymbolOptions, SymbolResponse } from '../search/types';
import type { ContextPack, PackOptions } from '../pack/types';
import type { FetchOptions, RegistryFetchResult, RegistrySearchResponse, SearchOptions as RegistrySearchOptions } from '../registry/types';
import type { EngineOptions, IndexStatus, RefreshProgress, RefreshReport } from '../api';

/** Options for opening an engine host entry: the engine's, plus where the registry lives. */
export interface HostOpenOptions extends EngineOptions {
  /** Context registry folder relative to the root (default `.agent-context/registry`). */
  registryDir?: string;
}

export interface EngineHostApi {
  /** Opens (or re-opens with new options) the engine for `key` (a workspace folder). Never builds. */
  open(key: string, options: HostOpenOptions): Promise<IndexStatus>;
  refresh(key: string, options: { only?: string[]; rebuild?: boolean }): Promise<RefreshReport>;
  search(key: string, query: string, options: SearchOptions): Promise<SearchResponse>;
  /** Files ranked as files (`groupBy: 'file'`). */
  searchFiles(key: string, query: string, options: SearchOptions): Promise<FileSearchResponse>;
  findSymbol(key: string, name: string, options: SymbolOptions): Promise<SymbolResponse>;
  /** A context pack, with registry guidance for the task. */
  buildPack(key: string, task: string, options: PackOptions): Promise<ContextPack>;
  contextSearch(key: string, query: string, options: RegistrySearchOptions): Promise<RegistrySearchResponse>;
  contextGet(key: string, id: string, options: FetchOptions): Promise<RegistryFetchResult>;
  status(key: string): Promise<IndexStatus>;
  close(key: string): Promise<void>;
}

/** Events the host emits. */
export interface EngineHostEvents {
  progress: { key: string; progress: RefreshProgress };
}
