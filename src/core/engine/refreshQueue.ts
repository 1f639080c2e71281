// The one place a long-lived host schedules refreshes of one root: requests are COALESCED (a
// burst of saves or a branch switch becomes one `refresh(only)`; a whole-root refresh or a
// rebuild absorbs any path list), run one at a time, can wait for a quiet moment (file events),
// and can be paused (the running refresh is cancelled and its work kept for `resume`).
// It is also the one freshness policy every front end waits on: with a watcher reporting every
// change, a query waits only for work already queued; without one, the whole root is checked at
// most once per interval. A query waits a short, bounded time; a longer refresh keeps running in
// the background, committing in parts, and the answer lists the files it has still to index.
import type { FreshnessPolicy, FreshnessState, FreshnessSummary, RefreshOptions, RefreshProgress, RefreshQueueState, RefreshReport } from '../api';

export interface RefreshableIndex {
  refresh(options: RefreshOptions): Promise<RefreshReport>;
  /** False while there is no index to answer from: a query then waits for the build (Engine.hasIndex). */
  hasIndex?(): boolean;
  /** Readies the next save and queries while idle (Engine.warmUp). */
  warmUp?(): Promise<void>;
}

export interface RefreshRequest {
  /** Relative paths (files or folders); undefined: the whole root. */
  only?: string[];
  rebuild?: boolean;
}

export interface RefreshQueueOptions {
  /** Without a watcher, a whole-root check runs at most once per this interval (0: before every query). */
  minIntervalMs?: number;
  /** How long a query (ensureFresh) waits for pending work before answering from the index as it is. */
  waitMs?: number;
  /** How long refreshNow (an explicit request to refresh) and a query with no index yet wait. */
  refreshWaitMs?: number;
  /** A refresh commits a generation after about this many files, so queries see it land in parts. */
  commitEveryFiles?: number;
  /** How long file events must be quiet before the refresh they asked for starts. */
  debounceMs?: number;
  /** A big change from file events: how long they must be quiet, and the longest it waits for that. */
  bigChangeQuiet?: { quietMs: number; maxMs: number };
  now?: () => number;
  /** Where failures are reported. */
  log?: (message: string) => void;
  /** Called whenever `state()` may have changed. */
  onChange?: () => void;
  onProgress?: (progress: RefreshProgress) => void;
  /** After every completed refresh, with what it was asked to do. */
  onRefreshed?: (report: RefreshReport, request: { only?: string[]; rebuild: boolean }) => void;
}

export const DEFAULT_MIN_INTERVAL_MS = 3000;
/**
 * A query's wait for pending work. Long enough for the refresh of a save to land (a few files
 * refresh in tens of milliseconds on a warm host), short enough that the watcher's settle (at
 * most 250 ms, server/watch.ts) plus the wait plus the answer itself stay under a second, so no
 * query is held up by a big refresh: past it, the answer says what is still pending.
 */
export const QUERY_WAIT_MS = 500;
/**
 * A refresh known to have at most this many files left is waited for past QUERY_WAIT_MS (up to
 * DEFAULT_WAIT_MS): it is a save or a small edit, which lands in a moment even on a busy machine,
 * and an answer that missed the edit just made is worse than a slower one.
 */
export const SMALL_REFRESH_FILES = 32;
/** An explicit refresh, or a query with no index yet to answer from, waits this long. */
export const DEFAULT_WAIT_MS = 25_000;
/**
 * Files per committed part of a long refresh: small enough that each part's segment is built
 * (one synchronous step on the host's thread) well within a query's wait, and lands soon.
 */
export const COMMIT_EVERY_FILES = 100;
/**
 * A big change file events ask for (a whole-root check after a flood of events or a changed
 * ignore file, or more than SMALL_REFRESH_FILES paths) starts once they have been quiet this
 * long: a checkout goes on writing after its first events, and a refresh planned halfway
 * through is followed by another for the rest, each reading files too fresh for their stat to
 * vouch for them.
 */
