// A segment's postings (segmentFormat.ts, postingsCodec.ts): per term, its documents with a
// frequency per field, and the files whose path holds it. Read term by term from the file and
// decoded on demand; a long-lived reader keeps the decoded lists of common terms.
import type { LazySection, LazyU32, ReadBuffer } from './byteSource';
import { FIELD_COUNT } from './fields';
import { decodePostings, DEFLATED_BIT, inflatePostings, type Postings } from './postingsCodec';
import { SECTION, type SegmentLayout } from './segmentFormat';
import { ByteReader, CorruptDataError } from './varint';

/** Postings lists this long or longer are kept decoded (see PostingsReader.postings). */
const CACHED_POSTINGS_MIN = 2048;
/**
 * Decoded postings kept per segment (16 bytes per posting): 160 bytes per document, at least
 * 8 MB and at most 64 MB. Common words' lists grow with the segment, so a budget sized to the
 * segment keeps most of them where a flat one would keep only some in a large segment.
 */
function postingsCacheBytes(docCount: number): number {
  return Math.min(64 * 1024 * 1024, Math.max(8 * 1024 * 1024, docCount * 160));
}

export class PostingsReader {
  // Per-term columns, read for the few terms a query has.
  private readonly postingOffsets: LazyU32;
  private readonly termDf: LazyU32;
  private readonly filePostingOffsets: LazyU32;
  private readonly termFileDf: LazyU32;
  private readonly postingsBytes: LazySection;
  private readonly filePostingsBytes: LazySection;
  private readonly cache = new Map<number, Postings>();
  private cacheBytes = 0;
  private readonly cacheLimit: number;

  /**
   * Opens the postings sections of segment `name`. `readBuffer` is the segment's buffer for
   * lists read from its file: what lands in it is decoded before the method that read it
   * returns, and never handed out. Throws CorruptDataError when the file postings' offsets do
   * not end where their section does.
   */
  constructor(
    private readonly name: string,
    section: SegmentLayout['section'],
    lazyU32: (i: number, expected: number) => LazyU32,
    private readonly termCount: number,
    private readonly docCount: number,
    private readonly fileCount: number,
    private readonly readBuffer: ReadBuffer,
  ) {
    this.cacheLimit = postingsCacheBytes(docCount);
    this.postingOffsets = lazyU32(SECTION.postingOffsets, termCount + 1);
    this.termDf = lazyU32(SECTION.termDf, termCount);
    // Queries read postings term by term (into the segment's read buffer) however many they run:
    // a long-lived reader loading these large sections whole would stall the query that crossed
    // the limit and hold the memory. Merges ask for the sections whole.
    this.postingsBytes = section(SECTION.postings, undefined, Infinity);
    this.filePostingOffsets = lazyU32(SECTION.filePostingOffsets, termCount + 1);
    this.termFileDf = lazyU32(SECTION.termFileDf, termCount);
    this.filePostingsBytes = section(SECTION.filePostings, undefined, Infinity);
    if (this.filePostingOffsets.at(termCount) !== this.filePostingsBytes.length) throw new CorruptDataError(`segment ${name}: file postings length mismatch`);
  }

  /** Throws CorruptDataError unless the postings' offsets end where their section does. */
  checkLength(): void {
    if (this.postingOffsets.at(this.termCount) !== this.postingsBytes.length) throw new CorruptDataError(`segment ${this.name}: postings length mismatch`);
  }

  /** Reads the per-term columns whole, not the postings (see Segment.warmForQueries). */
  loadColumns(): void {
    for (const column of [this.postingOffsets, this.termDf, this.filePostingOffsets, this.termFileDf]) column.load();
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
    const cached = this.cache.get(termIndex);
    if (cached) {
      // Most recently used last.
      this.cache.delete(termIndex);
      this.cache.set(termIndex, cached);
      return cached;
    }
    const p = this.readPostings(termIndex);
    if (p.docs.length >= CACHED_POSTINGS_MIN) {
      const bytes = p.docs.byteLength + p.tfs.byteLength;
      this.cacheBytes += bytes;
      this.cache.set(termIndex, p);
      for (const [t, old] of this.cache) {
        if (this.cacheBytes <= this.cacheLimit) break;
        this.cache.delete(t);
        this.cacheBytes -= old.docs.byteLength + old.tfs.byteLength;
      }
    }
    return p;
  }

  /**
   * Decodes the postings of the segment's most common terms into the postings cache, up to
   * its budget: the lists a long-lived reader keeps anyway once queries have used them, and
   * the costliest to decode the first time (common words are in most multi-word queries).
   * Smallest first, so the largest are the last the cache lets go. Returns the terms decoded.
   */
  warm(): number[] {
    const common: number[] = [];
    for (let i = 0; i < this.termCount; i++) if (this.df(i) >= CACHED_POSTINGS_MIN) common.push(i);
    common.sort((a, b) => this.df(b) - this.df(a));
    let bytes = this.cacheBytes;
    let fits = 0;
    // Decoded, a posting takes 4 bytes of document and 2 per field.
    while (fits < common.length && (bytes += this.df(common[fits] as number) * (4 + 2 * FIELD_COUNT)) <= this.cacheLimit) fits++;
    for (let k = fits - 1; k >= 0; k--) this.postings(common[k] as number);
    return common.slice(0, fits);
  }

  /** Loads the postings section whole, for a caller about to read every term's postings (a merge). */
  loadAll(): void {
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
