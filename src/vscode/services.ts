// The contract between the extension's parts: activation (extension.ts) assembles one
// CairnServices object and hands it to every command, view, webview and agent feature.
// Nothing here re-implements engine logic: the engine runs on a worker thread.
import type { ContextPack, FileHit, FreshnessPolicy, IndexStatus, PackOptions, ReferenceOptions, ReferencesResponse, RefreshProgress, RefreshReport, SearchHit, SearchOptions, SymbolHit, SymbolOptions, FetchOptions, RegistryFetchResult, RegistrySearchResponse, RegistrySearchOptions } from '../core/api';
import type * as vscode from 'vscode';


import type { SpanTarget } from './openSpan';
import type { CairnSettings } from './settings';
import type { BasketSpan } from '../webview/pack/protocol';

/** Where a folder's index stands. */
export type IndexStateKind = 'starting' | 'indexing' | 'ready' | 'paused' | 'error';

export interface FolderState {
  folder: vscode.WorkspaceFolder;
  kind: IndexStateKind;
  progress?: RefreshProgress;
  /** Human-readable error when kind is `error`. */
  error?: string;
  lastReport?: RefreshReport;
  status?: IndexStatus;
  /** True while the index is built from nothing (the folder's first index, or a rebuild). */
  fromScratch?: boolean;
  /** A native watcher reports this folder's changes (it is served to `cairn` clients). */
  watching?: boolean;
  /** While indexing: the refresh is limited to this many paths (a save, a checkout's files). */
  refreshingFiles?: number;
  /** Changes wait to be indexed (for quiet after file events, behind the running refresh, or for Resume). */
  queued?: boolean;
}

/** A hit from one workspace folder, labelled with the folder (multi-root). */
export type FolderHit<T extends SearchHit = SearchHit> = T & { folder: string; folderUri: string };

/** A file ranked as a file (`groupBy: 'file'`), labelled with its folder. */
export type FolderFile = FileHit & { folder: string; folderUri: string };

export interface MultiSearchResult<T extends SearchHit = SearchHit> {
  results: Array<FolderHit<T>>;
  total: number;
  /** Some folder stopped counting exactly: at least `total` match. */
  totalIsLowerBound?: boolean;
  tookMs: number;
  warnings: string[];
  /** True when at least one folder's answer is exact (symbols). */
  exact?: boolean;
  /** False when no folder has a result holding all the query's words (search): `note` says so. */
  allTerms?: false;
  note?: string;
}

/** The engine as the extension sees it: every workspace folder, through the worker thread. */
export interface EngineClient {
  /** Searches every indexed folder (or one) and merges results by score, stable order. */
  search(query: string, options?: SearchOptions & { folder?: vscode.WorkspaceFolder }): Promise<MultiSearchResult>;
  /** Files ranked as files over every folder (or one). */
  searchFiles(query: string, options?: SearchOptions & { folder?: vscode.WorkspaceFolder }): Promise<{ files: FolderFile[]; total: number; totalIsLowerBound?: boolean; tookMs: number; warnings: string[] }>;
  findSymbol(name: string, options?: SymbolOptions & { folder?: vscode.WorkspaceFolder }): Promise<MultiSearchResult<SymbolHit>>;
  /** The index's references to a name in one folder (default: the folder of the active editor, else the first). */
  references(name: string, options?: ReferenceOptions & { folder?: vscode.WorkspaceFolder }): Promise<ReferencesResponse & { folder: string }>;
  /** A context pack for a task in one folder (default: the folder of the active editor, else the first). */
  buildPack(task: string, options?: PackOptions & { folder?: vscode.WorkspaceFolder }): Promise<ContextPack & { folder: string }>;
  contextSearch(query: string, options?: RegistrySearchOptions & { folder?: vscode.WorkspaceFolder }): Promise<RegistrySearchResponse>;
  contextGet(id: string, options?: FetchOptions & { folder?: vscode.WorkspaceFolder }): Promise<RegistryFetchResult>;
  /** Incremental refresh of a folder (all folders when omitted), optionally only some paths. */
  refresh(folder?: vscode.WorkspaceFolder, only?: string[]): Promise<void>;
  /** The folder's freshness policy: its engine thread's, which every front end waits on (undefined: not a folder of this window). */
  freshness(folder: vscode.WorkspaceFolder): FreshnessPolicy | undefined;
  /**
   * Files changed on disk (a save, a watcher event; `only` undefined: the whole folder): the
   * refresh starts once such events have been quiet for a moment. Failures are logged and shown.
   */
  filesChanged(folder: vscode.WorkspaceFolder, only?: string[]): void;
  /** Starts the engine thread again after it crashed too often and stayed stopped (a user asked). */
  retry(): void;
  /** Discards and rebuilds the index of a folder (all when omitted). */
  rebuild(folder?: vscode.WorkspaceFolder): Promise<void>;
  pause(): void;
  resume(): void;
  readonly paused: boolean;
  states(): FolderState[];
  readonly onDidChangeState: vscode.Event<void>;
}

/**
 * One span the user collected for a context pack (sidebar "Add to Context Pack"). The webview
 * protocol declares it, since the basket travels to the pack webview unchanged.
 */
export type BasketItem = BasketSpan;

/** The spans collected for the current pack; the pack webview shows and uses them. */
export interface PackBasket {
  readonly items: readonly BasketItem[];
  add(item: BasketItem): void;
  remove(docid: string): void;
  clear(): void;
  readonly onDidChange: vscode.Event<void>;
}

export interface CairnServices {
  readonly context: vscode.ExtensionContext;
  readonly engine: EngineClient;
  /**
   * The current settings, read fresh on every call (the setting the UI writes is the one used);
   * with a folder, that folder's resource-scoped values (multi-root workspaces may differ).
   */
  settings(folder?: vscode.WorkspaceFolder): CairnSettings;
  readonly log: vscode.LogOutputChannel;
  readonly basket: PackBasket;
  /**
   * Opens `path:start-end` of a folder in an editor, revealing and highlighting the range, with a
   * single caret and nothing selected: on the `at` position, a search hit's matched line, a
   * definition's name, else the span's first line.
   */
  openSpan(hit: SpanTarget): Promise<void>;
}