export const BIG_CHANGE_QUIET_MS = 250;
/** …but no later than this after it was first asked for (a tree written to all the time). */
export const BIG_CHANGE_QUIET_MAX_MS = 2000;
/** How often a query waiting for a small refresh looks whether it grew. */
const SMALL_RECHECK_MS = 50;
export const DEFAULT_DEBOUNCE_MS = 300;

interface Waiter {
  resolve: (report: RefreshReport | undefined) => void;
  reject: (e: Error) => void;
}

interface Pending {
  all: boolean;
  rebuild: boolean;
  paths: Set<string>;
  waiters: Waiter[];
  /** Not started before this time (file events wait for quiet). */
  notBeforeMs: number;
  /** Set once the request is a big change from file events: its quiet wait ends by then. */
  latestStartMs?: number;
}

interface Running {
  request: Pending;
  controller: AbortController;
  startedAtMs: number;
  progress?: RefreshProgress;
  /** What the refresh said it has still to index (undefined until it knows). */
  pending?: readonly string[];
  /** Every file it had to index is committed; what is left is merging and its summary. */
  landed?: boolean;
  done: Promise<void>;
}

const PAUSED = 'paused';
const SUPERSEDED = 'superseded';
const CANCELLED = 'cancelled';

export class RefreshQueue implements FreshnessPolicy {
  private readonly minIntervalMs: number;
  private readonly waitMs: number;
  private readonly refreshWaitMs: number;
  private readonly debounceMs: number;
  private readonly bigChangeQuiet: { quietMs: number; maxMs: number };
  private readonly now: () => number;
  private pending?: Pending;
  private running?: Running;
  private timer?: NodeJS.Timeout;
  private paused = false;
  private closed = false;
  private lastReport?: RefreshReport;
  private error?: string;
  /** When the last whole-root check started that succeeded or failed. */
  private lastCheckedAtMs?: number;
  private lastFailure?: string;
  private idleWaiters: Array<() => void> = [];
  /** A watcher reports every change of the root: queries need no whole-root check. */
  watching = false;

  constructor(
    private readonly index: RefreshableIndex,
    private readonly options: RefreshQueueOptions = {},
  ) {
    this.minIntervalMs = options.minIntervalMs ?? DEFAULT_MIN_INTERVAL_MS;
    this.waitMs = options.waitMs ?? QUERY_WAIT_MS;
    this.refreshWaitMs = options.refreshWaitMs ?? DEFAULT_WAIT_MS;
    this.debounceMs = options.debounceMs ?? DEFAULT_DEBOUNCE_MS;
    this.bigChangeQuiet = options.bigChangeQuiet ?? { quietMs: BIG_CHANGE_QUIET_MS, maxMs: BIG_CHANGE_QUIET_MAX_MS };
    this.now = options.now ?? Date.now;
  }

  /**
   * Queues a refresh and resolves with the report of the run that covered it, or undefined when
   * it did not run (paused, with the work kept; closed). `afterQuiet`: it comes from file events,
   * so it waits until they have been quiet for the debounce time.
   */
  request(request: RefreshRequest, afterQuiet = false): Promise<RefreshReport | undefined> {
    if (this.closed) return Promise.resolve(undefined);
    const p = (this.pending ??= { all: false, rebuild: false, paths: new Set(), waiters: [], notBeforeMs: 0 });
    if (request.rebuild) p.rebuild = p.all = true;
    if (request.only === undefined) p.all = true;
    else for (const path of request.only) p.paths.add(path);
    // Anything not from file events starts now, taking queued file events along.
    if (!afterQuiet) p.notBeforeMs = 0;
    else if (!isBig(p)) p.notBeforeMs = Math.max(p.notBeforeMs, this.now() + this.debounceMs);
    else {
      const { quietMs, maxMs } = this.bigChangeQuiet;
      p.latestStartMs ??= this.now() + maxMs;
      p.notBeforeMs = Math.min(Math.max(p.notBeforeMs, this.now() + Math.max(this.debounceMs, quietMs)), p.latestStartMs);
    }
    const done = new Promise<RefreshReport | undefined>((resolve, reject) => {
      if (this.paused) resolve(undefined);
      else p.waiters.push({ resolve, reject });
    });
    // A rebuild makes the running refresh pointless.
    if (request.rebuild && this.running && !this.running.request.rebuild) this.running.controller.abort(SUPERSEDED);
    this.schedule();
    this.changed();
    return done;
  }

