// Where a segment's bytes come from. A freshly built segment lives in memory; a stored one is
// an open file read on demand, so a one-shot query (the CLI, a fresh MCP call) reads the term
// dictionary and the postings it needs instead of every record and posting in the index.
import * as fs from 'node:fs';
import { openRegularSync } from '../fsRead';
import { crc32 } from './crc32';
import { CorruptDataError } from './varint';

export interface ByteSource {
  readonly length: number;
  /** Reads are views into memory: sections are then taken whole at once, for free. */
  readonly inMemory?: boolean;
  /**
   * `length` bytes at `offset`. In-memory sources return a view; file sources a fresh buffer
   * starting at offset 0 of its own ArrayBuffer (so typed-array views over it are aligned).
   */
  read(offset: number, length: number): Uint8Array;
  /** Reads `into.length` bytes at `offset` into `into` (file sources; others use `read`). */
  readInto?(offset: number, into: Uint8Array): void;
}

export function memorySource(bytes: Uint8Array): ByteSource {
  // Typed-array views need 4/8-byte alignment; Buffers from small reads may sit at odd offsets.
  const aligned = bytes.byteOffset % 8 === 0 ? bytes : bytes.slice();
  return {
    length: aligned.length,
    inMemory: true,
    read: (offset, length) => aligned.subarray(offset, offset + length),
  };
}

// An open segment file stays readable after a merge deletes it (POSIX semantics; Node opens
// Windows files with FILE_SHARE_DELETE), so a snapshot never loses its segments mid-query.
// Descriptors close when their source is garbage-collected or explicitly closed.
const closeOnCollect = new FinalizationRegistry<number>((fd) => {
  try {
    fs.closeSync(fd);
  } catch {
    // already closed
  }
});

export class FileSource implements ByteSource {
  readonly length: number;
  private fd: number | undefined;

  constructor(readonly file: string) {
    // Through the regular-file open: a FIFO in the store's place is refused, not waited on.
    const opened = openRegularSync(file, { followLinks: true });
    this.fd = opened.fd;
    this.length = opened.stats.size;
    closeOnCollect.register(this, this.fd, this);
  }

  read(offset: number, length: number): Uint8Array {
    const buffer = new Uint8Array(length);
    this.readInto(offset, buffer);
    return buffer;
  }

  readInto(offset: number, into: Uint8Array): void {
    if (this.fd === undefined) throw new Error(`${this.file} is closed`);
    const length = into.length;
    if (offset < 0 || offset + length > this.length) throw new CorruptDataError(`${this.file}: read past the end`);
    let done = 0;
    while (done < length) {
      const n = fs.readSync(this.fd, into, done, length - done, offset + done);
      if (n === 0) throw new CorruptDataError(`${this.file} shrank while being read`);
      done += n;
    }
  }

  close(): void {
    if (this.fd === undefined) return;
    closeOnCollect.unregister(this);
    fs.closeSync(this.fd);
    this.fd = undefined;
  }
}

/**
 * A section read piecemeal while callers ask for a few ranges (a query's postings, a page of
 * hits), and loaded whole once they read widely (a merge walks every record) — after
 * `wideReads` range reads, or when a caller asks for it all.
 */
export class LazySection {
  private whole: Uint8Array | undefined;
  private rangeReads = 0;

  constructor(
    private readonly source: ByteSource,
    private readonly offset: number,
    readonly length: number,
    private readonly wideReads = WIDE_READS,
  ) {
    if (source.inMemory) this.whole = source.read(offset, length);
  }

  /** The whole section if it is already in memory. */
  get loaded(): Uint8Array | undefined {
    return this.whole;
  }

  all(): Uint8Array {
    this.whole ??= this.source.read(this.offset, this.length);
    return this.whole;
  }

  /**
   * Bytes `[start, end)`: a view of the section when it is in memory, else a fresh read, the
   * caller's to keep. With `buffer`, a file read lands in that buffer instead, for bytes decoded
   * at once: every fresh page of memory costs a page fault, and a query's postings are
   * megabytes. The buffer is the caller's own, so only the caller's next
   * read through it changes what it returned.
   */
  range(start: number, end: number, buffer?: ReadBuffer): Uint8Array {
    if (this.servesWhole(start, end)) return this.all().subarray(start, end);
    if (!buffer || !this.source.readInto) return this.source.read(this.offset + start, end - start);
    const into = buffer.take(end - start);
    this.source.readInto(this.offset + start, into);
    return into;
  }

