// A working-tree file's lines, found and decoded only as far as asked for: read whole, read
// from its start in growing blocks, or read from a chunk's first line or own byte range.
import * as fs from 'node:fs';
import { openRegularSync } from '../fsRead';

/** Where a file's bytes come from: read whole already, or read from the start as far as needed. */
interface ByteSupply {
  /** Bytes known so far (a prefix of the file unless `complete`). */
  bytes: Buffer;
  complete: boolean;
  /** Reads further into the file; false at its end. */
  more(): boolean;
}

/** Opens the file a reader reads (a root-confined open for the working tree's files). */
export type Opener = () => { fd: number; stats: fs.Stats };

function openerOf(file: string | Opener): Opener {
  return typeof file === 'string' ? () => openRegularSync(file) : file;
}

function wholeBytes(bytes: Buffer): ByteSupply {
  return { bytes, complete: true, more: () => false };
}

/** Bytes of a UTF-8 byte-order mark at the start of `bytes` (0 or 3): not part of the first line. */
export function bomLength(bytes: Uint8Array): number {
  return bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
}

/** First read of a file's prefix; each further read doubles what is known. */
const FIRST_READ = 16 * 1024;
/**
 * First read from a chunk's own first line: a preview's three lines of at most 240 characters
 * fit. No more: every fresh 4 KB page a read touches is a page fault the query pays for, so a
 * larger first read makes every hit slower for bytes the preview does not show.
 */
const FIRST_READ_AT_LINE = 4 * 1024;

/**
 * A file read from `base` (its start by default) in growing blocks: a hit near the top of a
 * 700 KB bundle reads 16 KB, not the whole file. Opens the file for each block, so nothing is
 * left open.
 */
class FilePrefix implements ByteSupply {
  bytes: Buffer = Buffer.alloc(0);
  complete = false;
  /** Sized to the rest of the file on the first read; pages the reads never reach are never touched. */
  private buffer: Buffer | undefined;

  constructor(
    private readonly open: Opener,
    private readonly base = 0,
    private readonly firstRead = FIRST_READ,
  ) {}

  more(): boolean {
    if (this.complete) return false;
    const known = this.bytes.length;
    let got = 0;
    try {
      const { fd, stats } = this.open();
      try {
        this.buffer ??= Buffer.allocUnsafe(Math.max(0, stats.size - this.base));
        const want = Math.min(Math.max(this.firstRead, known), this.buffer.length - known);
        while (got < want) {
          const n = fs.readSync(fd, this.buffer, known + got, want - got, this.base + known + got);
          if (n === 0) break;
          got += n;
        }
      } finally {
        fs.closeSync(fd);
      }
    } catch {
      // Deleted or unreadable since its stat: the lines read so far are all there is.
    }
    if (!this.buffer || known + got >= this.buffer.length || got === 0) this.complete = true;
    this.bytes = this.buffer ? this.buffer.subarray(0, known + got) : this.bytes;
    return got > 0;
  }
}

/**
 * A file's lines, found and decoded on demand: a three-line preview near the top of a 1 MB file
 * scans to its line and decodes three lines, instead of decoding and splitting the whole file.
 */
export class LazyLines {
  /** Byte offset where each line found so far starts. */
  private readonly starts: number[];
  /** True once every line start is known. */
  private scanned = false;
  /** Bytes before this offset hold no newline after the last known line start. */
  private searched = 0;

  /** With `firstStart`, line 0 starts there (a window into a file); otherwise after any BOM. */
  constructor(
    private readonly supply: ByteSupply,
    firstStart?: number,
  ) {
    if (!supply.complete && supply.bytes.length < 3) supply.more();
    this.starts = [firstStart ?? bomLength(supply.bytes)];
  }

  static of(bytes: Buffer): LazyLines {
    return new LazyLines(wholeBytes(bytes));
  }

