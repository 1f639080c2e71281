// One workspace folder's index: opens its engine on the host thread (again after a restart or a
// settings change), and runs refreshes one at a time. Requests that arrive while a refresh runs
// are COALESCED into the next one: a burst of saves or a branch switch becomes one
// `refresh(only)`; a full refresh or a rebuild absorbs any path list. Pausing cancels the running
// refresh and keeps its work queued for `resume`.
import type { IndexStatus, RefreshProgress, RefreshReport } from '../core/api';
import type * as vscode from 'vscode';

import type { HostOpenOptions } from '../core/engine/hostApi';

import type { EngineHost } from './engineHost';
import type { FolderState, IndexStateKind } from './services';

export interface RefreshRequest {
  /** Relative paths (files or folders); undefined = the whole folder. */
  only?: string[];
  rebuild?: boolean;
}

interface Pending {
  all: boolean;
  paths: Set<string>;
  rebuild: boolean;
  waiters: Array<{ resolve: () => void; reject: (e: Error) => void }>;
}

export interface FolderIndexEvents {
  changed(): void;
  refreshed(report: RefreshReport, request: { only?: string[]; rebuild: boolean }): void;
  failed(error: Error): void;
  opened(status: IndexStatus): void;
}

const cancelledByPause = 'paused';
const cancelledBySuperseding = 'superseded';

export class FolderIndex {
  private openedGeneration = -1;
  private openedSignature = '';
  private opening?: Promise<void>;
  private pending?: Pending;
  private running?: { controller: AbortController; request: Pending };
  private kind: IndexStateKind = 'starting';
  private error?: string;
  private progress?: RefreshProgress;
  private lastReport?: RefreshReport;
  private status?: IndexStatus;
  private closed = false;
  private idleWaiters: Array<() => void> = [];

  constructor(
    readonly folder: vscode.WorkspaceFolder,
    readonly key: string,
    private readonly host: EngineHost,
    /** The engine options for the current settings; read every time the engine is (re)opened. */
    private readonly options: () => HostOpenOptions,
    private readonly isPaused: () => boolean,
    private readonly events: FolderIndexEvents,
  ) {}

  state(): FolderState {
    // A dead engine thread is every folder's error until it is back.
    const host = this.host.state;
    const hostError = host.kind === 'restarting' ? `${host.error}; restarting` : host.kind === 'stopped' ? host.error : undefined;
    const kind: IndexStateKind = hostError || this.kind === 'error' ? 'error' : this.isPaused() && this.kind !== 'starting' ? 'paused' : this.kind;
    const error = hostError ?? this.error;
    return {
      folder: this.folder,
      kind,
      ...(this.progress && this.kind === 'indexing' ? { progress: this.progress } : {}),
      ...(this.running && (this.running.request.rebuild || this.status?.exists === false) ? { fromScratch: true } : {}),
      ...(error ? { error } : {}),
      ...(this.lastReport ? { lastReport: this.lastReport } : {}),
      ...(this.status ? { status: this.status } : {}),
    };
  }

  /** True while paused with work waiting. */
  get hasQueuedWork(): boolean {
    return !!this.pending;
  }

  /**
   * Opens the engine on the current host generation if needed. Refreshes also reopen it when the
   * settings changed; reads use whatever engine is open (reopening under a running refresh would
   * pull its chunk workers away).
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
    const status = await this.host.call('open', [this.key, options]);
    this.openedGeneration = generation;
    this.openedSignature = JSON.stringify(options);
    this.status = status;
    if (this.kind === 'starting') this.kind = 'ready';
    this.events.opened(status);
    this.events.changed();
  }

  /** Queues a refresh; resolves when it has run (at once while paused: the work stays queued). */
  request(request: RefreshRequest): Promise<void> {
    if (this.closed) return Promise.resolve();
    const p = (this.pending ??= { all: false, paths: new Set(), rebuild: false, waiters: [] });
    if (request.rebuild) p.rebuild = true;
    if (request.only === undefined || request.rebuild) p.all = true;
    else for (const path of request.only) p.paths.add(path);
    const done = new Promise<void>((resolve, reject) => {
      if (this.isPaused()) resolve();
      else p.waiters.push({ resolve, reject });
    });
    // A rebuild makes the running refresh pointless.
    if (request.rebuild && this.running) this.running.controller.abort(cancelledBySuperseding);
    void this.drain();
    this.events.changed();
    return done;
  }

