// A segment's per-document text columns (segmentFormat.ts): symbol, breadcrumb, record and
// stable id. A query reads them for the few hits it shows, a block at a time; whole-index
// views decode a column whole.
import type { LazySection, LazyU32 } from './byteSource';
import { BLOCK_ROWS, BlockColumn } from './blockColumn';
import { decodeContext, parseRecord, readId, SECTION, type DocRecord, type SegmentLayout } from './segmentFormat';
import { CorruptDataError } from './varint';

export class DocTextColumns {
  private readonly symbolBlocks: BlockColumn;
  private readonly contextBlocks: BlockColumn;
  private readonly recordBlocks: BlockColumn;
  private readonly idSection: LazySection;
  private symbolColumn?: string[];
  private contextColumn?: string[];
  private readonly recordCache = new Map<number, DocRecord>();

  constructor(
    private readonly what: string,
    section: SegmentLayout['section'],
    lazyU32: (i: number, expected: number) => LazyU32,
    docCount: number,
  ) {
    const blocks = Math.ceil(docCount / BLOCK_ROWS) + 1;
    this.symbolBlocks = new BlockColumn(`${what}: symbols`, section(SECTION.symbols), lazyU32(SECTION.symbolBlocks, blocks), docCount);
    this.contextBlocks = new BlockColumn(`${what}: breadcrumbs`, section(SECTION.contexts), lazyU32(SECTION.contextBlocks, blocks), docCount);
    this.recordBlocks = new BlockColumn(`${what}: records`, section(SECTION.records), lazyU32(SECTION.recordBlocks, blocks), docCount);
    this.idSection = section(SECTION.ids, docCount * 8);
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

  /** A document's record as stored (JSON or a bare signature): merges copy it without parsing. */
  rawRecord(doc: number): string {
    return this.recordBlocks.get(doc);
  }

  record(doc: number): DocRecord {
    let r = this.recordCache.get(doc);
    if (!r) {
      // Read outside the try: a failed read (a closed source) is not damage to report as such.
      const raw = this.recordBlocks.get(doc);
      try {
        r = parseRecord(raw);
      } catch {
        throw new CorruptDataError(`${this.what}: record ${doc} unreadable`);
      }
      this.recordCache.set(doc, r);
    }
    return r;
  }

  /** A document's stable chunk id (16 hex digits). */
  id(doc: number): string {
    return readId(this.idSection.range(doc * 8, doc * 8 + 8));
  }

  /** Reads the (compressed) columns and the ids whole (see Segment.warmForQueries). */
  load(): void {
    this.idSection.all();
    this.symbolBlocks.load();
    this.contextBlocks.load();
    this.recordBlocks.load();
  }
}
