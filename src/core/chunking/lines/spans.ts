// Shared machinery of the line chunkers: splitting text into lines, cutting a line range into
// pieces that fit a character budget, and turning a line range into a Chunk.
import type { Chunk, ChunkKind, SourceDocument } from '../../types';
import { makeChunkId, makeDocid } from '../ids';

/** A range of lines, 0-based and inclusive at both ends. */
export interface LineSpan {
  start: number;
  end: number;
}

/**
 * A document's lines with running offsets, so the cost of any span is one subtraction and its
 * text one slice of the source. A trailing `\r` is dropped from each line so CRLF files chunk
 * (and hash) like LF files; a final newline yields a last empty line, which trimming ignores.
 */
export class LineTable {
  readonly lines: string[];
  /** prefix[i]: total cost of lines 0..i-1 (the offset of line i in the source when it has no CR). */
  private readonly prefix: number[];
  /** The source, when spans can be sliced from it directly (no `\r` was dropped). */
  private readonly source: string | undefined;

  constructor(text: string) {
    this.lines = text.split('\n');
    const hasCr = text.includes('\r');
    if (hasCr) this.lines = this.lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
    this.source = hasCr ? undefined : text;
    this.prefix = new Array<number>(this.lines.length + 1);
    this.prefix[0] = 0;
    for (let i = 0; i < this.lines.length; i++) this.prefix[i + 1] = (this.prefix[i] as number) + lineCost(this.lines[i] as string);
  }

  get length(): number {
    return this.lines.length;
  }

  line(i: number): string {
    return this.lines[i] ?? '';
  }

  /** Cost of lines start..end inclusive (0 for an empty span). */
  cost(start: number, end: number): number {
    if (end < start) return 0;
    return (this.prefix[end + 1] as number) - (this.prefix[start] as number);
  }

  /** Lines start..end joined by `\n`. */
  text(span: LineSpan): string {
    if (this.source === undefined) return this.lines.slice(span.start, span.end + 1).join('\n');
    return this.source.slice(this.prefix[span.start], (this.prefix[span.end + 1] as number) - 1);
  }
}

/** True for an empty line or one of only spaces and tabs (a char loop: regexes cost here). */
export function isBlank(line: string): boolean {
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 13 && c !== 12 && c !== 11) return false;
  }
  return true;
}

/**
 * What a line costs against the budget: its characters plus the newline that ends it.
 * A chunk of lines therefore "weighs" what it occupies in the file.
 */
export function lineCost(line: string): number {
  return line.length + 1;
}

/** Narrows a span to exclude blank lines at both ends; undefined when only blanks remain. */
export function trimBlank(table: LineTable, span: LineSpan): LineSpan | undefined {
  let { start, end } = span;
  while (start <= end && isBlank(table.line(start))) start++;
  while (end >= start && isBlank(table.line(end))) end--;
  return start <= end ? { start, end } : undefined;
}

/**
 * How good a cut right before line `i` is: 0 = never (inside a fenced block), 1 = allowed,
 * 2 = preferred (a paragraph or entry boundary).
 */
export type CutScore = (i: number) => 0 | 1 | 2;

const ANY_CUT: CutScore = () => 1;

/**
 * Cuts lines span.start..span.end into consecutive pieces whose cost stays within `target`,
 * cutting only between lines. A single line longer than the target is a piece of its own.
 *
 * Without a cut score this is plain greedy packing. With one, an overflowing piece is closed at
 * the latest preferred cut, unless that would leave the piece under a quarter of the budget
 * (a heading alone is a poor chunk), then at the latest allowed cut; when no cut is allowed
 * (one fenced block alone exceeds the budget) it is cut where it overflows.
 */
export function packSpan(table: LineTable, span: LineSpan, target: number, score: CutScore = ANY_CUT): LineSpan[] {
  const pieces: LineSpan[] = [];
  let start = span.start;
  let i = span.start;
  while (i <= span.end) {
    if (i === start || table.cost(start, i) <= target) {
      i++;
      continue;
    }
    // Line i overflows the piece: close it, then re-check line i against the new piece.
    const cut = chooseCut(table, start, i, target, score);
    pieces.push({ start, end: cut - 1 });
    start = cut;
  }
  if (start <= span.end) pieces.push({ start, end: span.end });
  return pieces;
}

/** The line before which to cut a piece that starts at `start` and overflows at line `overflow`. */
function chooseCut(table: LineTable, start: number, overflow: number, target: number, score: CutScore): number {
  if (score === ANY_CUT) return overflow;
  let allowed = -1;
  for (let j = overflow; j > start; j--) {
    const s = score(j);
    if (s === 2 && table.cost(start, j - 1) >= target / 4) return j;
    if (s >= 1 && allowed < 0) allowed = j;
  }
  return allowed > 0 ? allowed : overflow;
}

/** Naming of a chunk: everything but its position and text. */
export interface ChunkLabel {
  kind: ChunkKind;
  symbol: string;
  context: string;
  parent?: string;
}

export const UNNAMED_TEXT: ChunkLabel = { kind: 'text', symbol: '', context: '' };

/** Builds the chunk covering `span` (0-based lines) of `doc`. */
export function makeLineChunk(doc: SourceDocument, table: LineTable, span: LineSpan, label: ChunkLabel): Chunk {
  const startLine = span.start + 1;
  const endLine = span.end + 1;
  const text = table.text(span);
  const chunk: Chunk = {
    docid: makeDocid(doc.path, startLine, endLine),
    id: makeChunkId(doc.path, label.kind, label.symbol, startLine, text),
    path: doc.path,
    startLine,
    endLine,
    text,
    language: doc.language,
    kind: label.kind,
    symbol: label.symbol,
    context: label.context,
  };
  if (label.parent) chunk.parent = label.parent;
  return chunk;
}

/**
 * Emits `span` as one or more chunks sharing `label`: cut to the budget, each piece trimmed of
 * blank edge lines, blank-only pieces dropped.
 */
export function emitSpan(
  out: Chunk[],
  doc: SourceDocument,
  table: LineTable,
  span: LineSpan,
  target: number,
  label: ChunkLabel,
  score?: CutScore,
): void {
  for (const piece of packSpan(table, span, target, score)) {
    const trimmed = trimBlank(table, piece);
    if (trimmed) out.push(makeLineChunk(doc, table, trimmed, label));
  }
}

/** A cut score that prefers paragraph boundaries (a blank line on either side of the cut). */
export function blankLineCuts(table: LineTable, forbidden?: (i: number) => boolean): CutScore {
  return (i) => {
    if (forbidden?.(i)) return 0;
    return isBlank(table.line(i - 1)) || isBlank(table.line(i)) ? 2 : 1;
  };
}
