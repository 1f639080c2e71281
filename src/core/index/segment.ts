// Reads a segment (segmentFormat.ts) in place: from memory, or from its file on demand, a
// section, a page or a block at a time. Holds the few caches a long-lived reader keeps (decoded
// common postings, paths, records) and the column loads a host runs while idle.
import type { ChunkKind } from '../types';
import { type LazySection, LazyU32, PagedU8, ReadBuffer, type ByteSource } from './byteSource';
import { BLOCK_ROWS, BlockColumn } from './blockColumn';
import { FIELD_COUNT, KINDS } from './fields';
import { OccurrenceTable } from './occurrenceTable';
import { decodePostings, DEFLATED_BIT, inflatePostings, type Postings } from './postingsCodec';
import { decodeContext, decodeStrings, openLayout, parseRecord, readId, SECTION, TERM_STRIDE, type DocRecord, type SegmentFile } from './segmentFormat';
import { SymbolDictionary } from './symbolDict';
import { ByteReader, CorruptDataError } from './varint';

const decoder = new TextDecoder();

/** Postings lists this long or longer are kept decoded (see Segment.postings). */
const CACHED_POSTINGS_MIN = 2048;
/**
 * Decoded postings kept per segment (16 bytes per posting): 160 bytes per document, at least
 * 8 MB and at most 64 MB. Common words' lists grow with the segment, so a budget sized to the
 * segment keeps most of them where a flat one would keep only some in a large segment.
 */
function postingsCacheBytes(docCount: number): number {
  return Math.min(64 * 1024 * 1024, Math.max(8 * 1024 * 1024, docCount * 160));
}

/** First index in `sorted[lo..hi)` whose value is >= `value`. */
function lowerBoundIn(sorted: readonly string[], lo: number, hi: number, value: string): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as string) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Paths decoded one by one before a segment decodes them all: a query's hits need a few, and
 * past this many single reads decoding the whole column at once costs less.
 */
const WIDE_PATH_READS = 128;

/** Documents per page of the field-length column (512 documents: 6 KB). */
export const LENGTH_PAGE_SHIFT = 9;
const LENGTH_PAGE_DOCS = 1 << LENGTH_PAGE_SHIFT;
export const LENGTH_PAGE_MASK = LENGTH_PAGE_DOCS - 1;
/** Reused buffers for field-length pages read from a file (see `fieldLengthPage`). */
export const LENGTH_PAGE_SLOTS = 16;

