// Incremental refresh: the one operation behind "index the workspace", "a file was saved",
// "a branch switch touched thousands of files" and "the ignore rules changed".
//
//   1. list eligible files (all, or only the given paths)
//   2. unchanged stat (size, mtime, ctime, inode, device; not recorded racily) -> skipped
//      without reading; otherwise read and hash; same hash -> only the stat is updated;
//      different -> re-chunked
//   3. chunks of changed, deleted and newly ignored files are tombstoned
//   4. new chunks go into new segment(s); the state table and manifest are committed atomically
//   5. small or tombstone-heavy segments are merged
import type { RefreshOptions, RefreshProgress, RefreshReport, RefreshSummary } from '../api';
import { createHash } from 'node:crypto';
import type { Diagnostic, DiscoveredFile, FileChunks, FileStat, SkippedFile, SourceDocument } from '../types';
import { discoverFiles, loadDocuments, type DiscoveryOptions } from '../discovery';
import type { ChunkingPolicy } from '../chunking/policy';
import type { ChunkStrategy } from '../types';
import { ANALYZER_VERSION } from '../index/fields';
import { Segment } from '../index/segment';
import { SegmentBuilder } from '../index/segmentBuilder';
import { mergeSegments } from '../index/merge';
import { acquireLock } from '../store/lock';
import { isRacy, sameFileStat, statOf } from '../store/fileStat';
import { ProgressMeter } from './progressMeter';
import { addTime, readTimings, startTimings, timed, timingsOn, timingsSince } from '../timings';
import { corruptionDiagnostic, type IndexStore, StoreCorruptError, tombstoneBitmap, type FileState, type Manifest, type SegmentRef, StateTable } from '../store/store';

/** Chunks documents; the engine passes its worker pool (or an in-process chunker). */
export interface Chunker {
  /** `onFile(i)`: the chunks of `docs[i]` (and of every document before it) are back. */
  chunk(docs: SourceDocument[], signal?: AbortSignal, onFile?: (index: number) => void): Promise<FileChunks[]>;
}

export interface IndexerConfig {
  root: string;
  store: IndexStore;
  discovery: Partial<DiscoveryOptions>;
  policy: ChunkingPolicy;
  strategy: ChunkStrategy;
  chunker: () => Promise<Chunker>;
  lockTimeoutMs?: number;
}

/** Bytes of text read and chunked per batch: keeps memory flat and both cores busy. */
const BATCH_BYTES = 4 * 1024 * 1024;
const BATCH_FILES = 400;
/** A builder holding more than this is written out as a segment and a new one started. */
const SEGMENT_FLUSH_BYTES = 64 * 1024 * 1024;
/** While committing in parts (a long-lived host), the longest stretch of adding files without a turn for queries. */
const YIELD_EVERY_MS = 20;
/** More segments than this are merged down (small ones first). */
const MAX_SEGMENTS = 8;
/** A segment with more tombstoned documents than this share is rewritten. */
const MAX_DELETED_RATIO = 0.4;

export function configHash(policy: ChunkingPolicy, strategy: ChunkStrategy): string {
  return createHash('sha256').update(JSON.stringify({ policy, strategy, analyzer: ANALYZER_VERSION })).digest('hex').slice(0, 16);
}

function isUnder(path: string, prefixes: readonly string[]): boolean {
  return prefixes.some((p) => p === '' || p === '.' || path === p || path.startsWith(p.endsWith('/') ? p : `${p}/`));
}

function countByReason(skipped: readonly SkippedFile[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const s of skipped) out[s.reason] = (out[s.reason] ?? 0) + 1;
  return out;
}

