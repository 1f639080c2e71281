// Maps a file position to the indexed chunk that holds it, so line-oriented answers (ripgrep
// matches, editor positions) become the same spans every other answer uses.
import type { Snapshot } from '../store/store';

export interface ChunkRef {
  seg: number;
  doc: number;
}

export class ChunkLocator {
  private byPath?: Map<string, { seg: number; first: number; count: number }>;

  /** Cheap: the path table is built on first use (a search by keywords never needs it). */
  constructor(private readonly snapshot: Snapshot) {}

  private get files(): Map<string, { seg: number; first: number; count: number }> {
    if (!this.byPath) {
      const files = new Map<string, { seg: number; first: number; count: number }>();
      this.snapshot.segments.forEach((segment, s) => {
        const deleted = this.snapshot.deleted[s] as Uint8Array;
        for (let i = 0; i < segment.fileCount; i++) {
          const first = segment.fileFirstDocOf(i);
          const count = segment.fileDocCount(i);
          if (count > 0 && !deleted[first]) files.set(segment.filePath(i), { seg: s, first, count });
        }
      });
      this.byPath = files;
    }
    return this.byPath;
  }

  has(path: string): boolean {
    return this.files.has(path);
  }

  /** The smallest live chunk of `path` whose lines contain `line`, or undefined. */
  locate(path: string, line: number): ChunkRef | undefined {
    const f = this.files.get(path);
    if (!f) return undefined;
    const seg = this.snapshot.segments[f.seg];
    if (!seg) return undefined;
    let best: ChunkRef | undefined;
    let bestSpan = Infinity;
    for (let d = f.first; d < f.first + f.count; d++) {
      const start = seg.docStart.at(d);
      const end = seg.docEnd.at(d);
      if (line < start || line > end) continue;
      const span = end - start;
      if (span < bestSpan) {
        best = { seg: f.seg, doc: d };
        bestSpan = span;
      }
    }
    return best;
  }

  /** All live chunks of a file, in document order. */
  chunksOf(path: string): ChunkRef[] {
    const f = this.files.get(path);
    if (!f) return [];
    return Array.from({ length: f.count }, (_, i) => ({ seg: f.seg, doc: f.first + i }));
  }

  paths(): string[] {
    return [...this.files.keys()];
  }
}
