// EngineClient over the engine host thread: one FolderIndex per workspace folder, answers merged
// across folders, pause/resume, and the log lines that say what the indexer did. Nothing here
// parses, chunks or indexes: that happens on the worker thread.
import type { ContextPack, FileSearchResponse, PackOptions, ReferenceOptions, ReferencesResponse, RefreshMode, RefreshReport, SearchOptions, SearchResponse, SymbolHit, SymbolOptions, SymbolResponse, FreshnessPolicy, HostOpenOptions, FetchOptions, RegistryFetchResult, RegistrySearchResponse, RegistrySearchOptions } from '../core/api';
import * as os from 'node:os';
import * as vscode from 'vscode';
import { isInsideRoot } from '../core/clientApi';
import { folderKey, storeDirFor, type ExtensionAssets } from './assets';
import { EngineThreadClient } from './engineThreadClient';
import { FolderIndex } from './folderIndex';
import { mergeFiles, mergeSearch, mergeSymbols, type FolderAnswer } from './mergeResults';
import type { EngineClient, FolderFile, FolderState, MultiSearchResult } from './services';
import { chunkingOptions, discoveryOptions } from './engineOptions';
import { chooseRegistryDir } from './registryDir';
import { readSettings, SECTION } from './settings';

/** Reads never build or refresh on their own: the extension schedules refreshes itself. */
const NO_REFRESH: { refresh: RefreshMode } = { refresh: 'never' };

const PAUSED_KEY = 'cairn.paused';

/** What a finished refresh did, in one line for the log. */
export function describeReport(report: RefreshReport): string {
  const parts = [`+${report.added} ~${report.changed} -${report.removed}`, `${report.unchanged} unchanged`, `${report.chunksAdded} chunks added, ${report.chunksRemoved} removed`];
  return `${parts.join(', ')}; ${report.files} files, ${report.chunks} chunks (generation ${report.generation}) in ${report.durationMs} ms`;
}