  /** Reads `into.length` bytes at `start` into `into`, for callers that reuse their buffers. */
  readInto(start: number, into: Uint8Array): void {
    const end = start + into.length;
    if (this.servesWhole(start, end)) into.set(this.all().subarray(start, end));
    else if (this.source.readInto) this.source.readInto(this.offset + start, into);
    else into.set(this.source.read(this.offset + start, into.length));
  }

  /** Checks a range read and counts it; true when it is served from the whole section. */
  private servesWhole(start: number, end: number): boolean {
    if (start < 0 || end > this.length || start > end) throw new CorruptDataError(`range ${start}..${end} outside a section of ${this.length} bytes`);
    return this.whole !== undefined || this.length <= SMALL_SECTION || ++this.rangeReads > this.wideReads;
  }
}

/**
 * A buffer that one reader owns and reads bytes into to decode them at once (postings,
 * dictionary blocks, string blocks), reused so a large read costs no fresh memory. Whoever
 * holds one never hands out views of it, only what it decoded: no read elsewhere can change
 * bytes a caller holds. (There is no buffer shared between readers.)
 */
export class ReadBuffer {
  private bytes: Uint8Array | undefined;

  /** The first `length` bytes of the buffer, grown to fit, for the owner's next read. */
  take(length: number): Uint8Array {
    if (!this.bytes || this.bytes.length < length) this.bytes = new Uint8Array(Math.max(length, 2 * (this.bytes?.length ?? 0), MIN_READ_BUFFER));
    return this.bytes.subarray(0, length);
  }
}

/** A read buffer's first size (a dictionary block, a string block, most postings lists). */
const MIN_READ_BUFFER = 4 * 1024;

/** Range reads after which a section is loaded whole. */
const WIDE_READS = 512;
/**
 * Sections this small are read whole on first use: one read costs less than a few positioned
 * ones. Larger ones are not: every fresh page costs a page fault, so reading a whole offsets
 * section for the 4 bytes of one term would cost a one-shot query more than the query itself.
 */
const SMALL_SECTION = 16 * 1024;

/** Entries per page of a PagedU8 (4 KB). */
const U8_PAGE_SHIFT = 12;

/**
 * A u8 column read a 4 KB page at a time: per-chunk flags and kinds are read for the chunks a
 * query scores, not for all 600k of them in every process that opens the index.
 */
export class PagedU8 {
  private readonly pages: Array<Uint8Array | undefined>;

  constructor(
    private readonly section: LazySection,
    readonly length: number,
  ) {
    if (section.length !== length) throw new CorruptDataError(`a u8 column of ${length} entries has ${section.length} bytes`);
    this.pages = new Array<Uint8Array | undefined>(Math.ceil(length / (1 << U8_PAGE_SHIFT)));
  }

  at(i: number): number {
    if (!(i >= 0 && i < this.length)) throw new CorruptDataError(`entry ${i} outside a column of ${this.length}`);
    const p = i >>> U8_PAGE_SHIFT;
    const page = (this.pages[p] ??= this.section.range(p << U8_PAGE_SHIFT, Math.min(this.length, (p + 1) << U8_PAGE_SHIFT)));
    return page[i & ((1 << U8_PAGE_SHIFT) - 1)] as number;
  }
}

/** A little-endian u32 column read entry by entry, like a LazySection (loaded whole when read widely). */
export class LazyU32 {
  private view: Uint32Array | undefined;
  /** The column's own 8 bytes for one or two entries read from a file; decoded before `at`/`pair` return. */
  private readonly entryBytes = new Uint8Array(8);
  private readonly oneEntry = this.entryBytes.subarray(0, 4);

  constructor(
    private readonly section: LazySection,
    readonly length: number,
  ) {
    if (section.length !== length * 4) throw new CorruptDataError(`a u32 column of ${length} entries has ${section.length} bytes`);
  }

  at(i: number): number {
    if (!(i >= 0 && i < this.length)) throw new CorruptDataError(`entry ${i} outside a column of ${this.length}`);
    const view = this.view ?? this.wholeView();
    if (view) return view[i] as number;
    this.section.readInto(i * 4, this.oneEntry);
    return u32At(this.entryBytes, 0);
  }

