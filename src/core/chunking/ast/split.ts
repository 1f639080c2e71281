// Cutting an oversized node into row ranges that fit the budget, at its children's boundaries.
// Only nodes larger than the budget are opened, so the work is proportional to the oversized
// spine of the tree, not its size; the descent is an explicit stack with a depth cap, so
// pathological nesting (thousands of brackets) neither recurses nor loops long.
import type { Node } from 'web-tree-sitter';
import type { SourceText } from './source';

export interface RowRange {
  start: number;
  end: number;
}

/** Something to split: a node, or a raw row range (text outside any node we kept). */
export interface Splittable {
  node: Node | null;
  startRow: number;
  endRow: number;
  endIndex: number;
}

/** Below this depth a node is opened; deeper nodes are cut by rows instead. */
const MAX_SPLIT_DEPTH = 48;

/** Appends row ranges ("atoms") that each fit the budget or are a single row, in document order. */
export function atomsOf(src: SourceText, parts: readonly Splittable[], budget: number, out: RowRange[]): void {
  const stack: Array<{ part: Splittable; depth: number }> = [];
  for (let i = parts.length - 1; i >= 0; i--) stack.push({ part: parts[i]!, depth: 0 });
  while (stack.length > 0) {
    const { part, depth } = stack.pop()!;
    const { startRow: s, endRow: e } = part;
    if (s === e || src.rowsLength(s, e) <= budget) {
      out.push({ start: s, end: e });
      continue;
    }
    const node = part.node;
    // Children much denser than rows (an array of 20 numbers per line) would cost a wasm object
    // each and end on the same rows anyway: their rows are the boundaries.
    const childCount = node && depth < MAX_SPLIT_DEPTH ? node.childCount : 0;
    if (node && childCount > 0 && childCount <= 2 * (e - s + 1) + 16) {
      const kids = node.children;
      // Each child ends where the next begins (less whitespace): no wasm call per child.
      let end = part.endIndex;
      for (let i = kids.length - 1; i >= 0; i--) {
        const k = kids[i];
        if (!k) continue;
        const endIndex = src.trimEnd(k.startIndex, end);
        stack.push({ part: { node: k, startRow: k.startPosition.row, endRow: src.lastRowOf(k.startIndex, endIndex), endIndex }, depth: depth + 1 });
        end = k.startIndex;
      }
      continue;
    }
    // A leaf (string, comment) or too deep: its rows are the only boundaries left.
    for (let r = s; r <= e; r++) out.push({ start: r, end: r });
  }
}

/**
 * Packs atoms into pieces of at most `budget` characters. Atoms may overlap on shared rows
 * (`} else {`): each row goes to the first atom holding it. Rows no atom covers (the inside of
 * a multi-line string whose fragments are not nodes) become atoms of their own, so no text is lost.
 * Blank rows at the edges of a piece are trimmed.
 */
export function packAtoms(src: SourceText, atoms: readonly RowRange[], budget: number): RowRange[] {
  const norm: RowRange[] = [];
  let covered = -1;
  for (const a of atoms) {
    const start = Math.max(a.start, covered + 1);
    if (start > a.end) continue;
    if (norm.length > 0) for (let r = covered + 1; r < start; r++) norm.push({ start: r, end: r });
    norm.push({ start, end: a.end });
    covered = a.end;
  }
  const pieces: RowRange[] = [];
  let cur: RowRange | undefined;
  for (const a of norm) {
    if (cur && src.rowsLength(cur.start, a.end) <= budget) cur.end = a.end;
    else {
      if (cur) pieces.push(cur);
      cur = { start: a.start, end: a.end };
    }
  }
  if (cur) pieces.push(cur);
  const out: RowRange[] = [];
  for (const p of pieces) {
    let { start, end } = p;
    while (start < end && src.isBlankRow(start)) start++;
    while (end > start && src.isBlankRow(end)) end--;
    if (start === end && src.isBlankRow(start)) continue;
    out.push({ start, end });
  }
  return out;
}