export async function refreshIndex(config: IndexerConfig, options: RefreshOptions = {}): Promise<RefreshReport> {
  const started = Date.now();
  startTimings();
  const timingsBefore = readTimings();
  const { store } = config;
  const diagnostics: Diagnostic[] = [];
  const progress = options.onProgress ?? (() => {});
  const signal = options.signal;
  // Before the lock file: a folder that is not this root's store gets nothing written into it.
  store.claim(true);
  const lock = await acquireLock(store.dir, {
    timeoutMs: config.lockTimeoutMs,
    signal,
    wait: options.waitForWriter,
    onWait: (holder) => progress({ phase: 'wait', done: 0, total: 0, message: `waiting for the index lock held by ${holder}` }),
  });
  try {
    // --- load the previous generation (or start over) -------------------------------
    let previous: Manifest | undefined;
    /** The generation this commit replaces: `previous`, or on a rebuild the index readers still use. */
    let replacing: Manifest | undefined;
    let state = StateTable.empty();
    let rebuilt = false;
    const wantedConfig = configHash(config.policy, config.strategy);
    if (options.rebuild) {
      // Left in place: the commit's manifest switch retires it, and its files go after that.
      try {
        replacing = store.readManifest();
      } catch (e) {
        if (!(e instanceof StoreCorruptError)) throw e;
        store.clear();
      }
      rebuilt = true;
    } else {
      try {
        previous = store.readManifest();
        if (previous) {
          state = store.readState(previous);
          // Validate every live segment now: a corrupt one must not survive into the next generation.
          store.snapshot();
        }
      } catch (e) {
        if (!(e instanceof StoreCorruptError)) throw e;
        diagnostics.push(corruptionDiagnostic(e));
        // Nothing readable to keep for readers: discard it (a damaged file can block a rewrite).
        store.clear();
        previous = undefined;
        state = StateTable.empty();
        rebuilt = true;
      }
    }
    if (!previous) rebuilt = true;
    replacing ??= previous;
    const rechunkAll = previous !== undefined && previous.configHash !== wantedConfig;
    if (rechunkAll) diagnostics.push({ code: 'config-changed', severity: 'info', message: 'chunking settings changed: every file is re-chunked' });

    // --- 1. discover ------------------------------------------------------------------
    // Before any stat: a file whose ctime or mtime is not clearly older than this was changed
    // too close to its read for the stat to vouch for the content (fileStat.ts isRacy).
    const readStartedAtMs = Date.now();
    const only = options.only?.map((p) => p.replace(/\\/g, '/').replace(/^\.\//, '').replace(/\/$/, ''));
    const meter = new ProgressMeter(progress);
    meter.report('discover', 0, 0, undefined, true);
    const discoverStarted = performance.now();
    const discovery = await discoverFiles(config.root, { ...config.discovery, only, signal });
    addTime('discover', performance.now() - discoverStarted);
    const listed = new Map<string, DiscoveredFile>(discovery.files.map((f) => [f.path, f]));

    // --- 2. decide what changed ----------------------------------------------------
    const toRead: DiscoveredFile[] = [];
    let unchanged = 0;
    for (const f of discovery.files) {
      if (!rechunkAll && state.sameStat(f.path, f)) unchanged++;
      else toRead.push(f);
    }
    const removedPaths = new Set<string>();
    for (const p of only ? state.pathsUnder(only) : state.paths()) {
      if (!listed.has(p)) removedPaths.add(p);
    }
    const skipped: SkippedFile[] = [...discovery.skipped];
    meter.listed(toRead.reduce((n, f) => n + f.size, 0));
    /** Files read and chunked (or found unchanged) so far, for "indexing N of M files". */
    let filesDone = 0;
    const sizeOf = (path: string) => listed.get(path)?.size ?? 0;
    meter.report('discover', discovery.files.length, discovery.files.length, undefined, true);
    // A long incremental refresh commits in parts, so readers see it land as it goes. Not a build
    // from nothing or a re-chunk of everything: a part of those is an index missing most files.
    const commitEvery = options.commitEveryFiles !== undefined && previous !== undefined && !rechunkAll ? Math.max(1, options.commitEveryFiles) : undefined;
    const pending = options.onPending ? new Set([...toRead.map((f) => f.path), ...removedPaths]) : undefined;
    const reportPending = () => pending && options.onPending?.([...pending].sort());
    reportPending();

    // --- 3. read, chunk, build -------------------------------------------------------
    const newStates = new Map<string, FileState>();
    const touched = new Map<string, FileState>(); // same content, new stat
    /**
     * The stat recorded for a file read now: discovery's lstat, taken before the read, so a
     * change after it shows as a different stat next time (or, within a tick, as racy).
     */
    const recordedStat = (path: string): FileStat & { racy?: boolean } => {
      const stat = statOf(listed.get(path) as DiscoveredFile);
      return isRacy(stat, readStartedAtMs) ? { ...stat, racy: true } : stat;
    };
    const segmentsWritten: Array<{ name: string; docCount: number; bytes: number }> = [];
    let builder = new SegmentBuilder();
    let builderName = store.newSegmentName();
    let builderFiles: Array<{ path: string; state: Omit<FileState, 'segment'> }> = [];
    /** Bytes of the files in the segment under way (its share of the build's progress). */
    let builderBytes = 0;
    let added = 0;
    let changed = 0;
    let chunksAdded = 0;
    let chunksRemoved = 0;
    /** Removed files already committed by a part. */
    let removedCommitted = 0;
    let readAtLastCommit = 0;

    const flush = () => {
      if (builder.docCount === 0 && builder.fileCount === 0) return;
      const message = `writing ${builder.docCount} chunks`;
      meter.report('write', 0, 1, message, true);
      const docCount = builder.docCount;
      const bytesIn = builderBytes;
      const parts = timed('encode', () =>
        builder.buildParts((fraction) => {
          meter.building(bytesIn, fraction);
          meter.report('write', 0, 1, message);
        }),
      );
      timed('write', () => store.writeSegment(builderName, parts));
      meter.built(bytesIn);
      builderBytes = 0;
      // Only its size is kept: the bytes are dropped now, and queries open the file on demand.
      segmentsWritten.push({ name: builderName, docCount, bytes: parts.reduce((n, p) => n + p.length, 0) });
      for (const f of builderFiles) newStates.set(f.path, { ...f.state, segment: builderName });
      builder = new SegmentBuilder();
      builderName = store.newSegmentName();
      builderFiles = [];
    };

    // A pipeline over batches: while the workers chunk batch b, this thread reads batch b+1 and
    // adds batch b-1's chunks to the segment, so neither side waits for the other.
    // A part is whole batches: a smaller part asks for smaller batches.
    const batches = makeBatches(toRead, Math.min(BATCH_FILES, commitEvery ?? BATCH_FILES));
    let readDone = 0;
    const chunker = toRead.length > 0 ? await config.chunker() : undefined;
    const read = (b: number) => {
      const p = loadDocuments(config.root, batches[b] as DiscoveredFile[], { signal, maxFileBytes: config.discovery.maxFileBytes });
      // Aborted before it is awaited, a read-ahead must not reject unhandled (that kills the
      // engine's worker thread); the abort itself is reported by the signal checks.
      p.catch(() => undefined);
      return p;
    };
    const addResults = async (toChunk: SourceDocument[], results: FileChunks[]) => {
      let sliceStart = Date.now();
      for (let i = 0; i < results.length; i++) {
        // A host answers queries on this thread while it refreshes: give them a turn now and then.
        if (commitEvery !== undefined && Date.now() - sliceStart > YIELD_EVERY_MS) {
          await new Promise((resolve) => setImmediate(resolve));
          signal?.throwIfAborted();
          sliceStart = Date.now();
        }
        const fc = results[i] as FileChunks;
        const doc = toChunk[i] as SourceDocument;
        diagnostics.push(...fc.diagnostics.map((d) => ({ ...d, path: d.path ?? doc.path })));
        const { firstDoc, docCount } = timed('build', () => builder.addFile(
          { path: doc.path, size: doc.size, mtimeMs: doc.mtimeMs, hash: doc.hash, language: doc.language },
          fc.chunks,
          fc.analysis,
          doc.text,
          fc.occurrences,
        ));
        builderFiles.push({
          path: doc.path,
          state: {
            ...recordedStat(doc.path), hash: doc.hash, language: doc.language, firstDoc, docCount,
            ...(fc.imports?.length ? { imports: fc.imports } : {}),
          },
        });
        chunksAdded += docCount;
        if (state.has(doc.path)) changed++;
        else added++;
        builderBytes += doc.size;
        meter.added(doc.size);
        meter.report('chunk', filesDone, toRead.length);
      }
      if (builder.approxBytes > SEGMENT_FLUSH_BYTES) flush();
    };
    /** Commits what the first `doneBatches` batches brought as a generation of its own, and goes on from there. */
    const commitPart = (doneBatches: number) => {
      flush();
      const base = previous as Manifest;
      const refs = copyRefs(base);
      const changes = new Map<string, FileState | null>();
      for (const p of removedPaths) {
        chunksRemoved += tombstone(refs, state.get(p) as FileState);
        changes.set(p, null);
      }
      for (const [p, s] of touched) changes.set(p, s);
      for (const [p, s] of newStates) {
        const prev = state.get(p);
        if (prev) chunksRemoved += tombstone(refs, prev);
        changes.set(p, s);
      }
      // Files read and found unchanged are no longer pending either.
      for (const f of batches.slice(0, doneBatches).flat()) pending?.delete(f.path);
      if (changes.size === 0) {
        reportPending();
        return;
      }
      const segments = liveSegments(refs, segmentsWritten);
      const next = state.withChanges(changes, state.skipped);
      const at = new Date().toISOString();
      previous = replacing = store.commit(
        {
          root: config.root,
          configHash: wantedConfig,
          segments,
          createdAt: base.createdAt,
          updatedAt: at,
          files: next.size,
          chunks: segments.reduce((n, s) => n + liveCount(s), 0),
          ...(base.lastRefresh ? { lastRefresh: base.lastRefresh } : {}),
        },
        next,
        base,
        changes.keys(),
      );
      state = next;
      removedCommitted += removedPaths.size;
      for (const p of changes.keys()) pending?.delete(p);
      removedPaths.clear();
      touched.clear();
      newStates.clear();
      segmentsWritten.length = 0;
      reportPending();
    };
    /** The files a refresh stopped at its deadline left for the next one. */
    let left: string[] | undefined;
    let pendingRead = batches.length > 0 ? read(0) : undefined;
    let inFlight: { toChunk: SourceDocument[]; results: Promise<FileChunks[]> } | undefined;
    for (let b = 0; b < batches.length; b++) {
      const { docs, skipped: readSkips } = await waited('wait-read', pendingRead as ReturnType<typeof loadDocuments>);
      signal?.throwIfAborted();
      pendingRead = b + 1 < batches.length ? read(b + 1) : undefined;
      readDone += (batches[b] as DiscoveredFile[]).length;
      meter.report('read', readDone, toRead.length, undefined, true);
      for (const s of readSkips) {
        filesDone++;
        meter.passed(sizeOf(s.path));
        skipped.push(s);
        if (state.has(s.path)) removedPaths.add(s.path);
      }
      const toChunk: SourceDocument[] = [];
      for (const doc of docs) {
        const prev = state.get(doc.path);
        if (prev && !rechunkAll && prev.hash === doc.hash) {
          // A racy entry re-hashed with its stat as it was changes nothing (unless it stopped being racy).
          const stat = recordedStat(doc.path);
          if (!sameFileStat(prev, stat) || !!prev.racy !== !!stat.racy) {
            const next: FileState = { ...prev, ...stat };
            if (!stat.racy) delete next.racy;
            touched.set(doc.path, next);
          }
          unchanged++;
          filesDone++;
          meter.passed(doc.size);
        } else toChunk.push(doc);
      }
      const onChunked = (i: number) => {
        filesDone++;
        meter.chunked((toChunk[i] as SourceDocument).size);
        meter.report('chunk', filesDone, toRead.length);
      };
      const next = toChunk.length ? { toChunk, results: (chunker as Chunker).chunk(toChunk, signal, onChunked) } : undefined;
      next?.results.catch(() => undefined);
      if (inFlight) {
        await addResults(inFlight.toChunk, await waited('wait-chunks', inFlight.results));
        signal?.throwIfAborted();
        // What is still read or chunked goes into the next part (or the final commit).
        const committable = readDone - (batches[b] as DiscoveredFile[]).length;
        // Past the deadline, the part under way is committed (at least one, so every run makes
        // progress) and the rest left: batch b is read and chunking, but not added.
        const pastDeadline = options.deadlineAtMs !== undefined && Date.now() >= options.deadlineAtMs;
        if (commitEvery !== undefined && (committable - readAtLastCommit >= commitEvery || (pastDeadline && committable > readAtLastCommit))) {
          commitPart(b);
          readAtLastCommit = committable;
          if (pastDeadline) {
            left = batches.slice(b).flat().map((f) => f.path);
            inFlight = undefined;
            break;
          }
        }
      }
      inFlight = next;
    }
    if (inFlight) {
      await addResults(inFlight.toChunk, await waited('wait-chunks', inFlight.results));
      signal?.throwIfAborted();
    }
    flush();

    // --- 4. tombstones ---------------------------------------------------------------
    const refs = copyRefs(previous);
    for (const p of removedPaths) chunksRemoved += tombstone(refs, state.get(p) as FileState);
    for (const p of newStates.keys()) {
      const prev = state.get(p);
      if (prev) chunksRemoved += tombstone(refs, prev);
    }

    // --- next state ------------------------------------------------------------------
    // Only what changed: the next table shares the rest with this one.
    const changes = new Map<string, FileState | null>();
    for (const p of removedPaths) changes.set(p, null);
    for (const [p, s] of touched) changes.set(p, s);
    for (const [p, s] of newStates) changes.set(p, s);
    const nextSkipped = only
      ? [...state.skipped.filter((s) => !isUnder(s.path, only)), ...skipped]
      : skipped;
    nextSkipped.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));

    let segments = liveSegments(refs, segmentsWritten);

    // --- 5. merge --------------------------------------------------------------------
    // Entries that differ from the previous table: a small set is committed as a delta.
    // A refresh stopped at its deadline leaves merging to the one that finishes.
    if (!left) {
      segments = timed('merge', () =>
        maybeMerge(store, segments, state, changes, (p) => meter.report(p.phase === 'wait' ? 'write' : p.phase, p.done, p.total, p.message, true)),
      );
    }
    meter.commit();
    meter.report('write', 1, 1, 'committing the index', true);
    const next = state.withChanges(changes, nextSkipped);

    const chunkTotal = segments.reduce((n, s) => n + liveCount(s), 0);
    const summary: RefreshSummary = {
      at: new Date().toISOString(),
      durationMs: Date.now() - started,
      filesScanned: discovery.files.length,
      added,
      changed,
      removed: removedCommitted + removedPaths.size,
      unchanged,
      chunksAdded,
      chunksRemoved,
    };
    const nothingChanged = previous && !rechunkAll && added === 0 && changed === 0 && removedPaths.size === 0 && touched.size === 0 && sameSkips(state.skipped, nextSkipped);
    // A refresh stopped at its deadline has committed its part: the rest, skips included, is the next one's.
    const manifest = (nothingChanged || (left && changes.size === 0)) && previous
      ? previous
      : timed('commit', () => store.commit(
          {
            root: config.root,
            configHash: wantedConfig,
            segments,
            createdAt: previous?.createdAt ?? summary.at,
            updatedAt: summary.at,
            files: next.size,
            chunks: chunkTotal,
            lastRefresh: summary,
          },
          next,
          replacing,
          rechunkAll || !previous ? undefined : changes.keys(),
        ));
    return {
      ...summary,
      durationMs: Date.now() - started,
      generation: manifest.generation,
      files: manifest.files,
      chunks: manifest.chunks,
      skipped: nextSkipped,
      skippedByReason: countByReason(nextSkipped),
      diagnostics,
      rebuilt,
      ...(timingsOn() ? { timings: timingsSince(timingsBefore) } : {}),
      ...(left ? { pending: left.sort() } : {}),
    };
  } finally {
    // Segments of a refresh that failed before its commit are nobody's: removed now, not at the next GC.
    store.discardUncommitted();
    lock.release();
  }
}