  /** Reads the whole column into memory now (a reader about to look entries up widely). */
  load(): void {
    this.section.all();
    this.wholeView();
  }

  /** Entries i and i+1 with one read (offset columns: where item i starts and ends). */
  pair(i: number): [number, number] {
    if (!(i >= 0 && i + 1 < this.length)) throw new CorruptDataError(`entries ${i}..${i + 1} outside a column of ${this.length}`);
    const view = this.view ?? this.wholeView();
    if (view) return [view[i] as number, view[i + 1] as number];
    this.section.readInto(i * 4, this.entryBytes);
    return [u32At(this.entryBytes, 0), u32At(this.entryBytes, 4)];
  }

  /** Entries `from .. to-1` with one read, as a new array (or a view of the column in memory). */
  slice(from: number, to: number): Uint32Array {
    if (!(from >= 0 && from <= to && to <= this.length)) throw new CorruptDataError(`entries ${from}..${to} outside a column of ${this.length}`);
    const view = this.view ?? this.wholeView();
    if (view) return view.subarray(from, to);
    const bytes = this.section.range(from * 4, to * 4);
    const out = new Uint32Array(to - from);
    for (let i = 0; i < out.length; i++) out[i] = u32At(bytes, i * 4);
    return out;
  }

  /** Once the section is in memory, entries are read through a typed-array view. */
  private wholeView(): Uint32Array | undefined {
    const bytes = this.section.loaded;
    if (!bytes) return undefined;
    // Sections start 8-byte aligned; a fresh read starts its own buffer; both allow a u32 view.
    this.view = bytes.byteOffset % 4 === 0 ? new Uint32Array(bytes.buffer, bytes.byteOffset, this.length) : new Uint32Array(bytes.slice().buffer, 0, this.length);
    return this.view;
  }
}

function u32At(b: Uint8Array, o: number): number {
  return ((b[o] as number) | ((b[o + 1] as number) << 8) | ((b[o + 2] as number) << 16)) + (b[o + 3] as number) * 0x1000000;
}

/** Checksummed pages are the file's own 4 KB pages: checking a read touches no page it did not. */
export const CHECKSUM_PAGE_BYTES = 4096;

/** How many checksummed pages `dataEnd` bytes take (the last may be short). */
export function checksumPageCount(dataEnd: number): number {
  return Math.ceil(dataEnd / CHECKSUM_PAGE_BYTES);
}

/** Whole pages read at once to be checked before they are copied out; longer reads go straight to the caller. */
const CHECK_READ_MAX = 64 * 1024;

/**
 * A source whose bytes `[0, dataEnd)` carry a CRC-32 per 4 KB page, stored as u32s right after
 * them. A page is checked the first time a read touches it, and remembered as checked, so a
 * lazy reader stays lazy: it reads the pages it would have read anyway (whole, where it read a
 * part of one) and the checksums of those pages, 4 bytes per page. A mismatch is a
 * CorruptDataError naming what the page holds (`describe`). Checksums need no checksum of
 * their own: a damaged one fails its page.
 */
export class CheckedSource implements ByteSource {
  readonly length: number;
  readonly inMemory?: boolean;
  /** One bit per page: checked. */
  private readonly checked: Uint32Array;
  /** The checksums, read a 4 KB page of the file at a time (1,024 pages' worth), by that page. */
  private readonly sums = new Map<number, Uint8Array>();
  private readonly sumsEnd: number;
  /**
   * This source's own buffers, never handed out: whole pages read to be checked, then copied
   * out (reads of up to CHECK_READ_MAX), and the parts of a page outside a longer read.
   */
  private readonly pageBuffer = new ReadBuffer();
  private readonly partBuffer = new ReadBuffer();

  constructor(
    private readonly raw: ByteSource,
    private readonly dataEnd: number,
    private readonly describe: (start: number, end: number) => string,
  ) {
    this.length = raw.length;
    if (raw.inMemory) this.inMemory = true;
    const pages = checksumPageCount(dataEnd);
    this.sumsEnd = dataEnd + 4 * pages;
    if (dataEnd < 0 || this.sumsEnd > raw.length) throw new CorruptDataError(`${describe(0, 0)}: page checksums past the end`);
    this.checked = new Uint32Array(Math.ceil(pages / 32));
  }

