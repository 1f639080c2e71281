// The engine thread (dist/engineWorker.js: an EngineHost served as EngineThreadApi) as the
// extension sees it: starts the worker, forwards typed calls over rpc.ts, and restarts the thread
// when it dies, with a back-off so a worker that crashes on start cannot spin. Each start is a new `generation`: engines opened on an
// older generation are gone and must be opened again (FolderIndex does that lazily).
import { Worker } from 'node:worker_threads';
import * as vscode from 'vscode';
import { rpcClient, type RpcClient } from '../core/clientApi';
import type { EngineHostEvents, EngineThreadApi } from '../core/engineApi';

/** The engine thread's heap cap: room for what a cold build of a very large tree holds live, plus the views' tables. */
const ENGINE_HEAP_MB = 512;

/** Waits before restart attempts 1, 2, 3…; after the last one the host gives up until asked again. */
const RESTART_DELAYS_MS = [200, 1000, 3000, 10000, 30000];
/** A crash this long after the previous one starts the back-off from the beginning. */
const STABLE_AFTER_MS = 120_000;

export type HostState = { kind: 'idle' } | { kind: 'running' } | { kind: 'restarting'; error: string; attempt: number } | { kind: 'stopped'; error: string };

export class EngineThreadClient implements vscode.Disposable {
  private worker?: Worker;
  private rpc?: RpcClient<EngineThreadApi>;
  private disposed = false;
  private crashes = 0;
  private lastCrashAt = 0;
  private restartTimer?: NodeJS.Timeout;
  private currentState: HostState = { kind: 'idle' };
  /** Incremented on every (re)start; engines are opened per generation. */
  generation = 0;

  private readonly stateEmitter = new vscode.EventEmitter<HostState>();
  private readonly progressEmitter = new vscode.EventEmitter<EngineHostEvents['progress']>();
  private readonly rootStateEmitter = new vscode.EventEmitter<EngineHostEvents['state']>();
  private readonly refreshedEmitter = new vscode.EventEmitter<EngineHostEvents['refreshed']>();
  private readonly logEmitter = new vscode.EventEmitter<EngineHostEvents['log']>();
  readonly onDidChangeState = this.stateEmitter.event;
  /** A root's refresh queue changed (progress included). */
  readonly onProgress = this.progressEmitter.event;
  readonly onRootState = this.rootStateEmitter.event;
  readonly onRefreshed = this.refreshedEmitter.event;
  /** Lines the thread's socket servers and watchers log. */
  readonly onLog = this.logEmitter.event;

  constructor(
    private readonly script: string,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  get state(): HostState {
    return this.currentState;
  }

  /** Starts the thread the first time. A no-op while running or waiting to restart. */
  start(): void {
    if (this.currentState.kind === 'idle') this.launch();
  }

  /** Starts the thread again after the host gave up restarting it (a user asked to retry). */
  retry(): void {
    if (this.currentState.kind === 'stopped') {
      this.crashes = 0;
      this.launch();
    }
  }

  private launch(): void {
    if (this.disposed || this.worker) return;
    clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
    // The engine thread builds indexes itself (no index thread under it), so its heap is capped
    // the way the CLI's index thread is: V8 then collects before the heap grows to several times
    // what is live.
    const worker = new Worker(this.script, { name: 'cairn-engine', resourceLimits: { maxOldGenerationSizeMb: ENGINE_HEAP_MB } });
    const rpc = rpcClient<EngineThreadApi>(worker);
    rpc.onEvent((event, payload) => {
      if (event === 'progress') this.progressEmitter.fire(payload as EngineHostEvents['progress']);
      else if (event === 'state') this.rootStateEmitter.fire(payload as EngineHostEvents['state']);
      else if (event === 'refreshed') this.refreshedEmitter.fire(payload as EngineHostEvents['refreshed']);
      else if (event === 'log') this.logEmitter.fire(payload as EngineHostEvents['log']);
    });
    let lastError: Error | undefined;
    worker.on('error', (e) => {
      lastError = e;
      this.log.error(`engine thread error: ${e.stack ?? e.message}`);
    });
    worker.on('exit', (code) => this.onExit(worker, rpc, code, lastError));
    this.worker = worker;
    this.rpc = rpc;
    this.generation++;
    this.log.info(`engine thread started (generation ${this.generation})`);
    this.setState({ kind: 'running' });
  }

  /** Calls the engine host (rejects at once while the thread is not running). */
  call<K extends keyof EngineThreadApi & string>(method: K, args: Parameters<EngineThreadApi[K]>, signal?: AbortSignal): ReturnType<EngineThreadApi[K]> {
    this.start();
    if (!this.rpc) {
      const s = this.currentState;
      const why = s.kind === 'restarting' || s.kind === 'stopped' ? s.error : 'the Cairn engine is not running';
      return Promise.reject(new Error(why)) as ReturnType<EngineThreadApi[K]>;
    }
    return this.rpc.call(method, args, signal);
  }

  private nextRestartDelayMs?: number;

  /**
   * Stops the thread as if it had crashed; tests use this to check recovery (and may hold the
   * restart back to look at the error state).
   */
  async crashForTesting(restartAfterMs?: number): Promise<void> {
    this.nextRestartDelayMs = restartAfterMs;
    await this.worker?.terminate();
  }

  private onExit(worker: Worker, rpc: RpcClient<EngineThreadApi>, code: number, cause: Error | undefined): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    this.rpc = undefined;
    const message = `the Cairn engine stopped unexpectedly (exit code ${code}${cause ? `: ${cause.message}` : ''})`;
    rpc.failAll(new Error(message));
    rpc.dispose();
    if (this.disposed) return;
    const now = Date.now();
    this.crashes = now - this.lastCrashAt > STABLE_AFTER_MS ? 1 : this.crashes + 1;
    this.lastCrashAt = now;
    const delay = this.crashes <= RESTART_DELAYS_MS.length ? (this.nextRestartDelayMs ?? RESTART_DELAYS_MS[this.crashes - 1]) : undefined;
    this.nextRestartDelayMs = undefined;
    if (delay === undefined) {
      this.log.error(`${message}; it crashed ${this.crashes} times in a row, so it stays stopped. Run "Cairn: Refresh Index" to try again.`);
      this.setState({ kind: 'stopped', error: message });
      return;
    }
    this.log.error(`${message}; restarting in ${delay} ms (attempt ${this.crashes})`);
    this.setState({ kind: 'restarting', error: message, attempt: this.crashes });
    this.restartTimer = setTimeout(() => this.launch(), delay);
  }

  private setState(state: HostState): void {
    this.currentState = state;
    this.stateEmitter.fire(state);
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.restartTimer);
    this.rpc?.failAll(new Error('the Cairn engine was shut down'));
    this.rpc?.dispose();
    void this.worker?.terminate();
    this.worker = undefined;
    this.rpc = undefined;
    this.stateEmitter.dispose();
    this.progressEmitter.dispose();
    this.rootStateEmitter.dispose();
    this.refreshedEmitter.dispose();
    this.logEmitter.dispose();
  }
}
