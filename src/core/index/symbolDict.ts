// The symbol dictionary of a segment: what go-to-symbol looks names up in, written with the
// segment so that a lookup reads a few pages of it instead of decoding every symbol and
// breadcrumb of the index in every process that looks a name up, which grows with the tree.
//
// One entry per symbol go-to-symbol offers: a document's own definition (not the later parts
// of one split for size) and each definition nested in its code. Two sorted tables of entries,
// each in pages of about PAGE_BYTES (deflated when that is smaller) behind a page index of
// every page's first key:
//   names     a row per entry, keyed by the lower-cased name, then in the order ranking puts
//             the entries of one segment (`order`), so the rows of one name come best first.
//             A row holds what lookups match and rank on: the exact name, the breadcrumb, the
//             document, its kind and whether it is a test or vendored, which nested definition
//             it is, and its place in that order. Exact, case-insensitive and qualified
//             lookups read the rows of one name; prefix lookups a range of rows; fuzzy ones
//             every page.
//   initials  a row per entry whose name has two initials or more (a camel-case lookup needs
//             two), keyed by its initials (`gun` for getUserName), NUL, then the lower-cased
//             name, with the exact name and the entry's row in the names table: camel-case
//             lookups match humps against names without reading the names table.
//
// Layout (little-endian): u32 entries, then u32 index bytes, page bytes and page count of the
// names table, the same of the initials table and its rows; then the names index, the
// initials index, the names pages, the initials pages. An index is three u32s per page and
// one more past the last: where the page starts (its top bit: deflated), its first row, where
// its first key starts in the keys after them; a lookup binary-searches it, decoding only the
// keys it probes. A page is a list of restart points then its rows; a row is its key,
// front-coded against the row before it (varint code units shared, then the rest), then a
// varint length and its body. Every RESTART_ROWS-th row is a restart point, whose key is whole:
// a lookup binary-searches those and decodes at most that many keys, and only the bodies of
// the rows it wants. Strings are stored code unit by code unit, one byte each when all are
// below 256, else two: names come back exactly as the chunker gave them, lone surrogates included.
import { inflateRawSync } from 'node:zlib';
import type { ChunkKind } from '../types';
import type { LazySection } from './byteSource';
import { SMALL_DEFLATE } from './blockColumn';
import { FLAG_CONTINUED, FLAG_NESTED, FLAG_TEST, FLAG_VENDORED, KIND_INDEX, KINDS } from './fields';
import { grown } from './listPool';
import type { BuildSteps } from './buildSteps';
import { DEFLATED_PAGE, RESTART_ROWS, writeString, writeTableSteps } from './pagedTableWriter';
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

/** What the builder reads of a document being appended (a segment's RawDoc has these). */
export interface DictionaryDoc {
  /** Its file's index in the segment's file table. */
  readonly fileIndex: number;
  readonly startLine: number;
  /** KIND_INDEX of its kind. */
  readonly kind: number;
  readonly flags: number;
  /** Its record: JSON, listing nested definitions when FLAG_NESTED is set. */
  readonly record: string;
}

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
  /** The document's FLAG_TEST and FLAG_VENDORED (its other flags are not kept). */
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
  /** Initials, NUL, the lower-cased name (the table's key). */
  readonly key: string;
  readonly initials: string;
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

