// The symbol dictionary of a segment: what go-to-symbol looks names up in, written with the
// segment so that a lookup reads a few pages of it instead of decoding every symbol and
// breadcrumb of the index (600 ms on a 17k-file tree, in every process that looked a name up).
//
// One entry per symbol go-to-symbol offers: a document's own definition (not the later parts
// of one split for size) and each definition nested in its code. Two sorted tables of entries,
// each in pages of about PAGE_BYTES (deflated when that is smaller) behind a page index of
// every page's first key:
//   names     a row per entry, by lower-cased name, then in the order ranking puts entries of
//             one segment (`order`), so the rows of one name are the best first. A row holds
//             what lookups match and rank on: the exact name, the breadcrumb, the document,
//             kind, flags, which nested definition it is, and its rank in that order.
//             Exact, case-insensitive and qualified lookups read the rows of one name; prefix
//             lookups a range of rows; fuzzy ones every page.
//   initials  a row per entry, by initials (`gun` for getUserName), then by document, with the
//             name (to match camel-case humps without reading the names table) and the entry's
//             row in the names table.
//
// Layout (little-endian): u32 entries, then u32 index bytes, page bytes and page count of the
// names table, the same of the initials table; then the names index, the initials index, the
// names pages, the initials pages. An index holds per page: varint stored bytes, varint rows,
// a byte (1: deflated) and the page's first key. A row starts with its key front-coded against
// the previous row of its page (varint shared code units, then the rest). Strings are stored
// code unit by code unit, one byte each when all are below 256, else two: names come back
// exactly as the chunker gave them, lone surrogates included.
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { ChunkKind } from '../types';
import type { LazySection } from './byteSource';
import { SMALL_DEFLATE } from './blockColumn';
import { FLAG_CONTINUED, FLAG_NESTED, FLAG_TEST, FLAG_VENDORED, KIND_INDEX, KINDS } from './fields';
import { grown } from './listPool';
import type { RawDoc } from './segment';
import { identifierParts } from './tokenizer';
import { ByteWriter, CorruptDataError } from './varint';

/** Kinds that go-to-symbol offers, in order of how likely a user means them. */
export const KIND_RANK: Partial<Record<ChunkKind, number>> = {
  class: 0, interface: 0, struct: 0, trait: 0, enum: 0, type: 1, function: 1, union: 1, module: 2, namespace: 2,
  method: 2, constructor: 3, impl: 3, macro: 3, constant: 4, variable: 5, property: 5,
  section: 6, key: 7, rule: 7, element: 7,
};
export const SYMBOL_KINDS: ReadonlySet<string> = new Set(Object.keys(KIND_RANK));
export const kindRank = (kind: ChunkKind): number => KIND_RANK[kind] ?? 8;
/** kindRank by KIND_INDEX, as entries store kinds. */
export const RANK_OF_KIND: readonly number[] = KINDS.map(kindRank);

/** One entry of the dictionary, as read back. */
export interface SymbolEntry {
  /** Its row in the names table: an id for the entry within its segment. */
  readonly row: number;
  /** The name lower-cased (the names table's key). */
  readonly key: string;
  readonly name: string;
  /** The breadcrumb shown for it (`User.save`), or the name. */
  readonly display: string;
  readonly doc: number;
  /** KIND_INDEX of its kind. */
  readonly kind: number;
  /** The document's flags (FLAG_TEST, FLAG_VENDORED, ...). */
  readonly flags: number;
  /** 0 for the document's own definition, else 1 + its index in the document's nested definitions. */
  readonly nested: number;
  /** A nested definition's name line (0 for a document's own). */
  readonly nameLine: number;
  /** Its place in the segment's ranking order: entries equal in that order share it. */
  readonly order: number;
}

/** A row of the initials table. */
export interface InitialsRow {
  readonly key: string;
  readonly name: string;
  /** The entry's row in the names table. */
  readonly row: number;
}

/** `getUserName` -> `gun`; `get_user_name` -> `gun`; `HTTPServer` -> `hs`. */
export function initialsOf(name: string): string {
  const parts = identifierParts(name);
  return (parts.length ? parts : [name.toLowerCase()]).map((p) => p[0]).join('');
}

/** Folders in a path: a definition nearer the root is the likelier target. */
export function pathDepth(path: string): number {
  let n = 0;
  for (let i = path.indexOf('/'); i >= 0; i = path.indexOf('/', i + 1)) n++;
  return n;
}

