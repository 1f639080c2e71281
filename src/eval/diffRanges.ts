// The lines a commit changed, located in its parent: the `-a,b` side of `git diff -U0` hunks.

/** An inclusive 1-based line range in the parent's version of a file. */
export interface LineRange {
  start: number;
  end: number;
}

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@/;

/**
 * Old-side ranges of every hunk in a zero-context unified diff. A hunk that removes or
 * rewrites lines `-a,b` maps to lines a..a+b-1. A pure addition (`-a,0`) inserts after line a,
 * so it maps to the two lines it sits between, a..a+1 (line 1 when a is 0): a span ending at
 * the line before or starting at the line after both point at the place of the change.
 * Overlapping and touching ranges are merged; the result is sorted.
 */
export function oldRangesOfDiff(diff: string): LineRange[] {
  const ranges: LineRange[] = [];
  for (const line of diff.split('\n')) {
    const m = HUNK_HEADER.exec(line);
    if (!m) continue;
    const start = Number(m[1]);
    const count = m[2] === undefined ? 1 : Number(m[2]);
    if (count > 0) ranges.push({ start, end: start + count - 1 });
    else ranges.push(start === 0 ? { start: 1, end: 1 } : { start, end: start + 1 });
  }
  return mergeRanges(ranges);
}

/** Sorts ranges and merges those that overlap or touch. */
export function mergeRanges(ranges: readonly LineRange[]): LineRange[] {
  const sorted = [...ranges].sort((a, b) => a.start - b.start || a.end - b.end);
  const out: LineRange[] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last && r.start <= last.end + 1) last.end = Math.max(last.end, r.end);
    else out.push({ ...r });
  }
  return out;
}

/** True when [start, end] shares at least one line with a range. */
export function overlapsAny(start: number, end: number, ranges: readonly LineRange[]): boolean {
  return ranges.some((r) => start <= r.end && end >= r.start);
}
