// The occurrence table of a segment: where each name occurs as code (the chunker's identifier
// nodes, never comments or strings), so `cairn refs NAME` reads one name's list instead of the
// files that mention it.
//
// A sorted table of exact names (case-sensitive, as written), in pages behind a page index of
// every page's first name (symbolDict.ts's PagedTable and writeTable: front-coded keys, restart
// points, pages deflated when that is smaller); a row's body is varint occurrences, varint start
// and varint length of the name's list in the list stream. The lists are back to back in the
// names' order, and the stream is stored in blocks of LIST_BLOCK_BYTES, each deflated when that
// is smaller: lists of a few occurrences compress together, where deflating only long lists
// alone would leave most of them as they are. A lookup binary-searches the
// page index, reads one page and the blocks of one list.
//
// A list is its occurrences grouped by document: varint document gap (the first counts from
// -1), varint count, then per occurrence varint (line delta times 4 plus the role, an index
// into OCCURRENCE_ROLES) and varint 1-based UTF-16 column. Lines count from the document's
// first line, and each delta from the occurrence before in the same document (the first from 0).
//
// Layout (little-endian): u32 names, u32 index bytes, u32 page bytes, u32 page count, u32 list
// stream bytes, u32 occurrences, u32 blocks, u32 stored block bytes; the block index (u32 per
// block and one past the last: where it starts among the stored blocks, top bit set when
// deflated), the page index, the pages, the blocks.
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { FileOccurrences } from '../types';
import { OCCURRENCE_ROLES } from '../types';
import type { LazySection } from './byteSource';
import { SMALL_DEFLATE } from './blockColumn';
import { grown, ListPool } from './listPool';
import { drainSteps, type BuildSteps } from './buildSteps';
import { writeTableSteps } from './pagedTableWriter';
import { compareStrings, PagedTable, type Cursor } from './symbolDict';
import { ByteWriter, CorruptDataError } from './varint';

const HEADER_BYTES = 32;
/** Raw bytes of the list stream per stored block. */
export const LIST_BLOCK_BYTES = 4096;
const DEFLATED_BLOCK = 0x80000000;
/** Blocks deflated between two pauses of buildSteps. */
const PAUSE_BLOCKS = 256;
const ROLE_BITS = 2;
const ROLE_COUNT = OCCURRENCE_ROLES.length;
if (ROLE_COUNT > 1 << ROLE_BITS) throw new Error('occurrence roles do not fit their bits');

/** Collects a segment's occurrences as its files are appended and writes the table. */
export class OccurrenceTableBuilder {
  private readonly lists = new Map<string, number>();
  private pool = new ListPool();
  /** Per list: the last document written (-1 before the first) and its occurrences. */
  private lastDoc = new Int32Array(256).fill(-1);
  private counts = new Uint32Array(256);
  private total = 0;
  private otherBytes = 0;
  private readonly scratch = new ByteWriter(64);

  /** Heap held, roughly: the lists' pages and a map entry per name. */
  get bytes(): number {
    return this.pool.reservedBytes + this.otherBytes;
  }

  /** Occurrences collected so far. */
  get size(): number {
    return this.total;
  }

  /**
   * A file's occurrences, whose chunks are documents `firstDoc`, `firstDoc + 1`… with the
   * given first lines. Files must be appended in document order.
   */
  addFile(firstDoc: number, startLines: ArrayLike<number>, occurrences: FileOccurrences): void {
    const e = occurrences.entries;
    const n = e.length >>> 2;
    const nameCount = occurrences.names.length;
    // The file's occurrences by name, each name's in the file's order (by chunk, line and
    // column): a counting sort on the name.
    const firstOfName = new Uint32Array(nameCount + 1);
    for (let k = 0; k < n; k++) {
      const name = (e[4 * k + 3] as number) >>> ROLE_BITS;
      if (name < nameCount) firstOfName[name + 1] = (firstOfName[name + 1] as number) + 1;
    }
    for (let i = 0; i < nameCount; i++) firstOfName[i + 1] = (firstOfName[i + 1] as number) + (firstOfName[i] as number);
    const next = firstOfName.slice(0, nameCount);
    const order = new Uint32Array(firstOfName[nameCount] as number);
    for (let k = 0; k < n; k++) {
      const name = (e[4 * k + 3] as number) >>> ROLE_BITS;
      if (name < nameCount) order[next[name]!++] = k;
    }
    // The occurrences in that order, as the lists store them.
    const lines = new Uint32Array(order.length);
    const columns = new Uint32Array(order.length);
    const roles = new Uint8Array(order.length);
    for (let i = 0; i < order.length; i++) {
      const k = 4 * (order[i] as number);
      lines[i] = Math.max(0, (e[k + 1] as number) - (startLines[e[k] as number] ?? 0));
      columns[i] = e[k + 2] as number;
      roles[i] = (e[k + 3] as number) & ((1 << ROLE_BITS) - 1);
    }
    for (let name = 0; name < nameCount; name++) {
      const from = firstOfName[name] as number;
      const to = firstOfName[name + 1] as number;
      const text = occurrences.names[name];
      if (from === to || !text) continue;
      const list = this.listOf(text);
      for (let i = from; i < to; ) {
        const chunk = e[4 * (order[i] as number)] as number;
        let j = i + 1;
        while (j < to && e[4 * (order[j] as number)] === chunk) j++;
        if (startLines[chunk] !== undefined) this.writeRun(list, firstDoc + chunk, lines, columns, roles, i, j);
        i = j;
      }
    }
  }