/** Raw bytes of rows after which a page is closed (a row is never split: a long one makes a long page). */
export const PAGE_BYTES = 4096;
const HEADER_BYTES = 28;

// The builder's numbers per entry.
const DOC = 0;
const KIND = 1;
const FLAGS = 2;
const NESTED = 3;
const NAME_LINE = 4;
const START_LINE = 5;
const FILE = 6;
const NUMBERS = 7;

/**
 * Collects a segment's entries as its documents are appended and writes the dictionary. Holds
 * encoded bytes, not strings, until `build` (like the segment builder's string columns).
 */
export class SymbolDictionaryBuilder {
  private count = 0;
  private numbers = new Uint32Array(64 * NUMBERS);
  /** Per entry: its name, then 0, or 1 and its breadcrumb when that is not the name. */
  private readonly strings = new ByteWriter(1024);

  get bytes(): number {
    return this.numbers.byteLength + this.strings.bytes.length;
  }

  /**
   * The entries of document `doc`: its own definition, when it is one go-to-symbol offers, and
   * the definitions its record lists as nested. `symbol` and `context` are the document's name
   * and breadcrumb as the segment's columns give them back.
   */
  add(doc: number, d: Pick<RawDoc, 'fileIndex' | 'startLine' | 'kind' | 'flags' | 'record'>, symbol: string, context: string): void {
    const kind = d.kind & 0xff;
    const flags = d.flags & 0xff;
    if (symbol && SYMBOL_KINDS.has(KINDS[kind] ?? 'text') && !(flags & FLAG_CONTINUED)) this.push(doc, d, kind, flags, 0, 0, symbol, context || symbol);
    if (!(flags & FLAG_NESTED) || !d.record.startsWith('{')) return;
    let nested: unknown;
    try {
      nested = (JSON.parse(d.record) as { nested?: unknown }).nested;
    } catch {
      return; // written by this code, so never; a reader then reports the record itself
    }
    if (!Array.isArray(nested)) return;
    nested.forEach((n: { kind?: unknown; symbol?: unknown; context?: unknown; nameLine?: unknown }, k) => {
      if (typeof n.symbol !== 'string' || !n.symbol || typeof n.kind !== 'string' || !SYMBOL_KINDS.has(n.kind)) return;
      const display = typeof n.context === 'string' && n.context ? n.context : n.symbol;
      this.push(doc, d, KIND_INDEX.get(n.kind) as number, flags, k + 1, typeof n.nameLine === 'number' ? n.nameLine : 0, n.symbol, display);
    });
  }

  private push(doc: number, d: Pick<RawDoc, 'fileIndex' | 'startLine'>, kind: number, flags: number, nested: number, nameLine: number, name: string, display: string): void {
    if ((this.count + 1) * NUMBERS > this.numbers.length) this.numbers = grown(this.numbers, this.numbers.length * 2);
    const at = this.count++ * NUMBERS;
    const v = this.numbers;
    v[at + DOC] = doc;
    v[at + KIND] = kind;
    v[at + FLAGS] = flags;
    v[at + NESTED] = nested;
    v[at + NAME_LINE] = nameLine;
    v[at + START_LINE] = d.startLine;
    v[at + FILE] = d.fileIndex;
    writeString(this.strings, name);
    if (display === name) this.strings.byte(0);
    else {
      this.strings.byte(1);
      writeString(this.strings, display);
    }
  }

