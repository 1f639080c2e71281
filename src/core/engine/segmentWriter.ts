// The segments a refresh writes: files go into a segment builder, written out as a segment when
// it grows past SEGMENT_FLUSH_BYTES and before each commit; only then do the files' state
// entries name their segment.
import { SegmentBuilder } from '../index/segmentBuilder';
import type { FileState, IndexStore } from '../store/store';
import { drainSteps, drainStepsYielding, type BuildSteps } from '../index/buildSteps';
import { timed, type Stage } from '../timings';
import type { FileChunks, FileStat, SourceDocument } from '../types';
import type { ProgressMeter } from './progressMeter';
import type { Uncommitted } from './refreshCommit';

/** A builder holding more than this is written out as a segment and a new one started. */
const SEGMENT_FLUSH_BYTES = 64 * 1024 * 1024;
/** The longest a yielding build holds the thread without a turn for its other work. */
const SLICE_MS = 15;

/** A file in a segment not yet written: its state entry but for the segment's name. */
interface PendingFile {
  path: string;
  state: Omit<FileState, 'segment'>;
}

/** A segment being built: what it holds and its steps. */
interface SegmentBuild {
  docCount: number;
  bytesIn: number;
  files: PendingFile[];
  steps: BuildSteps<Uint8Array[]>;
  onStep: (fraction: number) => void;
}

export class SegmentWriter {
  private builder = new SegmentBuilder();
  /** The files in the builder. */
  private files: PendingFile[] = [];
  /** Bytes of the files in the segment under way (its share of the build's progress). */
  private bytes = 0;
  /** The builds under way in the background, the last one started (each waits for the one before). */
  private building: Promise<void> = Promise.resolve();

  /** Each segment written goes to `changes.written`, its files' state entries to `changes.newStates`. */
  constructor(
    private readonly store: IndexStore,
    private readonly meter: ProgressMeter,
    private readonly changes: Uncommitted,
  ) {}

  /** Adds a document's chunks, with `stat` as its recorded stat; gives the number of chunks added. */
  add(doc: SourceDocument, fc: FileChunks, stat: FileStat & { racy?: boolean }): number {
    const { firstDoc, docCount } = timed('build', () => this.builder.addFile(
      { path: doc.path, size: doc.size, mtimeMs: doc.mtimeMs, hash: doc.hash, language: doc.language },
      fc.chunks,
      fc.analysis,
      doc.text,
      fc.occurrences,
    ));
    this.files.push({
      path: doc.path,
      state: {
        ...stat, hash: doc.hash, language: doc.language, firstDoc, docCount,
        ...(fc.imports?.length ? { imports: fc.imports } : {}),
      },
    });
    this.bytes += doc.size;
    return docCount;
  }

  /** True when the segment under way has grown past SEGMENT_FLUSH_BYTES and is due to be written. */
  get full(): boolean {
    return this.builder.approxBytes > SEGMENT_FLUSH_BYTES;
  }

  /** Text bytes of the files in the segment under way. */
  get textBytes(): number {
    return this.bytes;
  }

  /** Writes the segment under way, if it holds anything, and starts a new one. Not while a build runs in the background. */
  flush(): void {
    const build = this.startBuild();
    if (build) this.finishBuild(build, drainSteps(build.steps, build.onStep));
  }

  /**
   * flush, giving the thread's event loop a turn every SLICE_MS: the chunk workers' results and
   * their next batches (and a host's queries) are not held up for the seconds a large segment's
   * build takes.
   */
  async flushYielding(signal?: AbortSignal): Promise<void> {
    this.flushInBackground(signal);
    await this.settled();
  }

  /**
   * Starts writing the segment under way and returns at once: files added from now on go to a
   * new segment, built beside it on this thread (the build gives the event loop a turn every
   * SLICE_MS). Segments are written in the order their builds started. `settled` waits for them.
   */
  flushInBackground(signal?: AbortSignal): void {
    const build = this.startBuild();
    if (!build) return;
    const before = this.building;
    const done = (async () => {
      await before;
      const parts = await drainStepsYielding(build.steps, SLICE_MS, build.onStep, signal);
      this.finishBuild(build, parts);
    })();
    // Its failure is reported by settled(), not as an unhandled rejection in between.
    done.catch(() => undefined);
    this.building = done;
  }

  /** Waits for the segments being written in the background; rejects with the first build's failure. */
  async settled(): Promise<void> {
    await this.building;
  }

  private startBuild(): SegmentBuild | undefined {
    const { builder, meter } = this;
    if (builder.docCount === 0 && builder.fileCount === 0) return undefined;
    const message = `writing ${builder.docCount} chunks`;
    meter.report('write', 0, 1, message, true);
    const bytesIn = this.bytes;
    const files = this.files;
    // The writer starts a new segment now: files added while a yielding build runs go there.
    this.builder = new SegmentBuilder();
    this.files = [];
    this.bytes = 0;
    return {
      docCount: builder.docCount,
      bytesIn,
      files,
      steps: timedSteps('encode', builder.buildSteps()),
      onStep: (fraction) => {
        meter.building(bytesIn, fraction);
        meter.report('write', 0, 1, message);
      },
    };
  }

  private finishBuild(build: SegmentBuild, parts: Uint8Array[]): void {
    // Named only when written: a refresh that writes nothing draws no name.
    const name = this.store.newSegmentName();
    timed('write', () => this.store.writeSegment(name, parts));
    this.meter.built(build.bytesIn);
    // Only its size is kept: the bytes are dropped now, and queries open the file on demand.
    this.changes.written.push({ name, docCount: build.docCount, bytes: parts.reduce((n, p) => n + p.length, 0) });
    for (const f of build.files) this.changes.newStates.set(f.path, { ...f.state, segment: name });
  }
}

/** Runs each step of a build under a timings stage. */
function* timedSteps<T>(stage: Stage, steps: BuildSteps<T>): BuildSteps<T> {
  for (;;) {
    const r = timed(stage, () => steps.next());
    if (r.done) return r.value;
    yield r.value;
  }
}