  /** A name's occurrences in one document, `from..to` of the arrays, in line and column order (merges copy a document's at a time). */
  appendOccurrences(name: string, doc: number, lineOffsets: ArrayLike<number>, columns: ArrayLike<number>, roles: ArrayLike<number>, from: number, to: number): void {
    this.writeRun(this.listOf(name), doc, lineOffsets, columns, roles, from, to);
  }

  private listOf(name: string): number {
    let list = this.lists.get(name);
    if (list === undefined) {
      list = this.pool.newList();
      this.lists.set(name, list);
      if (list === this.lastDoc.length) {
        this.lastDoc = grown(this.lastDoc, list * 2, -1);
        this.counts = grown(this.counts, list * 2);
      }
      this.otherBytes += name.length * 2 + 100;
    }
    return list;
  }

  /** One document's group of a list: its gap, its count, then occurrences `from..to` of the arrays. */
  private writeRun(list: number, doc: number, lines: ArrayLike<number>, columns: ArrayLike<number>, roles: ArrayLike<number>, from: number, to: number): void {
    if (to <= from) return;
    const last = this.lastDoc[list] as number;
    if (doc <= last) throw new Error(`occurrences of document ${doc} appended after document ${last}`);
    const w = this.scratch;
    w.length = 0;
    w.varint(doc - last);
    w.varint(to - from);
    let line = 0;
    for (let m = from; m < to; m++) {
      const offset = lines[m] as number;
      if (offset < line) throw new Error(`occurrences of document ${doc} appended out of line order`);
      w.varint((offset - line) * (1 << ROLE_BITS) + (roles[m] as number));
      w.varint(columns[m] as number);
      line = offset;
      if (w.length > 4096) {
        this.pool.append(list, w.bytes, w.length);
        w.length = 0;
      }
    }
    this.pool.append(list, w.bytes, w.length);
    this.lastDoc[list] = doc;
    this.counts[list] = (this.counts[list] as number) + (to - from);
    this.total += to - from;
  }

  /** The table section. The builder must not be used afterwards. */
  build(): Uint8Array {
    return drainSteps(this.buildSteps());
  }

  /** build as steps: a pause after the sort, every few thousand rows and every few hundred blocks. */
  *buildSteps(): BuildSteps<Uint8Array> {
    const names = [...this.lists.keys()].sort(compareStrings);
    yield;
    const stream = new ByteWriter(Math.max(64, this.pool.reservedBytes >>> 1));
    const starts = new Uint32Array(names.length);
    const lengths = new Uint32Array(names.length);
    names.forEach((name, r) => {
      const bytes = this.pool.bytesOf(this.lists.get(name) as number);
      starts[r] = stream.length;
      lengths[r] = bytes.length;
      stream.append(bytes);
    });
    this.pool = new ListPool();
    yield;
    const table = yield* writeTableSteps(names.length, (r) => names[r] as string, (w, r) => {
      w.varint(this.counts[this.lists.get(names[r] as string) as number] as number);
      w.varint(starts[r] as number);
      w.varint(lengths[r] as number);
    });
    const raw = stream.result();
    const blockCount = Math.ceil(raw.length / LIST_BLOCK_BYTES);
    const blockIndex = new Uint32Array(blockCount + 1);
    const blocks = new ByteWriter(Math.max(64, raw.length >>> 1));
    for (let b = 0; b < blockCount; b++) {
      const block = raw.subarray(b * LIST_BLOCK_BYTES, Math.min(raw.length, (b + 1) * LIST_BLOCK_BYTES));
      const packed = deflateRawSync(block, SMALL_DEFLATE);
      const deflated = packed.length < block.length;
      blockIndex[b] = blocks.length + (deflated ? DEFLATED_BLOCK : 0);
      blocks.append(deflated ? packed : block);
      if (blocks.length >= DEFLATED_BLOCK) throw new Error('an occurrence table of 2 GB');
      if (b % PAUSE_BLOCKS === PAUSE_BLOCKS - 1) yield;
    }
    blockIndex[blockCount] = blocks.length;
    const stored = blocks.result();
    const indexBytes = new Uint8Array(blockIndex.buffer, blockIndex.byteOffset, blockIndex.byteLength);
    const parts = [indexBytes, table.index, table.pages, stored];
    const out = new Uint8Array(HEADER_BYTES + parts.reduce((n, p) => n + p.length, 0));
    const view = new DataView(out.buffer);
    [names.length, table.index.length, table.pages.length, table.pageCount, raw.length, this.total, blockCount, stored.length].forEach((x, k) => view.setUint32(4 * k, x, true));
    let at = HEADER_BYTES;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  }
}