  /** Cancels the running refresh, keeping its work queued for the next run (settings changed). */
  restart(): void {
    this.running?.controller.abort(SUPERSEDED);
  }

  /** Cancels the running refresh and drops its work; its callers get an AbortError. */
  cancelRunning(): void {
    this.running?.controller.abort(CANCELLED);
  }

  /** Cancels the running refresh; its work and everything queued wait for `resume`. */
  pause(): void {
    if (this.paused) return;
    this.paused = true;
    this.running?.controller.abort(PAUSED);
    // Whoever waits for queued work is not kept waiting while paused.
    for (const w of this.pending?.waiters.splice(0) ?? []) w.resolve(undefined);
    clearTimeout(this.timer);
    this.timer = undefined;
    this.changed();
    this.settleIdle();
  }

  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    this.schedule();
    this.changed();
  }

  get isPaused(): boolean {
    return this.paused;
  }

  /** Resolves once nothing is running or queued (at once while paused). */
  whenIdle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  state(): RefreshQueueState {
    const r = this.running;
    const kind = r ? 'refreshing' : this.paused ? 'paused' : this.error !== undefined ? 'error' : 'idle';
    return {
      kind,
      queued: this.pending !== undefined,
      pending: this.pendingPaths().length,
      ...(r ? { running: { startedAtMs: r.startedAtMs, rebuild: r.request.rebuild, ...(r.request.all ? {} : { paths: r.request.paths.size }), ...(r.progress ? { progress: r.progress } : {}) } } : {}),
      ...(this.lastReport ? { lastReport: this.lastReport } : {}),
      ...(this.error !== undefined ? { error: this.error } : {}),
    };
  }

  // --- the freshness policy tools wait on -----------------------------------------------------

  async ensureFresh(options: { waitMs?: number } = {}): Promise<FreshnessState> {
    if (this.paused) return { kind: 'failed', message: 'indexing is paused' };
    // Only a query with nothing to answer from waits for the build.
    const answerable = this.index.hasIndex?.() !== false;
    const waitMs = answerable ? Math.max(0, Math.min(options.waitMs ?? this.waitMs, this.waitMs)) : this.refreshWaitMs;
    // A refresh known to leave more than a few files will not land within the bound: answer now.
    if (answerable && this.bigRefresh()) return this.refreshingState(0);
    // One whose files have all landed (it is merging, recording its summary) holds nothing an answer lacks.
    if (answerable && this.nothingLeft()) return this.recent();
    if (this.watching || this.checkedRecently()) {
      if (this.isIdle()) return this.recent();
      // A big change still being written would not land within the bound either: answer now.
      if (answerable && this.bigChangeWaiting()) return this.refreshingState(0);
      // A query does not wait for file events to go quiet: what they asked for runs now.
      this.startQueuedNow();
      return this.awaitBounded(this.whenIdle().then(() => this.lastReport), waitMs);
    }
    // Join a whole-root check already queued or running; otherwise queue one.
    const whole = this.running?.request.all ? this.running.done.then(() => this.lastReport) : undefined;
    return this.awaitBounded(whole ?? this.request({}), waitMs);
  }

  async refreshNow(paths?: string[]): Promise<FreshnessState> {
    if (this.paused) return { kind: 'failed', message: 'indexing is paused' };
    return this.awaitBounded(this.request(paths ? { only: paths } : {}), this.refreshWaitMs);
  }

  /**
   * The files the running and queued refreshes have still to index (relative paths, sorted): what
   * the running one reported once it knew, else the paths it was asked for; plus queued paths.
   * A whole-root check counts only once it knows what changed.
   */
  pendingPaths(): string[] {
    const r = this.running;
    const paths = new Set<string>(r?.pending ?? (r && !r.request.all ? r.request.paths : []));
    for (const p of this.pending?.paths ?? []) paths.add(p);
    return [...paths].sort();
  }

  describe(): FreshnessSummary {
    const r = this.running;
    return {
      minIntervalMs: this.watching ? 0 : this.minIntervalMs,
      watching: this.watching,
      ...(this.lastCheckedAtMs !== undefined ? { lastCheckedAtMs: this.lastCheckedAtMs } : {}),
      ...(r
        ? { running: { startedAgoMs: this.now() - r.startedAtMs, ...(r.request.all ? {} : { paths: [...r.request.paths].sort() }), ...(r.progress ? { progress: r.progress } : {}) } }
        : {}),
      ...(r || this.pending ? { pending: this.pendingPaths().length } : {}),
      ...(this.lastFailure ? { lastFailure: this.lastFailure } : {}),
    };
  }

  /** The tree was just verified from outside (a watcher started, or a full check ran elsewhere). */
  markVerified(atMs = this.now()): void {
    this.lastCheckedAtMs = atMs;
  }

  /** Cancels the running refresh, drops the queue and waits for the refresh to stop. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    const running = this.running;
    running?.controller.abort(CANCELLED);
    for (const w of this.pending?.waiters.splice(0) ?? []) w.resolve(undefined);
    this.pending = undefined;
    await running?.done;
    this.settleIdle();
  }

  private checkedRecently(): boolean {
    const last = this.lastCheckedAtMs;
    return last !== undefined && this.now() - last < this.minIntervalMs;
  }

  private recent(): FreshnessState {
    const last = this.lastCheckedAtMs ?? this.now();
    return { kind: 'recent', checkedAgoMs: this.now() - last, ...(this.lastFailure ? { lastFailure: this.lastFailure } : {}) };
  }

  private isIdle(): boolean {
    return !this.running && (!this.pending || this.paused || this.closed);
  }

  private async awaitBounded(work: Promise<RefreshReport | undefined>, waitMs: number): Promise<FreshnessState> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), waitMs);
      timer.unref();
    });
    try {
      let outcome = await Promise.race([work, timeout]);
      if (outcome === 'timeout' && this.smallRefresh()) outcome = await this.awaitSmall(work, Math.max(0, this.refreshWaitMs - waitMs));
      if (outcome === 'timeout') return this.refreshingState(waitMs);
      if (outcome === undefined) return this.paused ? { kind: 'failed', message: 'indexing is paused' } : this.recent();
      return { kind: 'refreshed', report: outcome };
    } catch (e) {
      return { kind: 'failed', message: e instanceof Error ? e.message : String(e) };
    } finally {
      clearTimeout(timer);
    }
  }

  /** The answer while a refresh runs: how long it has, and what it has still to index. */
  private refreshingState(waitedMs: number): FreshnessState {
    const r = this.running;
    return { kind: 'refreshing', startedAgoMs: r ? this.now() - r.startedAtMs : waitedMs, ...(r?.progress ? { progress: r.progress } : {}), pending: this.pendingPaths() };
  }

  /** A running refresh known to have more than SMALL_REFRESH_FILES files left. */
  private bigRefresh(): boolean {
    return this.running?.pending !== undefined && this.pendingPaths().length > SMALL_REFRESH_FILES;
  }

  /** A refresh running with every file it read committed, and nothing queued behind it. */
  private nothingLeft(): boolean {
    return this.running?.landed === true && this.pending === undefined;
  }

  /** A big change from file events queued, waiting for them to go quiet. */
  private bigChangeWaiting(): boolean {
    const p = this.pending;
    return p !== undefined && p.latestStartMs !== undefined && p.notBeforeMs > this.now();
  }

  /** Pending work known, and small enough to wait for (SMALL_REFRESH_FILES). */
  private smallRefresh(): boolean {
    const n = this.pendingPaths().length;
    return this.running !== undefined && n > 0 && n <= SMALL_REFRESH_FILES;
  }

  /** Waits for `work` while what is pending stays small, at most `capMs`. */
  private async awaitSmall(work: Promise<RefreshReport | undefined>, capMs: number): Promise<RefreshReport | undefined | 'timeout'> {
    const deadline = Date.now() + capMs;
    while (Date.now() < deadline && this.smallRefresh()) {
      let timer: NodeJS.Timeout | undefined;
      const tick = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), SMALL_RECHECK_MS)));
      const outcome = await Promise.race([work, tick]).finally(() => clearTimeout(timer));
      if (outcome !== 'timeout') return outcome;
    }
    return this.running || this.pending ? 'timeout' : work;
  }

  private startQueuedNow(): void {
    if (this.pending && this.pending.notBeforeMs > 0) {
      this.pending.notBeforeMs = 0;
      this.schedule();
    }
  }

  /** Starts the next run now, or arms the timer for when its quiet time is over. */
  private schedule(): void {
    if (this.running || this.paused || this.closed || !this.pending) return;
    const wait = this.pending.notBeforeMs - this.now();
    if (wait > 0) {
      if (!this.timer) {
        this.timer = setTimeout(() => {
          this.timer = undefined;
          this.schedule();
        }, wait);
      }
      return;
    }
    clearTimeout(this.timer);
    this.timer = undefined;
    const request = this.pending;
    this.pending = undefined;
    const controller = new AbortController();
    const running: Running = { request, controller, startedAtMs: this.now(), done: Promise.resolve() };
    this.running = running;
    running.done = this.run(running);
  }

  private async run(running: Running): Promise<void> {
    const { request, controller } = running;
    const only = request.all ? undefined : [...request.paths].sort();
    this.changed();
    try {
      const report = await this.index.refresh({
        ...(only ? { only } : {}),
        ...(request.rebuild ? { rebuild: true } : {}),
        signal: controller.signal,
        commitEveryFiles: this.options.commitEveryFiles ?? COMMIT_EVERY_FILES,
        onProgress: (p) => {
          running.progress = p;
          this.options.onProgress?.(p);
        },
        onPending: (paths) => {
          running.landed = paths.length === 0 && (running.pending?.length ?? 0) > 0;
          running.pending = paths;
          this.changed();
        },
      });
      this.running = undefined;
      this.lastReport = report;
      this.error = undefined;
      if (!only) {
        this.lastCheckedAtMs = running.startedAtMs;
        this.lastFailure = undefined;
        // A long-lived host stays up between calls: ready what the next ones need while idle.
        void this.index.warmUp?.();
      }
      // Report first: a query can already see the new generation.
      this.options.onRefreshed?.(report, { ...(only ? { only } : {}), rebuild: request.rebuild });
      for (const w of request.waiters) w.resolve(report);
    } catch (e) {
      this.running = undefined;
      const reason: unknown = controller.signal.aborted ? controller.signal.reason : undefined;
      if (reason === PAUSED || reason === SUPERSEDED) {
        this.requeue(request);
        if (reason === PAUSED) for (const w of this.pending?.waiters.splice(0) ?? []) w.resolve(undefined);
      } else {
        const error = e instanceof Error ? e : new Error(String(e));
        if (reason === CANCELLED) {
          for (const w of request.waiters) w.reject(Object.assign(new Error('the refresh was cancelled'), { name: 'AbortError' }));
        } else {
          this.error = error.message;
          // A failed whole-root check is retried after the interval, not on every query.
          if (!only) {
            this.lastCheckedAtMs = running.startedAtMs;
            this.lastFailure = error.message;
          }
          this.options.log?.(`index refresh failed: ${error.message}`);
          for (const w of request.waiters) w.reject(error);
        }
      }
    }
    this.changed();
    this.schedule();
    this.settleIdle();
  }

  /** Puts a cancelled request back in front of whatever arrived since (it starts at once). */
  private requeue(request: Pending): void {
    const later = this.pending;
    this.pending = request;
    request.notBeforeMs = 0;
    if (!later) return;
    request.all ||= later.all;
    request.rebuild ||= later.rebuild;
    for (const p of later.paths) request.paths.add(p);
    request.waiters.push(...later.waiters);
  }

  private settleIdle(): void {
    if (this.isIdle()) for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  private changed(): void {
    this.options.onChange?.();
  }
}

/** A whole-root check, or more paths than a query waits for. */
function isBig(p: Pending): boolean {
  return p.all || p.paths.size > SMALL_REFRESH_FILES;
}