/** Awaits `p`, adding the time this thread waited for it to `stage`. */
async function waited<T>(stage: 'wait-read' | 'wait-chunks', p: Promise<T>): Promise<T> {
  if (!timingsOn()) return p;
  const since = performance.now();
  try {
    return await p;
  } finally {
    addTime(stage, performance.now() - since);
  }
}

function copyRefs(manifest: Manifest | undefined): Map<string, SegmentRef> {
  return new Map<string, SegmentRef>((manifest?.segments ?? []).map((s) => [s.name, { ...s, deleted: [...s.deleted] }]));
}

/** Marks a file's previous chunks deleted in its segment; the number of chunks marked. */
function tombstone(refs: Map<string, SegmentRef>, prev: FileState): number {
  const ref = refs.get(prev.segment);
  if (!ref || prev.docCount === 0) return 0;
  ref.deleted.push([prev.firstDoc, prev.docCount]);
  return prev.docCount;
}

/** The segments of the next generation: fully deleted ones disappear. */
function liveSegments(refs: Map<string, SegmentRef>, written: ReadonlyArray<{ name: string; docCount: number; bytes: number }>): SegmentRef[] {
  return [
    ...[...refs.values()].map((r) => ({ ...r, deleted: normaliseRanges(r.deleted) })),
    ...written.map(({ name, docCount, bytes }) => ({ name, docCount, bytes, deleted: [] as Array<[number, number]> })),
  ].filter((s) => s.docCount > 0 && liveCount(s) > 0);
}

