// A segment's file table (segmentFormat.ts): the documents each file owns, and its path,
// language, size, mtime and hash. Scoring reads first documents and path lengths for many
// files, so those columns are in memory; the rest is decoded per file when a hit or a filter
// needs it.
import { LazyU32, type LazySection } from './byteSource';
import { decodeStrings, SECTION, type SegmentFile, type SegmentLayout } from './segmentFormat';
import { CorruptDataError } from './varint';

const decoder = new TextDecoder();

/**
 * Paths decoded one by one before a segment decodes them all: a query's hits need a few, and
 * past this many single reads decoding the whole column at once costs less.
 */
const WIDE_PATH_READS = 128;

export class FileTable {
  /** Each file's first document, then the document count (files own consecutive documents). */
  readonly firstDoc: Uint32Array;
  /** Tokens in each file's path: the length of its chunks' `path` field. */
  readonly pathLengths: Uint32Array;
  private readonly languages: Uint16Array;
  private readonly languageNames: string[];
  private readonly pathOffsets: LazyU32;
  private readonly pathBlob: LazySection;
  private readonly sizeMtime: LazySection;
  private readonly hashOffsets: LazyU32;
  private readonly hashBlob: LazySection;
  private pathColumn?: string[];
  private readonly pathCache = new Map<number, string>();
  private readonly entries: Array<SegmentFile | undefined>;
  private list?: SegmentFile[];

  /**
   * Opens and checks the file table of a segment of `docCount` documents. Throws
   * CorruptDataError when files do not own every document, in order, or name a language the
   * segment does not list.
   */
  constructor(
    private readonly what: string,
    section: SegmentLayout['section'],
    readonly count: number,
    docCount: number,
  ) {
    const u8 = (i: number, expected: number): Uint8Array => section(i, expected).all();
    const u32 = (i: number, expected: number): Uint32Array => {
      const s = u8(i, expected * 4);
      return new Uint32Array(s.buffer, s.byteOffset, expected);
    };
    this.firstDoc = u32(SECTION.fileFirstDoc, count + 1);
    this.pathLengths = u32(SECTION.filePathLength, count);
    const languages = u8(SECTION.fileLanguage, count * 2);
    this.languages = languages.byteOffset % 2 === 0 ? new Uint16Array(languages.buffer, languages.byteOffset, count) : new Uint16Array(languages.slice().buffer, 0, count);
    const names = decoder.decode(section(SECTION.languageNames).all());
    this.languageNames = names === '' ? [] : names.split('\n');
    this.pathOffsets = new LazyU32(section(SECTION.filePathOffsets, (count + 1) * 4), count + 1);
    this.pathBlob = section(SECTION.filePaths);
    this.sizeMtime = section(SECTION.fileSizeMtime, count * 16);
    this.hashOffsets = new LazyU32(section(SECTION.fileHashOffsets, (count + 1) * 4), count + 1);
    this.hashBlob = section(SECTION.fileHashes);
    if (this.pathOffsets.at(count) !== this.pathBlob.length) throw new CorruptDataError(`${what}: file paths length mismatch`);
    if (this.hashOffsets.at(count) !== this.hashBlob.length) throw new CorruptDataError(`${what}: file hashes length mismatch`);
    this.entries = new Array<SegmentFile | undefined>(count);
    // Files own consecutive documents, in order, and all of them: checked here once, so
    // per-file reads need no bounds checks. (A document's file is found by binary search: a
    // per-document column would be fresh memory, four bytes a document, in every process.)
    for (let i = 0; i < count; i++) {
      const first = this.firstDoc[i] as number;
      const next = this.firstDoc[i + 1] as number;
      if (next < first || (i === 0 && first !== 0)) throw new CorruptDataError(`${what}: file ${i} does not follow the previous file's documents`);
      if ((this.languages[i] as number) >= this.languageNames.length) throw new CorruptDataError(`${what}: file ${i} names language ${this.languages[i]}`);
    }
    if ((this.firstDoc[count] as number) !== docCount || (count === 0 && docCount !== 0)) throw new CorruptDataError(`${what}: files own ${this.firstDoc[count]} of ${docCount} documents`);
  }

  /** Every file, decoded on first use (merges and whole-index views). */
  all(): readonly SegmentFile[] {
    this.list ??= Array.from({ length: this.count }, (_, i) => this.entry(i));
    return this.list;
  }

  /** One file's entry, decoded from the columns on first use. */
  entry(i: number): SegmentFile {
    let f = this.entries[i];
    if (!f) {
      if (!(i >= 0 && i < this.count)) throw new CorruptDataError(`${this.what}: file ${i} outside ${this.count}`);
      const sm = this.sizeMtime.range(i * 16, i * 16 + 16);
      const view = new DataView(sm.buffer, sm.byteOffset, 16);
      f = {
        path: this.path(i),
        size: view.getFloat64(0, true),
        mtimeMs: view.getFloat64(8, true),
        hash: decoder.decode(this.hashBlob.range(...this.hashOffsets.pair(i))),
        language: this.language(i),
        firstDoc: this.firstDoc[i] as number,
        docCount: (this.firstDoc[i + 1] as number) - (this.firstDoc[i] as number),
        pathLength: this.pathLengths[i] as number,
      };
      this.entries[i] = f;
    }
    return f;
  }

  language(i: number): string {
    return this.languageNames[this.languages[i] as number] as string;
  }

  /** Whether any file is in `language`. */
  hasLanguage(language: string): boolean {
    return this.languageNames.includes(language);
  }

  /**
   * A file's path. Paths are decoded one by one (a query's hits and ties need a few); once
   * many are asked for, all are decoded together.
   */
  path(i: number): string {
    if (!(i >= 0 && i < this.count)) throw new CorruptDataError(`${this.what}: file ${i} outside ${this.count}`);
    if (this.pathColumn) return this.pathColumn[i] as string;
    const cached = this.pathCache.get(i);
    if (cached !== undefined) return cached;
    if (this.pathCache.size >= WIDE_PATH_READS) return this.allPaths()[i] as string;
    const start = this.pathOffsets.at(i);
    const end = this.pathOffsets.at(i + 1);
    if (!(start <= end && end <= this.pathBlob.length)) throw new CorruptDataError(`${this.what}: file path ${i} out of bounds`);
    const path = decoder.decode(this.pathBlob.range(start, end));
    this.pathCache.set(i, path);
    return path;
  }

  /** Reads the table whole: every hit reads its file's path, size, mtime and hash (see Segment.warmForQueries). */
  load(): void {
    this.pathOffsets.load();
    this.allPaths();
    this.sizeMtime.all();
    this.hashOffsets.load();
    this.hashBlob.all();
  }

  /** Every file's path, decoded at once (replacing those decoded one by one). */
  private allPaths(): string[] {
    if (!this.pathColumn) {
      this.pathColumn = decodeStrings(this.pathBlob.all(), this.pathOffsets.slice(0, this.count + 1), `${this.what}: file path`);
      this.pathCache.clear();
    }
    return this.pathColumn;
  }
}
