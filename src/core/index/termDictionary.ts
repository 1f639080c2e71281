// A segment's term dictionary (segmentFormat.ts): sorted terms in blocks of TERM_STRIDE, each
// block found by its first term (the samples, in memory) and decoded only when a lookup lands
// in it. Queries look up a few terms; wildcard and fuzzy expansion decode the list whole.
import type { LazySection, LazyU32, ReadBuffer } from './byteSource';
import { decodeStrings, SECTION, TERM_STRIDE, type SegmentLayout } from './segmentFormat';
import { CorruptDataError } from './varint';

const decoder = new TextDecoder();

/** First index in `sorted[lo..hi)` whose value is >= `value`. */
function lowerBoundIn(sorted: readonly string[], lo: number, hi: number, value: string): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as string) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export class TermDictionary {
  readonly termCount: number;
  /** Where each term starts in `blob` (termCount + 1 entries). */
  readonly offsets: LazyU32;
  readonly blob: LazySection;
  /** Term `i * TERM_STRIDE` of the dictionary: lookups find their block here. */
  private readonly samples: string[];
  private list?: string[];

  /**
   * Opens the dictionary's sections. `readBuffer` is the segment's buffer for blocks read from
   * its file: what lands in it is decoded before a lookup returns. Throws CorruptDataError
   * when the samples do not match the term count.
   */
  constructor(
    private readonly what: string,
    section: SegmentLayout['section'],
    termCount: number,
    lazyU32: (i: number, expected: number) => LazyU32,
    private readonly readBuffer: ReadBuffer,
  ) {
    this.termCount = termCount;
    this.offsets = lazyU32(SECTION.termOffsets, termCount + 1);
    this.blob = section(SECTION.termBlob);
    const samples = decoder.decode(section(SECTION.termSamples).all());
    this.samples = termCount === 0 ? [] : samples.split('\n');
    if (this.samples.length !== Math.ceil(termCount / TERM_STRIDE)) throw new CorruptDataError(`${what}: term index has ${this.samples.length} entries for ${termCount} terms`);
  }

  /** Throws CorruptDataError unless the offsets end where the blob does (checked once the segment has opened every section). */
  checkLength(): void {
    if (this.offsets.at(this.termCount) !== this.blob.length) throw new CorruptDataError(`${this.what}: term dictionary length mismatch`);
  }

  termAt(i: number): string {
    if (this.list) return this.list[i] as string;
    const [start, end] = this.offsets.pair(i);
    return decoder.decode(this.blob.range(start, end));
  }

  /** Every term, sorted; decoded once (used for wildcard and fuzzy expansion). */
  terms(): string[] {
    this.list ??= decodeStrings(this.blob.all(), this.offsets.slice(0, this.termCount + 1), `${this.what}: term`);
    return this.list;
  }

  /** Index of `term` in the dictionary, or -1: one block of the dictionary is read and searched. */
  findTerm(term: string): number {
    if (this.list) {
      const i = lowerBoundIn(this.list, 0, this.termCount, term);
      return this.list[i] === term ? i : -1;
    }
    const { first, terms } = this.block(term);
    const k = lowerBoundIn(terms, 0, terms.length, term);
    return terms[k] === term ? first + k : -1;
  }

  /** First index whose term is >= `term`. */
  lowerBound(term: string): number {
    if (this.list) return lowerBoundIn(this.list, 0, this.termCount, term);
    const { first, terms } = this.block(term);
    return first + lowerBoundIn(terms, 0, terms.length, term);
  }

  /** Reads the offsets and the blob in whole (see Segment.warmForQueries). */
  load(): void {
    this.offsets.load();
    this.blob.all();
  }

  /**
   * The dictionary block where `term` belongs: the last block whose first term is <= `term`
   * (the first block when `term` sorts before every term), decoded. A term past a block's
   * last entry sorts before the next block's first, so lower bounds stay within the block.
   */
  private block(term: string): { first: number; terms: string[] } {
    const at = lowerBoundIn(this.samples, 0, this.samples.length, term);
    const b = Math.max(0, this.samples[at] === term ? at : at - 1);
    const first = b * TERM_STRIDE;
    const last = Math.min(first + TERM_STRIDE, this.termCount);
    if (first >= last) return { first, terms: [] };
    const offsets = this.offsets.slice(first, last + 1);
    const bytes = this.blob.range(offsets[0] as number, offsets[last - first] as number, this.readBuffer);
    return { first, terms: decodeStrings(bytes, offsets, `${this.what}: term`) };
  }
}