/** A loaded, validated segment. Zero-copy views over one buffer; string columns decode lazily. */
export class Segment {
  readonly docCount: number;
  readonly termCount: number;
  /** Size of the serialised segment in bytes. */
  readonly byteLength: number;
  readonly fileCount: number;
  // The file table's columns. Scoring reads first documents and path lengths for many files,
  // so those are in memory; the rest is decoded per file when a hit or a filter needs it.
  private readonly fileFirstDoc: Uint32Array;
  private readonly filePathLengths: Uint32Array;
  private readonly fileLanguages: Uint16Array;
  private readonly languageNames: string[];
  private readonly filePathOffsets: LazyU32;
  private readonly filePathBlob: LazySection;
  private readonly fileSizeMtime: LazySection;
  private readonly fileHashOffsets: LazyU32;
  private readonly fileHashBlob: LazySection;
  private pathColumn?: string[];
  private readonly pathCache = new Map<number, string>();
  private readonly fileCache: Array<SegmentFile | undefined>;
  private fileList?: SegmentFile[];
  /** First and last line of each document, read per hit rather than loaded whole. */
  readonly docStart: LazyU32;
  readonly docEnd: LazyU32;
  private readonly docStartByte: LazyU32;
  readonly docKind: PagedU8;
  readonly docFlags: PagedU8;
  /** FIELD_COUNT u16 lengths per document, read a page of documents at a time (whole by merges). */
  private readonly fieldLengthSection: LazySection;
  private fieldLengthColumn?: Uint16Array;
  /** Pages as views of the column when it is in memory. */
  private readonly lengthPages: Array<Uint16Array | undefined>;
  /** File-read pages: which page each reused buffer holds (-1: none), the buffers, their views. */
  private readonly lengthSlotPages = new Int32Array(LENGTH_PAGE_SLOTS).fill(-1);
  private readonly lengthSlotBuffers: Array<Uint16Array | undefined> = new Array<Uint16Array | undefined>(LENGTH_PAGE_SLOTS);
  private readonly lengthSlotViews: Array<Uint16Array | undefined> = new Array<Uint16Array | undefined>(LENGTH_PAGE_SLOTS);
  readonly fieldTotals: Float64Array;
  private readonly termOffsets: LazyU32;
  private readonly termBlob: LazySection;
  /** Term `i * TERM_STRIDE` of the dictionary: lookups find their block here. */
  private readonly termSamples: string[];
  // Per-term columns, read for the few terms a query has.
  private readonly postingOffsets: LazyU32;
  private readonly termDf: LazyU32;
  private readonly filePostingOffsets: LazyU32;
  private readonly termFileDf: LazyU32;
  // Large sections are read on demand (see byteSource.ts); the rest is loaded up front.
  private readonly filePostingsBytes: LazySection;
  private readonly postingsBytes: LazySection;
  private readonly symbolBlocks: BlockColumn;
  private readonly contextBlocks: BlockColumn;
  private readonly idSection: LazySection;
  private readonly recordBlocks: BlockColumn;
  private readonly symbolDictSection: LazySection;
  private symbolDict?: SymbolDictionary;
  private readonly occurrenceSection: LazySection;
  private occurrenceTableRead?: OccurrenceTable;
  private symbolColumn?: string[];
  private contextColumn?: string[];
  private termList?: string[];
  private readonly recordCache = new Map<number, DocRecord>();
  private readonly postingsCache = new Map<number, Postings>();
  private postingsCacheBytes = 0;
  private readonly postingsCacheLimit: number;
  /**
   * This segment's buffer for postings and dictionary blocks read from its file: what lands in
   * it is decoded before the method that read it returns, and never handed out.
   */
  private readonly readBuffer = new ReadBuffer();

