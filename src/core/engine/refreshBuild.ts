// The third step of a refresh: read, chunk and add to new segments the files whose stat
// changed, pipelined by batch. A long incremental refresh commits in parts as it goes, and one
// given a deadline stops at it, leaving the rest for the next refresh.
import type { RefreshOptions } from '../api';
import { loadDocuments } from '../discovery';
import { isRacy, sameFileStat, statOf } from '../store/fileStat';
import type { FileState } from '../store/store';
import { addTime, timingsOn } from '../timings';
import type { Diagnostic, DiscoveredFile, FileChunks, FileStat, SkippedFile, SourceDocument } from '../types';
import type { ProgressMeter } from './progressMeter';
import { commitPart, type CommitTarget, type RefreshCounts, type Uncommitted } from './refreshCommit';
import type { Chunker, ChunkListener, IndexerConfig } from './refreshConfig';
import type { LoadedGeneration } from './refreshLoad';
import type { RefreshPlan } from './refreshPlan';
import { SegmentWriter } from './segmentWriter';

/** Bytes of text read and chunked per batch: keeps memory flat and both cores busy. */
const BATCH_BYTES = 4 * 1024 * 1024;
const BATCH_FILES = 400;
/**
 * The segment under way is written early once what is left to add is at most this share of
 * it: the chunk workers take about as long over the rest as this thread over the build.
 */
export const LAST_SEGMENT_SHARE = 1 / 6;
/** Text in the segment under way below which it is not written early: its build is short anyway. */
export const EARLY_FLUSH_MIN_BYTES = 16 * 1024 * 1024;
/** While committing in parts (a long-lived host), the longest stretch of adding files without a turn for queries. */
const YIELD_EVERY_MS = 20;

/** What the build step leaves for the final commit. */
export interface Built {
  /** Changes not committed by a part. */
  changes: Uncommitted;
  counts: RefreshCounts;
  /** Every file skipped: by discovery, then when read. */
  skipped: SkippedFile[];
  /** The files a refresh stopped at its deadline left for the next one. */
  left: string[] | undefined;
}

/**
 * Reads, chunks and adds `plan.toRead` into new segments, gathering the changes against
 * `generation` (which each committed part moves forward); chunking diagnostics go to
 * `diagnostics`. When the generation's settings changed, a file is chunked again even when its
 * content is the same.
 */
export function readAndBuild(
  config: IndexerConfig,
  options: RefreshOptions,
  target: CommitTarget,
  generation: LoadedGeneration,
  plan: RefreshPlan,
  meter: ProgressMeter,
  diagnostics: Diagnostic[],
): Promise<Built> {
  return new BuildRun(config, options, target, generation, plan, meter, diagnostics).run();
}

class BuildRun {
  private readonly changes: Uncommitted;
  private readonly counts: RefreshCounts;
  private readonly skipped: SkippedFile[];
  /** Files read and chunked (or found unchanged) so far, for "indexing N of M files". */
  private filesDone = 0;
  /** Files in the batches read so far. */
  private readDone = 0;
  private readAtLastCommit = 0;
  /** Set when this refresh commits in parts: about this many files read per part. */
  private readonly commitEvery: number | undefined;
  /** The files still to bring into the index, when the caller asked to hear of them. */
  private readonly pending: Set<string> | undefined;
  private readonly batches: DiscoveredFile[][];
  private readonly writer: SegmentWriter;
  private readonly signal: AbortSignal | undefined;

  constructor(
    private readonly config: IndexerConfig,
    private readonly options: RefreshOptions,
    private readonly target: CommitTarget,
    private readonly generation: LoadedGeneration,
    private readonly plan: RefreshPlan,
    private readonly meter: ProgressMeter,
    private readonly diagnostics: Diagnostic[],
  ) {
    this.signal = options.signal;
    this.changes = { newStates: new Map(), touched: new Map(), removed: new Set(plan.removed), written: [] };
    this.counts = { added: 0, changed: 0, unchanged: plan.unchanged, chunksAdded: 0, chunksRemoved: 0, removedCommitted: 0 };
    this.skipped = [...plan.skipped];
    // A long incremental refresh commits in parts, so readers see it land as it goes. Not a build
    // from nothing or a re-chunk of everything: a part of those is an index missing most files.
    this.commitEvery = options.commitEveryFiles !== undefined && generation.previous !== undefined && !generation.rechunkAll ? Math.max(1, options.commitEveryFiles) : undefined;
    this.pending = options.onPending ? new Set([...plan.toRead.map((f) => f.path), ...plan.removed]) : undefined;
    this.writer = new SegmentWriter(target.store, meter, this.changes);
    // A part is whole batches: a smaller part asks for smaller batches.
    this.batches = makeBatches(plan.toRead, Math.min(BATCH_FILES, this.commitEvery ?? BATCH_FILES));
  }

