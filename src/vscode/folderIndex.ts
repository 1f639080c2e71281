// One workspace folder's index as the extension sees it: opens its engine on the engine thread
// (again after a restart or a settings change), forwards refresh requests to the thread's
// refresh queue (which coalesces, debounces file events and pauses: core/engine/refreshQueue.ts),
// and mirrors the queue's state, pushed by the thread, for the views. Nothing is queued here.
import type { FreshnessPolicy, FreshnessState, FreshnessSummary, IndexStatus, RefreshProgress, RefreshReport, RootState, HostOpenOptions } from '../core/api';
import type * as vscode from 'vscode';
import type { HostRefreshRequest } from '../core/engineApi';
import type { EngineThreadClient } from './engineThreadClient';
import type { FolderState, IndexStateKind } from './services';

export interface FolderIndexEvents {
  changed(): void;
  refreshed(report: RefreshReport, request: { only?: string[]; rebuild: boolean }): void;
  failed(error: Error): void;
  opened(status: IndexStatus): void;
}

const PAUSED_STATE: FreshnessState = { kind: 'failed', message: 'indexing is paused in VS Code (run "Cairn: Resume Indexing")' };

export class FolderIndex {
  private openedGeneration = -1;
  private openedSignature = '';
  private opening?: Promise<void>;
  private root?: RootState;
  private status?: IndexStatus;
  private openError?: string;
  /** A refresh failed on the current engine (cleared by the next one that succeeds). */
  private refreshError?: string;
  private closed = false;

  constructor(
    readonly folder: vscode.WorkspaceFolder,
    readonly key: string,
    private readonly host: EngineThreadClient,
    /** The engine options for the current settings; read every time the engine is (re)opened. */
    private readonly options: () => HostOpenOptions,
    private readonly isPaused: () => boolean,
    private readonly events: FolderIndexEvents,
  ) {}

  state(): FolderState {
    // A dead engine thread is every folder's error until it is back.
    const host = this.host.state;
    const hostError = host.kind === 'restarting' ? `${host.error}; restarting` : host.kind === 'stopped' ? host.error : undefined;
    const root = this.openedGeneration === this.host.generation ? this.root : undefined;
    const error = hostError ?? this.openError ?? (root?.kind === 'error' ? root.error : undefined) ?? this.refreshError;
    const base: IndexStateKind = !root ? 'starting' : root.kind === 'refreshing' ? 'indexing' : 'ready';
    const kind: IndexStateKind = error ? 'error' : this.isPaused() && base !== 'starting' ? 'paused' : base;
    const status = root?.status ?? this.status;
    return {
      folder: this.folder,
      kind,
      ...(root?.running?.progress && base === 'indexing' ? { progress: root.running.progress } : {}),
      ...(root?.running && (root.running.rebuild || root.status.exists === false) ? { fromScratch: true } : {}),
      ...(error ? { error } : {}),
      ...(root?.lastReport ? { lastReport: root.lastReport } : {}),
      ...(status ? { status } : {}),
      ...(root?.freshness.watching ? { watching: true } : {}),
      // Files still to index: what the running refresh reported once it knew, else the paths it was asked for.
      ...((root?.pending || root?.running?.paths) !== undefined && base === 'indexing' ? { refreshingFiles: root?.pending || root?.running?.paths } : {}),
      ...(root?.queued ? { queued: true } : {}),
    };
  }

  /** The engine is open on the current engine thread. */
  get isOpen(): boolean {
    return this.openedGeneration === this.host.generation;
  }

  /** True while paused with work waiting. */
  get hasQueuedWork(): boolean {
    return !!this.root?.queued;
  }

  /**
   * Opens the engine on the current host generation if needed. Refreshes also reopen it when the
   * settings changed; reads use whatever engine is open (reopening under a running refresh would
   * cancel it).
   */
  async ensureOpen(forRefresh = false): Promise<void> {
    for (;;) {
      const current = this.openedGeneration === this.host.generation;
      if (current && (!forRefresh || this.openedSignature === JSON.stringify(this.options()))) return;
      if (!this.opening) {
        this.opening = this.open().finally(() => (this.opening = undefined));
        return this.opening;
      }
      await this.opening; // someone else is opening (maybe with older settings): check again
    }
  }

