// A native watcher (@parcel/watcher: inotify, FSEvents, ReadDirectoryChangesW) over one root,
// turned into refresh requests on the host's queue by the shared planner (core/discovery/
// watchPlan.ts): the paths of a batch become one `request({only}, afterQuiet)`; a change of
// .gitignore/.cairnignore, a flood of events or a watcher error becomes one whole-root check. `watching` is true only while the subscription
// is live and the tree was verified after it started, so the queue never trusts a dead watcher.
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import type { EngineHost } from '../core/engineApi';
import { planWatchEvents, resolveDiscoveryOptions, rootRelative, watchIgnore, type DiscoveryOptions, type WatchEvent } from '../core/clientApi';

export type { WatchEvent };

/**
 * parcel delivers the first change after calm at once and holds later ones until 50 ms pass
 * without another: a query that arrives within a little more than that of a delivery waits
 * until deliveries have been quiet for it.
 */
export const SETTLE_QUIET_MS = 60;
/** A query never waits longer than this for deliveries to go quiet (a build writing all the time). */
export const SETTLE_MAX_MS = 250;
/**
 * Without a watcher the server checks the tree on its own between queries, so a query finds
 * the index current and its own check cheap. The pause after a check is this many times what
 * the check took (so polling takes at most 1/POLL_COST_FACTOR of one core), within these bounds.
 */
export const POLL_COST_FACTOR = 20;
export const POLL_MIN_MS = 2000;
export const POLL_MAX_MS = 60_000;

/** The pause before the next poll, after a whole-root check that took `checkMs`. */
export function pollIntervalMs(checkMs: number): number {
  return Math.min(POLL_MAX_MS, Math.max(POLL_MIN_MS, Math.round(checkMs * POLL_COST_FACTOR)));
}

/** The warning a server without a watcher gives in its log and in `cairn status`. */
export function pollingWarning(reason: string): string {
  return `the file watcher could not start (${reason}); polling the tree for changes instead, and each query checks it`;
}

export interface Subscription {
  unsubscribe(): Promise<void>;
}

/** `@parcel/watcher`'s subscribe, or a stand-in with the same contract. */
export type SubscribeFn = (dir: string, fn: (err: Error | null, events: WatchEvent[]) => unknown, opts: { ignore: Array<string | RegExp>; backend?: NativeBackend }) => Promise<Subscription>;

export type NativeBackend = 'inotify' | 'fs-events' | 'windows';

/**
 * The platform's own backend, named: left to choose, @parcel/watcher first asks for watchman
 * through `sh -c 'watchman ...'` (popen) and never reaps that shell, which then stays a zombie
 * child of the server for its whole life.
 */
export function nativeBackend(platform: NodeJS.Platform): NativeBackend | undefined {
  return platform === 'linux' ? 'inotify' : platform === 'darwin' ? 'fs-events' : platform === 'win32' ? 'windows' : undefined;
}

export interface RootWatcherOptions {
  host: EngineHost;
  key: string;
  root: string;
  /** Left out of the watch when it lies inside the root (the index's own writes are not changes). */
  storeDir: string;
  subscribe?: SubscribeFn;
  /**
   * A `@parcel/watcher` package folder to use when none resolves beside the bundle (the
   * packaged extension ships no node_modules; VS Code ships its own copy of the watcher).
   */
  watcherModule?: string;
  discovery?: DiscoveryOptions;
  log?: (message: string) => void;
  now?: () => number;
  /** The first wait before subscribing again after a watcher error (doubles up to a minute). */
  retryDelayMs?: number;
  /**
   * Why no native watcher may start, checked before subscribing (undefined: it may). On Linux,
   * @parcel/watcher blocks the calling thread, for minutes, when inotify_init1 fails.
   */
  precheck?: () => string | undefined;
}