  /** The dictionary section, given the paths of the segment's files. The builder must not be used afterwards. */
  build(paths: readonly string[]): Uint8Array {
    const n = this.count;
    const v = this.numbers;
    const at = (i: number, field: number) => v[i * NUMBERS + field] as number;
    const names = new Array<string>(n);
    const displays = new Array<string>(n);
    const cursor = new Cursor(this.strings.result(), 'symbol entries');
    for (let i = 0; i < n; i++) {
      names[i] = cursor.string();
      displays[i] = cursor.varint() ? cursor.string() : (names[i] as string);
    }
    const keys = names.map((s) => s.toLowerCase());
    const initials = names.map(initialsOf);
    // The order of SymbolIndex's ranking within one segment: source before tests and vendored
    // code, kind, own definitions before nested ones, files nearer the root and with shorter
    // paths, then path, line, document and name line.
    const fileRank = rankPaths(paths);
    const penalised = (i: number) => (at(i, FLAGS) & PENALISED ? 1 : 0);
    const ranked = (a: number, b: number) =>
      penalised(a) - penalised(b) ||
      (RANK_OF_KIND[at(a, KIND)] ?? 8) - (RANK_OF_KIND[at(b, KIND)] ?? 8) ||
      (at(a, NESTED) ? 1 : 0) - (at(b, NESTED) ? 1 : 0) ||
      (fileRank[at(a, FILE)] as number) - (fileRank[at(b, FILE)] as number) ||
      at(a, START_LINE) - at(b, START_LINE) ||
      at(a, DOC) - at(b, DOC) ||
      at(a, NAME_LINE) - at(b, NAME_LINE);
    const order = new Uint32Array(n);
    const byOrder = indexes(n).sort(ranked);
    for (let k = 1; k < n; k++) order[byOrder[k] as number] = (order[byOrder[k - 1] as number] as number) + (ranked(byOrder[k - 1] as number, byOrder[k] as number) === 0 ? 0 : 1);
    // Entries in the order the segment lists them: by document, its own definition first.
    const listed = (a: number, b: number) => at(a, DOC) - at(b, DOC) || at(a, NESTED) - at(b, NESTED);
    const byName = indexes(n).sort((a, b) => compareStrings(keys[a] as string, keys[b] as string) || (order[a] as number) - (order[b] as number) || listed(a, b));
    const rowOf = new Uint32Array(n);
    byName.forEach((i, r) => (rowOf[i] = r));
    const byInitials = indexes(n).sort((a, b) => compareStrings(initials[a] as string, initials[b] as string) || listed(a, b));

    const namesTable = writeTable(n, (r) => keys[byName[r] as number] as string, (w, r) => {
      const i = byName[r] as number;
      writeNameAgainstKey(w, names[i] as string, keys[i] as string);
      writeDisplayAgainstName(w, displays[i] as string, names[i] as string);
      w.varint(at(i, DOC));
      w.byte(at(i, KIND));
      w.byte(at(i, FLAGS));
      w.varint(at(i, NESTED));
      if (at(i, NESTED)) w.varint(at(i, NAME_LINE));
      w.varint(order[i] as number);
    });
    const initialsTable = writeTable(n, (r) => initials[byInitials[r] as number] as string, (w, r) => {
      const i = byInitials[r] as number;
      writeString(w, names[i] as string);
      w.varint(rowOf[i] as number);
    });
    const parts = [namesTable.index, initialsTable.index, namesTable.pages, initialsTable.pages];
    const out = new Uint8Array(HEADER_BYTES + parts.reduce((s, p) => s + p.length, 0));
    const view = new DataView(out.buffer);
    [n, namesTable.index.length, namesTable.pages.length, namesTable.pageCount, initialsTable.index.length, initialsTable.pages.length, initialsTable.pageCount].forEach((x, k) => view.setUint32(4 * k, x, true));
    let offset = HEADER_BYTES;
    for (const p of parts) {
      out.set(p, offset);
      offset += p.length;
    }
    return out;
  }
}

const PENALISED = FLAG_TEST | FLAG_VENDORED;

/** Dense ranks of paths by depth, then length, then the path itself. */
function rankPaths(paths: readonly string[]): Uint32Array {
  const depth = paths.map(pathDepth);
  const cmp = (a: number, b: number) => (depth[a] as number) - (depth[b] as number) || (paths[a] as string).length - (paths[b] as string).length || compareStrings(paths[a] as string, paths[b] as string);
  const sorted = indexes(paths.length).sort(cmp);
  const rank = new Uint32Array(paths.length);
  for (let k = 1; k < sorted.length; k++) rank[sorted[k] as number] = (rank[sorted[k - 1] as number] as number) + (cmp(sorted[k - 1] as number, sorted[k] as number) === 0 ? 0 : 1);
  return rank;
}

function indexes(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}

export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * A name against its lower-cased key: 0 when it is the key, 1 + k and k positions (as gaps)
 * when it is the key with those code units upper-cased, otherwise 1 and the name.
 */
function writeNameAgainstKey(w: ByteWriter, name: string, key: string): void {
  if (name === key) return w.varint(0);
  const upper: number[] = [];
  let fits = name.length === key.length;
  for (let i = 0; fits && i < name.length; i++) {
    if (name[i] === key[i]) continue;
    if ((key[i] as string).toUpperCase() === name[i]) upper.push(i);
    else fits = false;
  }
  if (!fits || upper.length === 0) {
    w.varint(1);
    return writeString(w, name);
  }
  w.varint(1 + upper.length);
  let last = 0;
  for (const p of upper) {
    w.varint(p - last);
    last = p;
  }
}

