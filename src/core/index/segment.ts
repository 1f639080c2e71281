// Reads a segment (segmentFormat.ts) in place: from memory, or from its file on demand, a
// section, a page or a block at a time. Opens and checks the segment's parts (the file table,
// the term dictionary, the postings, the per-document columns) and answers for them, keeping
// the accessors scoring calls for every document it scores (field lengths, a document's file)
// here, with no call between them and the columns they read.
import type { ChunkKind } from '../types';
import { type LazySection, LazyU32, PagedU8, ReadBuffer, type ByteSource } from './byteSource';
import { DocTextColumns } from './docTextColumns';
import { FieldLengthColumn, LENGTH_PAGE_MASK, LENGTH_PAGE_SHIFT } from './fieldLengthColumn';
import { FIELD_COUNT, KINDS } from './fields';
import { FileTable } from './fileTable';
import { OccurrenceTable } from './occurrenceTable';
import type { Postings } from './postingsCodec';
import { PostingsReader } from './postingsReader';
import { openLayout, SECTION, type DocRecord, type SegmentFile } from './segmentFormat';
import { SymbolDictionary } from './symbolDict';
import { TermDictionary } from './termDictionary';
import { CorruptDataError } from './varint';

export { LENGTH_PAGE_MASK, LENGTH_PAGE_SHIFT, LENGTH_PAGE_SLOTS } from './fieldLengthColumn';

