// An immutable index segment: the documents (chunks) of some files, their metadata in
// typed-array columns, a sorted term dictionary and varint postings with per-field term
// frequencies. Written once, read zero-copy from one Buffer, never modified: deletes are
// tombstones kept in the manifest, and merges write a new segment.
//
// Layout (little-endian):
//   header    'CAIRNSEG' u32 version u32 docCount u32 termCount u32 fileCount u32 sectionCount
//             u32 totalLength u32 checksumsAt u32 checksumPageBytes
//   table     sectionCount x (u32 offset, u32 length)
//   sections  each 8-byte aligned (see SECTION), zero-padded
//   checksums at checksumsAt (the end of the last section's padding): u32 CRC-32 of each 4 KB
//             page of the bytes before them, header included (format 12)
//   trailer   'CAIRNEND'
import type { Chunk, ChunkKind, FileOccurrences, NestedDefinition } from '../types';
import { chunkFlags, docFlags, FIELD_COUNT, FileAnalyzer, KIND_INDEX, KINDS, type FileAnalysis } from './fields';
import { forEachToken } from './tokenizer';
import { ByteReader, ByteWriter, CorruptDataError } from './varint';
import { CHECKSUM_PAGE_BYTES, checksumPageCount, CheckedSource, LazySection, LazyU32, memorySource, PagedU8, ReadBuffer, type ByteSource } from './byteSource';
import { crc32 } from './crc32';
import { timed } from '../timings';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { BLOCK_ROWS, BlockColumn, BlockColumnWriter, SMALL_DEFLATE } from './blockColumn';
import { grown, ListPool } from './listPool';
import { lineStartBytes, NO_START_BYTE, spanBytes } from './lineBytes';
import { SymbolDictionary, SymbolDictionaryBuilder } from './symbolDict';
import { OccurrenceTable, OccurrenceTableBuilder } from './occurrenceTable';

export { NO_START_BYTE };

export const SEGMENT_FORMAT_VERSION = 14;
const MAGIC = 'CAIRNSEG';
const TRAILER = 'CAIRNEND';
const HEADER_BYTES = 40;

const SECTION = {
  /** u32 per file plus one: the first document of each file, then the document count. */
  fileFirstDoc: 0,
  /** Where each block of the symbol column starts (string columns: see blockColumn.ts). */
  symbolBlocks: 1,
  docStart: 2,
  docEnd: 3,
  docKind: 4,
  docFlags: 5,
  fieldLengths: 6,
  symbols: 7,
  contexts: 8,
  contextBlocks: 9,
  /** Per document: the signature and other display-only data (see DocRecord), '' when none. */
  records: 10,
  termOffsets: 11,
  termBlob: 12,
  postingOffsets: 13,
  termDf: 14,
  postings: 15,
  fieldTotals: 16,
  ids: 17,
  filePostingOffsets: 18,
  termFileDf: 19,
  filePostings: 20,
  /** Every TERM_STRIDE-th term of the dictionary, newline-joined: the part of it read up front. */
  termSamples: 21,
  // The file table, as columns: what scoring needs is small and read up front; paths, sizes,
  // mtimes and hashes are read when a hit or a filter asks for them.
  filePathLength: 22,
  /** u16 per file: an index into `languageNames`. */
  fileLanguage: 23,
  /** The languages of the segment's files, newline-joined. */
  languageNames: 24,
  filePathOffsets: 25,
  filePaths: 26,
  /** f64 size then f64 mtime per file. */
  fileSizeMtime: 27,
  fileHashOffsets: 28,
  fileHashes: 29,
  recordBlocks: 30,
  /** u32 per document: the byte offset in its file of its first line, or NO_START_BYTE (format 10). */
  docStartByte: 31,
  /** The symbol dictionary: go-to-symbol's sorted tables of names and initials, in pages (format 13, symbolDict.ts). */
  symbolDict: 32,
  /** Where each name occurs as code: a sorted table of names and their lists (format 14, occurrenceTable.ts). */
  occurrences: 33,
} as const;
const SECTION_COUNT = 34;
/**
 * Postings lists of at least this many bytes are stored deflated, flagged by this bit of their
 * document frequency (format 9). Varint postings of common words repeat the same few byte
 * patterns: on the benchmark corpus deflate took 40.7 MB of such lists to 9 MB (the postings
 * were half the store), while inflating a list costs ~3 ms per decoded MB, and a long-lived
 * reader keeps common lists decoded anyway.
 */
const DEFLATE_POSTINGS_MIN = 1024;
const DEFLATED_BIT = 0x80000000;

function packPostings(bytes: Uint8Array): { bytes: Uint8Array; deflated: boolean } {
  if (bytes.length < DEFLATE_POSTINGS_MIN) return { bytes, deflated: false };
  // A list that fits the small window compresses as well in it, and its zlib state costs far less.
  const packed = deflateRawSync(bytes, bytes.length <= 1 << SMALL_DEFLATE.windowBits ? SMALL_DEFLATE : { level: 1 });
  return packed.length < bytes.length ? { bytes: packed, deflated: true } : { bytes, deflated: false };
}