export class RootWatcher {
  private subscription?: Subscription;
  private lastDeliveryAtMs = -Infinity;
  private closed = false;
  private retryTimer?: NodeJS.Timeout;
  private pollTimer?: NodeJS.Timeout;
  private retryDelayMs: number;
  /** Why the native watcher could not start (then the tree is polled). */
  private unavailable?: string;
  private readonly discovery: DiscoveryOptions;
  private readonly now: () => number;
  private readonly storeRel?: string;

  constructor(private readonly o: RootWatcherOptions) {
    this.discovery = o.discovery ?? resolveDiscoveryOptions({});
    this.now = o.now ?? Date.now;
    this.retryDelayMs = o.retryDelayMs ?? 1000;
    this.storeRel = rootRelative(o.root, o.storeDir);
  }

  /** True while events arrive from a live subscription. */
  get live(): boolean {
    return this.subscription !== undefined;
  }

  /** The warning to show while the tree is polled because the watcher could not start. */
  get warning(): string | undefined {
    return this.unavailable === undefined ? undefined : pollingWarning(this.unavailable);
  }

  /**
   * Subscribes, then checks the whole root (what changed before the subscription is found by
   * that check, what changes after by the watcher), then marks the root watched. Without a
   * watcher (none for this platform, too many folders to watch) the root stays unwatched and
   * every query checks the tree, as in-process. Resolves when the root is verified.
   */
  async start(): Promise<void> {
    const checkStartedAt = this.now();
    try {
      const refusal = (this.o.precheck ?? inotifyShortage)();
      if (refusal !== undefined) throw new Error(refusal);
      await this.subscribeNow();
    } catch (e) {
      this.unavailable = (e as Error).message;
      this.o.log?.(`warning: ${pollingWarning(this.unavailable)}`);
      await this.poll();
      return;
    }
    await this.verify(checkStartedAt);
  }

  /** A whole-root check now, and the next one after a pause in proportion to its cost. */
  private async poll(): Promise<void> {
    if (this.closed) return;
    const started = Date.now();
    await this.o.host.request(this.o.key, {}).catch((err: Error) => this.o.log?.(`whole-root check failed: ${err.message}`));
    if (this.closed) return;
    this.pollTimer = setTimeout(() => void this.poll(), pollIntervalMs(Date.now() - started));
    this.pollTimer.unref();
  }

  /** Waits while the watcher is delivering a burst (see SETTLE_QUIET_MS), at most SETTLE_MAX_MS. */
  async settle(): Promise<void> {
    if (!this.live) return;
    const deadline = this.now() + SETTLE_MAX_MS;
    for (;;) {
      const quietFor = this.now() - this.lastDeliveryAtMs;
      const left = Math.min(SETTLE_QUIET_MS - quietFor, deadline - this.now());
      if (left <= 0) return;
      await new Promise((resolve) => setTimeout(resolve, left));
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    clearTimeout(this.pollTimer);
    const sub = this.subscription;
    this.subscription = undefined;
    await sub?.unsubscribe().catch(() => undefined);
  }

  private async subscribeNow(): Promise<void> {
    const subscribe = this.o.subscribe ?? (await loadParcel(this.o.watcherModule));
    const backend = nativeBackend(process.platform);
    this.subscription = await subscribe(this.o.root, (err, events) => this.onEvents(err, events), { ignore: watchIgnore(this.o.root, this.o.storeDir), ...(backend ? { backend } : {}) });
  }

  /** A whole-root check from `startedAt` on, after which the watcher is trusted. */
  private async verify(startedAt: number): Promise<void> {
    try {
      await this.o.host.request(this.o.key, {});
    } catch (e) {
      this.o.log?.(`whole-root check failed: ${(e as Error).message}`);
      return;
    }
    if (this.closed || !this.live) return;
    this.o.host.queue(this.o.key).markVerified(startedAt);
    this.o.host.setWatching(this.o.key, true);
    this.retryDelayMs = this.o.retryDelayMs ?? 1000;
  }

  private onEvents(err: Error | null, events: WatchEvent[]): void {
    if (this.closed) return;
    this.lastDeliveryAtMs = this.now();
    if (err) {
      this.failed(err);
      return;
    }
    const plan = planWatchEvents({ root: this.o.root, discovery: this.discovery, storeRel: this.storeRel }, events);
    if (plan.kind === 'none') return;
    const request = this.o.host.request(this.o.key, plan.kind === 'paths' ? { only: plan.paths } : {}, true);
    if (plan.kind === 'whole-root') this.o.log?.(`checking the whole root: ${plan.reason}`);
    request.catch((e: Error) => this.o.log?.(`refresh after file events failed: ${e.message}`));
  }

  /** The watcher failed: stop trusting it, check the whole root, and subscribe again with back-off. */
  private failed(err: Error): void {
    this.o.log?.(`watcher error, checking the whole root and watching again: ${err.message}`);
    this.o.host.setWatching(this.o.key, false);
    const sub = this.subscription;
    this.subscription = undefined;
    void sub?.unsubscribe().catch(() => undefined);
    this.o.host.request(this.o.key, {}).catch((e: Error) => this.o.log?.(`whole-root check failed: ${e.message}`));
    this.scheduleRetry();
  }

  private scheduleRetry(): void {
    if (this.closed || this.retryTimer) return;
    const delay = this.retryDelayMs;
    this.retryDelayMs = Math.min(this.retryDelayMs * 2, 60_000);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      const startedAt = this.now();
      this.subscribeNow().then(
        () => this.verify(startedAt),
        (e: Error) => {
          this.o.log?.(`watching again failed: ${e.message}`);
          this.scheduleRetry();
        },
      );
    }, delay);
  }
}