/** A loaded, validated segment. Zero-copy views over one buffer; string columns decode lazily. */
export class Segment {
  readonly docCount: number;
  readonly termCount: number;
  /** Size of the serialised segment in bytes. */
  readonly byteLength: number;
  readonly fileCount: number;
  private readonly fileTable: FileTable;
  // The file table's in-memory columns, held here for the per-document accessors below.
  private readonly fileFirstDoc: Uint32Array;
  private readonly filePathLengths: Uint32Array;
  /** First and last line of each document, read per hit rather than loaded whole. */
  readonly docStart: LazyU32;
  readonly docEnd: LazyU32;
  private readonly docStartByte: LazyU32;
  readonly docKind: PagedU8;
  readonly docFlags: PagedU8;
  private readonly fieldLengths: FieldLengthColumn;
  readonly fieldTotals: Float64Array;
  private readonly text: DocTextColumns;
  private readonly dictionary: TermDictionary;
  private readonly postingsReader: PostingsReader;
  private readonly symbolDictSection: LazySection;
  private symbolDict?: SymbolDictionary;
  private readonly occurrenceSection: LazySection;
  private occurrenceTableRead?: OccurrenceTable;

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
    const what = `segment ${name}`;
    this.byteLength = layout.byteLength;
    this.docCount = layout.docCount;
    this.termCount = layout.termCount;
    this.fileCount = layout.fileCount;
    // Every section goes through `lazy` (bounds and length checks); the ones loaded up front
    // are simply read whole at once.
    const lazy = layout.section;
    const lazyU32 = (i: number, expected: number): LazyU32 => new LazyU32(lazy(i, expected * 4), expected);
    const n = this.docCount;
    this.fileTable = new FileTable(what, lazy, this.fileCount, n);
    this.fileFirstDoc = this.fileTable.firstDoc;
    this.filePathLengths = this.fileTable.pathLengths;
    this.docStart = lazyU32(SECTION.docStart, n);
    this.docEnd = lazyU32(SECTION.docEnd, n);
    this.docStartByte = lazyU32(SECTION.docStartByte, n);
    this.docKind = new PagedU8(lazy(SECTION.docKind), n);
    this.docFlags = new PagedU8(lazy(SECTION.docFlags), n);
    this.fieldLengths = new FieldLengthColumn(what, lazy(SECTION.fieldLengths, n * FIELD_COUNT * 2, Infinity), n);
    this.text = new DocTextColumns(what, lazy, lazyU32, n);
    this.symbolDictSection = lazy(SECTION.symbolDict);
    this.occurrenceSection = lazy(SECTION.occurrences);
    // One buffer for postings and dictionary blocks read from the file: what lands in it is
    // decoded before the method that read it returns, and never handed out.
    const readBuffer = new ReadBuffer();
    this.dictionary = new TermDictionary(what, lazy, this.termCount, lazyU32, readBuffer);
    this.postingsReader = new PostingsReader(name, lazy, lazyU32, this.termCount, n, this.fileCount, readBuffer);
    const ft = lazy(SECTION.fieldTotals, FIELD_COUNT * 8).all();
    this.fieldTotals = new Float64Array(ft.buffer, ft.byteOffset, FIELD_COUNT);
    this.dictionary.checkLength();
    this.postingsReader.checkLength();
  }

  /** Every document's field lengths (`[doc * FIELD_COUNT + field]`), reading the column whole. */
  allFieldLengths(): Uint16Array {
    return this.fieldLengths.all();
  }

  /** One document's field lengths, written to `out[at .. at + FIELD_COUNT)`. */
  readFieldLengths(doc: number, out: Uint16Array, at: number): void {
    if (!(doc >= 0 && doc < this.docCount)) throw new CorruptDataError(`segment ${this.name}: document ${doc} outside ${this.docCount}`);
    const page = this.fieldLengths.page(doc >>> LENGTH_PAGE_SHIFT);
    const base = (doc & LENGTH_PAGE_MASK) * FIELD_COUNT;
    for (let f = 0; f < FIELD_COUNT; f++) out[at + f] = page[base + f] as number;
  }

  /** One field's length in one document. */
  fieldLength(doc: number, field: number): number {
    if (!(doc >= 0 && doc < this.docCount)) throw new CorruptDataError(`segment ${this.name}: document ${doc} outside ${this.docCount}`);
    if (!(field >= 0 && field < FIELD_COUNT)) throw new RangeError(`no field ${field}`);
    return this.fieldLengths.page(doc >>> LENGTH_PAGE_SHIFT)[(doc & LENGTH_PAGE_MASK) * FIELD_COUNT + field] as number;
  }

  kindOf(doc: number): ChunkKind {
    return KINDS[this.docKind.at(doc)] ?? 'text';
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

  /** A file's first document (files own consecutive documents); `fileFirstDocOf(fileCount)` is the document count. */
  fileFirstDocOf(i: number): number {
    return this.fileFirstDoc[i] as number;
  }

  fileDocCount(i: number): number {
    return (this.fileFirstDoc[i + 1] as number) - (this.fileFirstDoc[i] as number);
  }

  /** Tokens in a file's path: the length of its chunks' `path` field. */
  filePathLength(i: number): number {
    return this.filePathLengths[i] as number;
  }

  /** The `path` field's length summed over documents (each counts its file's path). */
  pathFieldTotal(): number {
    let total = 0;
    for (let i = 0; i < this.fileCount; i++) total += (this.filePathLengths[i] as number) * this.fileDocCount(i);
    return total;
  }

  fileOf(doc: number): SegmentFile {
    return this.fileTable.entry(this.fileIndexOf(doc));
  }

  /** A document's file path (cheaper than `fileOf` when only the path is compared). */
  pathOf(doc: number): string {
    return this.fileTable.path(this.fileIndexOf(doc));
  }

  /** Every file of the segment, decoded on first use (merges and whole-index views). */
  get files(): readonly SegmentFile[] {
    return this.fileTable.all();
  }

  /** One file's entry, decoded from the columns on first use. */
  file(i: number): SegmentFile {
    return this.fileTable.entry(i);
  }

  fileLanguage(i: number): string {
    return this.fileTable.language(i);
  }

  /** Whether any file of the segment is in `language`. */
  hasLanguage(language: string): boolean {
    return this.fileTable.hasLanguage(language);
  }

  /** A file's path, decoded one by one until many are asked for. */
  filePath(i: number): string {
    return this.fileTable.path(i);
  }

  /** Byte offset in its file where a document's first line starts, or NO_START_BYTE. */
  startByteOf(doc: number): number {
    return this.docStartByte.at(doc);
  }

  /** The symbol name of every document, decoded on first use. */
  symbols(): string[] {
    return this.text.symbols();
  }

  /** The breadcrumb of every document, decoded on first use. */
  contexts(): string[] {
    return this.text.contexts();
  }

  /** One document's symbol, without decoding the whole column (hits need a handful). */
  symbolOf(doc: number): string {
    return this.text.symbolOf(doc);
  }

  /** One document's breadcrumb, without decoding the whole column. */
  contextOf(doc: number): string {
    return this.text.contextOf(doc);
  }

  /** A document's record as stored (JSON or a bare signature): merges copy it without parsing. */
  rawRecord(doc: number): string {
    return this.text.rawRecord(doc);
  }

  record(doc: number): DocRecord {
    return this.text.record(doc);
  }

  /** A document's stable chunk id (16 hex digits). */
  id(doc: number): string {
    return this.text.id(doc);
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

  /**
   * Reads in what a long-lived reader otherwise loads whole in the middle of some query, once
   * its range reads pass a limit: field lengths, the dictionary and its per-term columns, the
   * (compressed) string columns, lines, ids and paths — not the postings. For hosts that stay
   * open, to call while idle: otherwise a one-time section load lands on some query and
   * makes it one of the slowest.
   */
  warmForQueries(): void {
    this.fieldLengths.all();
    this.dictionary.load();
    this.postingsReader.loadColumns();
    for (const column of [this.docStart, this.docEnd, this.docStartByte]) column.load();
    this.fileTable.load();
    this.text.load();
  }

  /**
   * Decodes the postings of the segment's most common terms into the postings cache, up to its
   * budget (see PostingsReader.warm). For hosts that stay open. Returns the terms decoded.
   */
  warmPostings(): number[] {
    return this.postingsReader.warm();
  }

  termAt(i: number): string {
    return this.dictionary.termAt(i);
  }

  /** Every term, sorted; decoded once (used for wildcard and fuzzy expansion). */
  terms(): string[] {
    return this.dictionary.terms();
  }

  /** Index of `term` in the dictionary, or -1: one block of the dictionary is read and searched. */
  findTerm(term: string): number {
    return this.dictionary.findTerm(term);
  }

  /** First index whose term is >= `term`. */
  lowerBound(term: string): number {
    return this.dictionary.lowerBound(term);
  }

  df(termIndex: number): number {
    return this.postingsReader.df(termIndex);
  }

  /** Files whose path contains the term. */
  fileDf(termIndex: number): number {
    return this.postingsReader.fileDf(termIndex);
  }

  /** Decodes the file-level (path) postings of a term: ascending file indexes and frequencies. */
  filePostings(termIndex: number): { files: Uint32Array; tfs: Uint16Array } {
    return this.postingsReader.filePostings(termIndex);
  }

  /** The decoded postings of a term, shared (treat them as read-only); common ones are kept decoded. */
  postings(termIndex: number): Postings {
    return this.postingsReader.postings(termIndex);
  }

  /**
   * Loads the postings section whole, for a caller about to read every term's postings (a
   * merge; path postings it recomputes from the paths).
   */
  loadAllPostings(): void {
    this.postingsReader.loadAll();
  }

  /** Decodes a term's postings without keeping them, for readers that walk every term once (merges). */
  readPostings(termIndex: number): Postings {
    return this.postingsReader.readPostings(termIndex);
  }
}
