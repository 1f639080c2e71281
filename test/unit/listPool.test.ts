import * as assert from 'node:assert/strict';
import { ListPool } from '../../src/core/index/listPool';
import { ByteWriter } from '../../src/core/index/varint';
import { checkAll } from './check';

/** Appends `lengths[i]` bytes to list i, round-robin in small pieces, and reads every list back. */
function interleaved(lengths: number[]): boolean[] {
  const pool = new ListPool();
  const lists = lengths.map(() => pool.newList());
  const expected = lengths.map(() => new ByteWriter(16));
  const piece = new Uint8Array(3);
  let left = true;
  for (let round = 0; left; round++) {
    left = false;
    lengths.forEach((n, i) => {
      const have = expected[i] as ByteWriter;
      if (have.length >= n) return;
      left = true;
      const k = Math.min(n - have.length, 1 + ((round + i) % 3));
      for (let j = 0; j < k; j++) piece[j] = (i * 31 + have.length + j * 7) & 0xff;
      pool.append(lists[i] as number, piece, k);
      have.append(piece.subarray(0, k));
    });
  }
  return lists.map((list, i) => pool.lengthOf(list) === lengths[i] && Buffer.from(pool.bytesOf(list)).equals(Buffer.from((expected[i] as ByteWriter).result())));
}

describe('list pool (postings lists in shared pages)', () => {
  checkAll(
    [
      { name: 'an empty list', input: [0], expected: [true] },
      { name: 'exactly one first slice (4 data bytes)', input: [4], expected: [true] },
      { name: 'one byte past the first slice', input: [5], expected: [true] },
      { name: 'lists interleaved across every slice level', input: [1, 13, 100, 1000, 9000, 2], expected: [true, true, true, true, true, true] },
      { name: 'lists that fill several 64 KB pages', input: [200_000, 70_000, 3], expected: [true, true, true] },
    ],
    interleaved,
  );

  it('holds thousands of short lists in a few pages, not a buffer each', () => {
    const pool = new ListPool();
    const one = Uint8Array.of(7, 8);
    for (let i = 0; i < 20_000; i++) pool.append(pool.newList(), one, 2);
    assert.equal(pool.listCount, 20_000);
    // 8-byte first slices: 160 KB of slices in 64 KB pages.
    assert.ok(pool.reservedBytes <= 4 * 65536, `${pool.reservedBytes} bytes reserved`);
    assert.deepEqual([...pool.bytesOf(12_345)], [7, 8]);
  });
});