function inflatePostings(packed: Uint8Array, df: number, what: string): Uint8Array {
  try {
    // One output buffer that fits (a posting takes 2-3 bytes), not 16 KB pieces joined at the end.
    return inflateRawSync(packed, { chunkSize: Math.min(Math.max(df * 4, 1024), 1 << 24) });
  } catch (e) {
    throw new CorruptDataError(`${what} do not inflate (${(e as Error).message})`);
  }
}

/**
 * Decodes `df` postings from `bytes` into `docs` and `tfs` (FIELD_COUNT per document). Each
 * posting is a document gap (varint), then either one byte `1fff tttt` (a frequency below 16
 * in one field) or a field bitmask followed by a varint per field set. Inlined by hand: this
 * loop is the largest cost of a query that reads a common word for the first time.
 */
function decodePostings(bytes: Uint8Array, df: number, docCount: number, docs: Uint32Array, tfs: Uint16Array, segment: string): void {
  const end = bytes.length;
  let pos = 0;
  let doc = 0;
  const truncated = () => new CorruptDataError(`segment ${segment}: postings end mid-entry`);
  for (let i = 0; i < df; i++) {
    if (pos >= end) throw truncated();
    let b = bytes[pos++] as number;
    let gap = b & 0x7f;
    for (let shift = 7; b >= 0x80; shift += 7) {
      if (pos >= end || shift > 35) throw truncated();
      b = bytes[pos++] as number;
      gap += (b & 0x7f) * 2 ** shift;
    }
    doc += gap;
    if (doc >= docCount) throw new CorruptDataError(`segment ${segment}: posting points past the documents`);
    docs[i] = doc;
    if (pos >= end) throw truncated();
    const head = bytes[pos++] as number;
    const base = i * FIELD_COUNT;
    if (head & 0x80) {
      const f = (head >> 4) & 0x7;
      if (f >= FIELD_COUNT) throw new CorruptDataError(`segment ${segment}: posting names field ${f}`);
      tfs[base + f] = head & 0xf;
      continue;
    }
    for (let f = 0; f < FIELD_COUNT; f++) {
      if (!(head & (1 << f))) continue;
      if (pos >= end) throw truncated();
      b = bytes[pos++] as number;
      let tf = b & 0x7f;
      for (let shift = 7; b >= 0x80; shift += 7) {
        if (pos >= end || shift > 35) throw truncated();
        b = bytes[pos++] as number;
        tf += (b & 0x7f) * 2 ** shift;
      }
      tfs[base + f] = tf;
    }
  }
  if (pos !== end) throw new CorruptDataError(`segment ${segment}: postings longer than their document frequency`);
}

/** Postings lists this long or longer are kept decoded (see Segment.postings). */
const CACHED_POSTINGS_MIN = 2048;
/**
 * Decoded postings kept per segment (16 bytes per posting): 160 bytes per document, at least
 * 8 MB and at most 64 MB. Common words' lists grow with the segment, and on the benchmark
 * corpus a flat 24 MB held 38-75 % of the lists of 2,048 documents or more; sized to the
 * segment it holds 76-100 % of them, and the first-round p95 of the bench's 200 warmed
 * queries went from 24-28 to 18-23 ms, for 46 MB more over 815k chunks (3 MB per 50k).
 */
function postingsCacheBytes(docCount: number): number {
  return Math.min(64 * 1024 * 1024, Math.max(8 * 1024 * 1024, docCount * 160));
}
/** Terms per dictionary block: a lookup reads one block's offsets and bytes. */
const TERM_STRIDE = 64;

/**
 * How far a segment build is after each of its steps (buildParts' onStep): the posting lists and
 * the symbol dictionary (its ranking sort) take most of the time, the other sections little.
 */
const BUILD_STEPS = { sorted: 0.1, postings: 0.4, records: 0.42, symbols: 0.8, occurrences: 0.98 } as const;

/** A file whose chunks live in a segment; documents `firstDoc .. firstDoc+docCount-1`. */
export interface SegmentFile {
  path: string;
  size: number;
  mtimeMs: number;
  hash: string;
  language: string;
  firstDoc: number;
  docCount: number;
  /** Tokens in the path (the length of the file-level `path` field). */
  pathLength: number;
}

/**
 * Per-document data only needed for displayed hits, decoded lazily. Documents without any of
 * it store nothing. (Docstrings are not kept: they are in the file, and in the index's
 * signature field; the parent is the breadcrumb minus the symbol.)
 */
export interface DocRecord {
  signature?: string;
  visibility?: string;
  decorators?: string[];
  /** Where the name is: lines after the document's first line, and the 1-based column (format 11). */
  at?: [lineDelta: number, column: number];
  /** The definition's last line, on the first part of a definition split for size. */
  end?: number;
  /** Definitions inside the document's code without a document of their own (flag FLAG_NESTED). */
  nested?: NestedDefinition[];
  /**
   * The bytes of the file the document stands for, [start, end), when they are not whole lines
   * (the chunk's `span`). Byte offsets in the file as read (BOM included), not UTF-16 offsets: a
   * reader then reads exactly those bytes, with no need to decode the line before them (a
   * minified line is a megabyte), and `docStartByte` is in the same unit. Older readers ignore it.
   */
  span?: [start: number, end: number];
}