/** A breadcrumb against its name: 0 when it is the name, 1 and a prefix when it ends with it, otherwise 2 and itself. */
function writeDisplayAgainstName(w: ByteWriter, display: string, name: string): void {
  if (display === name) return w.varint(0);
  if (display.endsWith(name)) {
    w.varint(1);
    return writeString(w, display.slice(0, display.length - name.length));
  }
  w.varint(2);
  writeString(w, display);
}

function writeString(w: ByteWriter, s: string): void {
  let wide = false;
  for (let i = 0; i < s.length && !wide; i++) wide = s.charCodeAt(i) > 0xff;
  w.varint(s.length * 2 + (wide ? 1 : 0));
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    w.byte(c & 0xff);
    if (wide) w.byte(c >>> 8);
  }
}

/** Rows `0 .. count-1` in pages, each row's key front-coded against the one before it in its page. */
function writeTable(count: number, keyOf: (r: number) => string, writeRow: (w: ByteWriter, r: number) => void): { index: Uint8Array; pages: Uint8Array; pageCount: number } {
  const index = new ByteWriter(256);
  const pages = new ByteWriter(4096);
  const page = new ByteWriter(PAGE_BYTES * 2);
  let pageCount = 0;
  let rows = 0;
  let firstKey = '';
  let previous = '';
  const seal = () => {
    const raw = page.result();
    const packed = deflateRawSync(raw, SMALL_DEFLATE);
    const deflated = packed.length < raw.length;
    index.varint(deflated ? packed.length : raw.length);
    index.varint(rows);
    index.byte(deflated ? 1 : 0);
    writeString(index, firstKey);
    pages.append(deflated ? packed : raw);
    pageCount++;
    page.length = 0;
    rows = 0;
  };
  for (let r = 0; r < count; r++) {
    const key = keyOf(r);
    let shared = 0;
    if (rows === 0) firstKey = key;
    else while (shared < key.length && shared < previous.length && key.charCodeAt(shared) === previous.charCodeAt(shared)) shared++;
    page.varint(shared);
    writeString(page, shared ? key.slice(shared) : key);
    writeRow(page, r);
    previous = key;
    rows++;
    if (page.length >= PAGE_BYTES) seal();
  }
  if (rows > 0) seal();
  return { index: index.result(), pages: pages.result(), pageCount };
}

/** Reads varints and strings from a page, bounds-checked: damage is a CorruptDataError naming `what`. */
class Cursor {
  pos = 0;
  private readonly buffer: Buffer;

  constructor(
    bytes: Uint8Array,
    private readonly what: string,
  ) {
    this.buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get done(): boolean {
    return this.pos >= this.buffer.length;
  }

  byte(): number {
    if (this.pos >= this.buffer.length) throw this.corrupt('ends mid-row');
    return this.buffer[this.pos++] as number;
  }

  varint(): number {
    let result = 0;
    for (let shift = 0; ; shift += 7) {
      if (this.pos >= this.buffer.length || shift > 28) throw this.corrupt('has a truncated or overlong number');
      const b = this.buffer[this.pos++] as number;
      result += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return result;
    }
  }

  string(): string {
    const head = this.varint();
    const wide = head % 2 === 1;
    const length = Math.floor(head / 2);
    const start = this.pos;
    const end = start + (wide ? 2 * length : length);
    if (end > this.buffer.length) throw this.corrupt('has a string past its end');
    this.pos = end;
    if (wide) return this.buffer.toString('utf16le', start, end);
    if (length < 16) {
      let s = '';
      for (let i = start; i < end; i++) s += String.fromCharCode(this.buffer[i] as number);
      return s;
    }
    return this.buffer.toString('latin1', start, end);
  }

  corrupt(problem: string): CorruptDataError {
    return new CorruptDataError(`${this.what} ${problem}`);
  }
}

/** A table's pages as read: where each starts in the section, its first row and its first key. */
interface PageIndex {
  starts: Float64Array;
  firstRows: Uint32Array;
  deflated: Uint8Array;
  firstKeys: string[];
}

/** A sorted table read a page at a time; decoded pages are kept (the segment is immutable). */
class PagedTable<T extends { readonly key: string }> {
  private index?: PageIndex;
  private readonly pages: Array<T[] | undefined> = [];

