// Which refreshes of a long-lived host run on the index thread, where reading, building, merging
// and fsyncs never hold up a query on the host's own thread: many named paths, and a whole-root
// check that finds a big change (a checkout, a branch switch, a changed .gitignore), which stops
// after planning so the engine can run it there.
import type { RefreshOptions } from '../api';
import { SMALL_REFRESH_FILES } from './refreshQueue';

/** A refresh as the engine runs it in its own thread. */
export interface IndexerRunOptions extends RefreshOptions {
  /**
   * A whole-root refresh that finds more than this many files changed by their stat or gone
   * commits nothing and throws RefreshHandedOff, after telling `onPending` of what it found.
   */
  handOffAbove?: number;
}

/** A whole-root refresh found too much to do on this thread (`count` files changed or gone). */
export class RefreshHandedOff extends Error {
  constructor(count: number) {
    super(`${count} files to refresh on the index thread`);
    this.name = 'RefreshHandedOff';
  }
}

/**
 * A long-lived host's refresh of many named paths (a checkout, a branch switch): run on the index
 * thread, so its reading, building, merging and fsyncs never hold up a query on this thread. A
 * save is refreshed here (starting a thread costs more than a few files).
 */
export function bigRefreshInParts(options: RefreshOptions): boolean {
  return options.commitEveryFiles !== undefined && options.only !== undefined && options.only.length > SMALL_REFRESH_FILES;
}

/**
 * A long-lived host's check of the whole root (no deadline: a one-shot query's refresh stops at
 * its budget instead): usually a few files, planned here; a big change found is handed to the
 * index thread like a big refresh of named paths.
 */
export function wholeRefreshInParts(options: RefreshOptions): boolean {
  return options.commitEveryFiles !== undefined && options.only === undefined && options.deadlineAtMs === undefined && !options.rebuild;
}