function makeBatches(files: readonly DiscoveredFile[], maxFiles: number): DiscoveredFile[][] {
  const batches: DiscoveredFile[][] = [];
  let current: DiscoveredFile[] = [];
  let bytes = 0;
  for (const f of files) {
    current.push(f);
    bytes += f.size;
    if (bytes >= BATCH_BYTES || current.length >= maxFiles) {
      batches.push(current);
      current = [];
      bytes = 0;
    }
  }
  if (current.length) batches.push(current);
  return batches;
}

function liveCount(ref: SegmentRef): number {
  return ref.docCount - ref.deleted.reduce((n, [, c]) => n + c, 0);
}

/** Sorts and coalesces tombstone ranges. */
function normaliseRanges(ranges: Array<[number, number]>): Array<[number, number]> {
  const sorted = ranges.filter(([, c]) => c > 0).sort((a, b) => a[0] - b[0]);
  const out: Array<[number, number]> = [];
  for (const [s, c] of sorted) {
    const last = out[out.length - 1];
    if (last && s <= last[0] + last[1]) last[1] = Math.max(last[1], s + c - last[0]);
    else out.push([s, c]);
  }
  return out;
}

function sameSkips(a: readonly SkippedFile[], b: readonly SkippedFile[]): boolean {
  return a.length === b.length && a.every((s, i) => s.path === b[i]?.path && s.reason === b[i]?.reason);
}

