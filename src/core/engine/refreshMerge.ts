// The merge policy a full refresh applies before its commit: too many segments, or one mostly
// tombstones, and the ones picked are merged into one new segment.
import type { RefreshProgress } from '../api';
import { Segment } from '../index/segment';
import { mergeSegments } from '../index/merge';
import { type FileState, type IndexStore, type SegmentRef, type StateTable, tombstoneBitmap } from '../store/store';
import { liveCount } from './segmentRefs';

/** More segments than this are merged down (small ones first). */
const MAX_SEGMENTS = 8;
/** A segment with more tombstoned documents than this share is rewritten. */
const MAX_DELETED_RATIO = 0.4;

/**
 * Tiered merging: too many segments -> the smallest are merged; a segment with many
 * tombstones is rewritten (merged with the small ones). Takes the next generation's segments
 * and gives them back with the merged ones replaced; the moved files' new entries are added
 * to `changes` (the entries that differ from `state`).
 */
export function maybeMerge(
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