export type SegmentFileInput = Omit<SegmentFile, 'firstDoc' | 'docCount' | 'pathLength'>;

/** A document's metadata as stored, for low-level appends (merges copy these verbatim). */
export interface RawDoc {
  fileIndex: number;
  startLine: number;
  endLine: number;
  /** Byte offset of the first line in the file, or NO_START_BYTE when unknown. */
  startByte: number;
  kind: number;
  flags: number;
  fieldLengths: ArrayLike<number>;
  symbol: string;
  context: string;
  /** JSON of the DocRecord, '' when empty. */
  record: string;
  /** The chunk's stable id: 16 hex digits. */
  id: string;
}

/** Path terms are indexed per file, not per chunk: every chunk of a file has the same path. */
interface FileTermPostings {
  writer: ByteWriter;
  lastFile: number;
  df: number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
/** Signatures are for display (the index has the full text): long ones are cut. */
const MAX_SIGNATURE = 160;

/** Symbols and breadcrumbs are shown on one line: newlines inside are flattened. */
function oneLine(s: string): string {
  return s.includes('\n') || s.includes('\r') ? s.replace(/[\r\n]+/g, ' ') : s;
}

/** A string as a string column gives it back: UTF-8 holds no lone surrogate, so each reads as U+FFFD. */
function asStored(s: string): string {
  return /[\uD800-\uDFFF]/.test(s) ? decoder.decode(encoder.encode(s)) : s;
}

/** Accumulates documents and serialises them into the segment format. */
export class SegmentBuilder {
  private readonly files: SegmentFile[] = [];
  private docs = 0;
  private docStart = new Int32Array(1024);
  private docEnd = new Int32Array(1024);
  private docStartByte = new Uint32Array(1024);
  private readonly docKind = new ByteWriter(1024);
  private readonly docFlags = new ByteWriter(1024);
  private fieldLengths = new ByteWriter(1024);
  private readonly symbols = new BlockColumnWriter();
  private readonly contexts = new BlockColumnWriter();
  private readonly records = new BlockColumnWriter();
  private readonly symbolDict = new SymbolDictionaryBuilder();
  private readonly occurrences = new OccurrenceTableBuilder();
  private ids = new ByteWriter(1024);
  /** Each term's postings list in `postingLists`, by term. */
  private readonly termLists = new Map<string, number>();
  private postingLists = new ListPool();
  /** By list: the last document written and the document frequency. */
  private lastDoc = new Int32Array(256);
  private termDf = new Int32Array(256);
  /** One posting, encoded before it is copied into its list. */
  private readonly scratch = new ByteWriter(64);
  private readonly filePostings = new Map<string, FileTermPostings>();
  private readonly fieldTotals = new Float64Array(FIELD_COUNT);
  /** Heap held outside the postings pool and the block columns (terms, paths, typed arrays). */
  private otherBytes = 0;
  /** For files given without their analysis (analysed on this thread), made on first use. */
  private analyzer: FileAnalyzer | undefined;

  /**
   * Bytes held, roughly, so callers can flush large builds into several segments. Counts what
   * the heap really holds per term and per document (measured against heap snapshots), not
   * just the encoded bytes, since that is what decides a cold index's peak memory.
   */
  get approxBytes(): number {
    return this.otherBytes + this.postingLists.reservedBytes + this.symbols.bytes + this.contexts.bytes + this.records.bytes + this.symbolDict.bytes + this.occurrences.bytes + this.docs * 24;
  }

  get docCount(): number {
    return this.docs;
  }

  get fileCount(): number {
    return this.files.length;
  }

  /**
   * Adds a file and its chunks (already analysed on a worker, or analysed here). Returns its
   * document range. With the file's text, each chunk records where its first line starts in
   * the file, so a hit's preview reads from there instead of from the top of the file. With its
   * occurrences (the AST chunker's), the file's names go into the occurrence table.
   */
  addFile(
    file: SegmentFileInput,
    chunks: readonly Chunk[],
    analysis: FileAnalysis = (this.analyzer ??= new FileAnalyzer()).analyze(chunks, file.language),
    text?: string,
    occurrences?: FileOccurrences,
  ): { firstDoc: number; docCount: number } {
    const fileIndex = this.appendFile(file, chunks.length, pathTermsOf(file.path));
    const startBytes = text === undefined ? undefined : lineStartBytes(text, file.size, chunks.map((c) => c.startLine));
    const spans = text === undefined || !chunks.some((c) => c.span) ? undefined : spanBytes(text, file.size, chunks.map((c) => c.span));
    const firstDoc = this.docCount;
    const flags = docFlags(file.path, file.language);
    // One dictionary lookup per distinct term of the file.
    const lists = analysis.terms.map((t) => this.listOf(t));
    chunks.forEach((chunk, d) => {
      const doc = this.appendDoc({
        fileIndex,
        startLine: chunk.startLine,
        endLine: chunk.endLine,
        startByte: startBytes?.[d] ?? NO_START_BYTE,
        kind: KIND_INDEX.get(chunk.kind) ?? (KIND_INDEX.get('text') as number),
        flags: flags | chunkFlags(chunk),
        fieldLengths: analysis.fieldLengths.subarray(d * FIELD_COUNT, (d + 1) * FIELD_COUNT),
        symbol: chunk.symbol,
        context: chunk.context,
        record: storedRecord(chunk, spans && spans[2 * d] !== NO_START_BYTE ? [spans[2 * d] as number, spans[2 * d + 1] as number] : undefined),
        id: chunk.id,
      });
      for (let r = analysis.docStarts[d] as number; r < (analysis.docStarts[d + 1] as number); r++) {
        this.writePosting(lists[analysis.termRefs[r] as number] as number, doc, analysis.tfs, r * FIELD_COUNT);
      }
    });
    if (occurrences) this.occurrences.addFile(firstDoc, chunks.map((c) => c.startLine), occurrences);
    return { firstDoc, docCount: chunks.length };
  }