  /**
   * The lines of the bytes `start..end` of a file (a chunk's own characters), line 0 the first:
   * at most SPAN_READ bytes of them, read at once. Undefined when the file cannot be read.
   */
  static fromFileSpan(file: string | Opener, start: number, end: number): LazyLines | undefined {
    try {
      const bytes = readRange(openerOf(file), start, Math.min(end, start + SPAN_READ));
      return new LazyLines(wholeBytes(bytes), 0);
    } catch {
      return undefined;
    }
  }

  /** A file's lines, reading it from the start only as far as they are asked for. */
  static fromFile(file: string | Opener): LazyLines {
    return new LazyLines(new FilePrefix(openerOf(file)));
  }

  /**
   * The lines of a file from the one starting at byte `start` (line 0 here), read from there.
   * Undefined unless the byte before `start` ends a line: the offset does not fit the file.
   */
  static fromFileAt(file: string | Opener, start: number): LazyLines | undefined {
    if (start < 1) return undefined;
    const supply = new FilePrefix(openerOf(file), start - 1, FIRST_READ_AT_LINE);
    supply.more();
    return supply.bytes[0] === 10 ? new LazyLines(supply, 1) : undefined;
  }

  /**
   * Line `i` (0-based) without its line break, or undefined past the end. With `maxChars`, a
   * longer line is cut after at least that many characters (a minified line is not read whole).
   */
  get(i: number, maxChars?: number): string | undefined {
    while (!this.scanned && this.starts.length <= i) this.scanNext();
    const start = this.starts[i];
    if (start === undefined) return undefined;
    const limit = maxChars === undefined ? Infinity : start + (maxChars + 1) * 4;
    // Find where the line ends, searching (and reading) no further than `limit` into it: the
    // bytes searched count, not the bytes already read, or a line would run on into the next.
    while (!this.scanned && this.starts.length <= i + 1 && Math.max(this.searched, start) < limit) this.scanNext();
    const bytes = this.supply.bytes;
    const next = this.starts[i + 1];
    let end = Math.min(next !== undefined ? next - 1 : bytes.length, limit);
    if (end > start && bytes[end - 1] === 13) end--; // CRLF
    return bytes.toString('utf8', start, end);
  }

  /** Lines from..to (0-based, exclusive end), clipped to the file. */
  slice(from: number, to: number): string[] {
    const out: string[] = [];
    for (let i = from; i < to; i++) {
      const line = this.get(i);
      if (line === undefined) break;
      out.push(line);
    }
    return out;
  }

  /**
   * One step towards the next line start: finds it in the bytes known so far, or reads one
   * more block of the file (so a caller with a character limit can stop inside a long line).
   */
  private scanNext(): void {
    const bytes = this.supply.bytes;
    const nl = bytes.indexOf(10, Math.max(this.searched, this.starts[this.starts.length - 1] as number));
    if (nl >= 0) {
      this.starts.push(nl + 1);
      return;
    }
    this.searched = bytes.length;
    if (this.supply.complete || !this.supply.more()) this.scanned = true;
  }
}

/** Bytes of a chunk's own characters read for its preview: its text fits, at the default budget. */
const SPAN_READ = 16 * 1024;

/** Bytes `start..end` of a file (fewer at its end). */
function readRange(open: Opener, start: number, end: number): Buffer {
  const { fd } = open();
  try {
    const out = Buffer.allocUnsafe(Math.max(0, end - start));
    let got = 0;
    while (got < out.length) {
      const n = fs.readSync(fd, out, got, out.length - got, start + got);
      if (n === 0) break;
      got += n;
    }
    return out.subarray(0, got);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The text of bytes `start..end` of `bytes`, clipped to them. The range is moved off the middle
 * of a character (it can only land there in a file changed since it was indexed).
 */
export function textOfBytes(bytes: Buffer, start: number, end: number): string {
  let from = Math.min(start, bytes.length);
  let to = Math.max(from, Math.min(end, bytes.length));
  while (from < to && ((bytes[from] as number) & 0xc0) === 0x80) from++;
  while (to < bytes.length && to > from && ((bytes[to] as number) & 0xc0) === 0x80) to--;
  return bytes.toString('utf8', from, to);
}