/** One name's occurrences in a segment, by document, then line and column. */
export interface OccurrenceList {
  readonly name: string;
  readonly docs: Uint32Array;
  /** Lines after each document's first line. */
  readonly lineOffsets: Uint32Array;
  /** 1-based UTF-16 columns. */
  readonly columns: Uint32Array;
  /** Indexes into OCCURRENCE_ROLES. */
  readonly roles: Uint8Array;
}

/** A row of the names table: where a name's list is in the stream. */
interface NameRow {
  readonly name: string;
  readonly count: number;
  readonly start: number;
  readonly length: number;
}

/** A segment's occurrence table, read on demand (see the top of this file). */
export class OccurrenceTable {
  /** Distinct names. */
  readonly names: number;
  /** Occurrences of all names. */
  readonly occurrences: number;
  /** Bytes of the list stream, and as stored in blocks. */
  readonly streamBytes: number;
  readonly storedBytes: number;
  private readonly table: PagedTable<NameRow>;
  private readonly blocksAt: number;
  private readonly blockCount: number;
  private blockIndex?: Uint32Array;
  /** The block last inflated: consecutive lists (a merge reads them all) share blocks. */
  private lastBlock = -1;
  private lastBlockBytes: Uint8Array | undefined;

  constructor(
    private readonly section: LazySection,
    private readonly what: string,
    private readonly docCount: number,
  ) {
    if (section.length < HEADER_BYTES) throw new CorruptDataError(`${what} is truncated`);
    const head = section.range(0, HEADER_BYTES);
    const view = new DataView(head.buffer, head.byteOffset, HEADER_BYTES);
    const [names, indexLength, pagesLength, pageCount, streamBytes, occurrences, blockCount, storedBytes] = Array.from({ length: 8 }, (_, k) => view.getUint32(4 * k, true)) as [number, number, number, number, number, number, number, number];
    const blockIndexBytes = 4 * (blockCount + 1);
    if (HEADER_BYTES + blockIndexBytes + indexLength + pagesLength + storedBytes !== section.length) throw new CorruptDataError(`${what} has parts that do not add up to its ${section.length} bytes`);
    if ((names > 0 && pageCount === 0) || occurrences < names || blockCount !== Math.ceil(streamBytes / LIST_BLOCK_BYTES)) {
      throw new CorruptDataError(`${what} has ${names} names, ${occurrences} occurrences, ${pageCount} pages and ${blockCount} blocks for ${streamBytes} bytes`);
    }
    this.names = names;
    this.occurrences = occurrences;
    this.streamBytes = streamBytes;
    this.storedBytes = storedBytes;
    this.blockCount = blockCount;
    const indexAt = HEADER_BYTES + blockIndexBytes;
    this.blocksAt = indexAt + indexLength + pagesLength;
    const decode = (c: Cursor, key: string): NameRow => {
      const count = c.varint();
      const start = c.varint();
      const length = c.varint();
      if (count === 0 || start + length > streamBytes || length < 2 * count) throw c.corrupt(`has ${count} occurrences of ${JSON.stringify(key.slice(0, 80))} in ${start}+${length} of ${streamBytes} bytes`);
      return { name: key, count, start, length };
    };
    this.table = new PagedTable(section, `${what}, names`, () => section.range(indexAt, indexAt + indexLength), indexLength, indexAt + indexLength, pagesLength, pageCount, names, decode);
  }

  /** Where `name` occurs in the segment, or undefined when it does not. */
  lookup(name: string): OccurrenceList | undefined {
    for (const row of this.table.range(name, (k) => k === name)) return this.list(row);
    return undefined;
  }

  /** Every name's occurrences, by name (merges). */
  *all(): Generator<OccurrenceList> {
    for (const row of this.table.all()) yield this.list(row);
  }

