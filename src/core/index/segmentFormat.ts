// The segment format: how an immutable index segment lies on disk, and the encodings its
// builder (segmentBuilder.ts) and its reader (segment.ts) share.
//
// A segment holds the documents (chunks) of some files. It is written once, read in place —
// from a Buffer, or from its file a page at a time — and never modified: deletes are
// tombstones kept in the manifest, and merges write a new segment. So every column is an
// array that a reader indexes without parsing what comes before, and what a query does not
// ask for is never read.
//
// Layout (little-endian):
//   header    'CAIRNSEG' u32 version u32 docCount u32 termCount u32 fileCount u32 sectionCount
//             u32 totalLength u32 checksumsAt u32 checksumPageBytes
//   table     sectionCount x (u32 offset, u32 length)
//   sections  each 8-byte aligned (see SECTION), zero-padded
//   checksums at checksumsAt (the end of the last section's padding): u32 CRC-32 of each 4 KB
//             page of the bytes before them, header included (format 12), so damage is found
//             by the read that touches it and named by the sections it falls in
//   trailer   'CAIRNEND'
//
// The sections, by what they serve:
//   files      the file table as columns. What scoring needs for many files (each file's first
//              document, its path's token count, its language) is small and read up front;
//              paths, sizes, mtimes and hashes are read when a hit or a filter asks. A file's
//              documents are consecutive, so a document's file is a binary search, not a column.
//   documents  per document: first and last line, the byte offset of the first line (so a
//              preview reads from there, not from the top of the file), kind, flags, FIELD_COUNT
//              u16 field lengths, an 8-byte id, and three string columns in deflated blocks
//              (blockColumn.ts): symbol, breadcrumb (stored as its prefix when it ends with
//              the symbol, see encodeContext) and the display-only DocRecord.
//   terms      the sorted term dictionary as a string table, plus every TERM_STRIDE-th term:
//              a lookup reads those samples, then one block of the dictionary.
//   postings   per term, its document frequency and its postings (postingsCodec.ts), and the
//              field-length totals BM25F needs. The path field is indexed per file, not per
//              chunk (every chunk of a file has the same path): separate file postings.
//   symbolDict go-to-symbol's sorted names and initials, in pages (format 13, symbolDict.ts).
//   occurrences where each name occurs as code (format 14, occurrenceTable.ts).
// A reader that meets another format version refuses the segment; the store then rebuilds.
import type { Chunk, NestedDefinition } from '../types';
import { timed } from '../timings';
import { CHECKSUM_PAGE_BYTES, checksumPageCount, CheckedSource, LazySection, memorySource, type ByteSource } from './byteSource';
import { crc32 } from './crc32';
import { ByteWriter, CorruptDataError } from './varint';

export const SEGMENT_FORMAT_VERSION = 14;
const MAGIC = 'CAIRNSEG';
const TRAILER = 'CAIRNEND';
const HEADER_BYTES = 40;

