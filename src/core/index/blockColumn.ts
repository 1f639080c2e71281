// A string column stored as deflated blocks of BLOCK_ROWS rows: a row costs one small read and
// one inflate of its block, the whole column one pass. Signatures, symbol names and
// breadcrumbs compress well this way, and they are the largest part of the store after the
// postings.
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { ReadBuffer, type LazySection, type LazyU32 } from './byteSource';
import { ByteReader, ByteWriter, CorruptDataError } from './varint';
import { grown } from './listPool';

/** Rows per block: large enough to compress, small enough that one row is cheap to read. */
export const BLOCK_ROWS = 64;

const decoder = new TextDecoder('utf-8', { fatal: false });

/**
 * Deflate settings for inputs of a few KB. zlib's default window and memory level allocate
 * far more state per call than such a block needs, and over thousands of blocks that
 * allocation costs more than the compressing itself; a small window compresses these blocks
 * as well, and level 1 nearly as well as the default level, in less time. (Inflate reads any window size.)
 */
export const SMALL_DEFLATE = { level: 1, windowBits: 13, memLevel: 6 } as const;

/**
 * Writes a block column row by row: each block is deflated as soon as its rows are in, so a
 * segment builder holds compressed bytes rather than three strings per chunk, and compressing
 * is spread over the build instead of stalling its end.
 */
export class BlockColumnWriter {
  private readonly block = new ByteWriter(4096);
  private readonly blob = new ByteWriter(4096);
  private offsets = new Uint32Array(64);
  private blocks = 0;
  private rowsInBlock = 0;

  add(row: string): void {
    this.block.lengthPrefixedUtf8(row);
    if (++this.rowsInBlock === BLOCK_ROWS) this.seal();
  }

  /** Compressed bytes so far plus the open block. */
  get bytes(): number {
    return this.blob.length + this.block.length + this.offsets.byteLength;
  }

  /** The column: `offsets[b]` is where block b starts in `blob`, plus the end. */
  finish(): { offsets: Uint32Array; blob: Uint8Array } {
    if (this.rowsInBlock > 0) this.seal();
    this.offsetSlot();
    this.offsets[this.blocks] = this.blob.length;
    return { offsets: this.offsets.slice(0, this.blocks + 1), blob: this.blob.result() };
  }

  private seal(): void {
    this.offsetSlot();
    this.offsets[this.blocks++] = this.blob.length;
    const packed = deflateRawSync(this.block.result(), SMALL_DEFLATE);
    this.blob.append(packed);
    this.block.length = 0;
    this.rowsInBlock = 0;
  }

  private offsetSlot(): void {
    if (this.blocks === this.offsets.length) this.offsets = grown(this.offsets, this.offsets.length * 2);
  }
}

/** Encodes rows as deflated blocks; `offsets[b]` is where block b starts in `blob` (plus the end). */
export function encodeBlockColumn(rows: readonly string[]): { offsets: Uint32Array; blob: Uint8Array } {
  const w = new BlockColumnWriter();
  for (const row of rows) w.add(row);
  return w.finish();
}

/**
 * Reads a column written by `BlockColumnWriter`. Damage surfaces as CorruptDataError when read.
 * Each block is inflated once, on first use, and kept as one string: a process that reads
 * widely (boosts reading the symbols of thousands of candidates, query after query) ends up
 * holding the column in about its raw size, reached block by block rather than in one
 * stall decoding every row.
 */
export class BlockColumn {
  private readonly blocks: Array<DecodedBlock | undefined> = [];
  /** The column's own buffer for a block read from a file: inflated before `get` returns. */
  private readonly packed = new ReadBuffer();

  constructor(
    private readonly what: string,
    private readonly blob: LazySection,
    private readonly offsets: LazyU32,
    readonly rows: number,
  ) {
    if (offsets.length !== Math.ceil(rows / BLOCK_ROWS) + 1) throw new CorruptDataError(`${what}: ${offsets.length - 1} blocks for ${rows} rows`);
    if (offsets.at(offsets.length - 1) !== blob.length) throw new CorruptDataError(`${what}: block offsets do not end at the column's end`);
  }