  /**
   * Validates and wraps a segment held in memory or read from a file on demand. Throws
   * CorruptDataError for anything malformed in the header, the section table or the columns
   * loaded up front; lazily read sections are bounds-checked when decoded.
   */
  constructor(
    readonly name: string,
    input: Uint8Array | ByteSource,
  ) {
    const layout = openLayout(name, input);
    this.byteLength = layout.byteLength;
    this.docCount = layout.docCount;
    this.postingsCacheLimit = postingsCacheBytes(this.docCount);
    this.termCount = layout.termCount;
    const fileCount = layout.fileCount;
    // Every section goes through `lazy` (bounds and length checks); the ones loaded up front
    // are simply read whole at once.
    const lazy = layout.section;
    const section = (i: number): Uint8Array => lazy(i).all();
    const u8 = (i: number, expected: number): Uint8Array => lazy(i, expected).all();
    const u32 = (i: number, expected: number): Uint32Array => {
      const s = u8(i, expected * 4);
      return new Uint32Array(s.buffer, s.byteOffset, expected);
    };
    const lazyU32 = (i: number, expected: number): LazyU32 => new LazyU32(lazy(i, expected * 4), expected);
    const n = this.docCount;
    this.fileCount = fileCount;
    this.fileFirstDoc = u32(SECTION.fileFirstDoc, fileCount + 1);
    this.filePathLengths = u32(SECTION.filePathLength, fileCount);
    const languages = u8(SECTION.fileLanguage, fileCount * 2);
    this.fileLanguages = languages.byteOffset % 2 === 0 ? new Uint16Array(languages.buffer, languages.byteOffset, fileCount) : new Uint16Array(languages.slice().buffer, 0, fileCount);
    const names = decoder.decode(section(SECTION.languageNames));
    this.languageNames = names === '' ? [] : names.split('\n');
    this.filePathOffsets = lazyU32(SECTION.filePathOffsets, fileCount + 1);
    this.filePathBlob = lazy(SECTION.filePaths);
    this.fileSizeMtime = lazy(SECTION.fileSizeMtime, fileCount * 16);
    this.fileHashOffsets = lazyU32(SECTION.fileHashOffsets, fileCount + 1);
    this.fileHashBlob = lazy(SECTION.fileHashes);
    if (this.filePathOffsets.at(fileCount) !== this.filePathBlob.length) throw new CorruptDataError(`segment ${name}: file paths length mismatch`);
    if (this.fileHashOffsets.at(fileCount) !== this.fileHashBlob.length) throw new CorruptDataError(`segment ${name}: file hashes length mismatch`);
    this.fileCache = new Array<SegmentFile | undefined>(fileCount);
    // Files own consecutive documents, in order, and all of them: checked here once, so
    // per-file reads need no bounds checks. (A document's file is found by binary search: a
    // per-document column would be fresh memory, four bytes a document, in every process.)
    for (let i = 0; i < fileCount; i++) {
      const first = this.fileFirstDoc[i] as number;
      const next = this.fileFirstDoc[i + 1] as number;
      if (next < first || (i === 0 && first !== 0)) throw new CorruptDataError(`segment ${name}: file ${i} does not follow the previous file's documents`);
      if ((this.fileLanguages[i] as number) >= this.languageNames.length) throw new CorruptDataError(`segment ${name}: file ${i} names language ${this.fileLanguages[i]}`);
    }
    if ((this.fileFirstDoc[fileCount] as number) !== n || (fileCount === 0 && n !== 0)) throw new CorruptDataError(`segment ${name}: files own ${this.fileFirstDoc[fileCount]} of ${n} documents`);
    this.docStart = lazyU32(SECTION.docStart, n);
    this.docEnd = lazyU32(SECTION.docEnd, n);
    this.docStartByte = lazyU32(SECTION.docStartByte, n);
    this.docKind = new PagedU8(lazy(SECTION.docKind), n);
    this.docFlags = new PagedU8(lazy(SECTION.docFlags), n);
    this.fieldLengthSection = lazy(SECTION.fieldLengths, n * FIELD_COUNT * 2, Infinity);
    this.lengthPages = new Array<Uint16Array | undefined>(Math.ceil(n / LENGTH_PAGE_DOCS));
    const blocks = Math.ceil(n / BLOCK_ROWS) + 1;
    this.symbolBlocks = new BlockColumn(`segment ${name}: symbols`, lazy(SECTION.symbols), lazyU32(SECTION.symbolBlocks, blocks), n);
    this.contextBlocks = new BlockColumn(`segment ${name}: breadcrumbs`, lazy(SECTION.contexts), lazyU32(SECTION.contextBlocks, blocks), n);
    this.recordBlocks = new BlockColumn(`segment ${name}: records`, lazy(SECTION.records), lazyU32(SECTION.recordBlocks, blocks), n);
    this.symbolDictSection = lazy(SECTION.symbolDict);
    this.occurrenceSection = lazy(SECTION.occurrences);
    this.termOffsets = lazyU32(SECTION.termOffsets, this.termCount + 1);
    this.termBlob = lazy(SECTION.termBlob);
    const samples = decoder.decode(section(SECTION.termSamples));
    this.termSamples = this.termCount === 0 ? [] : samples.split('\n');
    if (this.termSamples.length !== Math.ceil(this.termCount / TERM_STRIDE)) throw new CorruptDataError(`segment ${name}: term index has ${this.termSamples.length} entries for ${this.termCount} terms`);
    this.postingOffsets = lazyU32(SECTION.postingOffsets, this.termCount + 1);
    this.termDf = lazyU32(SECTION.termDf, this.termCount);
    // Queries read postings term by term (into the segment's read buffer) however many they run:
    // a long-lived reader loading these large sections whole would stall the query that crossed
    // the limit and hold the memory. Merges ask for the sections whole.
    this.postingsBytes = lazy(SECTION.postings, undefined, Infinity);
    this.idSection = lazy(SECTION.ids, n * 8);
    this.filePostingOffsets = lazyU32(SECTION.filePostingOffsets, this.termCount + 1);
    this.termFileDf = lazyU32(SECTION.termFileDf, this.termCount);
    this.filePostingsBytes = lazy(SECTION.filePostings, undefined, Infinity);
    if (this.filePostingOffsets.at(this.termCount) !== this.filePostingsBytes.length) throw new CorruptDataError(`segment ${name}: file postings length mismatch`);
    const ft = u8(SECTION.fieldTotals, FIELD_COUNT * 8);
    this.fieldTotals = new Float64Array(ft.buffer, ft.byteOffset, FIELD_COUNT);
    if (this.termOffsets.at(this.termCount) !== this.termBlob.length) throw new CorruptDataError(`segment ${name}: term dictionary length mismatch`);
    if (this.postingOffsets.at(this.termCount) !== this.postingsBytes.length) throw new CorruptDataError(`segment ${name}: postings length mismatch`);
  }