const HEADER_BYTES = 32;

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
  add(doc: number, d: DictionaryDoc, symbol: string, context: string): void {
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

  private push(doc: number, d: Pick<DictionaryDoc, 'fileIndex' | 'startLine'>, kind: number, flags: number, nested: number, nameLine: number, name: string, display: string): void {
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

  /**
   * The dictionary section, given the paths of the segment's files. The builder must not be
   * used afterwards. It holds two strings per entry while it sorts (the keys of both tables);
   * names and breadcrumbs are decoded again as rows are written. As steps of a build: a pause
   * after each sort and every few thousand rows written.
   */
  *buildSteps(paths: readonly string[]): BuildSteps<Uint8Array> {
    const n = this.count;
    const v = this.numbers;
    const at = (i: number, field: number) => v[i * NUMBERS + field] as number;
    const strings = new Cursor(asBuffer(this.strings.result()), 'symbol entries');
    const stringsAt = new Uint32Array(n);
    const keys = new Array<string>(n);
    const initialsKeys = new Array<string>(n);
    const initialsLength = new Uint32Array(n);
    for (let i = 0; i < n; i++) {
      stringsAt[i] = strings.pos;
      const name = strings.string();
      if (strings.varint()) strings.string();
      const key = name.toLowerCase();
      const initials = initialsOf(name);
      keys[i] = key;
      initialsLength[i] = initials.length;
      initialsKeys[i] = `${initials}\u0000${key}`;
    }
    yield;
    const nameAndDisplay = (i: number): [string, string] => {
      strings.pos = stringsAt[i] as number;
      const name = strings.string();
      return [name, strings.varint() ? strings.string() : name];
    };
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
    yield;
    // Entries in the order the segment lists them: by document, its own definition first.
    const listed = (a: number, b: number) => at(a, DOC) - at(b, DOC) || at(a, NESTED) - at(b, NESTED);
    const byName = indexes(n).sort((a, b) => compareStrings(keys[a] as string, keys[b] as string) || (order[a] as number) - (order[b] as number) || listed(a, b));
    const rowOf = new Uint32Array(n);
    byName.forEach((i, r) => (rowOf[i] = r));
    yield;
    const byInitials = indexes(n).filter((i) => (initialsLength[i] as number) >= 2).sort((a, b) => compareStrings(initialsKeys[a] as string, initialsKeys[b] as string) || listed(a, b));
    yield;

    const namesTable = yield* writeTableSteps(n, (r) => keys[byName[r] as number] as string, (w, r) => {
      const i = byName[r] as number;
      const [name, display] = nameAndDisplay(i);
      writeAgainst(w, name, keys[i] as string);
      writeDisplayAgainstName(w, display, name);
      w.varint(at(i, DOC));
      w.byte(at(i, KIND) | (at(i, FLAGS) & FLAG_TEST ? ROW_TEST : 0) | (at(i, FLAGS) & FLAG_VENDORED ? ROW_VENDORED : 0) | (at(i, NESTED) ? ROW_NESTED : 0));
      if (at(i, NESTED)) {
        w.varint(at(i, NESTED));
        w.varint(at(i, NAME_LINE));
      }
      w.varint(order[i] as number);
    });
    const initialsTable = yield* writeTableSteps(byInitials.length, (r) => initialsKeys[byInitials[r] as number] as string, (w, r) => {
      const i = byInitials[r] as number;
      w.varint(initialsLength[i] as number);
      writeAgainst(w, nameAndDisplay(i)[0], keys[i] as string);
      w.varint(rowOf[i] as number);
    });
    const parts = [namesTable.index, initialsTable.index, namesTable.pages, initialsTable.pages];
    const out = new Uint8Array(HEADER_BYTES + parts.reduce((s, p) => s + p.length, 0));
    const view = new DataView(out.buffer);
    [n, namesTable.index.length, namesTable.pages.length, namesTable.pageCount, initialsTable.index.length, initialsTable.pages.length, initialsTable.pageCount, byInitials.length].forEach((x, k) => view.setUint32(4 * k, x, true));
    let offset = HEADER_BYTES;
    for (const p of parts) {
      out.set(p, offset);
      offset += p.length;
    }
    return out;
  }
}

const PENALISED = FLAG_TEST | FLAG_VENDORED;
// A names row's byte of kind and flags: the kind (KINDS has fewer than 32), test, vendored, and
// whether a nested definition's number and name line follow.
const ROW_KIND = 0x1f;
const ROW_TEST = 0x20;
const ROW_VENDORED = 0x40;
const ROW_NESTED = 0x80;
if (KINDS.length > ROW_KIND + 1) throw new Error(`a names row has room for ${ROW_KIND + 1} kinds, not ${KINDS.length}`);

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
 * A name against its lower-cased key, in the shortest of: 0, the key itself; 2, the key with
 * every ASCII letter upper-cased (`MAX_VALUE`); 2k + 1 and k positions (as gaps) of ASCII
 * letters upper-cased (`getUserName`); 2k + 2 and k runs of code units, alternately as in the
 * key and with ASCII letters upper-cased, the last run reaching to the end (`HTTPServer`); or
 * 1 and the name. Only ASCII letters are cased this way: reading does not depend on the
 * Unicode tables of the Node that reads.
 */
function writeAgainst(w: ByteWriter, name: string, key: string): void {
  if (name === key) return w.varint(0);
  const full = () => {
    w.varint(1);
    writeString(w, name);
  };
  if (name.length !== key.length) return full();
  const upper: number[] = [];
  // Runs: lengths of alternating stretches, kept as the key then upper-cased; a code unit
  // that casing leaves alone joins whichever stretch it is in.
  const runs: number[] = [];
  let upperRun = false;
  let run = 0;
  let allUpper = true;
  for (let i = 0; i < name.length; i++) {
    const k = key.charCodeAt(i);
    const letter = k >= 0x61 && k <= 0x7a;
    const c = name.charCodeAt(i);
    if (c !== k && !(letter && c === k - 0x20)) return full();
    const raised = c !== k;
    if (raised) upper.push(i);
    else if (letter) allUpper = false;
    if (letter && raised !== upperRun) {
      runs.push(run);
      upperRun = raised;
      run = 0;
    }
    run++;
  }
  runs.push(run);
  if (allUpper) return w.varint(2);
  const gaps = upper.map((p, k) => p - (k ? (upper[k - 1] as number) : 0));
  if (varintsLength(gaps) <= varintsLength(runs)) {
    w.varint(2 * gaps.length + 1);
    for (const g of gaps) w.varint(g);
  } else {
    w.varint(2 * runs.length + 2);
    for (const r of runs) w.varint(r);
  }
}

function varintsLength(values: readonly number[]): number {
  let n = 0;
  for (const x of values) n += x < 0x80 ? 1 : x < 0x4000 ? 2 : x < 0x200000 ? 3 : x < 0x10000000 ? 4 : 5;
  return n;
}

/** Code unit `c` upper-cased if it is an ASCII letter. */
const asciiUpper = (c: number): number => (c >= 0x61 && c <= 0x7a ? c - 0x20 : c);

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

/** Reads varints and strings from a page up to `end`, bounds-checked: damage is a CorruptDataError naming `what`. */
export class Cursor {
  constructor(
    private readonly buffer: Buffer,
    private readonly what: string,
    public pos = 0,
    public end = buffer.length,
  ) {}

  get done(): boolean {
    return this.pos >= this.end;
  }

  byte(): number {
    if (this.pos >= this.end) throw this.corrupt('ends mid-row');
    return this.buffer[this.pos++] as number;
  }

  varint(): number {
    const first = this.pos < this.end ? (this.buffer[this.pos] as number) : 0x100;
    if (first < 0x80) {
      this.pos++;
      return first;
    }
    let result = 0;
    for (let shift = 0; ; shift += 7) {
      if (this.pos >= this.end || shift > 28) throw this.corrupt('has a truncated or overlong number');
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
    if (end > this.end) throw this.corrupt('has a string past its end');
    this.pos = end;
    if (wide) return this.buffer.toString('utf16le', start, end);
    if (length < 24) {
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

/** A page as read: its restart points (where each starts in `bytes`), its rows' count and the bodies decoded so far. */
interface Page<T> {
  bytes: Buffer;
  restarts: number[];
  firstRow: number;
  rows: Array<T | undefined>;
  /** Reads bodies (one at a time, each at once). */
  bodies: Cursor;
}

/** A Buffer over the same bytes, for its string decoding. */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** A sorted table read a page at a time; pages and rows once decoded are kept (the segment is immutable). */
export class PagedTable<T> {
  private index?: { view: DataView; keys: Cursor; firstKeys: Array<string | undefined> };
  private readonly pages: Array<Page<T> | undefined> = [];

  constructor(
    private readonly section: LazySection,
    private readonly what: string,
    /** The table's index, read on first use (both tables' at once). */
    private readonly indexBytes: () => Uint8Array,
    private readonly indexLength: number,
    private readonly pagesAt: number,
    private readonly pagesLength: number,
    private readonly pageCount: number,
    readonly rows: number,
    private readonly decodeBody: (c: Cursor, key: string, row: number) => T,
  ) {}

  /**
   * The rows from the first whose key is `from` or after it, while `within` holds for their
   * keys (a range of sorted keys: it ends at the first that fails), but for those whose key
   * `keep` refuses (their bodies are not read).
   */
  *range(from: string, within: (key: string) => boolean, keep?: (key: string) => boolean): Generator<T> {
    if (this.pageCount === 0) return;
    // The first page that starts at or after `from`; the rows wanted may begin in the one before.
    let lo = 0;
    let hi = this.pageCount;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.firstKey(mid) < from) lo = mid + 1;
      else hi = mid;
    }
    for (let p = Math.max(0, lo - 1); p < this.pageCount; p++) {
      const page = this.page(p);
      // The last restart point before `from` (its rows after it may still sort before `from`).
      let r = 0;
      if (p === lo - 1) {
        let a = 0;
        let b = page.restarts.length;
        while (a < b) {
          const mid = (a + b) >>> 1;
          if (this.scanner(page, mid).next() < from) a = mid + 1;
          else b = mid;
        }
        r = Math.max(0, a - 1);
      }
      const scan = this.scanner(page, r);
      for (let k = r * RESTART_ROWS; k < page.rows.length; k++) {
        const key = scan.next();
        if (key < from) continue;
        if (!within(key)) return;
        if (keep && !keep(key)) continue;
        yield this.rowOf(page, k, key, scan.bodyStart, scan.bodyEnd);
      }
    }
  }

  /** Every distinct key, in order (no row body is read). */
  distinctKeys(): string[] {
    const keys: string[] = [];
    let last: string | undefined;
    for (let p = 0; p < this.pageCount; p++) {
      const page = this.page(p);
      const scan = this.scanner(page, 0);
      for (let k = 0; k < page.rows.length; k++) {
        const key = scan.next();
        if (key !== last) keys.push((last = key));
      }
    }
    return keys;
  }

  *all(): Generator<T> {
    for (let p = 0; p < this.pageCount; p++) {
      const page = this.page(p);
      const scan = this.scanner(page, 0);
      for (let k = 0; k < page.rows.length; k++) {
        const key = scan.next();
        yield this.rowOf(page, k, key, scan.bodyStart, scan.bodyEnd);
      }
    }
  }

  rowAt(row: number): T {
    if (!(row >= 0 && row < this.rows)) throw new CorruptDataError(`${this.what}: row ${row} outside ${this.rows}`);
    let lo = 0;
    let hi = this.pageCount - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (this.indexEntry(mid, 4) <= row) lo = mid;
      else hi = mid - 1;
    }
    const page = this.page(lo);
    const k = row - page.firstRow;
    const known = page.rows[k];
    if (known !== undefined) return known;
    const r = Math.floor(k / RESTART_ROWS);
    const scan = this.scanner(page, r);
    let key = '';
    for (let i = r * RESTART_ROWS; i <= k; i++) key = scan.next();
    return this.rowOf(page, k, key, scan.bodyStart, scan.bodyEnd);
  }

  private rowOf(page: Page<T>, k: number, key: string, start: number, end: number): T {
    const known = page.rows[k];
    if (known !== undefined) return known;
    const c = page.bodies;
    c.pos = start;
    c.end = end;
    const row = this.decodeBody(c, key, page.firstRow + k);
    if (!c.done) throw c.corrupt('has a row longer than its contents');
    page.rows[k] = row;
    return row;
  }

  /** Reads the rows of `page` from restart point `r` on. */
  private scanner(page: Page<T>, r: number): RowScanner {
    return new RowScanner(new Cursor(page.bytes, `${this.what} page of row ${page.firstRow}`, page.restarts[r] as number));
  }

  /** u32 `field` (0: page start, 4: first row, 8: key start) of index entry `p`. */
  private indexEntry(p: number, field: number): number {
    return this.pageIndex().view.getUint32(12 * p + field, true);
  }

  private firstKey(p: number): string {
    const index = this.pageIndex();
    let key = index.firstKeys[p];
    if (key === undefined) {
      const c = index.keys;
      // Key starts count from the end of the index entries, where the keys begin.
      const keysAt = 12 * (this.pageCount + 1);
      const start = keysAt + this.indexEntry(p, 8);
      const end = keysAt + this.indexEntry(p + 1, 8);
      if (!(start < end)) throw c.corrupt(`has the first key of page ${p} out of place`);
      c.pos = start;
      key = c.string();
      if (c.pos !== end) throw c.corrupt(`has the first key of page ${p} run past its place`);
      index.firstKeys[p] = key;
    }
    return key;
  }

  private pageIndex(): { view: DataView; keys: Cursor; firstKeys: Array<string | undefined> } {
    if (this.index) return this.index;
    const entries = 12 * (this.pageCount + 1);
    if (this.indexLength < entries) throw new CorruptDataError(`${this.what} page index is truncated`);
    const bytes = asBuffer(this.indexBytes());
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const last = (field: number) => view.getUint32(12 * this.pageCount + field, true);
    if (last(0) !== this.pagesLength || last(4) !== this.rows || last(8) !== this.indexLength - entries || view.getUint32(8, true) !== 0) {
      throw new CorruptDataError(`${this.what} page index does not add up to ${this.rows} rows in ${this.pagesLength} bytes`);
    }
    this.index = { view, keys: new Cursor(bytes, `${this.what} page index`, entries), firstKeys: new Array<string | undefined>(this.pageCount) };
    return this.index;
  }

  private page(p: number): Page<T> {
    const known = this.pages[p];
    if (known) return known;
    const what = `${this.what} page ${p}`;
    const stored = this.indexEntry(p, 0);
    const start = stored % DEFLATED_PAGE;
    const end = this.indexEntry(p + 1, 0) % DEFLATED_PAGE;
    const firstRow = this.indexEntry(p, 4);
    const count = this.indexEntry(p + 1, 4) - firstRow;
    if (!(start < end && end <= this.pagesLength && count > 0)) throw new CorruptDataError(`${what} is out of place in its index`);
    let bytes = asBuffer(this.section.range(this.pagesAt + start, this.pagesAt + end));
    if (stored >= DEFLATED_PAGE) {
      try {
        bytes = inflateRawSync(bytes, { windowBits: SMALL_DEFLATE.windowBits, chunkSize: Math.min(64 * 1024, Math.max(1024, bytes.length * 4)) });
      } catch (e) {
        throw new CorruptDataError(`${what} does not inflate (${(e as Error).message})`);
      }
    }
    const c = new Cursor(bytes, what);
    const restartCount = c.varint();
    if (restartCount !== Math.ceil(count / RESTART_ROWS)) throw c.corrupt(`has ${restartCount} restart points for ${count} rows`);
    const restarts: number[] = [];
    let at = 0;
    for (let r = 0; r < restartCount; r++) restarts.push((at += c.varint()));
    const rowsAt = c.pos;
    for (let r = 0; r < restartCount; r++) {
      restarts[r] = (restarts[r] as number) + rowsAt;
      if ((restarts[r] as number) >= bytes.length || (r > 0 && (restarts[r] as number) <= (restarts[r - 1] as number))) throw c.corrupt('has its restart points out of place');
    }
    if (restarts[0] !== rowsAt) throw c.corrupt('does not start with a restart point');
    const page: Page<T> = { bytes, restarts, firstRow, rows: new Array<T | undefined>(count), bodies: new Cursor(bytes, `${what} (row ${firstRow} on)`) };
    if (this.scanner(page, 0).next() !== this.firstKey(p)) throw c.corrupt('starts with a key its index does not name');
    this.pages[p] = page;
    return page;
  }
}

/** Reads a page's rows in order from a restart point: each key, and where its body is. */
class RowScanner {
  bodyStart = 0;
  bodyEnd = 0;
  private key = '';
  private first = true;

  constructor(private readonly c: Cursor) {}

  next(): string {
    const c = this.c;
    const shared = c.varint();
    if (shared > this.key.length || (this.first && shared > 0)) throw c.corrupt('shares more of a key than there is');
    const key = shared ? this.key.slice(0, shared) + c.string() : c.string();
    if (key < this.key) throw c.corrupt('has its keys out of order');
    const length = c.varint();
    this.bodyStart = c.pos;
    this.bodyEnd = c.pos + length;
    if (this.bodyEnd > c.end) throw c.corrupt('has a row past its end');
    c.pos = this.bodyEnd;
    this.key = key;
    this.first = false;
    return key;
  }
}

/** A segment's symbol dictionary, read on demand (see the top of this file). */
export class SymbolDictionary {
  /** Entries: documents' own definitions and nested ones. */
  readonly size: number;
  private readonly names: PagedTable<SymbolEntry>;
  private readonly initials: PagedTable<InitialsRow>;
  private nameKeys?: readonly string[];

  constructor(section: LazySection, what: string, docCount: number) {
    if (section.length < HEADER_BYTES) throw new CorruptDataError(`${what} is truncated`);
    const head = section.range(0, HEADER_BYTES);
    const view = new DataView(head.buffer, head.byteOffset, HEADER_BYTES);
    // Both page indexes in one read, on the first lookup.
    let indexes: Uint8Array | undefined;
    const indexesOf = () => (indexes ??= section.range(HEADER_BYTES, HEADER_BYTES + namesIndex + initialsIndex));
    const [entries, namesIndex, namesPages, namesPageCount, initialsIndex, initialsPages, initialsPageCount, initialsRows] = Array.from({ length: 8 }, (_, k) => view.getUint32(4 * k, true)) as [number, number, number, number, number, number, number, number];
    if (HEADER_BYTES + namesIndex + initialsIndex + namesPages + initialsPages !== section.length) throw new CorruptDataError(`${what} has parts that do not add up to its ${section.length} bytes`);
    if (initialsRows > entries || (entries > 0 && namesPageCount === 0) || (initialsRows > 0 && initialsPageCount === 0)) throw new CorruptDataError(`${what} has ${entries} entries, ${initialsRows} with initials, and pages for ${namesPageCount} and ${initialsPageCount}`);
    this.size = entries;
    const namesAt = HEADER_BYTES + namesIndex + initialsIndex;
    const decodeEntry = (c: Cursor, key: string, row: number): SymbolEntry => {
      const name = readAgainst(c, key);
      const display = readDisplayAgainstName(c, name);
      const doc = c.varint();
      const bits = c.byte();
      const kind = bits & ROW_KIND;
      const flags = (bits & ROW_TEST ? FLAG_TEST : 0) | (bits & ROW_VENDORED ? FLAG_VENDORED : 0);
      const nested = bits & ROW_NESTED ? c.varint() : 0;
      const nameLine = nested ? c.varint() : 0;
      const order = c.varint();
      if (doc >= docCount || kind >= KINDS.length || (bits & ROW_NESTED && nested === 0)) throw c.corrupt(`names document ${doc} of ${docCount}, kind ${kind}, nested definition ${nested - 1}`);
      return { row, key, name, display, doc, kind, flags, nested, nameLine, order };
    };
    this.names = new PagedTable(section, `${what}, names`, () => indexesOf().subarray(0, namesIndex), namesIndex, namesAt, namesPages, namesPageCount, entries, decodeEntry);
    const decodeInitials = (c: Cursor, key: string): InitialsRow => {
      const length = c.varint();
      if (length >= key.length || key.charCodeAt(length) !== 0) throw c.corrupt('has initials that do not end in NUL');
      const name = readAgainst(c, key.slice(length + 1));
      const row = c.varint();
      if (row >= entries) throw c.corrupt(`points at entry ${row} of ${entries}`);
      return { key, initials: key.slice(0, length), name, row };
    };
    this.initials = new PagedTable(section, `${what}, initials`, () => indexesOf().subarray(namesIndex), initialsIndex, namesAt + namesPages, initialsPages, initialsPageCount, initialsRows, decodeInitials);
  }

  /** Entries whose lower-cased name is `key`, best first in the segment's ranking order. */
  named(key: string): Generator<SymbolEntry> {
    return this.names.range(key, (k) => k === key);
  }

  /**
   * Every distinct lower-cased name, in order. An edit-distance lookup measures each of them;
   * decoding them is most of its time, so they are read once and kept with the segment (a
   * long-lived host drops its segments when it lets go of its caches).
   */
  distinctNames(): readonly string[] {
    return (this.nameKeys ??= this.names.distinctKeys());
  }

  /** Entries whose lower-cased name starts with `prefix`, by name. */
  prefixed(prefix: string): Generator<SymbolEntry> {
    return this.names.range(prefix, (k) => k.startsWith(prefix));
  }

  /**
   * Initials rows whose initials start with `prefix`, by initials, then by name, but for those
   * whose lower-cased name `keep` refuses (not read). Only names of two initials or more have a
   * row: a shorter `prefix` misses the others.
   */
  *withInitials(prefix: string, keep?: (lowerName: string) => boolean): Generator<InitialsRow> {
    // The key is the initials, NUL, the lower-cased name. With another NUL in either, which one
    // ends the initials is read from the row's body: such a row is not passed over.
    const keepKey =
      keep &&
      ((key: string) => {
        const nul = key.indexOf('\u0000');
        return key.indexOf('\u0000', nul + 1) >= 0 || keep(key.slice(nul + 1));
      });
    for (const r of this.initials.range(prefix, (k) => k.startsWith(prefix), keepKey)) if (r.initials.startsWith(prefix)) yield r;
  }

  /** The entry in row `row` of the names table. */
  entry(row: number): SymbolEntry {
    return this.names.rowAt(row);
  }

  /** Every entry, by name. */
  all(): Generator<SymbolEntry> {
    return this.names.all();
  }
}

function readAgainst(c: Cursor, key: string): string {
  const tag = c.varint();
  if (tag === 0) return key;
  if (tag === 1) return c.string();
  const units = new Array<number>(key.length);
  for (let i = 0; i < key.length; i++) units[i] = key.charCodeAt(i);
  if (tag === 2) {
    for (let i = 0; i < units.length; i++) units[i] = asciiUpper(units[i] as number);
  } else if (tag % 2 === 1) {
    let at = -1;
    for (let k = 0; k < (tag - 1) / 2; k++) {
      const next = (k === 0 ? 0 : at) + c.varint();
      if (next <= at || next >= key.length) throw c.corrupt('upper-cases letters out of order or past its name');
      at = next;
      units[at] = asciiUpper(units[at] as number);
    }
  } else {
    let at = 0;
    for (let k = 0; k < (tag - 2) / 2; k++) {
      const end = at + c.varint();
      if (end > key.length) throw c.corrupt('has case runs past its name');
      if (k % 2 === 1) for (let i = at; i < end; i++) units[i] = asciiUpper(units[i] as number);
      at = end;
    }
    if (at !== key.length) throw c.corrupt('has case runs that do not cover its name');
  }
  let name = '';
  // In pieces: a call takes only so many arguments.
  for (let i = 0; i < units.length; i += 8192) name += String.fromCharCode(...units.slice(i, i + 8192));
  return name;
}

function readDisplayAgainstName(c: Cursor, name: string): string {
  const tag = c.varint();
  if (tag === 0) return name;
  if (tag === 1) return c.string() + name;
  if (tag === 2) return c.string();
  throw c.corrupt(`has breadcrumb form ${tag}`);
}
