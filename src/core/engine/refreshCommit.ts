// The last step of a refresh, and of each part of a long one: the changes gathered against a
// generation become the next generation (tombstones, segments, state table, manifest) in one
// atomic commit.
import type { RefreshSummary } from '../api';
import type { FileState, IndexStore, Manifest, SegmentRef, StateTable } from '../store/store';
import { timed } from '../timings';
import type { SkippedFile } from '../types';
import type { ProgressMeter } from './progressMeter';
import type { Generation } from './refreshLoad';
import { maybeMerge } from './refreshMerge';
import { copyRefs, liveCount, liveSegments, tombstone, type WrittenSegment } from './segmentRefs';

/** What a refresh has gathered against its generation and not committed yet. */
export interface Uncommitted {
  /** Files read and chunked anew, their chunks in a segment already written. */
  newStates: Map<string, FileState>;
  /** Files with the same content and a new stat. */
  touched: Map<string, FileState>;
  /** Indexed files to drop: no longer listed, or skipped when read. */
  removed: Set<string>;
  /** The segments written for `newStates`. */
  written: WrittenSegment[];
}

/** A refresh's running counts, for its summary. */
export interface RefreshCounts {
  added: number;
  changed: number;
  unchanged: number;
  chunksAdded: number;
  chunksRemoved: number;
  /** Removed files already committed by a part. */
  removedCommitted: number;
}

/** Where a refresh commits: the store, and what every manifest it writes records. */
export interface CommitTarget {
  store: IndexStore;
  root: string;
  configHash: string;
}

/** The rest of a refresh, as its final commit needs it. */
export interface FinalChanges {
  /** The generation built on, moved forward by any part committed. */
  generation: Generation;
  changes: Uncommitted;
  counts: RefreshCounts;
  /** Every file skipped by this refresh: by discovery, then when read. */
  skipped: SkippedFile[];
  /** The paths the refresh was limited to: skips recorded elsewhere are kept. */
  only: string[] | undefined;
  rechunkAll: boolean;
  filesScanned: number;
  /** The files a refresh stopped at its deadline left for the next one. */
  left: string[] | undefined;
  /** When the refresh started (ms since the epoch). */
  startedAtMs: number;
}

/** What the final commit gives: the generation now current, the summary it records, the skip list. */
export interface Committed {
  manifest: Manifest;
  summary: RefreshSummary;
  skipped: SkippedFile[];
}

/**
 * Tombstones the chunks `changes` replace or remove in copies of `base`'s segment refs. Gives
 * those refs, the state entries that differ from `state` (null: removed) and the chunks tombstoned.
 */
function stage(base: Manifest | undefined, state: StateTable, changes: Uncommitted) {
  const refs = copyRefs(base);
  let chunksRemoved = 0;
  for (const p of changes.removed) chunksRemoved += tombstone(refs, state.get(p) as FileState);
  for (const p of changes.newStates.keys()) {
    const prev = state.get(p);
    if (prev) chunksRemoved += tombstone(refs, prev);
  }
  // Only what changed: the next table shares the rest with this one.
  const delta = new Map<string, FileState | null>();
  for (const p of changes.removed) delta.set(p, null);
  for (const [p, s] of changes.touched) delta.set(p, s);
  for (const [p, s] of changes.newStates) delta.set(p, s);
  return { refs, delta, chunksRemoved };
}

/**
 * Commits `changes` as a generation of their own (a part of a long incremental refresh, whose
 * generation has a previous one) and makes it the one the rest builds on; `changes` is emptied.
 * Gives the paths committed: none when there was nothing to commit.
 */
