// The occurrence table of a segment: names and their lists round-trip, survive merges (with
// deleted documents left out), are read a page and a list at a time, and damage is a
// CorruptDataError (checksums first; the table's own checks when a writer's bug resealed it).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FileSource, LazySection, memorySource, type ByteSource } from '../../src/core/index/byteSource';
import { mergeSegments } from '../../src/core/index/merge';
import { LIST_BLOCK_BYTES, OccurrenceTable, OccurrenceTableBuilder } from '../../src/core/index/occurrenceTable';
import { Segment } from '../../src/core/index/segment';
import { SegmentBuilder } from '../../src/core/index/segmentBuilder';
import { CorruptDataError } from '../../src/core/index/varint';
import { seededRandom } from '../../src/eval/symbolCheck';
import { IndexStore } from '../../src/core/store/store';
import type { Chunk, FileOccurrences } from '../../src/core/types';
import { OCCURRENCE_ROLES } from '../../src/core/types';
import { checkAll } from './check';
import { flipped, flipTrials, resealed, sectionBounds, type FlipTrial } from './helpers/damage';
import { c } from './helpers/snapshot';
import { TempWorkspace } from './helpers/workspace';

const OCCURRENCES_SECTION = 33;
const LONG_NAME = `long${'Xy'.repeat(300)}`;

/** An occurrence as a test writes it: name, chunk, line, column, role. */
type Occ = [name: string, chunk: number, line: number, column: number, role: (typeof OCCURRENCE_ROLES)[number]];

function fileOccurrences(occs: readonly Occ[]): FileOccurrences {
  const names: string[] = [];
  const sorted = [...occs].sort((a, b) => a[1] - b[1] || a[2] - b[2] || a[3] - b[3]);
  const entries = new Int32Array(sorted.length * 4);
  sorted.forEach(([name, chunk, line, column, role], k) => {
    let i = names.indexOf(name);
    if (i < 0) i = names.push(name) - 1;
    entries.set([chunk, line, column, (i << 2) | OCCURRENCE_ROLES.indexOf(role)], 4 * k);
  });
  return { names, entries };
}

/** Reads a table back as `name doc:lineOffset:column role` strings per name. */
function readBack(table: OccurrenceTable, name: string): string[] | undefined {
  const list = table.lookup(name);
  if (!list) return undefined;
  return [...list.docs].map((d, i) => `${d}:${list.lineOffsets[i]}:${list.columns[i]} ${OCCURRENCE_ROLES[list.roles[i] as number]}`);
}

function tableOf(bytes: Uint8Array, docCount: number): OccurrenceTable {
  return new OccurrenceTable(new LazySection(memorySource(bytes), 0, bytes.length), 'test table', docCount);
}

/** Two files of three and two chunks: lines start at 1, 10, 20 and 1, 5. */
function sampleBuilder(): OccurrenceTableBuilder {
  const b = new OccurrenceTableBuilder();
  b.addFile(0, [1, 10, 20], fileOccurrences([
    ['parse', 0, 1, 10, 'import'],
    ['parse', 1, 12, 5, 'definition'],
    ['parse', 1, 14, 3, 'code'],
    ['parse', 1, 14, 20, 'member'],
    ['parser', 2, 20, 1, 'code'],
    ['Ärger', 2, 21, 7, 'code'],
    [LONG_NAME, 2, 22, 1, 'code'],
  ]));
  b.addFile(3, [1, 5], fileOccurrences([
    ['parse', 1, 9, 2, 'code'],
    ['par', 0, 2, 2, 'code'],
  ]));
  return b;
}

describe('occurrence table: round trip', () => {
  const table = tableOf(sampleBuilder().build(), 5);
  checkAll(
    [
      { name: 'a name in two files, several per document, each with its role and its line after the document\'s first', input: 'parse', expected: ['0:0:10 import', '1:2:5 definition', '1:4:3 code', '1:4:20 member', '4:4:2 code'] },
      { name: 'a name that is a prefix of another', input: 'par', expected: ['3:1:2 code'] },
      { name: 'a longer name sharing the prefix', input: 'parser', expected: ['2:0:1 code'] },
      { name: 'a name outside ASCII', input: 'Ärger', expected: ['2:1:7 code'] },
      { name: 'a long name', input: LONG_NAME, expected: ['2:2:1 code'] },
      { name: 'a name that does not occur', input: 'pars', expected: undefined },
      { name: 'names are exact: another case is another name', input: 'Parse', expected: undefined },
    ],
    (name) => readBack(table, name),
  );

  it('counts and lists every name, sorted', () => {
    assert.equal(table.names, 5);
    assert.equal(table.occurrences, 9);
    assert.deepEqual([...table.all()].map((l) => l.name), ['par', 'parse', 'parser', LONG_NAME, 'Ärger'].sort());
  });

  it('lists longer than a block, and many names over many pages, read back exactly', () => {
    const b = new OccurrenceTableBuilder();
    const occs: Occ[] = [];
    // 3,000 occurrences of one name (several blocks of the stream) between 2,000 other names.
    for (let n = 0; n < 2000; n++) occs.push([`name${n}`, n % 50, 1 + (n % 50), 1 + n, 'code']);
    for (let k = 0; k < 3000; k++) occs.push(['common', k % 50, 1 + (k % 50), 200 + k, k % 2 ? 'member' : 'code']);
    b.addFile(0, Array.from({ length: 50 }, (_, i) => 1 + i), fileOccurrences(occs));
    const bytes = b.build();
    assert.ok(bytes.length > 2 * LIST_BLOCK_BYTES / 2, `${bytes.length} bytes`);
    const t = tableOf(bytes, 50);
    const common = t.lookup('common');
    assert.equal(common?.docs.length, 3000);
    assert.deepEqual([...new Set(common!.columns)].length, 3000);
    assert.equal(readBack(t, 'name1234')?.join(), '34:0:1235 code');
    assert.equal(t.names, 2001);
  });
});

