// The segments a refresh writes: files go into a segment builder, written out as a segment when
// it grows past SEGMENT_FLUSH_BYTES and before each commit; only then do the files' state
// entries name their segment.
import { SegmentBuilder } from '../index/segmentBuilder';
import type { FileState, IndexStore } from '../store/store';
import { timed } from '../timings';
import type { FileChunks, FileStat, SourceDocument } from '../types';
import type { ProgressMeter } from './progressMeter';
import type { Uncommitted } from './refreshCommit';

/** A builder holding more than this is written out as a segment and a new one started. */
const SEGMENT_FLUSH_BYTES = 64 * 1024 * 1024;

export class SegmentWriter {
  private builder = new SegmentBuilder();
  /** The files in the builder, with their state entries but for the segment's name. */
  private files: Array<{ path: string; state: Omit<FileState, 'segment'> }> = [];
  /** Bytes of the files in the segment under way (its share of the build's progress). */
  private bytes = 0;

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

  /** Writes the segment out if it has grown past SEGMENT_FLUSH_BYTES. */
  flushIfFull(): void {
    if (this.builder.approxBytes > SEGMENT_FLUSH_BYTES) this.flush();
  }

  /** Writes the segment under way, if it holds anything, and starts a new one. */
  flush(): void {
    const { builder, meter } = this;
    if (builder.docCount === 0 && builder.fileCount === 0) return;
    const message = `writing ${builder.docCount} chunks`;
    meter.report('write', 0, 1, message, true);
    const docCount = builder.docCount;
    const bytesIn = this.bytes;
    const parts = timed('encode', () =>
      builder.buildParts((fraction) => {
        meter.building(bytesIn, fraction);
        meter.report('write', 0, 1, message);
      }),
    );
    // Named only when written: a refresh that writes nothing draws no name.
    const name = this.store.newSegmentName();
    timed('write', () => this.store.writeSegment(name, parts));
    meter.built(bytesIn);
    this.bytes = 0;
    // Only its size is kept: the bytes are dropped now, and queries open the file on demand.
    this.changes.written.push({ name, docCount, bytes: parts.reduce((n, p) => n + p.length, 0) });
    for (const f of this.files) this.changes.newStates.set(f.path, { ...f.state, segment: name });
    this.builder = new SegmentBuilder();
    this.files = [];
  }
}
