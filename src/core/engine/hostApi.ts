// The API an engine host (a worker thread running engines for several roots) offers its owner.
// Declared once; the worker serves it (worker.ts) and the VS Code extension calls it.
import type { EngineOptions, IndexStatus } from './engine';
import type { RefreshProgress, RefreshReport } from './indexer';
import type { SearchOptions, SearchResponse, SymbolOptions, SymbolResponse } from '../search/types';

export interface EngineHostApi {
  /** Opens (or re-opens with new options) the engine for `key` (a workspace folder). Never builds. */
  open(key: string, options: EngineOptions): Promise<IndexStatus>;
  refresh(key: string, options: { only?: string[]; rebuild?: boolean }): Promise<RefreshReport>;
  search(key: string, query: string, options: SearchOptions): Promise<SearchResponse>;
  findSymbol(key: string, name: string, options: SymbolOptions): Promise<SymbolResponse>;
  status(key: string): Promise<IndexStatus>;
  close(key: string): Promise<void>;
}

/** Events the host emits. */
export interface EngineHostEvents {
  progress: { key: string; progress: RefreshProgress };
}