  // A pipeline over batches: while the workers chunk batch b, this thread reads batch b+1, adds
  // batch b-1's chunks to the segment under way and builds a full one beside it, so neither
  // side waits for the other.
  async run(): Promise<Built> {
    try {
      return await this.build();
    } catch (e) {
      // A segment still being built in the background must not land after the caller has
      // discarded this refresh's segments: it stops at its next turn once aborted.
      await this.writer.settled().catch(() => undefined);
      throw e;
    }
  }

  private async build(): Promise<Built> {
    this.reportPending();
    const { batches, signal, meter } = this;
    const total = this.plan.toRead.length;
    const chunker = total > 0 ? await this.config.chunker() : undefined;
    let left: string[] | undefined;
    let pendingRead = batches.length > 0 ? this.read(0) : undefined;
    let inFlight: { toChunk: SourceDocument[]; results: Promise<FileChunks[]> } | undefined;
    for (let b = 0; b < batches.length; b++) {
      const { docs, skipped: readSkips } = await waited('wait-read', pendingRead as ReturnType<typeof loadDocuments>);
      signal?.throwIfAborted();
      pendingRead = b + 1 < batches.length ? this.read(b + 1) : undefined;
      this.readDone += (batches[b] as DiscoveredFile[]).length;
      meter.report('read', this.readDone, total, undefined, true);
      const toChunk = this.sortRead(docs, readSkips);
      const listener: ChunkListener = {
        file: (i) => {
          this.filesDone++;
          const doc = toChunk[i] as SourceDocument;
          meter.chunked(doc.size, doc.path);
          meter.report('chunk', this.filesDone, total);
        },
        partial: (i, fraction) => {
          const doc = toChunk[i] as SourceDocument;
          meter.chunking(doc.path, doc.size, fraction);
          meter.report('chunk', this.filesDone, total);
        },
        startup: (done, all) => {
          meter.starting(done, all);
          meter.report('chunk', this.filesDone, total, 'starting the parsers');
        },
      };
      const next = toChunk.length ? { toChunk, results: (chunker as Chunker).chunk(toChunk, signal, listener) } : undefined;
      next?.results.catch(() => undefined);
      if (inFlight) {
        await this.addChunks(inFlight.toChunk, await waited('wait-chunks', inFlight.results));
        signal?.throwIfAborted();
        if (this.partDue(b)) {
          left = batches.slice(b).flat().map((f) => f.path);
          inFlight = undefined;
          break;
        }
        if (this.writer.full || this.lastSegmentDue(b)) this.flushSegment();
      }
      inFlight = next;
    }
    const last = inFlight && { toChunk: inFlight.toChunk, results: await waited('wait-chunks', inFlight.results) };
    // Every file chunked (not a part that leaves the rest to the next refresh): the chunk
    // workers' heaps and parser memory go before the last segment is built, the build's peak.
    if (!left) await chunker?.finished?.();
    if (last) {
      await this.addChunks(last.toChunk, last.results);
      signal?.throwIfAborted();
    }
    // A long refresh's last files land as a part of their own, so that nothing is pending while
    // the final commit merges segments (a query waits for a refresh with a few files left).
    if (this.commitEvery !== undefined && this.readAtLastCommit > 0 && !left) this.commitPart(batches.length);
    else await this.writer.flushYielding(signal);
    return { changes: this.changes, counts: this.counts, skipped: this.skipped, left };
  }

  private read(b: number) {
    const p = loadDocuments(this.config.root, this.batches[b] as DiscoveredFile[], { signal: this.signal, maxFileBytes: this.config.discovery.maxFileBytes });
    // Aborted before it is awaited, a read-ahead must not reject unhandled (that kills the
    // engine's worker thread); the abort itself is reported by the signal checks.
    p.catch(() => undefined);
    return p;
  }

  /**
   * Sorts a batch as read: skipped when read (an indexed one is removed), the same content (at
   * most its stat is updated), or changed. Gives the documents to chunk.
   */
  private sortRead(docs: SourceDocument[], readSkips: SkippedFile[]): SourceDocument[] {
    const { meter, generation } = this;
    for (const s of readSkips) {
      this.filesDone++;
      meter.passed(this.plan.listed.get(s.path)?.size ?? 0);
      this.skipped.push(s);
      if (generation.state.has(s.path)) this.changes.removed.add(s.path);
    }
    const toChunk: SourceDocument[] = [];
    for (const doc of docs) {
      const prev = generation.state.get(doc.path);
      if (prev && !generation.rechunkAll && prev.hash === doc.hash) {
        // A racy entry re-hashed with its stat as it was changes nothing (unless it stopped being racy).
        const stat = this.recordedStat(doc.path);
        if (!sameFileStat(prev, stat) || !!prev.racy !== !!stat.racy) {
          const next: FileState = { ...prev, ...stat };
          if (!stat.racy) delete next.racy;
          this.changes.touched.set(doc.path, next);
        }
        this.counts.unchanged++;
        this.filesDone++;
        meter.passed(doc.size);
      } else toChunk.push(doc);
    }
    return toChunk;
  }

