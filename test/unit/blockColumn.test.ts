import * as assert from 'node:assert/strict';
import { deflateRawSync } from 'node:zlib';
import { BLOCK_ROWS, BlockColumn, encodeBlockColumn } from '../../src/core/index/blockColumn';
import { LazySection, LazyU32, memorySource } from '../../src/core/index/byteSource';
import { CorruptDataError } from '../../src/core/index/varint';
import { checkAll } from './check';

function open(offsets: Uint32Array, blob: Uint8Array, rows: number): BlockColumn {
  const o = new Uint8Array(offsets.buffer, offsets.byteOffset, offsets.byteLength);
  return new BlockColumn('test column', new LazySection(memorySource(blob), 0, blob.length), new LazyU32(new LazySection(memorySource(o), 0, o.length), offsets.length), rows);
}

function roundTrip(rows: string[]): { all: string[]; each: string[] } {
  const { offsets, blob } = encodeBlockColumn(rows);
  const column = open(offsets, blob, rows.length);
  // Rows read one by one, out of order, must match the whole column.
  const each = rows.map((_, i) => i).reverse().map((i) => column.get(i)).reverse();
  return { all: column.all(), each };
}

describe('block-compressed string columns', () => {
  const signatures = Array.from({ length: 200 }, (_, i) => `export async function handler${i}(request: Request, response: Response): Promise<void>`);
  checkAll(
    [
      { name: 'no rows', input: [] as string[], expected: [] as string[] },
      { name: 'one empty row', input: [''], expected: [''] },
      { name: 'exactly one block', input: Array.from({ length: BLOCK_ROWS }, (_, i) => `r${i}`), expected: Array.from({ length: BLOCK_ROWS }, (_, i) => `r${i}`) },
      { name: 'a partial last block', input: signatures, expected: signatures },
      { name: 'newlines, multi-byte and astral text, empty rows', input: ['a\nb', '', 'ünïcødé', '😀 x', '\r\n', ''], expected: ['a\nb', '', 'ünïcødé', '😀 x', '\r\n', ''] },
      { name: 'rows of 128 bytes and more (two-byte lengths) between short ones', input: ['a', 'x'.repeat(200), 'b', 'y'.repeat(128), ''], expected: ['a', 'x'.repeat(200), 'b', 'y'.repeat(128), ''] },
      {
        name: 'an ASCII block, then a block with one multi-byte row',
        input: [...Array.from({ length: BLOCK_ROWS }, (_, i) => `r${i}`), 'plain', 'naïve', 'plain'],
        expected: [...Array.from({ length: BLOCK_ROWS }, (_, i) => `r${i}`), 'plain', 'naïve', 'plain'],
      },
    ],
    (rows) => {
      const { all, each } = roundTrip(rows);
      assert.deepEqual(each, all);
      return all;
    },
  );

  it('reads a block deflated with a larger window than blocks are written with', () => {
    // Two copies of 10 KB of noise: the second refers back further than an 8 KB window reaches.
    let x = 7;
    const noise = Array.from({ length: 10_000 }, () => String.fromCharCode(97 + ((x = (x * 1103515245 + 12345) % 2147483648) % 26))).join('');
    const raw = Buffer.concat([Buffer.from([0x90, 0x4e]), Buffer.from(noise), Buffer.from([0x90, 0x4e]), Buffer.from(noise)]);
    const packed = deflateRawSync(raw);
    assert.deepEqual(open(Uint32Array.from([0, packed.length]), packed, 2).all(), [noise, noise]);
  });

  it('compresses repetitive text (signatures) several times over', () => {
    const raw = signatures.reduce((n, s) => n + Buffer.byteLength(s), 0);
    const { blob } = encodeBlockColumn(signatures);
    assert.ok(blob.length * 4 < raw, `${blob.length} bytes for ${raw}`);
  });

  describe('rejects damage with CorruptDataError', () => {
    const rows = Array.from({ length: 100 }, (_, i) => `row ${i}`);
    const good = encodeBlockColumn(rows);
    checkAll<() => BlockColumn | string, true>(
      [
        { name: 'a block count that does not fit the rows', input: () => open(good.offsets, good.blob, 300), expected: true },
        { name: 'offsets that end before the column', input: () => open(good.offsets, new Uint8Array([...good.blob, 0]), 100), expected: true },
        { name: 'a block that does not inflate', input: () => open(good.offsets, good.blob.map((b, i) => (i < 8 ? 0xff : b)), 100).get(0), expected: true },
        {
          name: 'a block with more rows than it should hold',
          input: () => {
            const extra = deflateRawSync(Buffer.from([1, 0x41, 1, 0x42]));
            return open(Uint32Array.from([0, extra.length]), extra, 1).get(0);
          },
          expected: true,
        },
        {
          name: 'a block with fewer rows than it should hold',
          input: () => {
            const short = deflateRawSync(Buffer.from([1, 0x41]));
            return open(Uint32Array.from([0, short.length]), short, 2).get(1);
          },
          expected: true,
        },
        { name: 'a row outside the column', input: () => open(good.offsets, good.blob, 100).get(100), expected: true },
      ],
      (damaged) => {
        assert.throws(damaged, CorruptDataError);
        return true;
      },
    );
  });
});