  constructor(
    private readonly section: LazySection,
    private readonly what: string,
    private readonly indexAt: number,
    private readonly indexLength: number,
    private readonly pagesAt: number,
    private readonly pagesLength: number,
    private readonly pageCount: number,
    readonly rows: number,
    private readonly decodeRow: (c: Cursor, key: string, row: number) => T,
  ) {}

  /** Rows whose key is `key` or sorts after it, in order: a caller stops where its range ends. */
  *from(key: string): Generator<T> {
    const { firstKeys } = this.pageIndex();
    // A run of rows at or after `key` may begin in the page before the first page that starts at or after it.
    let lo = 0;
    let hi = firstKeys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((firstKeys[mid] as string) < key) lo = mid + 1;
      else hi = mid;
    }
    for (let p = Math.max(0, lo - 1); p < this.pageCount; p++) {
      for (const row of this.page(p)) if (row.key >= key) yield row;
    }
  }

  *all(): Generator<T> {
    for (let p = 0; p < this.pageCount; p++) yield* this.page(p);
  }

  rowAt(row: number): T {
    if (!(row >= 0 && row < this.rows)) throw new CorruptDataError(`${this.what}: row ${row} outside ${this.rows}`);
    const { firstRows } = this.pageIndex();
    let lo = 0;
    let hi = this.pageCount - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if ((firstRows[mid] as number) <= row) lo = mid;
      else hi = mid - 1;
    }
    return this.page(lo)[row - (firstRows[lo] as number)] as T;
  }

  private pageIndex(): PageIndex {
    if (this.index) return this.index;
    const c = new Cursor(this.section.range(this.indexAt, this.indexAt + this.indexLength), `${this.what} page index`);
    const starts = new Float64Array(this.pageCount + 1);
    const firstRows = new Uint32Array(this.pageCount + 1);
    const deflated = new Uint8Array(this.pageCount);
    const firstKeys = new Array<string>(this.pageCount);
    let start = this.pagesAt;
    let row = 0;
    for (let p = 0; p < this.pageCount; p++) {
      starts[p] = start;
      firstRows[p] = row;
      start += c.varint();
      const rows = c.varint();
      if (rows === 0) throw c.corrupt(`has an empty page ${p}`);
      row += rows;
      deflated[p] = c.byte();
      firstKeys[p] = c.string();
      if (p > 0 && (firstKeys[p] as string) < (firstKeys[p - 1] as string)) throw c.corrupt(`is out of order at page ${p}`);
    }
    if (!c.done || start !== this.pagesAt + this.pagesLength || row !== this.rows) throw c.corrupt(`does not add up to ${this.rows} rows in ${this.pagesLength} bytes`);
    starts[this.pageCount] = start;
    firstRows[this.pageCount] = row;
    this.index = { starts, firstRows, deflated, firstKeys };
    return this.index;
  }

  private page(p: number): T[] {
    const known = this.pages[p];
    if (known) return known;
    const { starts, firstRows, deflated, firstKeys } = this.pageIndex();
    const what = `${this.what} page ${p}`;
    let bytes = this.section.range(starts[p] as number, starts[p + 1] as number);
    if (deflated[p]) {
      try {
        bytes = inflateRawSync(bytes, { windowBits: SMALL_DEFLATE.windowBits, chunkSize: Math.min(64 * 1024, Math.max(1024, bytes.length * 4)) });
      } catch (e) {
        throw new CorruptDataError(`${what} does not inflate (${(e as Error).message})`);
      }
    }
    const c = new Cursor(bytes, what);
    const first = firstRows[p] as number;
    const count = (firstRows[p + 1] as number) - first;
    const rows = new Array<T>(count);
    let key = '';
    for (let k = 0; k < count; k++) {
      const shared = c.varint();
      if (shared > key.length || (k === 0 && shared > 0)) throw c.corrupt('shares more of a key than there is');
      const next = shared ? key.slice(0, shared) + c.string() : c.string();
      if (next < key || (k === 0 && next !== firstKeys[p])) throw c.corrupt('has its keys out of order');
      key = next;
      rows[k] = this.decodeRow(c, key, first + k);
    }
    if (!c.done) throw c.corrupt('has bytes after its last row');
    this.pages[p] = rows;
    return rows;
  }
}