  /** Settings that change discovery or chunking: reopen with the new options, then refresh everything. */
  reconfigure(): Promise<void> {
    this.running?.controller.abort(cancelledBySuperseding);
    return this.request({});
  }

  /** Cancels the running refresh (its work goes back to the queue). */
  pause(): void {
    this.running?.controller.abort(cancelledByPause);
    // Whoever waits for queued work is not kept waiting while paused.
    if (this.pending) for (const w of this.pending.waiters.splice(0)) w.resolve();
    this.events.changed();
  }

  resume(): void {
    void this.drain();
    this.events.changed();
  }

  /** Resolves once nothing is running or queued (or at once while paused). */
  whenIdle(): Promise<void> {
    if ((!this.running && !this.pending) || this.isPaused()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private async drain(): Promise<void> {
    if (this.running) return;
    while (this.pending && !this.isPaused() && !this.closed) {
      const request = this.pending;
      this.pending = undefined;
      const controller = new AbortController();
      this.running = { controller, request };
      const only = request.all ? undefined : [...request.paths].sort();
      this.kind = 'indexing';
      this.progress = undefined;
      this.events.changed();
      try {
        await this.ensureOpen(true);
        const report = await this.host.call('refresh', [this.key, { ...(only ? { only } : {}), ...(request.rebuild ? { rebuild: true } : {}) }], controller.signal);
        this.running = undefined;
        this.lastReport = report;
        this.error = undefined;
        this.kind = 'ready';
        // Report first: a search can already see the new generation.
        this.events.refreshed(report, { ...(only ? { only } : {}), rebuild: request.rebuild });
        this.status = await this.host.call('status', [this.key]).catch(() => this.status);
        for (const w of request.waiters) w.resolve();
      } catch (e) {
        this.running = undefined;
        const error = e instanceof Error ? e : new Error(String(e));
        const reason: unknown = controller.signal.reason;
        if (controller.signal.aborted && (reason === cancelledByPause || reason === cancelledBySuperseding)) {
          this.requeue(request);
          this.kind = 'ready';
          // requeue() refilled `pending` (TypeScript still believes it is undefined here).
          const queued = this.pending as Pending | undefined;
          if (reason === cancelledByPause) for (const w of queued?.waiters.splice(0) ?? []) w.resolve();
        } else if (this.host.state.kind === 'restarting') {
          // The thread died under this refresh: run it again once the host is back.
          this.requeue(request);
          this.kind = 'error';
          this.error = this.host.state.error;
          this.events.changed();
          return;
        } else {
          this.kind = 'error';
          this.error = error.message;
          this.events.failed(error);
          for (const w of request.waiters) w.reject(error);
        }
      }
      this.progress = undefined;
      this.events.changed();
    }
    if (!this.running && (!this.pending || this.isPaused())) for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  /** Puts a cancelled request back in front of whatever arrived since. */
  private requeue(request: Pending): void {
    const later = this.pending;
    this.pending = request;
    if (!later) return;
    request.all ||= later.all;
    request.rebuild ||= later.rebuild;
    for (const p of later.paths) request.paths.add(p);
    request.waiters.push(...later.waiters);
  }

  /** The host thread is running again: forget the dead engine and run what was queued. */
  hostRestarted(): void {
    if (this.kind === 'error' && this.pending) {
      this.kind = 'ready';
      this.error = undefined;
    }
    void this.drain();
  }

  /** The host gave up restarting: report it and fail whoever waits. */
  hostStopped(message: string): void {
    this.kind = 'error';
    this.error = message;
    for (const w of this.pending?.waiters.splice(0) ?? []) w.reject(new Error(message));
    this.events.changed();
  }

  onProgress(progress: RefreshProgress): void {
    if (this.kind !== 'indexing') return;
    this.progress = progress;
    this.events.changed();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.running?.controller.abort(cancelledBySuperseding);
    for (const w of this.pending?.waiters.splice(0) ?? []) w.resolve();
    this.pending = undefined;
    for (const resolve of this.idleWaiters.splice(0)) resolve();
    if (this.openedGeneration === this.host.generation) await this.host.call('close', [this.key]).catch(() => undefined);
  }
}