  read(offset: number, length: number): Uint8Array {
    if (this.raw.inMemory) {
      const bytes = this.raw.read(offset, length);
      if (!this.isChecked(offset, offset + length)) this.check(offset, bytes);
      return bytes;
    }
    const out = new Uint8Array(length);
    this.readInto(offset, out);
    return out;
  }

  readInto(offset: number, into: Uint8Array): void {
    const end = offset + into.length;
    if (this.isChecked(offset, end)) return this.rawInto(offset, into);
    const from = Math.floor(offset / CHECKSUM_PAGE_BYTES) * CHECKSUM_PAGE_BYTES;
    const to = Math.min(Math.ceil(end / CHECKSUM_PAGE_BYTES) * CHECKSUM_PAGE_BYTES, this.dataEnd);
    if (to - from > CHECK_READ_MAX) {
      // Straight into the caller's buffer; the parts of its first and last page outside it are read apart.
      this.rawInto(offset, into);
      this.check(offset, into);
      return;
    }
    const pages = this.pageBuffer.take(to - from);
    this.rawInto(from, pages);
    this.check(from, pages);
    into.set(pages.subarray(offset - from, end - from));
  }

  /** Whether every page `[start, end)` touches has been checked (and that it lies in the checked bytes). */
  private isChecked(start: number, end: number): boolean {
    if (!(start >= 0 && start <= end && end <= this.dataEnd)) throw new CorruptDataError(`${this.describe(start, end)}: read outside the checked bytes`);
    if (start === end) return true;
    for (let p = Math.floor(start / CHECKSUM_PAGE_BYTES); p * CHECKSUM_PAGE_BYTES < end; p++) {
      if (!((this.checked[p >>> 5] as number) & (1 << (p & 31)))) return false;
    }
    return true;
  }

  /** Checks the unchecked pages that `bytes`, read at `at`, touch; the rest of such a page is read here. */
  private check(at: number, bytes: Uint8Array): void {
    const end = at + bytes.length;
    for (let p = Math.floor(at / CHECKSUM_PAGE_BYTES); p * CHECKSUM_PAGE_BYTES < end; p++) {
      if ((this.checked[p >>> 5] as number) & (1 << (p & 31))) continue;
      const pageStart = p * CHECKSUM_PAGE_BYTES;
      const pageEnd = Math.min(pageStart + CHECKSUM_PAGE_BYTES, this.dataEnd);
      const from = Math.max(pageStart, at);
      const to = Math.min(pageEnd, end);
      let crc = pageStart < from ? this.crcOf(pageStart, from, 0) : 0;
      crc = crc32(bytes.subarray(from - at, to - at), crc);
      if (to < pageEnd) crc = this.crcOf(to, pageEnd, crc);
      if (crc !== this.expected(p)) throw new CorruptDataError(`${this.describe(pageStart, pageEnd)}: checksum mismatch in bytes ${pageStart}..${pageEnd}`);
      this.checked[p >>> 5] = (this.checked[p >>> 5] as number) | (1 << (p & 31));
    }
  }

  /** The CRC-32 of bytes `[start, end)` of one page, continuing `crc`. */
  private crcOf(start: number, end: number, crc: number): number {
    if (this.raw.inMemory) return crc32(this.raw.read(start, end - start), crc);
    const into = this.partBuffer.take(end - start);
    this.rawInto(start, into);
    return crc32(into, crc);
  }

  /** The stored checksum of page `p`. */
  private expected(p: number): number {
    const at = this.dataEnd + 4 * p;
    const filePage = Math.floor(at / CHECKSUM_PAGE_BYTES);
    let sums = this.sums.get(filePage);
    if (!sums) {
      const start = Math.max(this.dataEnd, filePage * CHECKSUM_PAGE_BYTES);
      sums = this.raw.read(start, Math.min(this.sumsEnd, (filePage + 1) * CHECKSUM_PAGE_BYTES) - start);
      this.sums.set(filePage, sums);
    }
    const o = at - Math.max(this.dataEnd, filePage * CHECKSUM_PAGE_BYTES);
    return u32At(sums, o) >>> 0;
  }

  private rawInto(offset: number, into: Uint8Array): void {
    if (this.raw.readInto) this.raw.readInto(offset, into);
    else into.set(this.raw.read(offset, into.length));
  }
}