  /** Every document's field lengths (`[doc * FIELD_COUNT + field]`), reading the column whole. */
  allFieldLengths(): Uint16Array {
    if (!this.fieldLengthColumn) {
      const bytes = this.fieldLengthSection.all();
      this.fieldLengthColumn = new Uint16Array(bytes.buffer, bytes.byteOffset, this.docCount * FIELD_COUNT);
    }
    return this.fieldLengthColumn;
  }

  /**
   * The field lengths of documents `page << LENGTH_PAGE_SHIFT ...` (FIELD_COUNT per document),
   * copied out by `readFieldLengths` and `fieldLength`: no page leaves the segment, so no
   * later read can change what a caller holds. A query reads the pages its scored documents
   * fall in, and never the column whole (merges and warm-ups ask for that). Pages read from
   * the file land in a few reused buffers (page p in slot p % LENGTH_PAGE_SLOTS): a fresh
   * process pays a page fault for every 4 KB of new memory it touches, and a query of common
   * words scores in most of a segment's pages, in ascending order, each once, so a buffer per
   * page would make those faults a large part of the query. A page read again costs a read
   * from the page cache; a host that stays open reads the column whole while idle (warm-up).
   */
  private fieldLengthPage(page: number): Uint16Array {
    const known = this.lengthPages[page];
    if (known) return known;
    if (!(page >= 0 && page < this.lengthPages.length)) throw new CorruptDataError(`segment ${this.name}: length page ${page} outside ${this.lengthPages.length}`);
    const first = page << LENGTH_PAGE_SHIFT;
    const end = Math.min(first + LENGTH_PAGE_DOCS, this.docCount);
    // In memory (a fresh segment, a small section, the warmed column): views, kept.
    if (this.fieldLengthColumn || this.fieldLengthSection.loaded) return (this.lengthPages[page] = this.allFieldLengths().subarray(first * FIELD_COUNT, end * FIELD_COUNT));
    const slot = page % LENGTH_PAGE_SLOTS;
    if (this.lengthSlotPages[slot] === page) return this.lengthSlotViews[slot] as Uint16Array;
    const buffer = (this.lengthSlotBuffers[slot] ??= new Uint16Array(LENGTH_PAGE_DOCS * FIELD_COUNT));
    const view = end - first === LENGTH_PAGE_DOCS ? buffer : buffer.subarray(0, (end - first) * FIELD_COUNT);
    // Unclaimed while it is read: a failed read leaves no slot claiming a half-read page.
    this.lengthSlotPages[slot] = -1;
    this.fieldLengthSection.readInto(first * FIELD_COUNT * 2, new Uint8Array(view.buffer, view.byteOffset, view.byteLength));
    this.lengthSlotPages[slot] = page;
    this.lengthSlotViews[slot] = view;
    return view;
  }

