// A generation's segment list as a refresh edits it: the files it replaces or removes are
// tombstoned in their segments, the segments it wrote are added, and emptied ones dropped.
import type { FileState, Manifest, SegmentRef } from '../store/store';

/** A segment a refresh wrote; only its size is kept (queries open the file on demand). */
export interface WrittenSegment {
  name: string;
  docCount: number;
  bytes: number;
}

/** The manifest's segments, by name, as copies a refresh may tombstone into. */
export function copyRefs(manifest: Manifest | undefined): Map<string, SegmentRef> {
  return new Map<string, SegmentRef>((manifest?.segments ?? []).map((s) => [s.name, { ...s, deleted: [...s.deleted] }]));
}

/** Marks a file's previous chunks deleted in its segment; the number of chunks marked. */
export function tombstone(refs: Map<string, SegmentRef>, prev: FileState): number {
  const ref = refs.get(prev.segment);
  if (!ref || prev.docCount === 0) return 0;
  ref.deleted.push([prev.firstDoc, prev.docCount]);
  return prev.docCount;
}

/** The segments of the next generation: fully deleted ones disappear. */
export function liveSegments(refs: Map<string, SegmentRef>, written: readonly WrittenSegment[]): SegmentRef[] {
  return [
    ...[...refs.values()].map((r) => ({ ...r, deleted: normaliseRanges(r.deleted) })),
    ...written.map(({ name, docCount, bytes }) => ({ name, docCount, bytes, deleted: [] as Array<[number, number]> })),
  ].filter((s) => s.docCount > 0 && liveCount(s) > 0);
}

/** The documents of a segment not tombstoned. */
export function liveCount(ref: SegmentRef): number {
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