/** A segment's symbol dictionary, read on demand (see the top of this file). */
export class SymbolDictionary {
  /** Entries: documents' own definitions and nested ones. */
  readonly size: number;
  private readonly names: PagedTable<SymbolEntry>;
  private readonly initials: PagedTable<InitialsRow>;

  constructor(section: LazySection, what: string, docCount: number) {
    if (section.length < HEADER_BYTES) throw new CorruptDataError(`${what} is truncated`);
    const head = section.range(0, HEADER_BYTES);
    const view = new DataView(head.buffer, head.byteOffset, HEADER_BYTES);
    const [entries, namesIndex, namesPages, namesPageCount, initialsIndex, initialsPages, initialsPageCount] = Array.from({ length: 7 }, (_, k) => view.getUint32(4 * k, true)) as [number, number, number, number, number, number, number];
    if (HEADER_BYTES + namesIndex + initialsIndex + namesPages + initialsPages !== section.length) throw new CorruptDataError(`${what} has parts that do not add up to its ${section.length} bytes`);
    if (entries > 0 && (namesPageCount === 0 || initialsPageCount === 0)) throw new CorruptDataError(`${what} has ${entries} entries and no pages`);
    this.size = entries;
    const namesAt = HEADER_BYTES + namesIndex + initialsIndex;
    const decodeEntry = (c: Cursor, key: string, row: number): SymbolEntry => {
      const name = readNameAgainstKey(c, key);
      const display = readDisplayAgainstName(c, name);
      const doc = c.varint();
      const kind = c.byte();
      const flags = c.byte();
      const nested = c.varint();
      const nameLine = nested ? c.varint() : 0;
      const order = c.varint();
      if (doc >= docCount || kind >= KINDS.length) throw c.corrupt(`names document ${doc} of ${docCount}, kind ${kind}`);
      return { row, key, name, display, doc, kind, flags, nested, nameLine, order };
    };
    this.names = new PagedTable(section, `${what}, names`, HEADER_BYTES, namesIndex, namesAt, namesPages, namesPageCount, entries, decodeEntry);
    const decodeInitials = (c: Cursor, key: string): InitialsRow => {
      const name = c.string();
      const row = c.varint();
      if (row >= entries) throw c.corrupt(`points at entry ${row} of ${entries}`);
      return { key, name, row };
    };
    this.initials = new PagedTable(section, `${what}, initials`, HEADER_BYTES + namesIndex, initialsIndex, namesAt + namesPages, initialsPages, initialsPageCount, entries, decodeInitials);
  }

  /** Entries whose lower-cased name is `key`, best first in the segment's ranking order. */
  *named(key: string): Generator<SymbolEntry> {
    if (this.size === 0) return;
    for (const e of this.names.from(key)) {
      if (e.key !== key) return;
      yield e;
    }
  }

  /** Entries whose lower-cased name starts with `prefix`, by name. */
  *prefixed(prefix: string): Generator<SymbolEntry> {
    if (this.size === 0) return;
    for (const e of this.names.from(prefix)) {
      if (!e.key.startsWith(prefix)) return;
      yield e;
    }
  }

  /** Initials rows whose initials start with `prefix`, by initials, then as the segment lists entries. */
  *withInitials(prefix: string): Generator<InitialsRow> {
    if (this.size === 0) return;
    for (const r of this.initials.from(prefix)) {
      if (!r.key.startsWith(prefix)) return;
      yield r;
    }
  }

  /** The entry in row `row` of the names table. */
  entry(row: number): SymbolEntry {
    return this.names.rowAt(row);
  }

  /** Every entry, by name. */
  *all(): Generator<SymbolEntry> {
    if (this.size > 0) yield* this.names.all();
  }
}

function readNameAgainstKey(c: Cursor, key: string): string {
  const tag = c.varint();
  if (tag === 0) return key;
  if (tag === 1) return c.string();
  let name = '';
  let from = 0;
  let at = 0;
  for (let k = 1; k < tag; k++) {
    at += c.varint();
    if (at < from || at >= key.length) throw c.corrupt('upper-cases letters out of order or past its name');
    name += key.slice(from, at) + (key[at] as string).toUpperCase();
    from = at + 1;
  }
  return name + key.slice(from);
}

function readDisplayAgainstName(c: Cursor, name: string): string {
  const tag = c.varint();
  if (tag === 0) return name;
  if (tag === 1) return c.string() + name;
  if (tag === 2) return c.string();
  throw c.corrupt(`has breadcrumb form ${tag}`);
}