  /** Adds chunked documents to the segment under way. */
  private async addChunks(toChunk: SourceDocument[], results: FileChunks[]): Promise<void> {
    const { meter, counts } = this;
    let sliceStart = Date.now();
    for (let i = 0; i < results.length; i++) {
      // A host answers queries on this thread while it refreshes: give them a turn now and then.
      if (this.commitEvery !== undefined && Date.now() - sliceStart > YIELD_EVERY_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        this.signal?.throwIfAborted();
        sliceStart = Date.now();
      }
      const fc = results[i] as FileChunks;
      const doc = toChunk[i] as SourceDocument;
      this.diagnostics.push(...fc.diagnostics.map((d) => ({ ...d, path: d.path ?? doc.path })));
      counts.chunksAdded += this.writer.add(doc, fc, this.recordedStat(doc.path));
      if (this.generation.state.has(doc.path)) counts.changed++;
      else counts.added++;
      meter.added(doc.size);
      meter.report('chunk', this.filesDone, this.plan.toRead.length);
    }
  }

  /**
   * Writes the segment under way. A full build writes it in the background, beside the next
   * batches being added to a new segment, so the chunk workers keep getting work for the
   * seconds a large segment's build takes; a build that commits in parts writes it at once.
   */
  private flushSegment(): void {
    if (this.commitEvery === undefined) this.writer.flushInBackground(this.signal);
    else this.writer.flush();
  }

  /**
   * Whether to write the segment under way before the batches from `b` on are added: the last
   * segment's build is the one nothing runs beside, so a large segment under way is written
   * while the workers chunk the rest, and the last one holds only that rest.
   */
  private lastSegmentDue(b: number): boolean {
    return this.commitEvery === undefined && writeBeforeTheRest(this.writer.textBytes, this.batches.slice(b));
  }

  /**
   * Called once the batches before `b` are added (batch b is read and chunking): commits them as
   * a part when enough files are in it, or when past the deadline. True when the refresh stops
   * there, at the deadline.
   */
  private partDue(b: number): boolean {
    // What is still read or chunked goes into the next part (or the final commit).
    const committable = this.readDone - (this.batches[b] as DiscoveredFile[]).length;
    // Past the deadline, the part under way is committed (at least one, so every run makes
    // progress) and the rest left.
    const pastDeadline = this.options.deadlineAtMs !== undefined && Date.now() >= this.options.deadlineAtMs;
    if (this.commitEvery === undefined) return false;
    if (!(committable - this.readAtLastCommit >= this.commitEvery || (pastDeadline && committable > this.readAtLastCommit))) return false;
    this.commitPart(b);
    this.readAtLastCommit = committable;
    return pastDeadline;
  }

  /** Commits what the first `doneBatches` batches brought as a generation of its own, and goes on from there. */
  private commitPart(doneBatches: number): void {
    this.writer.flush();
    const committed = commitPart(this.target, this.generation, this.changes, this.counts);
    // Files read and found unchanged are no longer pending either.
    for (const f of this.batches.slice(0, doneBatches).flat()) this.pending?.delete(f.path);
    for (const p of committed) this.pending?.delete(p);
    this.reportPending();
  }

  private reportPending(): void {
    if (this.pending) this.options.onPending?.([...this.pending].sort());
  }

  /**
   * The stat recorded for a file read now: discovery's lstat, taken before the read, so a
   * change after it shows as a different stat next time (or, within a tick, as racy).
   */
  private recordedStat(path: string): FileStat & { racy?: boolean } {
    const stat = statOf(this.plan.listed.get(path) as DiscoveredFile);
    return isRacy(stat, this.plan.readStartedAtMs) ? { ...stat, racy: true } : stat;
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

/**
 * Whether a segment holding `held` bytes of text is written before `rest` (the batches still to
 * add) rather than with them: when it is large, and they are a small share of it.
 */
export function writeBeforeTheRest(held: number, rest: readonly (readonly { size: number }[])[]): boolean {
  if (held < EARLY_FLUSH_MIN_BYTES) return false;
  const most = held * LAST_SEGMENT_SHARE;
  let bytes = 0;
  for (const batch of rest) {
    for (const f of batch) bytes += f.size;
    if (bytes > most) return false;
  }
  return true;
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