  /** One document's field lengths, written to `out[at .. at + FIELD_COUNT)`. */
  readFieldLengths(doc: number, out: Uint16Array, at: number): void {
    if (!(doc >= 0 && doc < this.docCount)) throw new CorruptDataError(`segment ${this.name}: document ${doc} outside ${this.docCount}`);
    const page = this.fieldLengthPage(doc >>> LENGTH_PAGE_SHIFT);
    const base = (doc & LENGTH_PAGE_MASK) * FIELD_COUNT;
    for (let f = 0; f < FIELD_COUNT; f++) out[at + f] = page[base + f] as number;
  }

  /** One field's length in one document. */
  fieldLength(doc: number, field: number): number {
    if (!(doc >= 0 && doc < this.docCount)) throw new CorruptDataError(`segment ${this.name}: document ${doc} outside ${this.docCount}`);
    if (!(field >= 0 && field < FIELD_COUNT)) throw new RangeError(`no field ${field}`);
    return this.fieldLengthPage(doc >>> LENGTH_PAGE_SHIFT)[(doc & LENGTH_PAGE_MASK) * FIELD_COUNT + field] as number;
  }

  /** A document's record as stored (JSON or a bare signature): merges copy it without parsing. */
  rawRecord(doc: number): string {
    return this.recordBlocks.get(doc);
  }

  kindOf(doc: number): ChunkKind {
    return KINDS[this.docKind.at(doc)] ?? 'text';
  }

  fileOf(doc: number): SegmentFile {
    return this.file(this.fileIndexOf(doc));
  }