export class WorkerEngineClient implements EngineClient, vscode.Disposable {
  readonly host: EngineThreadClient;
  /** VS Code's ripgrep binary, when found (exact-text search). */
  readonly ripgrep?: string;
  private readonly folders = new Map<string, FolderIndex>();
  private isPaused: boolean;
  private readonly stateEmitter = new vscode.EventEmitter<void>();
  private readonly refreshEmitter = new vscode.EventEmitter<{ folder: vscode.WorkspaceFolder; report: RefreshReport; only?: string[]; rebuild: boolean }>();
  private readonly disposables: vscode.Disposable[] = [];
  readonly onDidChangeState = this.stateEmitter.event;
  /** Fires after every completed refresh, with the paths it was limited to. */
  readonly onDidRefresh = this.refreshEmitter.event;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly assets: ExtensionAssets,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.host = new EngineThreadClient(assets.engineWorker, log);
    this.ripgrep = assets.ripgrep;
    this.isPaused = context.workspaceState.get<boolean>(PAUSED_KEY) ?? false;
    this.disposables.push(
      this.host.onProgress(({ key, progress }) => this.folders.get(key)?.onProgress(progress)),
      this.host.onRootState(({ key, state }) => this.folders.get(key)?.onState(state)),
      this.host.onRefreshed(({ key, report, request }) => this.folders.get(key)?.onRefreshed(report, request)),
      this.host.onLog(({ key, line }) => this.log.info(`[${this.folders.get(key)?.folder.name ?? key}] ${line}`)),
      this.host.onDidChangeState((s) => {
        for (const f of this.folders.values()) {
          if (s.kind === 'running') f.hostRestarted();
          else if (s.kind === 'stopped') f.hostStopped();
        }
        this.stateEmitter.fire();
      }),
    );
  }

  /** Starts the host thread and brings every folder up to date. Returns at once. */
  start(folders: readonly vscode.WorkspaceFolder[]): void {
    this.host.start();
    for (const folder of folders) this.addFolder(folder);
  }

  addFolder(folder: vscode.WorkspaceFolder): void {
    const key = folderKey(folder);
    if (this.folders.has(key)) return;
    const index = new FolderIndex(folder, key, this.host, () => this.openOptions(folder), () => this.isPaused, {
      changed: () => this.stateEmitter.fire(),
      opened: (status) => {
        for (const d of status.diagnostics) this.log.warn(`[${folder.name}] ${d.message}`);
        this.serve(folder, key);
      },
      refreshed: (report, request) => {
        this.logReport(folder, report, request);
        this.refreshEmitter.fire({ folder, report, ...request });
      },
      failed: (error) => this.log.error(`[${folder.name}] indexing failed: ${error.message}`),
    });
    this.folders.set(key, index);
    if (this.isPaused) this.log.info(`[${folder.name}] indexing is paused; the index is brought up to date on resume`);
    // Incremental: unchanged files cost a stat; a missing store is built from scratch.
    index.request({}).catch(() => undefined);
    this.stateEmitter.fire();
  }

  /**
   * Serves the folder's index on its store's socket (after every open: a re-open stops it), so
   * `cairn` in the integrated terminal and MCP clients get this warm, watched index. A
   * single-folder window's terminals get `CAIRN_STORE`, which is how `cairn` finds that store.
   */
  private serve(folder: vscode.WorkspaceFolder, key: string): void {
    const env = this.context.environmentVariableCollection;
    const single = (vscode.workspace.workspaceFolders?.length ?? 0) === 1;
    const settings = readSettings(folder);
    // A served index is watched: every change is indexed, which cairn.indexOnSave off declines.
    if (!settings.agent.serveTerminal || !settings.indexOnSave) {
      env.delete('CAIRN_STORE');
      this.host.call('unserve', [key]).catch(() => undefined);
      return;
    }
    const { root, storeDir } = this.openOptions(folder);
    this.host.call('serve', [key, root, storeDir, this.assets.watcher]).then(
      (socket) => {
        if (single) {
          env.description = 'Points cairn at the index this window keeps current';
          env.replace('CAIRN_STORE', storeDir);
        }
        this.log.info(`[${folder.name}] serving the index to cairn and MCP clients on ${socket}`);
      },
      (e: unknown) => this.log.warn(`[${folder.name}] not serving the index to cairn clients: ${e instanceof Error ? e.message : String(e)}`),
    );
  }

  /** `cairn.agent.serveTerminal` or `cairn.indexOnSave` changed: start or stop serving each folder. */
  updateServing(): void {
    for (const index of this.folders.values()) if (index.isOpen) this.serve(index.folder, index.key);
  }

  async removeFolder(folder: vscode.WorkspaceFolder): Promise<void> {
    const key = folderKey(folder);
    const index = this.folders.get(key);
    this.folders.delete(key);
    this.stateEmitter.fire();
    await index?.close();
  }

  private openOptions(folder: vscode.WorkspaceFolder): HostOpenOptions {
    const settings = readSettings(folder);
    return {
      root: folder.uri.fsPath,
      storeDir: storeDirFor(this.context, folder),
      grammarsDir: this.assets.grammarsDir,
      workerScript: this.assets.chunkWorker,
      // Leave a core for the editor: indexing must never make typing lag.
      workers: Math.max(1, os.availableParallelism() - 1),
      ...(this.assets.ripgrep ? { ripgrepPath: this.assets.ripgrep } : {}),
      discovery: discoveryOptions(settings),
      ...chunkingOptions(settings),
      ...this.registryDir(folder),
      // changeWatcher.ts reports every change of the folder: a query never waits for a tree check.
      watched: true,
    };
  }

  /** `cairn.registry.dir` for a folder, a workspace's value outside it ignored with a warning (registryDir.ts). */
  private registryDir(folder: vscode.WorkspaceFolder): { registryDir?: string } {
    const values = vscode.workspace.getConfiguration(SECTION, folder).inspect<string>('registry.dir');
    const choice = chooseRegistryDir(values, (dir) => isInsideRoot(folder.uri.fsPath, dir));
    if (choice.warning) this.log.warn(`[${folder.name}] ${choice.warning}`);
    return choice.dir ? { registryDir: choice.dir } : {};
  }

  private logReport(folder: vscode.WorkspaceFolder, report: RefreshReport, request: { only?: string[]; rebuild: boolean }): void {
    const scope = request.rebuild ? 'rebuilt' : request.only ? `refreshed ${request.only.length} path(s)` : 'refreshed';
    const corrupt = report.diagnostics.filter((d) => d.code === 'store-corrupt' || d.code === 'store-version');
    for (const d of corrupt) this.log.warn(`[${folder.name}] the index store could not be read (${d.message}); rebuilt it from scratch`);
    if (report.rebuilt && !request.rebuild && corrupt.length === 0) this.log.info(`[${folder.name}] built a new index`);
    this.log.info(`[${folder.name}] ${scope}: ${describeReport(report)}`);
    for (const d of report.diagnostics) {
      if (corrupt.includes(d)) continue;
      const line = `[${folder.name}] ${d.path ? `${d.path}: ` : ''}${d.message}`;
      if (d.severity === 'error') this.log.error(line);
      else if (d.severity === 'warning') this.log.warn(line);
      else this.log.debug(line);
    }
  }

  /** The folder index for a folder, or every folder. */
  private targets(folder?: vscode.WorkspaceFolder): FolderIndex[] {
    if (!folder) return [...this.folders.values()];
    const index = this.folders.get(folderKey(folder));
    return index ? [index] : [];
  }

  indexFor(folder: vscode.WorkspaceFolder): FolderIndex | undefined {
    return this.folders.get(folderKey(folder));
  }

  private async ask<R>(targets: FolderIndex[], question: (key: string) => Promise<R>): Promise<Array<FolderAnswer<R>>> {
    return Promise.all(
      targets.map(async (t): Promise<FolderAnswer<R>> => {
        const folder = { name: t.folder.name, uri: t.folder.uri.toString() };
        try {
          await t.ensureOpen();
          return { folder, response: await question(t.key) };
        } catch (e) {
          return { folder, error: e instanceof Error ? e.message : String(e) };
        }
      }),
    );
  }

  async search(query: string, options: SearchOptions & { folder?: vscode.WorkspaceFolder } = {}): Promise<MultiSearchResult> {
    const started = performance.now();
    const { folder, ...rest } = options;
    const limit = rest.limit ?? readSettings().resultLimit;
    // Extra engine options (`refresh`) travel with the search options to Engine.search.
    const engineOptions: SearchOptions = { ...rest, limit, ...NO_REFRESH };
    const answers = await this.ask<SearchResponse>(this.targets(folder), (key) => this.host.call('search', [key, query, engineOptions]));
    const merged = mergeSearch(answers, limit);
    return { ...merged, tookMs: Math.round(performance.now() - started) };
  }

  async searchFiles(query: string, options: SearchOptions & { folder?: vscode.WorkspaceFolder } = {}): Promise<{ files: FolderFile[]; total: number; totalIsLowerBound?: boolean; tookMs: number; warnings: string[] }> {
    const started = performance.now();
    const { folder, ...rest } = options;
    const limit = rest.limit ?? readSettings().resultLimit;
    const engineOptions: SearchOptions = { ...rest, limit, groupBy: 'file', ...NO_REFRESH };
    const answers = await this.ask<FileSearchResponse>(this.targets(folder), (key) => this.host.call('searchFiles', [key, query, engineOptions]));
    return { ...mergeFiles(answers, limit), tookMs: Math.round(performance.now() - started) };
  }

  async findSymbol(name: string, options: SymbolOptions & { folder?: vscode.WorkspaceFolder } = {}): Promise<MultiSearchResult<SymbolHit>> {
    const started = performance.now();
    const { folder, ...rest } = options;
    const limit = rest.limit ?? 50;
    const engineOptions: SymbolOptions = { ...rest, limit, ...NO_REFRESH };
    const answers = await this.ask<SymbolResponse>(this.targets(folder), (key) => this.host.call('findSymbol', [key, name, engineOptions]));
    return { ...mergeSymbols(answers, limit), tookMs: Math.round(performance.now() - started) };
  }

  /** The index's references to a name in one folder (default: the active editor's, else the first). */
  async references(name: string, options: ReferenceOptions & { folder?: vscode.WorkspaceFolder } = {}): Promise<ReferencesResponse & { folder: string }> {
    const { folder, ...rest } = options;
    const index = this.defaultFolder(folder);
    await index.ensureOpen();
    const answer = await this.host.call('references', [index.key, name, { ...rest, ...NO_REFRESH } as ReferenceOptions]);
    return { ...answer, folder: index.folder.name };
  }

  /** The folder of the active editor, else the first folder. */
  private defaultFolder(folder?: vscode.WorkspaceFolder): FolderIndex {
    const uri = vscode.window.activeTextEditor?.document.uri;
    const chosen = folder ?? (uri && vscode.workspace.getWorkspaceFolder(uri)) ?? vscode.workspace.workspaceFolders?.[0];
    const index = chosen && this.folders.get(folderKey(chosen));
    if (!index) throw new Error('Cairn: open a folder first: there is nothing indexed');
    return index;
  }

  async buildPack(task: string, options: PackOptions & { folder?: vscode.WorkspaceFolder } = {}): Promise<ContextPack & { folder: string }> {
    const { folder, ...rest } = options;
    const index = this.defaultFolder(folder);
    // Saves still in the debounce window or a running refresh: let them land first.
    await index.whenIdle();
    await index.ensureOpen();
    const pack = await this.host.call('buildPack', [index.key, task, { ...rest, ...NO_REFRESH } as PackOptions]);
    return { ...pack, folder: index.folder.name };
  }

  async contextSearch(query: string, options: RegistrySearchOptions & { folder?: vscode.WorkspaceFolder } = {}): Promise<RegistrySearchResponse> {
    const { folder, ...rest } = options;
    const index = this.defaultFolder(folder);
    await index.ensureOpen();
    return this.host.call('contextSearch', [index.key, query, rest]);
  }

  async contextGet(id: string, options: FetchOptions & { folder?: vscode.WorkspaceFolder } = {}): Promise<RegistryFetchResult> {
    const { folder, ...rest } = options;
    const index = this.defaultFolder(folder);
    await index.ensureOpen();
    return this.host.call('contextGet', [index.key, id, rest]);
  }

  freshness(folder: vscode.WorkspaceFolder): FreshnessPolicy | undefined {
    return this.indexFor(folder)?.freshness;
  }

  async refresh(folder?: vscode.WorkspaceFolder, only?: string[]): Promise<void> {
    await Promise.all(this.targets(folder).map((t) => t.request(only ? { only } : {})));
  }

  filesChanged(folder: vscode.WorkspaceFolder, only?: string[]): void {
    for (const t of this.targets(folder)) t.request({ ...(only ? { only } : {}), afterQuiet: true }).catch(() => undefined);
  }

  async rebuild(folder?: vscode.WorkspaceFolder): Promise<void> {
    await Promise.all(this.targets(folder).map((t) => t.request({ rebuild: true })));
  }

  retry(): void {
    this.host.retry();
  }

  /** Settings that change discovery or chunking changed for these folders. */
  reconfigure(folders: readonly vscode.WorkspaceFolder[]): void {
    for (const t of folders.flatMap((f) => this.targets(f))) t.reconfigure().catch(() => undefined);
  }

  get paused(): boolean {
    return this.isPaused;
  }

  pause(): void {
    if (this.isPaused) return;
    this.isPaused = true;
    void this.context.workspaceState.update(PAUSED_KEY, true);
    this.log.info('indexing paused');
    for (const f of this.folders.values()) f.pause();
    this.stateEmitter.fire();
  }

  resume(): void {
    if (!this.isPaused) return;
    this.isPaused = false;
    void this.context.workspaceState.update(PAUSED_KEY, false);
    this.log.info('indexing resumed');
    for (const f of this.folders.values()) f.resume();
    this.stateEmitter.fire();
  }

  states(): FolderState[] {
    return [...this.folders.values()].map((f) => f.state());
  }

  /** Resolves when no folder has a refresh running or queued. */
  async whenIdle(): Promise<void> {
    await Promise.all([...this.folders.values()].map((f) => f.whenIdle()));
  }

  /** Closes every engine (releasing the store locks) before the thread is stopped. */
  async shutdown(): Promise<void> {
    const closing = Promise.all([...this.folders.values()].map((f) => f.close()));
    await Promise.race([closing, new Promise((r) => setTimeout(r, 2000))]);
    this.dispose();
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
    this.host.dispose();
    this.stateEmitter.dispose();
    this.refreshEmitter.dispose();
  }
}