  private async open(): Promise<void> {
    const options = this.options();
    this.host.start();
    const generation = this.host.generation;
    const paused = this.isPaused();
    try {
      const status = await this.host.call('open', [this.key, { ...options, ...(paused ? { paused: true } : {}) }]);
      this.openedGeneration = generation;
      this.openedSignature = JSON.stringify(options);
      this.status = status;
      this.root = undefined;
      this.openError = undefined;
      // Paused or resumed while the engine was opening.
      if (this.isPaused() !== paused) this.whenOpen((key) => this.host.call(paused ? 'resume' : 'pause', [key]));
      this.events.opened(status);
    } catch (e) {
      this.openError = e instanceof Error ? e.message : String(e);
      throw e;
    } finally {
      this.events.changed();
    }
  }

  /**
   * Asks the engine thread for a refresh; resolves when it ran (at once while paused: the work
   * stays queued there). `afterQuiet`: file events, which wait for the queue's quiet time.
   */
  async request(request: HostRefreshRequest): Promise<void> {
    if (this.closed) return;
    try {
      await this.ensureOpen(true);
      const report = await this.host.call('refresh', [this.key, request]);
      if (report) this.refreshError = undefined;
    } catch (e) {
      const error = e instanceof Error ? e : new Error(String(e));
      // A thread that died under the refresh runs a whole-folder one when it is back.
      if (this.host.state.kind !== 'restarting' && !this.closed) {
        this.refreshError = error.message;
        this.events.failed(error);
        this.events.changed();
      }
      throw error;
    }
  }

  /** Settings that change discovery or chunking: reopen with the new options, then refresh everything. */
  reconfigure(): Promise<void> {
    return this.request({});
  }

  pause(): void {
    this.whenOpen((key) => this.host.call('pause', [key]));
    this.events.changed();
  }

  resume(): void {
    this.whenOpen((key) => this.host.call('resume', [key]));
    this.events.changed();
  }

  /** Resolves once nothing is running or queued (or at once while paused). */
  async whenIdle(): Promise<void> {
    if (this.isPaused()) return;
    if (this.opening) await this.opening.catch(() => undefined);
    if (this.openedGeneration !== this.host.generation) return;
    await this.host.call('whenIdle', [this.key]).catch(() => undefined);
  }

  /**
   * The folder's freshness policy for the agent tools: the engine thread's queue (the one policy
   * every front end waits on), asked over RPC; no waiting or timer of its own here.
   */
  readonly freshness: FreshnessPolicy = {
    ensureFresh: async (options): Promise<FreshnessState> => {
      if (this.isPaused()) return PAUSED_STATE;
      await this.ensureOpen();
      return this.host.call('ensureFresh', [this.key, options]);
    },
    refreshNow: async (paths): Promise<FreshnessState> => {
      // While paused the thread keeps refreshes queued until resume: say so instead of waiting.
      if (this.isPaused()) return PAUSED_STATE;
      await this.ensureOpen(true);
      return this.host.call('refreshNow', [this.key, paths]);
    },
    describe: (): FreshnessSummary => this.root?.freshness ?? { minIntervalMs: 0, watching: true },
  };

  private whenOpen(call: (key: string) => Promise<unknown>): void {
    if (this.openedGeneration === this.host.generation) call(this.key).catch(() => undefined);
  }

  onProgress(progress: RefreshProgress): void {
    if (!this.root?.running) return;
    this.root = { ...this.root, running: { ...this.root.running, progress } };
    this.events.changed();
  }

  /** The engine thread pushed this folder's state. */
  onState(state: RootState): void {
    this.root = state;
    this.status = state.status;
    this.events.changed();
  }

  onRefreshed(report: RefreshReport, request: { only?: string[]; rebuild: boolean }): void {
    this.refreshError = undefined;
    this.events.refreshed(report, request);
  }

  /** The host thread is running again: open the engine anew and check the whole folder. */
  hostRestarted(): void {
    if (this.closed || this.openedGeneration < 0) return;
    this.request({}).catch(() => undefined);
  }

  /** The host gave up restarting: the views show its error. */
  hostStopped(): void {
    this.events.changed();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.openedGeneration === this.host.generation) await this.host.call('close', [this.key]).catch(() => undefined);
  }
}