/**
 * Tiered merging: too many segments -> the smallest are merged; a segment with many
 * tombstones is rewritten (merged with the small ones). The moved files' new entries are added
 * to `changes` (the entries that differ from `state`).
 */
function maybeMerge(
  store: IndexStore,
  segments: SegmentRef[],
  state: StateTable,
  changes: Map<string, FileState | null>,
  progress: (p: RefreshProgress) => void,
): SegmentRef[] {
  const pick = new Set<string>();
  for (const s of segments) if (s.deleted.length && (s.docCount - liveCount(s)) / s.docCount > MAX_DELETED_RATIO) pick.add(s.name);
  if (segments.length > MAX_SEGMENTS) {
    const bySize = [...segments].sort((a, b) => liveCount(a) - liveCount(b));
    for (const s of bySize.slice(0, segments.length - MAX_SEGMENTS / 2)) pick.add(s.name);
  }
  if (pick.size === 0 || (pick.size === 1 && segments.length === 1 && segments[0]?.deleted.length === 0)) return segments;
  const chosen = segments.filter((s) => pick.has(s.name));
  if (chosen.length === 1 && chosen[0]?.deleted.length === 0) return segments;
  progress({ phase: 'merge', done: 0, total: chosen.length, message: `merging ${chosen.length} segments` });
  const inputs = chosen.map((ref) => {
    const segment = store.loadSegment(ref.name);
    return { segment, deleted: tombstoneBitmap(ref, segment.docCount) };
  });
  const bytes = mergeSegments(inputs);
  const name = store.newSegmentName();
  store.writeSegment(name, bytes);
  const merged = new Segment(name, bytes);
  for (const f of merged.files) {
    const st = changes.has(f.path) ? changes.get(f.path) : state.get(f.path);
    if (st && pick.has(st.segment)) changes.set(f.path, { ...st, segment: name, firstDoc: f.firstDoc, docCount: f.docCount });
  }
  progress({ phase: 'merge', done: chosen.length, total: chosen.length });
  const rest = segments.filter((s) => !pick.has(s.name));
  return merged.docCount > 0 ? [...rest, { name, docCount: merged.docCount, bytes: merged.byteLength, deleted: [] }] : rest;
}