/**
 * Why inotify cannot give this user another instance, or undefined when it can (or this is not
 * Linux, or /proc cannot tell). Counts the inotify descriptors of this user's processes against
 * fs.inotify.max_user_instances: @parcel/watcher 2.x waits on the calling thread for a backend
 * that failed to start (inotify_init1: EMFILE), so the server's event loop, signals included,
 * stood still for two minutes. Another process may take the last instance meanwhile; this
 * catches the usual case, a limit used up for good.
 */
export function inotifyShortage(proc = '/proc', platform: NodeJS.Platform = process.platform, uid = process.getuid?.()): string | undefined {
  if (platform !== 'linux') return undefined;
  let max: number;
  try {
    max = Number(fs.readFileSync(path.join(proc, 'sys/fs/inotify/max_user_instances'), 'utf8').trim());
  } catch {
    return undefined;
  }
  if (!Number.isFinite(max) || max <= 0) return undefined;
  const used = countInotifyInstances(proc, uid);
  return used >= max ? `inotify instances used up: ${used} of fs.inotify.max_user_instances ${max}` : undefined;
}

/** The inotify descriptors of this user's processes (the limit is per user). */
function countInotifyInstances(proc: string, uid: number | undefined): number {
  let used = 0;
  let pids: string[];
  try {
    pids = fs.readdirSync(proc).filter((name) => /^\d+$/.test(name));
  } catch {
    return 0;
  }
  for (const pid of pids) {
    let fds: string[];
    try {
      if (uid !== undefined && fs.statSync(path.join(proc, pid)).uid !== uid) continue;
      fds = fs.readdirSync(path.join(proc, pid, 'fd'));
    } catch {
      continue; // another user's process, or one that ended
    }
    for (const fd of fds) {
      try {
        if (fs.readlinkSync(path.join(proc, pid, 'fd', fd)) === 'anon_inode:inotify') used++;
      } catch {
        // closed meanwhile
      }
    }
  }
  return used;
}

/**
 * @parcel/watcher, resolved at run time beside the bundle (its binary is per platform), else
 * the copy at `fallback`.
 */
export async function loadParcel(fallback?: string): Promise<SubscribeFn> {
  let besideBundle: unknown;
  try {
    return ((await import('@parcel/watcher')) as { subscribe: SubscribeFn }).subscribe;
  } catch (e) {
    besideBundle = e;
  }
  if (!fallback) throw besideBundle;
  return (createRequire(__filename)(fallback) as { subscribe: SubscribeFn }).subscribe;
}
