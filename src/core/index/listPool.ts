// Many growing byte lists (a segment builder's postings, one list per term) kept in shared
// 64 KB pages. A list is a chain of slices that double in size up to 4 KB; a full slice's last
// four bytes hold the address of the next. The design is Lucene's ByteBlockPool, simplified.
//
// Why not one ByteWriter per term: a term with a typed array of its own cost ~400 bytes of
// heap and off-heap bookkeeping before its first posting (object, writer, Uint8Array,
// ArrayBuffer, backing store), and a segment has 100-270k terms, most with one or two postings.
// Here a list costs five array slots and its slices.

const PAGE_SHIFT = 16;
const PAGE_BYTES = 1 << PAGE_SHIFT;
const PAGE_MASK = PAGE_BYTES - 1;
/** Slice sizes by level, pointer included; the last level repeats. */
const SLICE_BYTES = [8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096];
const LAST_LEVEL = SLICE_BYTES.length - 1;
const POINTER_BYTES = 4;

export class ListPool {
  private readonly pages: Uint8Array[] = [];
  /** Bytes used in the last page. */
  private used = PAGE_BYTES;
  private heads = new Int32Array(256);
  /** Next write address of each list. */
  private tails = new Int32Array(256);
  /** Where the current slice's data ends (its pointer slot starts). */
  private ends = new Int32Array(256);
  private lengths = new Int32Array(256);
  private levels = new Uint8Array(256);
  private count = 0;

  get listCount(): number {
    return this.count;
  }

  /** Bytes of pages allocated so far (what the pool holds, slack included). */
  get reservedBytes(): number {
    return this.pages.length * PAGE_BYTES;
  }

  /** Starts an empty list and returns its number. */
  newList(): number {
    const list = this.count++;
    if (list === this.heads.length) this.growTables();
    const at = this.allocate(SLICE_BYTES[0] as number);
    this.heads[list] = at;
    this.tails[list] = at;
    this.ends[list] = at + (SLICE_BYTES[0] as number) - POINTER_BYTES;
    return list;
  }

  lengthOf(list: number): number {
    return this.lengths[list] as number;
  }

  /** Appends `bytes[0 .. n)` to a list. */
  append(list: number, bytes: Uint8Array, n: number): void {
    let tail = this.tails[list] as number;
    let end = this.ends[list] as number;
    for (let i = 0; i < n; i++) {
      if (tail === end) {
        tail = this.nextSlice(list, end);
        end = this.ends[list] as number;
      }
      (this.pages[tail >>> PAGE_SHIFT] as Uint8Array)[tail & PAGE_MASK] = bytes[i] as number;
      tail++;
    }
    this.tails[list] = tail;
    this.lengths[list] = (this.lengths[list] as number) + n;
  }

  /** A list's bytes, copied out in one piece. */
  bytesOf(list: number): Uint8Array {
    const out = new Uint8Array(this.lengths[list] as number);
    let at = this.heads[list] as number;
    let level = 0;
    let done = 0;
    while (done < out.length) {
      const data = (SLICE_BYTES[level] as number) - POINTER_BYTES;
      const n = Math.min(data, out.length - done);
      const page = this.pages[at >>> PAGE_SHIFT] as Uint8Array;
      const offset = at & PAGE_MASK;
      out.set(page.subarray(offset, offset + n), done);
      done += n;
      if (done < out.length) {
        at = readAddress(page, offset + data);
        level = Math.min(level + 1, LAST_LEVEL);
      }
    }
    return out;
  }

  /** Chains a new, larger slice after the full one whose pointer slot is at `pointerAt`. */
  private nextSlice(list: number, pointerAt: number): number {
    const level = Math.min((this.levels[list] as number) + 1, LAST_LEVEL);
    const size = SLICE_BYTES[level] as number;
    const at = this.allocate(size);
    writeAddress(this.pages[pointerAt >>> PAGE_SHIFT] as Uint8Array, pointerAt & PAGE_MASK, at);
    this.levels[list] = level;
    this.ends[list] = at + size - POINTER_BYTES;
    return at;
  }

  /** A slice's address; slices never straddle pages, so a page's tail may go unused. */
  private allocate(size: number): number {
    if (this.used + size > PAGE_BYTES) {
      if (this.pages.length >= 1 << (31 - PAGE_SHIFT)) throw new RangeError('list pool is full (2 GB)');
      this.pages.push(new Uint8Array(PAGE_BYTES));
      this.used = 0;
    }
    const at = ((this.pages.length - 1) << PAGE_SHIFT) + this.used;
    this.used += size;
    return at;
  }

  private growTables(): void {
    const n = this.heads.length * 2;
    this.heads = grown(this.heads, n);
    this.tails = grown(this.tails, n);
    this.ends = grown(this.ends, n);
    this.lengths = grown(this.lengths, n);
    const levels = new Uint8Array(n);
    levels.set(this.levels);
    this.levels = levels;
  }
}

/** A copy of `a` with room for `n` entries; the new ones hold `fill`. */
export function grown<T extends Int32Array<ArrayBuffer> | Uint32Array<ArrayBuffer> | Uint16Array<ArrayBuffer>>(a: T, n: number, fill = 0): T {
  const out = new (a.constructor as new (length: number) => T)(n);
  if (fill !== 0) out.fill(fill, a.length);
  out.set(a);
  return out;
}

function writeAddress(page: Uint8Array, offset: number, address: number): void {
  page[offset] = address & 0xff;
  page[offset + 1] = (address >>> 8) & 0xff;
  page[offset + 2] = (address >>> 16) & 0xff;
  page[offset + 3] = address >>> 24;
}

function readAddress(page: Uint8Array, offset: number): number {
  return ((page[offset] as number) | ((page[offset + 1] as number) << 8) | ((page[offset + 2] as number) << 16) | ((page[offset + 3] as number) << 24)) >>> 0;
}