/** Section numbers: each section's place in the section table. */
export const SECTION = {
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
/** Terms per dictionary block: a lookup reads one block's offsets and bytes. */
export const TERM_STRIDE = 64;

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

const encoder = new TextEncoder();
const decoder = new TextDecoder();
/** Signatures are for display (the index has the full text): long ones are cut. */
const MAX_SIGNATURE = 160;

/** Strings as one UTF-8 blob and the byte offset where each starts (plus the end). */
export function stringTable(strings: readonly string[]): { offsets: Uint32Array; blob: Uint8Array } {
  const offsets = new Uint32Array(strings.length + 1);
  const w = new ByteWriter(Math.max(16, strings.length * 12));
  strings.forEach((x, i) => {
    offsets[i] = w.length;
    w.utf8(x);
  });
  offsets[strings.length] = w.length;
  return { offsets, blob: w.result() };
}

/**
 * The strings a `stringTable` holds between `offsets[0]` and `offsets[count]`, from `bytes`
 * (which start at byte `offsets[0]` of the table's blob).
 */
export function decodeStrings(bytes: Uint8Array, offsets: Uint32Array, what: string): string[] {
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

export function bytesOf(a: Uint32Array | Float64Array | Uint16Array): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

/** A document's DocRecord as stored: '' when empty, a bare signature as its text, else JSON. */
export function storedRecord(chunk: Chunk, span: [number, number] | undefined): string {
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

export function parseRecord(raw: string): DocRecord {
  if (raw === '') return {};
  return raw.startsWith('{') ? (JSON.parse(raw) as DocRecord) : { signature: raw };
}

/** The 16-hex-digit stable id as 8 bytes. */
export function writeId(w: ByteWriter, id: string): void {
  for (let i = 0; i < 16; i += 2) w.byte(parseInt(id.slice(i, i + 2), 16) || 0);
}

/** The stable id stored by `writeId`, as its 16 hex digits. */
export function readId(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < 8; i++) out += (bytes[i] as number).toString(16).padStart(2, '0');
  return out;
}

/**
 * Breadcrumbs mostly end with the symbol itself (`Bar.baz`, `Install > Linux`): store only the
 * prefix and which separator joins it (decodeContext puts them back).
 */
const CONTEXT_SEPARATORS = ['.', ' > ', '::', '#'];
export function encodeContext(context: string, symbol: string): string {
  if (!symbol || !context.endsWith(symbol)) return context;
  if (context === symbol) return '\u0001';
  const prefix = context.slice(0, context.length - symbol.length);
  const sep = CONTEXT_SEPARATORS.findIndex((s) => prefix.endsWith(s));
  return sep < 0 ? context : `${prefix.slice(0, prefix.length - (CONTEXT_SEPARATORS[sep] as string).length)}\u0002${sep}`;
}
export function decodeContext(stored: string, symbol: string): string {
  if (stored === '\u0001') return symbol;
  const mark = stored.indexOf('\u0002');
  if (mark < 0) return stored;
  return `${stored.slice(0, mark)}${CONTEXT_SEPARATORS[Number(stored[mark + 1])] ?? '.'}${symbol}`;
}

const align8 = (n: number) => (n + 7) & ~7;

/**
 * The segment file as pieces: header and section table, each section then its padding, the
 * page checksums, the trailer.
 */
export function assembleParts(sections: Uint8Array[], docCount: number, termCount: number, fileCount: number): Uint8Array[] {
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

/** A segment's header and section table, validated and read through its page checksums. */
export interface SegmentLayout {
  /** Size of the serialised segment in bytes. */
  byteLength: number;
  docCount: number;
  termCount: number;
  fileCount: number;
  /**
   * Section `i`, read on demand (`wideReads`: see LazySection). Throws CorruptDataError when the
   * table puts it out of bounds, or when `expected` is given and it is not that many bytes.
   */
  section(i: number, expected?: number, wideReads?: number): LazySection;
}

/**
 * Checks a segment's header, trailer and section table (reading them through the page
 * checksums) and opens its sections. Throws CorruptDataError for anything malformed in them;
 * the sections themselves are checked when read.
 */
export function openLayout(name: string, input: Uint8Array | ByteSource): SegmentLayout {
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
  const docCount = view.getUint32(12, true);
  const termCount = view.getUint32(16, true);
  const fileCount = view.getUint32(20, true);
  if (view.getUint32(24, true) !== SECTION_COUNT) throw new CorruptDataError(`segment ${name} has ${view.getUint32(24, true)} sections`);
  const bounds = (i: number): [number, number] => {
    const o = view.getUint32(HEADER_BYTES + i * 8, true);
    const l = view.getUint32(HEADER_BYTES + i * 8 + 4, true);
    if (o % 8 !== 0 || o + l > checksumsAt) throw new CorruptDataError(`segment ${name}: section ${i} out of bounds`);
    return [o, l];
  };
  return {
    byteLength: source.length,
    docCount,
    termCount,
    fileCount,
    section: (i, expected, wideReads) => {
      const [o, l] = bounds(i);
      if (expected !== undefined && l !== expected) throw new CorruptDataError(`segment ${name}: section ${i} has wrong length`);
      return new LazySection(source, o, l, wideReads);
    },
  };
}