  get(row: number): string {
    if (!(row >= 0 && row < this.rows)) throw new CorruptDataError(`${this.what}: row ${row} outside ${this.rows}`);
    const b = Math.floor(row / BLOCK_ROWS);
    let block = this.blocks[b];
    if (!block) this.blocks[b] = block = this.decode(b, this.blob.range(...this.offsets.pair(b), this.packed));
    return block.row(row - b * BLOCK_ROWS);
  }

  /** Reads the compressed column into memory now; blocks are still inflated on first use. */
  load(): void {
    this.offsets.load();
    this.blob.all();
  }

  /** Every row, in order (one read of the column), as a new array. */
  all(): string[] {
    const blob = this.blob.all();
    const blocks = this.offsets.length - 1;
    const offsets = this.offsets.slice(0, blocks + 1);
    const out: string[] = [];
    for (let b = 0; b < blocks; b++) {
      const start = offsets[b] as number;
      const end = offsets[b + 1] as number;
      if (!(start <= end && end <= blob.length)) throw new CorruptDataError(`${this.what}: block ${b} out of bounds`);
      const block = this.blocks[b] ?? this.decode(b, blob.subarray(start, end));
      for (let i = 0; i < block.count; i++) out.push(block.row(i));
    }
    return out;
  }

  private decode(b: number, packed: Uint8Array): DecodedBlock {
    let bytes: Buffer;
    // Output buffers sized to the block, not zlib's default, and the window blocks are
    // written with: a hit inflates a few blocks, and zlib's defaults make each call cost
    // more than twice as much.
    const chunkSize = inflateChunkSize(packed.length);
    try {
      bytes = inflateRawSync(packed, { chunkSize, windowBits: SMALL_DEFLATE.windowBits });
    } catch {
      try {
        bytes = inflateRawSync(packed, { chunkSize }); // written with a larger window
      } catch (e) {
        throw new CorruptDataError(`${this.what}: block ${b} does not inflate (${(e as Error).message})`);
      }
    }
    const expected = Math.min(BLOCK_ROWS, this.rows - b * BLOCK_ROWS);
    const r = new ByteReader(bytes, 0, bytes.length);
    const bounds = new Uint32Array(expected * 2);
    let ascii = true;
    for (let i = 0; i < expected; i++) {
      const length = r.varint();
      bounds[2 * i] = r.pos;
      r.skip(length);
      bounds[2 * i + 1] = r.pos;
      if (ascii) ascii = isAscii(bytes, r.pos - length, r.pos);
    }
    if (!r.done) throw new CorruptDataError(`${this.what}: block ${b} has more than ${expected} rows`);
    if (ascii) return new DecodedBlock(expected, bytes.toString('latin1'), bounds);
    const rows = Array.from({ length: expected }, (_, i) => decoder.decode(bytes.subarray(bounds[2 * i] as number, bounds[2 * i + 1] as number)));
    return new DecodedBlock(expected, '', bounds, rows);
  }
}

/**
 * One inflated block. When every row is ASCII (nearly always), the block is one latin1 string
 * (bytes and characters line up) and a row is a slice of it: one object per block instead of
 * one per row, and no TextDecoder call per row.
 */
class DecodedBlock {
  constructor(
    readonly count: number,
    private readonly text: string,
    private readonly bounds: Uint32Array,
    private readonly rows?: string[],
  ) {}

  row(i: number): string {
    if (this.rows) return this.rows[i] as string;
    return this.text.slice(this.bounds[2 * i] as number, this.bounds[2 * i + 1] as number);
  }
}

function inflateChunkSize(packedLength: number): number {
  return Math.min(64 * 1024, Math.max(1024, packedLength * 4));
}

function isAscii(bytes: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if ((bytes[i] as number) > 0x7f) return false;
  return true;
}
