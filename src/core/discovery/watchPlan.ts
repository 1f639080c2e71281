// The one planner for file-watcher events, shared by the editor's watcher
// (src/vscode/changeWatcher.ts) and the server's (src/server/watch.ts): a batch of events
// becomes the paths to refresh, nothing, or one whole-root check (an ignore-rule file changed,
// or a flood that may hide events the backend lost). Both watchers only translate their
// platform's events into `WatchEvent`s and hand the plan to the refresh queue, which waits for
// quiet before refreshing. What counts as ignored is discovery's rules (rules.ts): the watchers
// keep no list of their own.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_EXCLUDE_DIRS, type DiscoveryOptions } from './options';
import { isEligiblePath, isIgnoreRuleFile } from './rules';

/**
 * A batch this large may hide events the backend lost: parcel's inotify backend drops
 * IN_Q_OVERFLOW silently (src/linux/InotifyBackend.cc), and the kernel queue holds 16384 events
 * by default. A whole-root check then costs no more than refreshing the paths one by one.
 */
export const FLOOD_EVENTS = 4096;

/** One watcher event: an absolute path created, changed or deleted (a rename is a delete and a create). */
export interface WatchEvent {
  path: string;
  type: 'create' | 'update' | 'delete';
}

/** What one batch of events asks of the refresh queue. */
export type WatchPlan = { kind: 'none' } | { kind: 'paths'; paths: string[] } | { kind: 'whole-root'; reason: string };

/** The root a batch is planned for, and the rules that say which of its files are indexed. */
export interface WatchScope {
  root: string;
  discovery: DiscoveryOptions;
  /** The store's folder relative to the root, when it lies inside (its own writes are not changes). */
  storeRel?: string;
  /** Whether a created name is a folder; lstat unless given. */
  isDirectory?: (abs: string) => boolean;
}

/**
 * The refresh a batch of events asks for. Cheap per event (string checks; one lstat for a
 * created name discovery would not index, which may be a folder moved in with files inside).
 */
export function planWatchEvents(scope: WatchScope, events: readonly WatchEvent[]): WatchPlan {
  if (events.length >= FLOOD_EVENTS) return { kind: 'whole-root', reason: `${events.length} events at once` };
  const { root, discovery, storeRel } = scope;
  const isDirectory = scope.isDirectory ?? statIsDirectory;
  const paths = new Set<string>();
  for (const e of events) {
    const rel = rootRelative(root, e.path);
    if (rel === undefined || (storeRel !== undefined && (rel === storeRel || rel.startsWith(`${storeRel}/`)))) continue;
    const check = isEligiblePath(rel, discovery);
    // Discovery never enters a pruned folder, so nothing there (an ignore file included) matters.
    if (check.reason === 'excluded-dir') continue;
    if (isIgnoreRuleFile(path.posix.basename(rel), discovery.ignoreFiles)) return { kind: 'whole-root', reason: `${rel} changed` };
    if (!check.eligible) {
      // Secret names and excluded globs are never indexed; a name outside the allow-list
      // matters only as a folder (created: look; deleted: it may have held files).
      if (check.reason !== 'not-allowed') continue;
      if (e.type === 'update') continue;
      if (e.type === 'create' && !isDirectory(e.path)) continue;
    }
    paths.add(rel);
  }
  return paths.size ? { kind: 'paths', paths: [...paths].sort() } : { kind: 'none' };
}

/** `abs` relative to `root` with `/` separators, or undefined for the root itself and paths outside it. */
export function rootRelative(root: string, abs: string): string | undefined {
  const rel = path.relative(root, abs);
  if (!rel || rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
  return path.sep === '/' ? rel : rel.split(path.sep).join('/');
}

/**
 * What a native watcher leaves out: the folders discovery prunes, wherever they are, as one
 * regular expression over a root-relative path, and the store when it lies inside the root. One
 * expression, not a glob per folder: the watcher matches every path of its first crawl against
 * each pattern with C++'s std::regex, so each glob added its whole cost again.
 */
export function watchIgnore(root: string, storeDir: string): Array<string | RegExp> {
  const ignore: Array<string | RegExp> = [prunedFolderPattern(DEFAULT_EXCLUDE_DIRS)];
  if (rootRelative(root, storeDir) !== undefined) ignore.push(storeDir);
  return ignore;
}

/** A path with a segment named like one of `names` (`*` any characters but a separator). */
export function prunedFolderPattern(names: readonly string[]): RegExp {
  const segment = names.map((n) => n.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/\\\\]*')).join('|');
  return new RegExp(`(?:^|[/\\\\])(?:${segment})(?:[/\\\\]|$)`);
}

function statIsDirectory(abs: string): boolean {
  try {
    return fs.lstatSync(abs).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Gathers events that arrive one at a time (the editor's watcher and saves) per root, and plans
 * each root's events once per turn of the event loop: a branch switch delivers thousands of
 * events, and the queue gets one request per root, not one per file.
 */
export class WatchBatcher {
  private readonly pending = new Map<string, WatchEvent[]>();
  private scheduled?: { cancel(): void };

  /**
   * `scopeOf` is asked at planning time (a root gone by then is dropped); `defer` runs the
   * planning later (the next turn of the event loop unless given).
   */
  constructor(
    private readonly scopeOf: (key: string) => WatchScope | undefined,
    private readonly onPlan: (key: string, plan: Exclude<WatchPlan, { kind: 'none' }>) => void,
    private readonly defer: (run: () => void) => { cancel(): void } = nextTurn,
  ) {}

  add(key: string, event: WatchEvent): void {
    let events = this.pending.get(key);
    if (!events) this.pending.set(key, (events = []));
    events.push(event);
    this.scheduled ??= this.defer(() => this.flush());
  }

  /** Forgets a root's events not planned yet (the root is no longer watched). */
  drop(key: string): void {
    this.pending.delete(key);
  }

  /** Plans every root's events now. */
  flush(): void {
    this.scheduled?.cancel();
    this.scheduled = undefined;
    const batches = [...this.pending];
    this.pending.clear();
    for (const [key, events] of batches) {
      const scope = this.scopeOf(key);
      if (!scope) continue;
      const plan = planWatchEvents(scope, events);
      if (plan.kind !== 'none') this.onPlan(key, plan);
    }
  }

  dispose(): void {
    this.scheduled?.cancel();
    this.scheduled = undefined;
    this.pending.clear();
  }
}

function nextTurn(run: () => void): { cancel(): void } {
  const handle = setImmediate(run);
  return { cancel: () => clearImmediate(handle) };
}
