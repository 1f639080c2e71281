import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { crc32 } from '../../src/core/index/crc32';
import { CheckedSource, FileSource, LazySection, LazyU32, ReadBuffer, type ByteSource } from '../../src/core/index/byteSource';
import { checkAll } from './check';

describe('bytes read from a file stay as they were read, whatever is read after them', () => {
  const PAGE = 4096;
  const dataEnd = 40 * PAGE;
  const data = randomBytes(dataEnd);
  const sums = new DataView(new ArrayBuffer(4 * (dataEnd / PAGE)));
  for (let p = 0; p < dataEnd / PAGE; p++) sums.setUint32(4 * p, crc32(data.subarray(p * PAGE, (p + 1) * PAGE)), true);
  let dir: string;
  let file: FileSource;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-bytes-'));
    fs.writeFileSync(path.join(dir, 'data.bin'), Buffer.concat([data, new Uint8Array(sums.buffer)]));
    file = new FileSource(path.join(dir, 'data.bin'));
  });
  after(() => {
    file.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const sources: Array<[string, () => ByteSource]> = [
    ['a file', () => file],
    ['a checked file', () => new CheckedSource(file, dataEnd, () => 'test')],
  ];
  // Two sections over 16 KB that are never loaded whole: every read goes to the file.
  const SECOND = 20 * PAGE;
  const sectionsOf = (source: ByteSource) => [new LazySection(source, 0, SECOND, Infinity), new LazySection(source, SECOND, dataEnd - SECOND, Infinity)];
  /** How a reader asks for bytes, with the buffer it owns. */
  const reads: Array<[string, (section: LazySection, start: number, end: number, own: ReadBuffer) => Uint8Array]> = [
    ['fresh', (section, start, end) => section.range(start, end)],
    ["into the reader's own buffer", (section, start, end, own) => section.range(start, end, own)],
  ];
  const cases = sources.flatMap(([where, source]) => reads.map(([how, read]) => ({ name: `${how}, from ${where}`, input: { source, read }, expected: true })));
  checkAll(cases, ({ source, read }) => {
    const [first, second] = sectionsOf(source()) as [LazySection, LazySection];
    const mine = new ReadBuffer();
    const theirs = new ReadBuffer();
    const held = read(first, 100, 900, mine);
    // Another reader: shorter and longer reads, of the same section and of another.
    for (const [section, at, start, end] of [[first, 0, 0, 50], [second, SECOND, 10, 70_000], [first, 0, 5000, 9000], [second, SECOND, 0, 4]] as const) {
      assert.deepEqual(Buffer.from(read(section, start, end, theirs)), data.subarray(at + start, at + end));
    }
    assert.deepEqual(Buffer.from(held), data.subarray(100, 900));
    return true;
  });

  it('u32 entries, pairs and slices stay as read', () => {
    const column = new LazyU32(new LazySection(file, 0, SECOND, Infinity), SECOND / 4);
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    const u32 = (i: number) => view.getUint32(4 * i, true);
    const slice = column.slice(3, 40);
    const pair = column.pair(7);
    const at = column.at(9);
    for (let i = 0; i + 1 < column.length; i += 97) column.pair(i);
    column.slice(100, 3000);
    assert.deepEqual([...slice], Array.from({ length: 37 }, (_, k) => u32(3 + k)));
    assert.deepEqual(pair, [u32(7), u32(8)]);
    assert.equal(at, u32(9));
  });
});