  /**
   * Low-level: occurrences `from..to` of the arrays, of `name` in `doc`, in line and column order
   * (merges; documents ascending per name).
   */
  appendOccurrences(name: string, doc: number, lineOffsets: ArrayLike<number>, columns: ArrayLike<number>, roles: ArrayLike<number>, from: number, to: number): void {
    this.occurrences.appendOccurrences(name, doc, lineOffsets, columns, roles, from, to);
  }

  /**
   * Low-level: registers a file whose `docCount` documents are appended next, with its path's
   * terms and frequencies (file-level postings). Returns its index.
   */
  appendFile(file: SegmentFileInput, docCount: number, pathTerms: ReadonlyMap<string, number>): number {
    const fileIndex = this.files.length;
    let pathLength = 0;
    for (const [term, tf] of pathTerms) {
      pathLength += tf;
      let p = this.filePostings.get(term);
      if (!p) {
        p = { writer: new ByteWriter(4), lastFile: 0, df: 0 };
        this.filePostings.set(term, p);
        this.otherBytes += term.length * 2 + 200;
      }
      p.writer.varint(fileIndex - p.lastFile);
      p.writer.varint(tf);
      p.lastFile = fileIndex;
      p.df++;
    }
    this.files.push({ ...file, firstDoc: this.docCount, docCount, pathLength });
    this.otherBytes += file.path.length * 2 + 200;
    return fileIndex;
  }

  /** Low-level: appends one document's metadata. Returns its doc number. */
  appendDoc(d: RawDoc): number {
    const doc = this.docCount;
    // Readers derive each document's file from the file table: a file's documents come right after it.
    if (d.fileIndex !== this.files.length - 1) throw new Error(`document ${doc} appended to file ${d.fileIndex}, not to the last file`);
    if (doc === this.docStart.length) {
      this.docStart = grown(this.docStart, doc * 2);
      this.docEnd = grown(this.docEnd, doc * 2);
      this.docStartByte = grown(this.docStartByte, doc * 2);
    }
    this.docs++;
    this.docStart[doc] = d.startLine;
    this.docEnd[doc] = d.endLine;
    this.docStartByte[doc] = d.startByte;
    this.docKind.byte(d.kind);
    this.docFlags.byte(d.flags);
    const symbol = oneLine(d.symbol);
    const context = encodeContext(oneLine(d.context), symbol);
    this.symbols.add(symbol);
    this.contexts.add(context);
    this.records.add(d.record);
    const storedSymbol = asStored(symbol);
    this.symbolDict.add(doc, d, storedSymbol, decodeContext(asStored(context), storedSymbol));
    writeId(this.ids, d.id);
    for (let f = 0; f < FIELD_COUNT; f++) {
      const len = d.fieldLengths[f] as number;
      this.fieldLengths.byte(len & 0xff);
      this.fieldLengths.byte(len >>> 8);
      this.fieldTotals[f] = (this.fieldTotals[f] as number) + len;
    }
    return doc;
  }

  /**
   * Low-level: appends a posting of `term` for `doc` with the field frequencies
   * `tfs[base .. base+FIELD_COUNT)`. Docs must be appended in ascending order per term.
   */
  appendPosting(term: string, doc: number, tfs: Uint16Array, base: number): void {
    this.writePosting(this.listOf(term), doc, tfs, base);
  }

  private listOf(term: string): number {
    let list = this.termLists.get(term);
    if (list === undefined) {
      list = this.postingLists.newList();
      this.termLists.set(term, list);
      if (list === this.lastDoc.length) {
        this.lastDoc = grown(this.lastDoc, list * 2);
        this.termDf = grown(this.termDf, list * 2);
      }
      // The key string, its map entry and the list's slots in the pool's tables.
      this.otherBytes += term.length * 2 + 100;
    }
    return list;
  }

  private writePosting(list: number, doc: number, tfs: Uint16Array, base: number): void {
    const w = this.scratch;
    w.length = 0;
    w.varint(doc - (this.lastDoc[list] as number));
    writeFieldFrequencies(w, tfs, base);
    this.postingLists.append(list, w.bytes, w.length);
    this.lastDoc[list] = doc;
    this.termDf[list] = (this.termDf[list] as number) + 1;
  }

  /** Serialises the segment. The builder must not be used afterwards. */
  build(): Uint8Array {
    const parts = this.buildParts();
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  }

