// Keeps the index current for a long-running server without paying for a full check on every
// call: the first query refreshes incrementally (building a missing index), later queries at
// most once per interval. Every refresh of this process runs through one queue, so they never
// contend with each other (other processes sharing the store are serialised by its lock).
// A caller waits a bounded time; a refresh that takes longer keeps running in the background
// and the answer says it came from the index as it was.
import type { RefreshOptions, RefreshProgress, RefreshReport } from '../core/api';


export interface RefreshableIndex {
  refresh(options: RefreshOptions): Promise<RefreshReport>;
  /** Readies the next save and queries while idle (Engine.warmUp). */
  warmUp?(): Promise<void>;
}

/** How the index stood when a tool answered. */
export type FreshnessState =
  /** Refreshed (or built) just before answering. */
  | { kind: 'refreshed'; report: RefreshReport }
  /** Checked recently, within the interval: answered without checking again. */
  | { kind: 'recent'; checkedAgoMs: number; lastFailure?: string }
  /** A refresh is still running after the wait: answered from the index as it was. */
  | { kind: 'refreshing'; startedAgoMs: number; progress?: RefreshProgress }
  /** The refresh failed: answered from the index as it was. */
  | { kind: 'failed'; message: string };

/** What tools need from a freshness policy; a host with its own file watching can supply another. */
export interface IndexFreshness {
  /** Makes the index current if it is due, waiting a bounded time. */
  ensureFresh(): Promise<FreshnessState>;
  /** Refreshes now (only `paths`, when given), waiting a bounded time. */
  refreshNow(paths?: string[]): Promise<FreshnessState>;
  describe(): FreshnessSummary;
}

export interface FreshnessSummary {
  minIntervalMs: number;
  /** When the last whole-root check started (ms since the epoch). */
  lastCheckedAtMs?: number;
  running?: { startedAgoMs: number; paths?: string[]; progress?: RefreshProgress };
  lastFailure?: string;
}

export interface FreshnessOptions {
  /** A whole-root check runs at most once per this interval (0: before every query). */
  minIntervalMs?: number;
  /** How long a tool call waits for a refresh before answering from the index as it was. */
  waitMs?: number;
  now?: () => number;
  /** Where failures are reported (stderr in the server). */
  log?: (message: string) => void;
}

export const DEFAULT_MIN_INTERVAL_MS = 3000;
export const DEFAULT_WAIT_MS = 25_000;

interface RunState {
  paths?: string[];
  queuedAtMs: number;
  /** Set when the refresh actually starts (it may queue behind another). */
  startedAtMs?: number;
  progress?: RefreshProgress;
}

interface Run extends RunState {
  promise: Promise<RefreshReport>;
}

export class ThrottledRefresher implements IndexFreshness {
  private readonly minIntervalMs: number;
  private readonly waitMs: number;
  private readonly now: () => number;
  private readonly log: (message: string) => void;
  private readonly abort = new AbortController();
  private queue: Promise<unknown> = Promise.resolve();
  /** The whole-root refresh queued or running, which concurrent queries share. */
  private wholeRoot?: Run;
  private current?: RunState;
  private lastCheckedAtMs?: number;
  private lastFailure?: string;

  constructor(
    private readonly index: RefreshableIndex,
    options: FreshnessOptions = {},
  ) {
    this.minIntervalMs = options.minIntervalMs ?? DEFAULT_MIN_INTERVAL_MS;
    this.waitMs = options.waitMs ?? DEFAULT_WAIT_MS;
    this.now = options.now ?? Date.now;
    this.log = options.log ?? (() => {});
  }

  async ensureFresh(): Promise<FreshnessState> {
    if (!this.wholeRoot) {
      const last = this.lastCheckedAtMs;
      if (last !== undefined && this.now() - last < this.minIntervalMs) {
        return { kind: 'recent', checkedAgoMs: this.now() - last, ...(this.lastFailure ? { lastFailure: this.lastFailure } : {}) };
      }
      this.wholeRoot = this.enqueue(undefined);
    }
    return this.await(this.wholeRoot);
  }

  async refreshNow(paths?: string[]): Promise<FreshnessState> {
    // Always a new run: one already queued may have listed the files before the caller's edit.
    const run = this.enqueue(paths);
    if (!paths) this.wholeRoot = run;
    return this.await(run);
  }

  describe(): FreshnessSummary {
    const run = this.current;
    return {
      minIntervalMs: this.minIntervalMs,
      ...(this.lastCheckedAtMs !== undefined ? { lastCheckedAtMs: this.lastCheckedAtMs } : {}),
      ...(run?.startedAtMs !== undefined
        ? { running: { startedAgoMs: this.now() - run.startedAtMs, ...(run.paths ? { paths: run.paths } : {}), ...(run.progress ? { progress: run.progress } : {}) } }
        : {}),
      ...(this.lastFailure ? { lastFailure: this.lastFailure } : {}),
    };
  }

  /** Stops a background refresh (at its next checkpoint) and waits for the queue to drain. */
  async close(): Promise<void> {
    this.abort.abort(new Error('the server is shutting down'));
    await this.queue;
  }

  private enqueue(paths: string[] | undefined): Run {
    const state: RunState = { queuedAtMs: this.now(), ...(paths ? { paths } : {}) };
    const run: Run = { ...state, promise: this.queue.then(() => this.execute(run)) };
    this.queue = run.promise.catch(() => undefined);
    return run;
  }

  private async execute(run: RunState): Promise<RefreshReport> {
    this.abort.signal.throwIfAborted();
    run.startedAtMs = this.now();
    this.current = run;
    const wholeRoot = !run.paths;
    try {
      const report = await this.index.refresh({
        ...(run.paths ? { only: run.paths } : {}),
        signal: this.abort.signal,
        onProgress: (p) => (run.progress = p),
      });
      if (wholeRoot) {
        this.lastCheckedAtMs = run.startedAtMs;
        this.lastFailure = undefined;
        // A server stays up between calls: ready what the next ones need while it waits
        // (cheap when already warm).
        void this.index.warmUp?.();
      }
      return report;
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      // A failed whole-root check is retried after the interval, not on every call.
      if (wholeRoot) {
        this.lastCheckedAtMs = run.startedAtMs;
        this.lastFailure = message;
      }
      this.log(`index refresh failed: ${message}`);
      throw e;
    } finally {
      if (this.current === run) this.current = undefined;
      if (this.wholeRoot === run) this.wholeRoot = undefined;
    }
  }

  private async await(run: Run): Promise<FreshnessState> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), this.waitMs);
      timer.unref();
    });
    try {
      const outcome = await Promise.race([run.promise, timeout]);
      if (outcome === 'timeout') {
        return { kind: 'refreshing', startedAgoMs: this.now() - (run.startedAtMs ?? run.queuedAtMs), ...(run.progress ? { progress: run.progress } : {}) };
      }
      return { kind: 'refreshed', report: outcome };
    } catch (e) {
      return { kind: 'failed', message: e instanceof Error ? e.message : String(e) };
    } finally {
      clearTimeout(timer);
    }
  }
}