  /** Bytes `start..end` of the list stream, inflated from the blocks that hold them. */
  private streamRange(start: number, end: number): Uint8Array {
    const first = Math.floor(start / LIST_BLOCK_BYTES);
    const last = Math.floor((end - 1) / LIST_BLOCK_BYTES);
    if (first === last) {
      const block = this.block(first);
      // A copy: the block stays this table's, and what a read returns is the caller's.
      return block.slice(start - first * LIST_BLOCK_BYTES, end - first * LIST_BLOCK_BYTES);
    }
    const out = new Uint8Array(end - start);
    for (let b = first; b <= last; b++) {
      const block = this.block(b);
      const from = Math.max(start, b * LIST_BLOCK_BYTES);
      const to = Math.min(end, (b + 1) * LIST_BLOCK_BYTES);
      out.set(block.subarray(from - b * LIST_BLOCK_BYTES, to - b * LIST_BLOCK_BYTES), from - start);
    }
    return out;
  }

  private block(b: number): Uint8Array {
    if (b === this.lastBlock && this.lastBlockBytes) return this.lastBlockBytes;
    if (!this.blockIndex) {
      const bytes = this.section.range(HEADER_BYTES, HEADER_BYTES + 4 * (this.blockCount + 1)).slice();
      this.blockIndex = new Uint32Array(bytes.buffer, 0, this.blockCount + 1);
      if (this.blockIndex[this.blockCount] !== this.storedBytes) throw new CorruptDataError(`${this.what} has a block index that does not end at its ${this.storedBytes} bytes`);
    }
    const stored = this.blockIndex[b] as number;
    const start = stored % DEFLATED_BLOCK;
    const end = (this.blockIndex[b + 1] as number) % DEFLATED_BLOCK;
    const size = Math.min(LIST_BLOCK_BYTES, this.streamBytes - b * LIST_BLOCK_BYTES);
    if (!(start < end && end <= this.storedBytes)) throw new CorruptDataError(`${this.what} has block ${b} out of place`);
    let bytes = this.section.range(this.blocksAt + start, this.blocksAt + end);
    if (stored >= DEFLATED_BLOCK) {
      try {
        bytes = inflateRawSync(bytes, { windowBits: SMALL_DEFLATE.windowBits, chunkSize: LIST_BLOCK_BYTES });
      } catch (e) {
        throw new CorruptDataError(`${this.what} block ${b} does not inflate (${(e as Error).message})`);
      }
    }
    if (bytes.length !== size) throw new CorruptDataError(`${this.what} block ${b} holds ${bytes.length} bytes, not ${size}`);
    this.lastBlock = -1;
    this.lastBlockBytes = bytes;
    this.lastBlock = b;
    return bytes;
  }

  private list(row: NameRow): OccurrenceList {
    const what = `${this.what}, occurrences of ${JSON.stringify(row.name.slice(0, 80))}`;
    const bytes = this.streamRange(row.start, row.start + row.length);
    const n = row.count;
    const docs = new Uint32Array(n);
    const lineOffsets = new Uint32Array(n);
    const columns = new Uint32Array(n);
    const roles = new Uint8Array(n);
    const end = bytes.length;
    let pos = 0;
    const varint = (): number => {
      const first = pos < end ? (bytes[pos] as number) : 0x100;
      if (first < 0x80) {
        pos++;
        return first;
      }
      let result = 0;
      for (let shift = 0; ; shift += 7) {
        if (pos >= end || shift > 28) throw new CorruptDataError(`${what} end mid-occurrence`);
        const b = bytes[pos++] as number;
        result += (b & 0x7f) * 2 ** shift;
        if (b < 0x80) return result;
      }
    };
    let doc = -1;
    let i = 0;
    while (i < n) {
      const gap = varint();
      const count = varint();
      doc += gap;
      if (gap === 0 || count === 0 || i + count > n || doc >= this.docCount) throw new CorruptDataError(`${what} have a group of ${count} at document ${doc} of ${this.docCount}`);
      let line = 0;
      for (const stop = i + count; i < stop; i++) {
        const packed = varint();
        const role = packed % (1 << ROLE_BITS);
        if (role >= ROLE_COUNT) throw new CorruptDataError(`${what} name role ${role}`);
        line += Math.floor(packed / (1 << ROLE_BITS));
        docs[i] = doc;
        lineOffsets[i] = line;
        roles[i] = role;
        columns[i] = varint();
      }
    }
    if (pos !== end) throw new CorruptDataError(`${what} run past their ${n} occurrences`);
    return { name: row.name, docs, lineOffsets, columns, roles };
  }
}