export function commitPart(target: CommitTarget, generation: Generation, changes: Uncommitted, counts: RefreshCounts): string[] {
  const base = generation.previous as Manifest;
  const { refs, delta, chunksRemoved } = stage(base, generation.state, changes);
  counts.chunksRemoved += chunksRemoved;
  if (delta.size === 0) return [];
  const segments = liveSegments(refs, changes.written);
  const next = generation.state.withChanges(delta, generation.state.skipped);
  const at = new Date().toISOString();
  generation.previous = generation.replacing = target.store.commit(
    {
      root: target.root,
      configHash: target.configHash,
      segments,
      createdAt: base.createdAt,
      updatedAt: at,
      files: next.size,
      chunks: chunkCount(segments),
      ...(base.lastRefresh ? { lastRefresh: base.lastRefresh } : {}),
    },
    next,
    base,
    delta.keys(),
  );
  generation.state = next;
  counts.removedCommitted += changes.removed.size;
  changes.removed.clear();
  changes.touched.clear();
  changes.newStates.clear();
  changes.written.length = 0;
  return [...delta.keys()];
}

/**
 * Commits the rest of a refresh as the next generation: tombstones, the skip list, merging (left
 * to the refresh that finishes when this one stopped at its deadline), then the state table and
 * the manifest with the refresh's summary. When nothing changed the current generation stands.
 */
export function commitRefresh(target: CommitTarget, run: FinalChanges, meter: ProgressMeter): Committed {
  const { store } = target;
  const { generation, changes, counts } = run;
  const { state, previous } = generation;
  const { refs, delta, chunksRemoved } = stage(previous, state, changes);
  counts.chunksRemoved += chunksRemoved;
  const only = run.only;
  const skipped = only ? [...state.skipped.filter((s) => !isUnder(s.path, only)), ...run.skipped] : run.skipped;
  skipped.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));

  let segments = liveSegments(refs, changes.written);
  // Entries that differ from the previous table: a small set is committed as a delta.
  // A refresh stopped at its deadline leaves merging to the one that finishes.
  if (!run.left) {
    segments = timed('merge', () =>
      maybeMerge(store, segments, state, delta, (p) => meter.report(p.phase === 'wait' ? 'write' : p.phase, p.done, p.total, p.message, true)),
    );
  }
  meter.commit();
  meter.report('write', 1, 1, 'committing the index', true);
  const next = state.withChanges(delta, skipped);

  const summary: RefreshSummary = {
    at: new Date().toISOString(),
    durationMs: Date.now() - run.startedAtMs,
    filesScanned: run.filesScanned,
    added: counts.added,
    changed: counts.changed,
    removed: counts.removedCommitted + changes.removed.size,
    unchanged: counts.unchanged,
    chunksAdded: counts.chunksAdded,
    chunksRemoved: counts.chunksRemoved,
  };
  const nothingChanged = previous && !run.rechunkAll && counts.added === 0 && counts.changed === 0 && changes.removed.size === 0 && changes.touched.size === 0 && sameSkips(state.skipped, skipped);
  // A refresh stopped at its deadline has committed its part: the rest, skips included, is the next one's.
  const manifest = (nothingChanged || (run.left && delta.size === 0)) && previous
    ? previous
    : timed('commit', () => store.commit(
        {
          root: target.root,
          configHash: target.configHash,
          segments,
          createdAt: previous?.createdAt ?? summary.at,
          updatedAt: summary.at,
          files: next.size,
          chunks: chunkCount(segments),
          lastRefresh: summary,
        },
        next,
        generation.replacing,
        run.rechunkAll || !previous ? undefined : delta.keys(),
      ));
  return { manifest, summary, skipped };
}

function chunkCount(segments: readonly SegmentRef[]): number {
  return segments.reduce((n, s) => n + liveCount(s), 0);
}

function isUnder(path: string, prefixes: readonly string[]): boolean {
  return prefixes.some((p) => p === '' || p === '.' || path === p || path.startsWith(p.endsWith('/') ? p : `${p}/`));
}

function sameSkips(a: readonly SkippedFile[], b: readonly SkippedFile[]): boolean {
  return a.length === b.length && a.every((s, i) => s.path === b[i]?.path && s.reason === b[i]?.reason);
}
