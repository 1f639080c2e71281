// A segment's field-length column (segmentFormat.ts): FIELD_COUNT u16 lengths per document,
// which BM25F reads for every document it scores. Read a page of documents at a time from the
// file, or whole by merges and warm-ups.
import type { LazySection } from './byteSource';
import { FIELD_COUNT } from './fields';
import { CorruptDataError } from './varint';

/** Documents per page of the field-length column (512 documents: 6 KB). */
export const LENGTH_PAGE_SHIFT = 9;
const LENGTH_PAGE_DOCS = 1 << LENGTH_PAGE_SHIFT;
export const LENGTH_PAGE_MASK = LENGTH_PAGE_DOCS - 1;
/** Reused buffers for field-length pages read from a file (see `page`). */
export const LENGTH_PAGE_SLOTS = 16;

export class FieldLengthColumn {
  private column?: Uint16Array;
  /** Pages as views of the column when it is in memory. */
  private readonly pages: Array<Uint16Array | undefined>;
  /** File-read pages: which page each reused buffer holds (-1: none), the buffers, their views. */
  private readonly slotPages = new Int32Array(LENGTH_PAGE_SLOTS).fill(-1);
  private readonly slotBuffers: Array<Uint16Array | undefined> = new Array<Uint16Array | undefined>(LENGTH_PAGE_SLOTS);
  private readonly slotViews: Array<Uint16Array | undefined> = new Array<Uint16Array | undefined>(LENGTH_PAGE_SLOTS);

  constructor(
    private readonly what: string,
    private readonly section: LazySection,
    private readonly docCount: number,
  ) {
    this.pages = new Array<Uint16Array | undefined>(Math.ceil(docCount / LENGTH_PAGE_DOCS));
  }

  /** Every document's field lengths (`[doc * FIELD_COUNT + field]`), reading the column whole. */
  all(): Uint16Array {
    if (!this.column) {
      const bytes = this.section.all();
      this.column = new Uint16Array(bytes.buffer, bytes.byteOffset, this.docCount * FIELD_COUNT);
    }
    return this.column;
  }

  /**
   * The field lengths of documents `page << LENGTH_PAGE_SHIFT ...` (FIELD_COUNT per document),
   * copied out by the segment's `readFieldLengths` and `fieldLength`: no page leaves the
   * segment, so no later read can change what a caller holds. A query reads the pages its
   * scored documents fall in, and never the column whole (merges and warm-ups ask for that).
   * Pages read from the file land in a few reused buffers (page p in slot p % LENGTH_PAGE_SLOTS):
   * a fresh process pays a page fault for every 4 KB of new memory it touches, and a query of
   * common words scores in most of a segment's pages, in ascending order, each once, so a
   * buffer per page would make those faults a large part of the query. A page read again costs
   * a read from the page cache; a host that stays open reads the column whole while idle.
   */
  page(page: number): Uint16Array {
    const known = this.pages[page];
    if (known) return known;
    if (!(page >= 0 && page < this.pages.length)) throw new CorruptDataError(`${this.what}: length page ${page} outside ${this.pages.length}`);
    const first = page << LENGTH_PAGE_SHIFT;
    const end = Math.min(first + LENGTH_PAGE_DOCS, this.docCount);
    // In memory (a fresh segment, a small section, the warmed column): views, kept.
    if (this.column || this.section.loaded) return (this.pages[page] = this.all().subarray(first * FIELD_COUNT, end * FIELD_COUNT));
    const slot = page % LENGTH_PAGE_SLOTS;
    if (this.slotPages[slot] === page) return this.slotViews[slot] as Uint16Array;
    const buffer = (this.slotBuffers[slot] ??= new Uint16Array(LENGTH_PAGE_DOCS * FIELD_COUNT));
    const view = end - first === LENGTH_PAGE_DOCS ? buffer : buffer.subarray(0, (end - first) * FIELD_COUNT);
    // Unclaimed while it is read: a failed read leaves no slot claiming a half-read page.
    this.slotPages[slot] = -1;
    this.section.readInto(first * FIELD_COUNT * 2, new Uint8Array(view.buffer, view.byteOffset, view.byteLength));
    this.slotPages[slot] = page;
    this.slotViews[slot] = view;
    return view;
  }
}
