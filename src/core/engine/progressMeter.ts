// How far a refresh is, as one percentage weighted by the work each stage still has to do.
// Counting files alone left a view at 99 % for the whole segment build, and counting the files
// read (the pipeline reads a batch ahead) reached 99 % while the last batches were still being
// parsed. Here every stage that costs time moves the number as it goes: discovery, each file's
// chunking and its addition to the segment (by bytes, since a big file costs more than a small
// one), the building of each segment (by its bytes, in steps), then the commit. Two parts
// that once held a first index still for seconds move it too: starting the chunk workers (each
// thread started, each grammar loaded) and a big file a worker is busy with (its share parsed,
// then each later stage of its chunking).
import type { RefreshProgress } from '../api';

/**
 * Each stage's share of the whole, in percent. Starting the workers comes once, before any file
 * is chunked, and is done at once when they are running already. Chunking and adding a file overlap (workers chunk
 * one batch while this thread adds the previous one), so both move the number, whichever is the
 * slower one; parsing a byte costs more than adding its chunks to the segment. The
 * segment build is one synchronous step per segment at the end of the tree (or of each 64 MB),
 * reported in sub-steps.
 */
export const STAGE_SHARES = { discover: 2, start: 4, chunk: 52, add: 28, build: 12, commit: 2 } as const;

/** Below 100 until the refresh has committed: 100 % means done. */
const MAX_UNTIL_DONE = 99;

export type MeterPhase = Exclude<RefreshProgress['phase'], 'wait'>;

export class ProgressMeter {
  private discovered = false;
  private totalBytes = 0;
  private chunkedBytes = 0;
  /** The share of starting the chunk workers done (0-1). */
  private started = 0;
  /** The bytes done so far of each file a worker is still on, by path, and their sum. */
  private readonly partials = new Map<string, number>();
  private partialBytes = 0;
  private addedBytes = 0;
  /** Bytes of files whose segment is built and written. */
  private builtBytes = 0;
  /** The built share of the segment under way, in bytes of its files. */
  private buildingBytes = 0;
  private committing = false;
  private shown = 0;
  private lastEmitted = -1;
  private lastPhase: MeterPhase | undefined;

  constructor(private readonly emit: (p: RefreshProgress) => void) {}

  /** The percentage so far: never lower than one reported before, below 100 until done. */
  get percent(): number {
    const b = this.totalBytes;
    const share = (part: number, weight: number) => (b > 0 ? (Math.min(part, b) / b) * weight : 0);
    const middle = STAGE_SHARES.start + STAGE_SHARES.chunk + STAGE_SHARES.add + STAGE_SHARES.build;
    const raw =
      (this.discovered ? STAGE_SHARES.discover : 0) +
      // Nothing to read: the middle stages are done as soon as the list is known.
      (this.discovered && b === 0
        ? middle
        : // With every file chunked (or unchanged), no worker is still to start.
          (b > 0 && this.chunkedBytes >= b ? 1 : this.started) * STAGE_SHARES.start +
          share(this.chunkedBytes + this.partialBytes, STAGE_SHARES.chunk) +
          share(this.addedBytes, STAGE_SHARES.add) +
          share(this.builtBytes + this.buildingBytes, STAGE_SHARES.build)) +
      (this.committing ? STAGE_SHARES.commit : 0);
    this.shown = Math.max(this.shown, Math.min(MAX_UNTIL_DONE, Math.floor(raw)));
    return this.shown;
  }

  /** Reports a stage; `force` reports it even when the percentage and phase are unchanged. */
  report(phase: MeterPhase, done: number, total: number, message?: string, force = false): void {
    const percent = this.percent;
    // A report per file would flood the views of a large tree: one per percent or phase change.
    if (!force && percent === this.lastEmitted && phase === this.lastPhase) return;
    this.lastEmitted = percent;
    this.lastPhase = phase;
    this.emit({ phase, done, total, percent, ...(message ? { message } : {}) });
  }

  /** The files to read are known, with their total size. */
  listed(totalBytes: number): void {
    this.discovered = true;
    this.totalBytes = totalBytes;
  }

  /** Starting the chunk workers: `done` of its `total` steps are done. */
  starting(done: number, total: number): void {
    this.started = Math.max(this.started, total > 0 ? Math.min(1, done / total) : 1);
  }

  /** A worker has done `fraction` of the work of the file at `path` (of `bytes`), still under way. */
  chunking(path: string, bytes: number, fraction: number): void {
    const now = bytes * Math.min(1, Math.max(0, fraction));
    this.partialBytes += now - (this.partials.get(path) ?? 0);
    this.partials.set(path, now);
  }

  /**
   * A file's chunks came back (so the workers are running: a refresh that found them running
   * hears no start-up, and its start-up share is done with its first file).
   */
  chunked(bytes: number, path?: string): void {
    this.started = 1;
    this.chunkedBytes += bytes;
    const partial = path === undefined ? undefined : this.partials.get(path);
    if (partial !== undefined) {
      this.partialBytes -= partial;
      this.partials.delete(path as string);
    }
  }

  /** A file's chunks were added to the segment being built. */
  added(bytes: number): void {
    this.addedBytes += bytes;
  }

  /** A file read but not chunked (unchanged content, or skipped): its work is all done. */
  passed(bytes: number): void {
    this.chunkedBytes += bytes;
    this.addedBytes += bytes;
    this.builtBytes += bytes;
  }

  /** A segment holding `bytes` of files is being built: `fraction` of it is done. */
  building(bytes: number, fraction: number): void {
    this.buildingBytes = bytes * Math.min(1, Math.max(0, fraction));
  }

  /** The segment under way is built and written. */
  built(bytes: number): void {
    this.builtBytes += bytes;
    this.buildingBytes = 0;
  }

  /** Everything is written: the new generation is being committed. */
  commit(): void {
    this.committing = true;
    this.started = 1;
    this.builtBytes = Math.max(this.builtBytes, this.totalBytes);
  }
}