describe('occurrence table: damage is a CorruptDataError, never a wrong answer', () => {
  const bytes = sampleBuilder().build();
  /** A copy of the table with header field `k` (a u32) set to `value`. */
  const header = (k: number, value: number) => (b: Uint8Array) => {
    const copy = new Uint8Array(b);
    new DataView(copy.buffer).setUint32(4 * k, value, true);
    return copy;
  };
  checkAll<(b: Uint8Array) => Uint8Array, string>(
    [
      { name: 'truncated', input: (b) => b.subarray(0, 20), expected: 'corrupt' },
      { name: 'parts that do not add up', input: header(4, 99), expected: 'corrupt' },
      { name: 'more names than occurrences', input: header(5, 1), expected: 'corrupt' },
      { name: 'a block count that does not fit the stream', input: header(6, 9), expected: 'corrupt' },
      { name: 'the last block overwritten', input: (b) => new Uint8Array(b).fill(0xee, b.length - 8), expected: 'corrupt' },
      { name: 'intact', input: (b) => b, expected: 'read' },
    ],
    (damage) => {
      try {
        for (const list of tableOf(damage(bytes), 5).all()) void list;
        return 'read';
      } catch (e) {
        if (e instanceof CorruptDataError) return 'corrupt';
        throw e;
      }
    },
  );

  it('a document past the segment\'s is refused', () => {
    assert.throws(() => readBack(tableOf(bytes, 2), 'parse'), CorruptDataError);
  });
});

/** Chunks of two files and their occurrences, in a segment built as the indexer builds one. */
function segmentWith(root: string, files: Array<{ path: string; chunks: Chunk[]; occurrences: Occ[] }>): Uint8Array {
  const b = new SegmentBuilder();
  for (const f of files) {
    const text = `${Array.from({ length: 40 }, (_, i) => `line ${i + 1}`).join('\n')}\n`;
    fs.mkdirSync(path.dirname(path.join(root, f.path)), { recursive: true });
    fs.writeFileSync(path.join(root, f.path), text);
    b.addFile({ path: f.path, size: text.length, mtimeMs: 1, hash: 'h', language: 'typescript' }, f.chunks, undefined, text, fileOccurrences(f.occurrences));
  }
  return b.build();
}