  /**
   * Serialises the segment as pieces to be written one after another: a large segment is
   * written without first being copied whole into one buffer (tens of MB at a cold index's
   * peak). The builder must not be used afterwards. `onStep(fraction)` is told how far the build
   * is, so a view's progress moves during a build that takes seconds on a large tree.
   */
  buildParts(onStep?: (fraction: number) => void): Uint8Array[] {
    const docCount = this.docCount;
    const terms = [...new Set([...this.termLists.keys(), ...this.filePostings.keys()])].sort();
    onStep?.(BUILD_STEPS.sorted);
    const termStep = Math.max(1, Math.ceil(terms.length / 32));
    const dictionary = stringTable(terms);
    const postingOffsets = new Uint32Array(terms.length + 1);
    const termDf = new Uint32Array(terms.length);
    // Each list is packed straight into one buffer sized for the lists as written (packing
    // never grows a list): no per-term copies are held until the end of the build.
    let rawPostings = 0;
    for (const list of this.termLists.values()) rawPostings += this.postingLists.lengthOf(list);
    const postingsOut = new Uint8Array(rawPostings);
    let postingsLen = 0;
    const filePostingOffsets = new Uint32Array(terms.length + 1);
    const termFileDf = new Uint32Array(terms.length);
    let filePostingsLen = 0;
    terms.forEach((t, i) => {
      postingOffsets[i] = postingsLen;
      const list = this.termLists.get(t);
      if (list !== undefined) {
        const e = packPostings(this.postingLists.bytesOf(list));
        postingsOut.set(e.bytes, postingsLen);
        postingsLen += e.bytes.length;
        termDf[i] = (this.termDf[list] as number) + (e.deflated ? DEFLATED_BIT : 0);
      }
      if (onStep && i % termStep === 0) onStep(BUILD_STEPS.sorted + (BUILD_STEPS.postings - BUILD_STEPS.sorted) * (i / terms.length));
      const fp = this.filePostings.get(t);
      filePostingOffsets[i] = filePostingsLen;
      filePostingsLen += fp?.writer.length ?? 0;
      termFileDf[i] = fp?.df ?? 0;
    });
    postingOffsets[terms.length] = postingsLen;
    filePostingOffsets[terms.length] = filePostingsLen;
    const postings = postingsOut.subarray(0, postingsLen);
    this.postingLists = new ListPool(); // its pages can go before the segment is assembled
    const filePostings = new Uint8Array(filePostingsLen);
    terms.forEach((t, i) => {
      const fp = this.filePostings.get(t);
      if (fp) filePostings.set(fp.writer.result(), filePostingOffsets[i] as number);
    });
    this.termLists.clear();
    this.filePostings.clear();
    onStep?.(BUILD_STEPS.postings);

    const sections: Uint8Array[] = [];
    this.writeFileTable(sections);
    const symbols = this.symbols.finish();
    const contexts = this.contexts.finish();
    const records = this.records.finish();
    sections[SECTION.symbolBlocks] = bytesOf(symbols.offsets);
    sections[SECTION.docStart] = bytesOf(new Uint32Array(this.docStart.buffer, 0, docCount));
    sections[SECTION.docEnd] = bytesOf(new Uint32Array(this.docEnd.buffer, 0, docCount));
    sections[SECTION.docStartByte] = bytesOf(this.docStartByte.subarray(0, docCount));
    sections[SECTION.docKind] = this.docKind.result();
    sections[SECTION.docFlags] = this.docFlags.result();
    sections[SECTION.fieldLengths] = this.fieldLengths.result();
    sections[SECTION.symbols] = symbols.blob;
    sections[SECTION.contexts] = contexts.blob;
    sections[SECTION.contextBlocks] = bytesOf(contexts.offsets);
    sections[SECTION.records] = records.blob;
    sections[SECTION.recordBlocks] = bytesOf(records.offsets);
    sections[SECTION.termOffsets] = bytesOf(dictionary.offsets);
    sections[SECTION.termBlob] = dictionary.blob;
    sections[SECTION.termSamples] = encoder.encode(terms.filter((_, i) => i % TERM_STRIDE === 0).join('\n'));
    sections[SECTION.postingOffsets] = bytesOf(postingOffsets);
    sections[SECTION.termDf] = bytesOf(termDf);
    sections[SECTION.postings] = postings;
    sections[SECTION.fieldTotals] = bytesOf(this.fieldTotals);
    sections[SECTION.ids] = this.ids.result();
    sections[SECTION.filePostingOffsets] = bytesOf(filePostingOffsets);
    sections[SECTION.termFileDf] = bytesOf(termFileDf);
    sections[SECTION.filePostings] = filePostings;
    onStep?.(BUILD_STEPS.records);
    sections[SECTION.symbolDict] = this.symbolDict.build(this.files.map((f) => f.path));
    onStep?.(BUILD_STEPS.symbols);
    sections[SECTION.occurrences] = this.occurrences.build();
    onStep?.(BUILD_STEPS.occurrences);
    return assembleParts(sections, docCount, terms.length, this.files.length);
  }

