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

/** A range of characters (UTF-16 offsets into the document), end exclusive. */
export interface CharRange {
  start: number;
  end: number;
}

/** Something to cut by characters: a node, or raw text outside any node kept, with its offsets. */
export interface SpanPart {
  node: Node | null;
  startIndex: number;
  endIndex: number;
}

/** A cut may fall this far short of the budget to land on a coarser boundary (a statement, not an operand). */
const COARSE_SHARE = 0.5;
/** How far back a cut with no node boundary looks for a place where no word continues. */
const WORD_BACKOFF = 64;

/**
 * Cuts `from..to` into pieces of at most `budget` characters, for text whose rows cannot be cut
 * (a minified line, a long line of data). Each cut lands on a node boundary when one is near:
 * the coarsest boundary in the last half of the budget, else the closest one, else a place
 * between characters where no word continues. Finding a cut asks the tree for the child at the
 * cut (`firstChildForIndex`) level by level, so a line of 30,000 statements costs a few wasm
 * calls per piece, not one per statement. Whitespace at the edges of a piece is dropped.
 */
export function cutSpan(src: SourceText, parts: readonly SpanPart[], from: number, to: number, budget: number): CharRange[] {
  const text = src.text;
  const out: CharRange[] = [];
  let pos = skipSpace(text, from, to);
  const end = src.trimEnd(pos, to);
  while (end - pos > budget) {
    const target = pos + budget;
    let cut = boundaryBefore(parts, pos, target, pos + Math.floor(budget * COARSE_SHARE));
    if (cut <= pos) cut = wordBoundary(text, pos, target);
    const pieceEnd = src.trimEnd(pos, cut);
    if (pieceEnd > pos) out.push({ start: pos, end: pieceEnd });
    pos = skipSpace(text, cut, end);
  }
  if (end > pos) out.push({ start: pos, end });
  return out;
}

/**
 * The node boundary to cut at in `pos+1..target`: the first (coarsest) one at or after `coarse`,
 * else the last (finest) one found, else -1. Boundaries found deeper lie no earlier.
 */
function boundaryBefore(parts: readonly SpanPart[], pos: number, target: number, coarse: number): number {
  // The last part starting at or before the target.
  let lo = 0;
  let hi = parts.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((parts[mid] as SpanPart).startIndex <= target) lo = mid + 1;
    else hi = mid;
  }
  const part = parts[lo - 1];
  if (!part) return -1;
  // Past the part's end the target is in the gap after it: its end splits no node.
  if (part.endIndex <= target) return part.endIndex > pos ? part.endIndex : -1;
  let best = -1;
  if (part.startIndex > pos) {
    if (part.startIndex >= coarse) return part.startIndex;
    best = part.startIndex;
  }
  let node = part.node;
  for (let depth = 0; node && depth < MAX_SPLIT_DEPTH; depth++) {
    const child = node.firstChildForIndex(target);
    if (!child) break;
    const start = child.startIndex;
    if (start > target) {
      // The target falls between two children: cutting there splits no node.
      return target;
    }
    if (start > pos) {
      if (start >= coarse) return start;
      best = start;
    }
    if (child.endIndex <= target) break;
    node = child;
  }
  return best;
}

/** A cut near `target` where no word continues across it and no surrogate pair is split. */
function wordBoundary(text: string, pos: number, target: number): number {
  const floor = Math.max(pos + 1, target - WORD_BACKOFF);
  for (let at = target; at >= floor; at--) {
    if (!(isWordCode(text.charCodeAt(at - 1)) && isWordCode(text.charCodeAt(at))) && !isHighSurrogate(text.charCodeAt(at - 1))) return at;
  }
  return isHighSurrogate(text.charCodeAt(target - 1)) && target - 1 > pos ? target - 1 : target;
}

function skipSpace(text: string, from: number, to: number): number {
  while (from < to && isSpaceCode(text.charCodeAt(from))) from++;
  return from;
}

function isWordCode(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 36 || c >= 128;
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

function isSpaceCode(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9 || c === 12 || c === 11;
}
