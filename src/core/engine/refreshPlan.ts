// The second step of a refresh: list the eligible files and diff them against the previous
// state by their stat, giving the files to read and the indexed files that are gone.
import type { RefreshOptions } from '../api';
import { discoverFiles } from '../discovery';
import type { StateTable } from '../store/store';
import { addTime } from '../timings';
import type { DiscoveredFile, SkippedFile } from '../types';
import type { ProgressMeter } from './progressMeter';
import type { IndexerConfig } from './refreshConfig';

export interface RefreshPlan {
  /**
   * Taken before any stat: a file whose ctime or mtime is not clearly older than this was changed
   * too close to its read for the stat to vouch for the content (fileStat.ts isRacy).
   */
  readStartedAtMs: number;
  /** The paths the refresh is limited to, normalised; undefined: the whole root. */
  only: string[] | undefined;
  /** Every eligible file listed, by path. */
  listed: Map<string, DiscoveredFile>;
  /** How many files were listed. */
  filesScanned: number;
  /** Files whose stat differs from their recorded one (all of them when re-chunking), in listing order. */
  toRead: DiscoveredFile[];
  /** The bytes of `toRead`, as listed. */
  bytesToRead: number;
  /** Files skipped as unchanged by their stat alone. */
  unchanged: number;
  /** Of `toRead`, the files read only because their entry was recorded racily (same stat). */
  racy: number;
  /** Indexed files (under `only`) no longer listed. */
  removed: Set<string>;
  /** Files discovery skipped, with why. */
  skipped: readonly SkippedFile[];
}

/**
 * Lists the eligible files under `config.root` (or only `options.only`) and sorts them against
 * `state`: unchanged by stat, to read, or gone. With `rechunkAll` every listed file is read.
 */
export async function planRefresh(
  config: IndexerConfig,
  options: RefreshOptions,
  state: StateTable,
  rechunkAll: boolean,
  meter: ProgressMeter,
): Promise<RefreshPlan> {
  const readStartedAtMs = Date.now();
  const only = options.only?.map((p) => p.replace(/\\/g, '/').replace(/^\.\//, '').replace(/\/$/, ''));
  meter.report('discover', 0, 0, undefined, true);
  const discoverStarted = performance.now();
  const discovery = await discoverFiles(config.root, { ...config.discovery, only, signal: options.signal });
  addTime('discover', performance.now() - discoverStarted);
  const listed = new Map<string, DiscoveredFile>(discovery.files.map((f) => [f.path, f]));

  const toRead: DiscoveredFile[] = [];
  let unchanged = 0;
  let racy = 0;
  for (const f of discovery.files) {
    if (!rechunkAll && state.sameStat(f.path, f)) unchanged++;
    else {
      toRead.push(f);
      if (!rechunkAll && state.sameStat(f.path, f, true)) racy++;
    }
  }
  const removed = new Set<string>();
  for (const p of only ? state.pathsUnder(only) : state.paths()) {
    if (!listed.has(p)) removed.add(p);
  }
  const bytesToRead = toRead.reduce((n, f) => n + f.size, 0);
  meter.listed(bytesToRead);
  meter.report('discover', discovery.files.length, discovery.files.length, undefined, true);
  return { readStartedAtMs, only, listed, filesScanned: discovery.files.length, toRead, bytesToRead, unchanged, racy, removed, skipped: discovery.skipped };
}
