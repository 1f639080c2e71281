// Row (0-based line) arithmetic over a document's text. Tree-sitter positions are rows and
// UTF-16 offsets (web-tree-sitter parses JS strings as UTF-16), so slicing the string is exact.

export class SourceText {
  /** Offset where each row starts. */
  private readonly starts: Uint32Array;

  constructor(readonly text: string) {
    // Two passes into a typed array: several times faster than growing a JS array.
    let rows = 1;
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) rows++;
    const starts = new Uint32Array(rows);
    let r = 1;
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts[r++] = i + 1;
    this.starts = starts;
  }

  rowStart(row: number): number {
    return this.starts[row] ?? this.text.length;
  }

  /** Offset just past the row's last character, excluding `\n` and a `\r` before it. */
  rowEnd(row: number): number {
    const next = this.starts[row + 1];
    if (next === undefined) return this.text.length;
    return next >= 2 && this.text.charCodeAt(next - 2) === 13 ? next - 2 : next - 1;
  }

  /** Characters of rows `first..last` as they would be sliced into a chunk. */
  rowsLength(first: number, last: number): number {
    return this.rowEnd(last) - this.rowStart(first);
  }

  rowsText(first: number, last: number): string {
    return this.text.slice(this.rowStart(first), this.rowEnd(last));
  }

  isBlankRow(row: number): boolean {
    const end = this.rowEnd(row);
    for (let i = this.rowStart(row); i < end; i++) {
      const c = this.text.charCodeAt(i);
      if (c !== 32 && c !== 9 && c !== 13 && c !== 12 && c !== 11) return false;
    }
    return true;
  }

  /** Leading whitespace of a row. */
  indentOf(row: number): string {
    const start = this.rowStart(row);
    const end = this.rowEnd(row);
    let i = start;
    while (i < end && (this.text.charCodeAt(i) === 32 || this.text.charCodeAt(i) === 9)) i++;
    return this.text.slice(start, i);
  }

  /** Row containing `offset` (binary search over row starts). */
  rowOf(offset: number): number {
    const starts = this.starts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** `end` moved back over whitespace, not before `start`. */
  trimEnd(start: number, end: number): number {
    const text = this.text;
    while (end > start && isSpace(text.charCodeAt(end - 1))) end--;
    return end;
  }

  /**
   * Row of the last visible character of the range: some nodes end in the next line's
   * indentation (HTML void elements) or include their newline (C `#define`).
   */
  lastRowOf(start: number, end: number): number {
    const text = this.text;
    let last = end - 1;
    while (last > start && isSpace(text.charCodeAt(last))) last--;
    return this.rowOf(Math.max(start, last));
  }
}

function isSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9 || c === 12 || c === 11;
}