describe('occurrence table in a segment: merges', () => {
  let root: string;
  before(() => (root = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-occ-'))));
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it('a merge keeps every live document\'s occurrences, renumbered, and drops those of deleted documents', () => {
    const a = new Segment('seg-a.cseg', segmentWith(root, [
      { path: 'a.ts', chunks: [c('a.ts:1-4 function one', 'x'), c('a.ts:5-9 function two', 'y')], occurrences: [['run', 0, 2, 3, 'code'], ['run', 1, 7, 1, 'definition'], ['stop', 1, 8, 4, 'member']] },
    ]));
    const b = new Segment('seg-b.cseg', segmentWith(root, [
      { path: 'b.ts', chunks: [c('b.ts:1-3 function three', 'z')], occurrences: [['run', 0, 3, 9, 'import']] },
      { path: 'c.ts', chunks: [c('c.ts:10-12 function four', 'w')], occurrences: [['run', 0, 11, 2, 'member']] },
    ]));
    const deletedA = new Uint8Array(a.docCount);
    deletedA[0] = 1; // a.ts's first chunk
    const deletedB = new Uint8Array(b.docCount);
    deletedB[1] = 1; // c.ts
    const merged = new Segment('seg-m.cseg', mergeSegments([{ segment: a, deleted: deletedA }, { segment: b, deleted: deletedB }]));
    assert.equal(merged.docCount, 2);
    const t = merged.occurrenceTable();
    assert.deepEqual(readBack(t, 'run'), ['0:2:1 definition', '1:2:9 import']);
    assert.deepEqual(readBack(t, 'stop'), ['0:3:4 member']);
    assert.equal(t.occurrences, 3);
    assert.equal(merged.pathOf(1), 'b.ts');
  });
});

describe('occurrence table in a segment file: a lookup reads one page and one list', () => {
  let root: string;
  let file: string;
  before(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-occ-read-'));
    const files = Array.from({ length: 100 }, (_, f) => ({
      path: `src/m${f}.ts`,
      chunks: [c(`src/m${f}.ts:1-20 function f${f}`, 'x'), c(`src/m${f}.ts:21-40 function g${f}`, 'y')],
      occurrences: Array.from({ length: 300 }, (_, k): Occ => [`name${f}_${k % 150}`, k % 2, 1 + (k % 40), 1 + k, 'code']),
    }));
    file = path.join(root, 'seg.cseg');
    fs.writeFileSync(file, segmentWith(root, files));
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it('reads a few KB of a table of many pages', () => {
    const source = new FileSource(file);
    try {
      const reads: Array<[number, number]> = [];
      const counted: ByteSource = { length: source.length, read: (o, l) => (reads.push([o, l]), source.read(o, l)), readInto: (o, into) => (reads.push([o, into.length]), source.readInto(o, into)) };
      const seg = new Segment('seg.cseg', counted);
      const section = sectionBounds(fs.readFileSync(file), OCCURRENCES_SECTION);
      assert.ok(section.length > 24 * 4096, `the table is ${section.length} bytes`);
      reads.length = 0;
      const list = seg.occurrenceTable().lookup('name17_42');
      assert.equal(list?.docs.length, 2);
      const inTable = reads.filter(([o]) => o >= section.offset && o < section.offset + section.length).reduce((n, [, l]) => n + l, 0);
      assert.ok(inTable <= 4 * 4096, `${inTable} bytes of the ${section.length}-byte table read`);
    } finally {
      source.close();
    }
  });

  it('damage resealed by a writer\'s bug surfaces as a CorruptDataError when the table is read', () => {
    const bytes = fs.readFileSync(file);
    const section = sectionBounds(bytes, OCCURRENCES_SECTION);
    // The header's list-stream length: the table no longer adds up.
    const copy = new Uint8Array(bytes);
    new DataView(copy.buffer).setUint32(section.offset + 16, 12345, true);
    const seg = new Segment('seg-x.cseg', resealed(copy));
    assert.throws(() => seg.occurrenceTable().lookup('name1_1'), CorruptDataError);
  });
});

describe('a damaged occurrence table, through the engine', function () {
  this.timeout(60000);
  it('gives a store-corrupt diagnostic and the intact references, from a rebuilt index', async () => {
    const files: Record<string, string> = {};
    for (let f = 0; f < 30; f++) files[`src/m${f}.ts`] = `import { shared } from './shared';\n${Array.from({ length: 20 }, (_, k) => `export function task${f}Step${k}(input: string): string {\n  return shared(input) + '${f}-${k}';\n}\n`).join('\n')}`;
    files['src/shared.ts'] = 'export function shared(s: string): string {\n  return s;\n}\n';
    const ws = new TempWorkspace(files);
    try {
      const first = await ws.engine().references('shared', { limit: 1000 });
      assert.equal(first.total, 30 * 21 + 1);
      const segFile = path.join(ws.storeDir, new IndexStore(ws.storeDir).readManifest()!.segments[0]!.name);
      const bytes = fs.readFileSync(segFile);
      const table = sectionBounds(bytes, OCCURRENCES_SECTION);
      const [trial] = flipTrials(seededRandom(11), 1) as [FlipTrial];
      fs.writeFileSync(segFile, flipped(bytes, trial, table.offset + Math.floor(table.length / 2)));

      const after = await ws.engine().references('shared', { limit: 1000 });
      const refs = (r: typeof first) => r.references.map((h) => [h.path, h.line, h.column, h.role, h.certainty]);
      assert.deepEqual(refs(after), refs(first));
      const corrupt = after.diagnostics.filter((d) => d.code === 'store-corrupt');
      assert.equal(corrupt.length, 1, JSON.stringify(after.diagnostics));
      assert.match(corrupt[0]!.message, /seg-[\w-]+\.cseg \(.*occurrences.*\).*checksum mismatch/);
      const again = await ws.engine().references('shared', { limit: 1000 });
      assert.deepEqual(refs(again), refs(first));
      assert.deepEqual(again.diagnostics.filter((d) => d.code === 'store-corrupt'), []);
    } finally {
      await ws.dispose();
    }
  });
});