  /** The index of the file that owns `doc`. */
  fileIndexOf(doc: number): number {
    if (!(doc >= 0 && doc < this.docCount)) throw new CorruptDataError(`segment ${this.name}: document ${doc} outside ${this.docCount}`);
    // The last file whose first document is <= doc (files without documents share it with the next).
    let lo = 0;
    let hi = this.fileCount - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if ((this.fileFirstDoc[mid] as number) <= doc) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** A document's file path (cheaper than `fileOf` when only the path is compared). */
  pathOf(doc: number): string {
    return this.filePath(this.fileIndexOf(doc));
  }

  /** Every file of the segment, decoded on first use (merges and whole-index views). */
  get files(): readonly SegmentFile[] {
    this.fileList ??= Array.from({ length: this.fileCount }, (_, i) => this.file(i));
    return this.fileList;
  }

  /** One file's entry, decoded from the columns on first use. */
  file(i: number): SegmentFile {
    let f = this.fileCache[i];
    if (!f) {
      if (!(i >= 0 && i < this.fileCount)) throw new CorruptDataError(`segment ${this.name}: file ${i} outside ${this.fileCount}`);
      const sm = this.fileSizeMtime.range(i * 16, i * 16 + 16);
      const view = new DataView(sm.buffer, sm.byteOffset, 16);
      f = {
        path: this.filePath(i),
        size: view.getFloat64(0, true),
        mtimeMs: view.getFloat64(8, true),
        hash: decoder.decode(this.fileHashBlob.range(...this.fileHashOffsets.pair(i))),
        language: this.fileLanguage(i),
        firstDoc: this.fileFirstDoc[i] as number,
        docCount: this.fileDocCount(i),
        pathLength: this.filePathLengths[i] as number,
      };
      this.fileCache[i] = f;
    }
    return f;
  }

  /** A file's first document (files own consecutive documents); `fileFirstDocOf(fileCount)` is the document count. */
  fileFirstDocOf(i: number): number {
    return this.fileFirstDoc[i] as number;
  }

  fileDocCount(i: number): number {
    return (this.fileFirstDoc[i + 1] as number) - (this.fileFirstDoc[i] as number);
  }

  /** The `path` field's length summed over documents (each counts its file's path). */
  pathFieldTotal(): number {
    let total = 0;
    for (let i = 0; i < this.fileCount; i++) total += (this.filePathLengths[i] as number) * this.fileDocCount(i);
    return total;
  }

  /** Tokens in a file's path: the length of its chunks' `path` field. */
  filePathLength(i: number): number {
    return this.filePathLengths[i] as number;
  }

  fileLanguage(i: number): string {
    return this.languageNames[this.fileLanguages[i] as number] as string;
  }

  /** Whether any file of the segment is in `language`. */
  hasLanguage(language: string): boolean {
    return this.languageNames.includes(language);
  }

  /**
   * A file's path. Paths are decoded one by one (a query's hits and ties need a few); once
   * many are asked for, all are decoded together.
   */
  filePath(i: number): string {
    if (!(i >= 0 && i < this.fileCount)) throw new CorruptDataError(`segment ${this.name}: file ${i} outside ${this.fileCount}`);
    if (this.pathColumn) return this.pathColumn[i] as string;
    const cached = this.pathCache.get(i);
    if (cached !== undefined) return cached;
    if (this.pathCache.size >= WIDE_PATH_READS) return this.allPaths()[i] as string;
    const start = this.filePathOffsets.at(i);
    const end = this.filePathOffsets.at(i + 1);
    if (!(start <= end && end <= this.filePathBlob.length)) throw new CorruptDataError(`segment ${this.name}: file path ${i} out of bounds`);
    const path = decoder.decode(this.filePathBlob.range(start, end));
    this.pathCache.set(i, path);
    return path;
  }

  /** Every file's path, decoded at once (replacing those decoded one by one). */
  private allPaths(): string[] {
    if (!this.pathColumn) {
      this.pathColumn = decodeStrings(this.filePathBlob.all(), this.filePathOffsets.slice(0, this.fileCount + 1), `segment ${this.name}: file path`);
      this.pathCache.clear();
    }
    return this.pathColumn;
  }

  /** The symbol name of every document, decoded on first use (block by block, each checked for its row count). */
  symbols(): string[] {
    if (!this.symbolColumn) this.symbolColumn = this.symbolBlocks.all();
    return this.symbolColumn;
  }

  /** The breadcrumb of every document, decoded on first use. */
  contexts(): string[] {
    if (!this.contextColumn) {
      const symbols = this.symbols();
      this.contextColumn = this.contextBlocks.all().map((c, i) => decodeContext(c, symbols[i] as string));
    }
    return this.contextColumn;
  }

  /** The symbol dictionary (go-to-symbol's names), opened on first use and read a page at a time. */
  symbolDictionary(): SymbolDictionary {
    this.symbolDict ??= new SymbolDictionary(this.symbolDictSection, `segment ${this.name}: symbol dictionary`, this.docCount);
    return this.symbolDict;
  }

  /** The occurrence table (where names occur as code), opened on first use and read a page and a list at a time. */
  occurrenceTable(): OccurrenceTable {
    this.occurrenceTableRead ??= new OccurrenceTable(this.occurrenceSection, `segment ${this.name}: occurrences`, this.docCount);
    return this.occurrenceTableRead;
  }

  /** A document's stable chunk id (16 hex digits). */
  id(doc: number): string {
    return readId(this.idSection.range(doc * 8, doc * 8 + 8));
  }

  /**
   * Reads in what a long-lived reader otherwise loads whole in the middle of some query, once
   * its range reads pass a limit: field lengths, the dictionary and its per-term columns, the
   * (compressed) string columns, lines, ids and paths — not the postings. For hosts that stay
   * open, to call while idle: otherwise a one-time section load lands on some query and
   * makes it one of the slowest.
   */
  warmForQueries(): void {
    this.allFieldLengths();
    for (const column of [this.termOffsets, this.postingOffsets, this.termDf, this.filePostingOffsets, this.termFileDf, this.docStart, this.docEnd, this.docStartByte, this.filePathOffsets]) column.load();
    this.termBlob.all();
    // The file table, whole: every hit reads its file's path, size, mtime and hash.
    this.allPaths();
    this.fileSizeMtime.all();
    this.fileHashOffsets.load();
    this.fileHashBlob.all();
    this.idSection.all();
    this.symbolBlocks.load();
    this.contextBlocks.load();
    this.recordBlocks.load();
  }

  /**
   * Decodes the postings of the segment's most common terms into the postings cache, up to
   * its budget: the lists a long-lived reader keeps anyway once queries have used them, and
   * the costliest to decode the first time (common words are in most multi-word queries).
   * Smallest first, so the largest are the last the cache lets go. For hosts that stay open.
   * Returns the terms decoded.
   */
  warmPostings(): number[] {
    const common: number[] = [];
    for (let i = 0; i < this.termCount; i++) if (this.df(i) >= CACHED_POSTINGS_MIN) common.push(i);
    common.sort((a, b) => this.df(b) - this.df(a));
    let bytes = this.postingsCacheBytes;
    let fits = 0;
    // Decoded, a posting takes 4 bytes of document and 2 per field.
    while (fits < common.length && (bytes += this.df(common[fits] as number) * (4 + 2 * FIELD_COUNT)) <= this.postingsCacheLimit) fits++;
    for (let k = fits - 1; k >= 0; k--) this.postings(common[k] as number);
    return common.slice(0, fits);
  }

  /** Byte offset in its file where a document's first line starts, or NO_START_BYTE. */
  startByteOf(doc: number): number {
    return this.docStartByte.at(doc);
  }

  /** One document's symbol, without decoding the whole column (hits need a handful). */
  symbolOf(doc: number): string {
    if (this.symbolColumn) return this.symbolColumn[doc] as string;
    return this.symbolBlocks.get(doc);
  }

  /** One document's breadcrumb, without decoding the whole column. */
  contextOf(doc: number): string {
    if (this.contextColumn) return this.contextColumn[doc] as string;
    return decodeContext(this.contextBlocks.get(doc), this.symbolOf(doc));
  }

  record(doc: number): DocRecord {
    let r = this.recordCache.get(doc);
    if (!r) {
      // Read outside the try: a failed read (a closed source) is not damage to report as such.
      const raw = this.recordBlocks.get(doc);
      try {
        r = parseRecord(raw);
      } catch {
        throw new CorruptDataError(`segment ${this.name}: record ${doc} unreadable`);
      }
      this.recordCache.set(doc, r);
    }
    return r;
  }

  termAt(i: number): string {
    if (this.termList) return this.termList[i] as string;
    const [start, end] = this.termOffsets.pair(i);
    return decoder.decode(this.termBlob.range(start, end));
  }

  /** Every term, sorted; decoded once (used for wildcard and fuzzy expansion). */
  terms(): string[] {
    this.termList ??= decodeStrings(this.termBlob.all(), this.termOffsets.slice(0, this.termCount + 1), `segment ${this.name}: term`);
    return this.termList;
  }

  /** Index of `term` in the dictionary, or -1: one block of the dictionary is read and searched. */
  findTerm(term: string): number {
    if (this.termList) {
      const i = lowerBoundIn(this.termList, 0, this.termCount, term);
      return this.termList[i] === term ? i : -1;
    }
    const { first, terms } = this.block(term);
    const k = lowerBoundIn(terms, 0, terms.length, term);
    return terms[k] === term ? first + k : -1;
  }

  /** First index whose term is >= `term`. */
  lowerBound(term: string): number {
    if (this.termList) return lowerBoundIn(this.termList, 0, this.termCount, term);
    const { first, terms } = this.block(term);
    return first + lowerBoundIn(terms, 0, terms.length, term);
  }

  /**
   * The dictionary block where `term` belongs: the last block whose first term is <= `term`
   * (the first block when `term` sorts before every term), decoded. A term past a block's
   * last entry sorts before the next block's first, so lower bounds stay within the block.
   */
  private block(term: string): { first: number; terms: string[] } {
    const at = lowerBoundIn(this.termSamples, 0, this.termSamples.length, term);
    const b = Math.max(0, this.termSamples[at] === term ? at : at - 1);
    const first = b * TERM_STRIDE;
    const last = Math.min(first + TERM_STRIDE, this.termCount);
    if (first >= last) return { first, terms: [] };
    const offsets = this.termOffsets.slice(first, last + 1);
    const bytes = this.termBlob.range(offsets[0] as number, offsets[last - first] as number, this.readBuffer);
    return { first, terms: decodeStrings(bytes, offsets, `segment ${this.name}: term`) };
  }

  df(termIndex: number): number {
    return this.termDf.at(termIndex) % DEFLATED_BIT;
  }

  /** Files whose path contains the term. */
  fileDf(termIndex: number): number {
    return this.termFileDf.at(termIndex);
  }

  /** Decodes the file-level (path) postings of a term: ascending file indexes and frequencies. */
  filePostings(termIndex: number): { files: Uint32Array; tfs: Uint16Array } {
    const df = this.termFileDf.at(termIndex);
    const files = new Uint32Array(df);
    const tfs = new Uint16Array(df);
    const bytes = this.filePostingsBytes.range(...this.filePostingOffsets.pair(termIndex), this.readBuffer);
    const r = new ByteReader(bytes, 0, bytes.length);
    let file = 0;
    for (let i = 0; i < df; i++) {
      file += r.varint();
      if (file >= this.fileCount) throw new CorruptDataError(`segment ${this.name}: file posting points past the files`);
      files[i] = file;
      tfs[i] = Math.min(r.varint(), 0xffff);
    }
    if (!r.done) throw new CorruptDataError(`segment ${this.name}: file postings longer than their frequency`);
    return { files, tfs };
  }

  /**
   * The decoded postings of a term (shared: treat them as read-only). Common words recur from
   * query to query, and reading and decoding their postings was most of a query's time, so
   * lists of at least CACHED_POSTINGS_MIN documents are kept, least recently used first out,
   * within `postingsCacheBytes` of the segment. Throws CorruptDataError if they do not decode.
   */
  postings(termIndex: number): Postings {
    const cached = this.postingsCache.get(termIndex);
    if (cached) {
      // Most recently used last.
      this.postingsCache.delete(termIndex);
      this.postingsCache.set(termIndex, cached);
      return cached;
    }
    const p = this.readPostings(termIndex);
    if (p.docs.length >= CACHED_POSTINGS_MIN) {
      const bytes = p.docs.byteLength + p.tfs.byteLength;
      this.postingsCacheBytes += bytes;
      this.postingsCache.set(termIndex, p);
      for (const [t, old] of this.postingsCache) {
        if (this.postingsCacheBytes <= this.postingsCacheLimit) break;
        this.postingsCache.delete(t);
        this.postingsCacheBytes -= old.docs.byteLength + old.tfs.byteLength;
      }
    }
    return p;
  }

  /**
   * Loads the postings section whole, for a caller about to read every term's postings (a
   * merge; path postings it recomputes from the paths).
   */
  loadAllPostings(): void {
    this.postingsBytes.all();
  }

  /**
   * Decodes a term's postings without keeping them, for readers that walk every term once
   * (merges). Throws CorruptDataError if they do not decode within bounds.
   */
  readPostings(termIndex: number): Postings {
    const stored = this.termDf.at(termIndex);
    const df = stored % DEFLATED_BIT;
    if (df > this.docCount) throw new CorruptDataError(`segment ${this.name}: term ${termIndex} is in ${df} of ${this.docCount} documents`);
    const docs = new Uint32Array(df);
    const tfs = new Uint16Array(df * FIELD_COUNT);
    const packed = this.postingsBytes.range(...this.postingOffsets.pair(termIndex), this.readBuffer);
    const bytes = stored >= DEFLATED_BIT ? inflatePostings(packed, df, `segment ${this.name}: postings of term ${termIndex}`) : packed;
    decodePostings(bytes, df, this.docCount, docs, tfs, this.name);
    return { docs, tfs };
  }
}