  private writeFileTable(sections: Uint8Array[]): void {
    const files = this.files;
    const firstDocs = new Uint32Array(files.length + 1);
    const pathLengths = new Uint32Array(files.length);
    const languageIndex = new Uint16Array(files.length);
    const languages = new Map<string, number>();
    const sizeMtime = new Float64Array(files.length * 2);
    files.forEach((f, i) => {
      firstDocs[i] = f.firstDoc;
      pathLengths[i] = f.pathLength;
      let l = languages.get(f.language);
      if (l === undefined) languages.set(f.language, (l = languages.size));
      languageIndex[i] = l;
      sizeMtime[2 * i] = f.size;
      sizeMtime[2 * i + 1] = f.mtimeMs;
    });
    firstDocs[files.length] = this.docCount;
    if (languages.size > 0xffff) throw new Error('too many languages in one segment');
    const paths = stringTable(files.map((f) => f.path));
    const hashes = stringTable(files.map((f) => f.hash));
    sections[SECTION.fileFirstDoc] = bytesOf(firstDocs);
    sections[SECTION.filePathLength] = bytesOf(pathLengths);
    sections[SECTION.fileLanguage] = bytesOf(languageIndex);
    sections[SECTION.languageNames] = encoder.encode([...languages.keys()].map(oneLine).join('\n'));
    sections[SECTION.filePathOffsets] = bytesOf(paths.offsets);
    sections[SECTION.filePaths] = paths.blob;
    sections[SECTION.fileSizeMtime] = bytesOf(sizeMtime);
    sections[SECTION.fileHashOffsets] = bytesOf(hashes.offsets);
    sections[SECTION.fileHashes] = hashes.blob;
  }
}

/** Strings as one UTF-8 blob and the byte offset where each starts (plus the end). */
function stringTable(strings: readonly string[]): { offsets: Uint32Array; blob: Uint8Array } {
  const offsets = new Uint32Array(strings.length + 1);
  const w = new ByteWriter(Math.max(16, strings.length * 12));
  strings.forEach((x, i) => {
    offsets[i] = w.length;
    w.utf8(x);
  });
  offsets[strings.length] = w.length;
  return { offsets, blob: w.result() };
}

function storedRecord(chunk: Chunk, span: [number, number] | undefined): string {
  const r: DocRecord = {};
  if (chunk.signature) r.signature = chunk.signature.length > MAX_SIGNATURE ? `${chunk.signature.slice(0, MAX_SIGNATURE)}…` : chunk.signature;
  if (chunk.visibility) r.visibility = chunk.visibility;
  if (chunk.decorators?.length) r.decorators = chunk.decorators;
  if (chunk.nameLine !== undefined) r.at = [chunk.nameLine - chunk.startLine, chunk.nameColumn ?? 1];
  if (chunk.definitionEndLine !== undefined) r.end = chunk.definitionEndLine;
  if (chunk.nested?.length) r.nested = chunk.nested;
  if (span) r.span = span;
  if (!r.signature && !r.visibility && !r.decorators && !r.at && !r.end && !r.nested && !r.span) return '';
  // A record that is a bare signature is stored as its text, without JSON's quoting.
  if (r.signature && !r.visibility && !r.decorators && !r.at && !r.end && !r.nested && !r.span && !r.signature.startsWith('{')) return r.signature;
  return JSON.stringify(r);
}

function parseRecord(raw: string): DocRecord {
  if (raw === '') return {};
  return raw.startsWith('{') ? (JSON.parse(raw) as DocRecord) : { signature: raw };
}

/** A single field with a small frequency (the common case) takes one byte; otherwise a mask and varints. */
function writeFieldFrequencies(w: ByteWriter, tfs: Uint16Array, base: number): void {
  let mask = 0;
  let only = -1;
  for (let f = 0; f < FIELD_COUNT; f++) {
    if ((tfs[base + f] as number) > 0) {
      mask |= 1 << f;
      only = only === -1 ? f : -2;
    }
  }
  if (only >= 0 && (tfs[base + only] as number) <= 15) {
    w.byte(0x80 | (only << 4) | (tfs[base + only] as number));
    return;
  }
  w.byte(mask);
  for (let f = 0; f < FIELD_COUNT; f++) {
    const tf = tfs[base + f] as number;
    if (tf > 0) w.varint(tf);
  }
}

/** The 16-hex-digit stable id as 8 bytes. */
function writeId(w: ByteWriter, id: string): void {
  for (let i = 0; i < 16; i += 2) w.byte(parseInt(id.slice(i, i + 2), 16) || 0);
}

/**
 * Breadcrumbs mostly end with the symbol itself (`Bar.baz`, `Install > Linux`): store only the
 * prefix and which separator joins it, decoded in `contexts()`.
 */
const CONTEXT_SEPARATORS = ['.', ' > ', '::', '#'];
function encodeContext(context: string, symbol: string): string {
  if (!symbol || !context.endsWith(symbol)) return context;
  if (context === symbol) return '\u0001';
  const prefix = context.slice(0, context.length - symbol.length);
  const sep = CONTEXT_SEPARATORS.findIndex((s) => prefix.endsWith(s));
  return sep < 0 ? context : `${prefix.slice(0, prefix.length - (CONTEXT_SEPARATORS[sep] as string).length)}\u0002${sep}`;
}
function decodeContext(stored: string, symbol: string): string {
  if (stored === '\u0001') return symbol;
  const mark = stored.indexOf('\u0002');
  if (mark < 0) return stored;
  return `${stored.slice(0, mark)}${CONTEXT_SEPARATORS[Number(stored[mark + 1])] ?? '.'}${symbol}`;
}

function bytesOf(a: Uint32Array | Float64Array | Uint16Array): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

const align8 = (n: number) => (n + 7) & ~7;

/**
 * The segment file as pieces: header and section table, each section then its padding, the
 * page checksums, the trailer.
 */
function assembleParts(sections: Uint8Array[], docCount: number, termCount: number, fileCount: number): Uint8Array[] {
  const headerBytes = align8(HEADER_BYTES + SECTION_COUNT * 8);
  let offset = headerBytes;
  const placed: Array<[number, number]> = [];
  for (const s of sections) {
    placed.push([offset, s.length]);
    offset = align8(offset + s.length);
  }
  const checksumsAt = offset;
  const checksums = new Uint32Array(checksumPageCount(checksumsAt));
  const total = checksumsAt + checksums.byteLength + TRAILER.length;
  const out = new Uint8Array(headerBytes);
  const view = new DataView(out.buffer);
  out.set(encoder.encode(MAGIC), 0);
  view.setUint32(8, SEGMENT_FORMAT_VERSION, true);
  view.setUint32(12, docCount, true);
  view.setUint32(16, termCount, true);
  view.setUint32(20, fileCount, true);
  view.setUint32(24, SECTION_COUNT, true);
  view.setUint32(28, total, true);
  view.setUint32(32, checksumsAt, true);
  view.setUint32(36, CHECKSUM_PAGE_BYTES, true);
  const parts: Uint8Array[] = [out];
  placed.forEach(([o, l], i) => {
    view.setUint32(HEADER_BYTES + i * 8, o, true);
    view.setUint32(HEADER_BYTES + i * 8 + 4, l, true);
    parts.push(sections[i] as Uint8Array);
    const padding = align8(o + l) - (o + l);
    if (padding > 0) parts.push(new Uint8Array(padding));
  });
  timed('checksums', () => pageChecksums(parts, checksums));
  parts.push(bytesOf(checksums), encoder.encode(TRAILER));
  return parts;
}

/** Fills `sums` with the CRC-32 of each CHECKSUM_PAGE_BYTES page of `parts` laid end to end. */
function pageChecksums(parts: readonly Uint8Array[], sums: Uint32Array): void {
  let at = 0;
  let crc = 0;
  for (const part of parts) {
    for (let i = 0; i < part.length; ) {
      const page = Math.floor(at / CHECKSUM_PAGE_BYTES);
      const n = Math.min(part.length - i, (page + 1) * CHECKSUM_PAGE_BYTES - at);
      crc = crc32(part.subarray(i, i + n), crc);
      i += n;
      at += n;
      if (at % CHECKSUM_PAGE_BYTES === 0) {
        sums[page] = crc;
        crc = 0;
      }
    }
  }
  if (at % CHECKSUM_PAGE_BYTES !== 0) sums[sums.length - 1] = crc;
}

/** Path terms of a file and their frequencies (the file-level `path` field). */
export function pathTermsOf(path: string): Map<string, number> {
  const terms = new Map<string, number>();
  forEachToken(path, (t) => terms.set(t, (terms.get(t) ?? 0) + 1));
  return terms;
}

/**
 * The strings a `stringTable` holds between `offsets[0]` and `offsets[count]`, from `bytes`
 * (which start at byte `offsets[0]` of the table's blob).
 */
function decodeStrings(bytes: Uint8Array, offsets: Uint32Array, what: string): string[] {
  const base = offsets[0] ?? 0;
  const all = decoder.decode(bytes);
  // Offsets are in bytes: slice the decoded text directly only when it is all ASCII.
  const ascii = all.length === bytes.length;
  const out = new Array<string>(Math.max(0, offsets.length - 1));
  for (let k = 0; k < out.length; k++) {
    const start = (offsets[k] as number) - base;
    const end = (offsets[k + 1] as number) - base;
    if (!(0 <= start && start <= end && end <= bytes.length)) throw new CorruptDataError(`${what} ${k} out of bounds`);
    out[k] = ascii ? all.slice(start, end) : decoder.decode(bytes.subarray(start, end));
  }
  return out;
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

/** Decoded postings of one term in one segment: parallel arrays, docs ascending. */
export interface Postings {
  docs: Uint32Array;
  /** `tfs[i * FIELD_COUNT + f]`: frequency of the term in field f of docs[i]. */
  tfs: Uint16Array;
}

/**
 * Paths decoded one by one before a segment decodes them all. A read costs a fresh process
 * ~20 us, decoding a segment's 8k paths at once ~1 ms: past ~100 reads, all at once is cheaper.
 */
const WIDE_PATH_READS = 128;

/** Documents per page of the field-length column (512 documents: 6 KB). */
export const LENGTH_PAGE_SHIFT = 9;
const LENGTH_PAGE_DOCS = 1 << LENGTH_PAGE_SHIFT;
export const LENGTH_PAGE_MASK = LENGTH_PAGE_DOCS - 1;
/** Reused buffers for field-length pages read from a file (see `fieldLengthPage`). */
export const LENGTH_PAGE_SLOTS = 16;

/** The sections, by name, of a section table that overlap bytes `[start, end)`, for messages. */
const SECTION_NAMES = Object.entries(SECTION)
  .sort(([, a], [, b]) => a - b)
  .map(([n]) => n);
function sectionsIn(table: DataView, start: number, end: number): string {
  const names = start < HEADER_BYTES + SECTION_COUNT * 8 ? ['header'] : [];
  for (let i = 0; i < SECTION_COUNT; i++) {
    const o = table.getUint32(HEADER_BYTES + i * 8, true);
    const l = table.getUint32(HEADER_BYTES + i * 8 + 4, true);
    if (l > 0 && o < end && start < align8(o + l)) names.push(SECTION_NAMES[i] as string);
  }
  if (names.length > 4) return `${names.slice(0, 3).join(', ')} and ${names.length - 3} more`;
  return names.join(', ') || 'no section';
}

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
  /** First and last line of each document, read per hit (columns of 2.5 MB per 628k chunks). */
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
    const raw = input instanceof Uint8Array ? memorySource(input) : input;
    const tableBytes = HEADER_BYTES + SECTION_COUNT * 8;
    if (raw.length < tableBytes + TRAILER.length) throw new CorruptDataError(`segment ${name} is truncated`);
    // Read unchecked only to find the checksums (and to name sections in a mismatch); the
    // header is read again through them below.
    const unchecked = raw.read(0, tableBytes);
    if (decoder.decode(unchecked.subarray(0, 8)) !== MAGIC) throw new CorruptDataError(`segment ${name} has no segment header`);
    const prefix = new DataView(unchecked.buffer, unchecked.byteOffset, unchecked.byteLength);
    const version = prefix.getUint32(8, true);
    if (version !== SEGMENT_FORMAT_VERSION) throw new CorruptDataError(`segment ${name} has format version ${version}, expected ${SEGMENT_FORMAT_VERSION}`);
    const total = prefix.getUint32(28, true);
    if (total !== raw.length) throw new CorruptDataError(`segment ${name} is ${raw.length} bytes, header says ${total}`);
    const checksumsAt = prefix.getUint32(32, true);
    const checksumsFit = checksumsAt % 8 === 0 && checksumsAt >= tableBytes && checksumsAt + 4 * checksumPageCount(checksumsAt) + TRAILER.length === total;
    if (prefix.getUint32(36, true) !== CHECKSUM_PAGE_BYTES || !checksumsFit) throw new CorruptDataError(`segment ${name} has its page checksums out of place`);
    if (decoder.decode(raw.read(total - TRAILER.length, TRAILER.length)) !== TRAILER) throw new CorruptDataError(`segment ${name} has no trailer`);
    const source = new CheckedSource(raw, checksumsAt, (start, end) => `segment ${name} (${sectionsIn(prefix, start, end)})`);

    const head = source.read(0, tableBytes);
    const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
    this.byteLength = source.length;
    this.docCount = view.getUint32(12, true);
    this.postingsCacheLimit = postingsCacheBytes(this.docCount);
    this.termCount = view.getUint32(16, true);
    const fileCount = view.getUint32(20, true);
    if (view.getUint32(24, true) !== SECTION_COUNT) throw new CorruptDataError(`segment ${name} has ${view.getUint32(24, true)} sections`);

    const bounds = (i: number): [number, number] => {
      const o = view.getUint32(HEADER_BYTES + i * 8, true);
      const l = view.getUint32(HEADER_BYTES + i * 8 + 4, true);
      if (o % 8 !== 0 || o + l > checksumsAt) throw new CorruptDataError(`segment ${name}: section ${i} out of bounds`);
      return [o, l];
    };
    // Every section goes through `lazy` (bounds and length checks); the ones loaded up front
    // are simply read whole at once.
    const lazy = (i: number, expected?: number, wideReads?: number): LazySection => {
      const [o, l] = bounds(i);
      if (expected !== undefined && l !== expected) throw new CorruptDataError(`segment ${name}: section ${i} has wrong length`);
      return new LazySection(source, o, l, wideReads);
    };
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
    // per-document column would be 2.5 MB of fresh memory for 628k chunks in every process.)
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
    // Queries read postings term by term (into the segment's read buffer) however many they run: a
    // long-lived reader loading 20-30 MB sections whole after 512 terms made those queries the
    // slowest of a session and held the memory. Merges ask for the sections whole.
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
   * process pays ~17 µs for every 4 KB of new memory it touches, and a query of common words
   * scores in most of a segment's pages, in ascending order, each once — with a buffer per
   * page, those faults were 81 ms of such a query's 212. A page read again costs a read from
   * the page cache; a host that stays open reads the column whole while idle (warm-up).
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
    const bytes = this.idSection.range(doc * 8, doc * 8 + 8);
    let out = '';
    for (let i = 0; i < 8; i++) out += (bytes[i] as number).toString(16).padStart(2, '0');
    return out;
  }

  /**
   * Reads in what a long-lived reader otherwise loads whole in the middle of some query, once
   * its range reads pass a limit: field lengths, the dictionary and its per-term columns, the
   * (compressed) string columns, lines, ids and paths — not the postings. For hosts that stay
   * open, to call while idle: measured over 200 benchmark queries, a one-time section load
   * landed on one query in six and made most of the slowest.
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
