import * as assert from 'node:assert/strict';
import { decodeStateTable, encodeStateTable, StateFileError } from '../../src/core/store/stateFile';
import { StateTable, type FileState } from '../../src/core/store/stateTable';
import { crc32 } from '../../src/core/index/crc32';
import { seededRandom } from '../../src/eval/symbolCheck';
import { flipAt, flipped, flipTrials } from './helpers/damage';

const hashOf = (n: number): string => n.toString(16).padStart(2, '0').repeat(32);

function entry(n: number, extra: Partial<FileState> = {}): FileState {
  return { size: 100 + n, mtimeMs: 1795986389565.302 + n, ctimeMs: 1795986389570.125 + n, ino: 4000 + n, dev: 2049, hash: hashOf(n), language: 'typescript', segment: 'seg-a.cseg', firstDoc: n * 3, docCount: 3, ...extra };
}

/** The table as a plain object, sorted by path, to compare with deepEqual. */
const plain = (t: StateTable): Record<string, FileState> => Object.fromEntries(t.entries());

function roundTrip(t: StateTable): StateTable {
  const { columns, skipped } = decodeStateTable(encodeStateTable(t));
  return StateTable.ofColumns(columns, skipped);
}

describe('state table', () => {
  describe('on disk: what is written is read back', () => {
    const cases: Array<[string, Array<[string, FileState]>]> = [
      ['an empty table', []],
      ['one file', [['src/a.ts', entry(1)]]],
      ['imports, languages and segments of several files', [
        ['src/a.ts', entry(1, { imports: ['./b', 'node:fs'] })],
        ['src/b.py', entry(2, { language: 'python', segment: 'seg-b.cseg' })],
        ['docs/guide.md', entry(3, { language: 'markdown', imports: [] })],
        ['lib/c.go', entry(4, { language: 'go', segment: 'seg-b.cseg', imports: ['fmt', 'été/ünïcode'] })],
      ]],
      ['paths with spaces, non-ASCII letters, and object-key names', [
        ['my docs/read me.md', entry(1)],
        ['données/café.ts', entry(2)],
        ['__proto__', entry(3)],
        ['constructor', entry(4)],
        ['日本/語.py', entry(5, { language: 'python' })],
      ]],
      ['sizes and mtimes past 32 bits', [['big.json', entry(1, { size: 2 ** 40 + 3, mtimeMs: 1.7959863895653022e12 })]]],
      ['inodes and devices past 32 bits, racy entries beside trusted ones', [
        ['a.ts', entry(1, { ino: 2 ** 52 + 7, dev: 2 ** 40 + 66305, racy: true })],
        ['b.ts', entry(2)],
        ['c.ts', entry(3, { racy: true, imports: ['./a'] })],
      ]],
    ];
    for (const [name, entries] of cases) {
      it(name, () => {
        const written = StateTable.of(entries, [{ path: 'x.bin', reason: 'binary' }]);
        const back = roundTrip(written);
        // `imports: []` is not kept: no imports and an empty list mean the same.
        const expected = Object.fromEntries([...written.entries()].map(([p, s]) => [p, s.imports?.length ? s : { ...s, imports: undefined }]));
        for (const s of Object.values(expected)) if (s.imports === undefined) delete s.imports;
        assert.deepEqual(plain(back), expected);
        assert.deepEqual(back.skipped, [{ path: 'x.bin', reason: 'binary' }]);
        assert.equal(back.size, entries.length);
        for (const [p, s] of entries) {
          assert.ok(back.has(p));
          // A racy entry never vouches for its file; any other only for exactly its stat.
          assert.equal(back.sameStat(p, s), !s.racy, p);
          for (const field of ['size', 'mtimeMs', 'ctimeMs', 'ino', 'dev'] as const) {
            assert.ok(!back.sameStat(p, { ...s, [field]: s[field] + 1 }), `${p}: ${field} differs`);
          }
        }
        assert.deepEqual(new Map(back.imports()), new Map(entries.filter(([, s]) => s.imports?.length).map(([p, s]) => [p, s.imports])));
        assert.ok(!back.has('missing.ts'));
        assert.equal(back.get('missing.ts'), undefined);
      });
    }
  });

  it('paths are in UTF-16 code-unit order, as discovery sorts them', () => {
    const t = roundTrip(StateTable.of([['b.ts', entry(1)], ['B.ts', entry(2)], ['é.ts', entry(3)], ['a/b.ts', entry(4)], ['a.ts', entry(5)]]));
    assert.deepEqual(t.paths(), ['B.ts', 'a.ts', 'a/b.ts', 'b.ts', 'é.ts']);
  });

  describe('changes over a table read from disk', () => {
    const base = () => roundTrip(StateTable.of([['a.ts', entry(1)], ['b.ts', entry(2)], ['c.ts', entry(3)]], []));
    const cases: Array<[string, Array<[string, FileState | null]>, string[]]> = [
      ['none', [], ['a.ts', 'b.ts', 'c.ts']],
      ['a removal', [['b.ts', null]], ['a.ts', 'c.ts']],
      ['an addition sorted in', [['bb.ts', entry(9)]], ['a.ts', 'b.ts', 'bb.ts', 'c.ts']],
      ['a changed entry', [['c.ts', entry(7)]], ['a.ts', 'b.ts', 'c.ts']],
      ['removing a path the table never had', [['zz.ts', null]], ['a.ts', 'b.ts', 'c.ts']],
    ];
    for (const [name, changes, paths] of cases) {
      it(name, () => {
        const before = base();
        const after = before.withChanges(new Map(changes), [{ path: 'big.txt', reason: 'too-large' }]);
        assert.deepEqual(after.paths(), paths);
        assert.equal(after.size, paths.length);
        for (const [p, s] of changes) {
          assert.deepEqual(after.get(p), s ?? undefined);
          assert.equal(after.has(p), s !== null);
        }
        assert.deepEqual(after.skipped, [{ path: 'big.txt', reason: 'too-large' }]);
        // Immutable: the table the changes were made over is as it was.
        assert.deepEqual(before.paths(), ['a.ts', 'b.ts', 'c.ts']);
        assert.deepEqual(before.get('c.ts'), entry(3));
        // And the changed table survives a round trip.
        assert.deepEqual(plain(roundTrip(after)), plain(after));
      });
    }

    it('later changes win, and a removed path can come back', () => {
      const t = base().withChanges(new Map([['a.ts', null]]), []).withChanges(new Map([['a.ts', entry(5)], ['b.ts', null]]), []);
      assert.deepEqual(t.paths(), ['a.ts', 'c.ts']);
      assert.deepEqual(t.get('a.ts'), entry(5));
      assert.deepEqual([...t.languages()].sort(), [['a.ts', 'typescript'], ['c.ts', 'typescript']]);
      const withImports = t.withChanges(new Map([['c.ts', entry(6, { imports: ['./a'] })]]), []);
      assert.deepEqual([...withImports.imports()], [['c.ts', ['./a']]]);
    });
  });

  describe('paths under a refresh\'s paths, over a table read from disk and its changes', () => {
    const onDisk = ['a', 'a-b/x.ts', 'a.txt', 'a/x.ts', 'a/y/z.ts', 'ab/c.ts', 'b/a/x.ts', 'src/a.ts', 'src/ab.ts', 'src/a/b.ts'];
    // Changes: one file removed, one added in a folder, one added at the top.
    const changes = new Map<string, FileState | null>([['a/x.ts', null], ['a/new.ts', entry(50)], ['a0.ts', entry(51)]]);
    const table = roundTrip(StateTable.of(onDisk.map((p, i) => [p, entry(i)]))).withChanges(changes, []);
    const cases: Array<[prefixes: string[], expected: string[]]> = [
      [['a'], ['a', 'a/new.ts', 'a/y/z.ts']],
      [['a/'], ['a/new.ts', 'a/y/z.ts']],
      [['a/x.ts'], []],
      [['src/a'], ['src/a/b.ts']],
      [['src/a.ts', 'ab'], ['ab/c.ts', 'src/a.ts']],
      [['a0.ts'], ['a0.ts']],
      [['missing'], []],
      [['.'], [...table.paths()]],
    ];
    for (const [prefixes, expected] of cases) {
      it(`${prefixes.join(', ')} -> ${expected.length} paths`, () => assert.deepEqual(table.pathsUnder(prefixes), expected));
    }
    it('lists every path in order and counts them, changes included', () => {
      const all = [...onDisk.filter((p) => p !== 'a/x.ts'), 'a/new.ts', 'a0.ts'].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
      assert.equal(table.size, all.length);
      assert.deepEqual(table.paths(), all);
    });
  });

  describe('a damaged file is refused, never misread', () => {
    const good = (): Uint8Array => encodeStateTable(StateTable.of([['a.ts', entry(1, { imports: ['./b'] })], ['b.ts', entry(2)]]));
    const set32 = (bytes: Uint8Array, offset: number, value: number): Uint8Array => {
      new DataView(bytes.buffer, bytes.byteOffset).setUint32(offset, value, true);
      return bytes;
    };
    const tail = (bytes: Uint8Array, fromEnd: number): number => bytes.length - fromEnd;
    /** The checksum recomputed over the damage (a writer's bug, not bit rot): the structural checks behind it remain. */
    const resealed = (bytes: Uint8Array): Uint8Array => set32(bytes, 8, crc32(bytes.subarray(12)));
    const cases: Array<[string, () => Uint8Array, RegExp]> = [
      ['empty', () => new Uint8Array(0), /not a state file/],
      ['JSON of an older store', () => new TextEncoder().encode('{"files":{},"skipped":[]}'), /not a state file/],
      ['bytes that are not UTF-8', () => new Uint8Array(64).fill(0xff), /not a state file/],
      ['truncated', () => good().subarray(0, 100), /bytes where the layout needs/],
      ['one byte too many', () => { const g = good(); const b = new Uint8Array(g.length + 1); b.set(g); return b; }, /bytes where the layout needs/],
      ['a wrong count', () => set32(good(), 12, 3), /bytes where the layout needs/],
      ['a flipped bit', () => { const b = good(); b[40] = (b[40] as number) ^ 4; return b; }, /checksum mismatch/],
      ['garbage in the header', () => { const b = good(); b[28] = 0x7b + 1; return resealed(b); }, /header is not valid JSON/],
      ['paths out of order', () => {
        const b = good();
        // The last path byte and the imports ('["./b"]' = 7 bytes) end the file: make 'b.ts' into '0.ts'.
        b[tail(b, 7 + 4)] = '0'.charCodeAt(0);
        return resealed(b);
      }, /not sorted/],
      ['a path that is not UTF-8', () => { const b = good(); b[tail(b, 7 + 4)] = 0xff; return resealed(b); }, /not valid UTF-8/],
      // The flags end the entries, before the paths ('a.ts\0b.ts', 9 bytes) and the imports.
      ['a flag this version does not know', () => { const b = good(); b[tail(b, 7 + 9 + 2)] = 2; return resealed(b); }, /unknown flags/],
      ['a state file of the layout before inodes and ctimes', () => { const b = good(); b[7] = '2'.charCodeAt(0); return b; }, /layout 02 where this version reads 03/],
    ];
    for (const [name, damaged, message] of cases) {
      it(name, () => {
        assert.throws(() => decodeStateTable(damaged()), (e: unknown) => e instanceof StateFileError && message.test(e.message));
      });
    }

    describe('16 random bytes flipped anywhere', () => {
      const table = StateTable.of(Array.from({ length: 24 }, (_, i): [string, FileState] => [`src/m${i}/file${i}.ts`, entry(i, { imports: i % 3 ? [`./x${i}`] : undefined, language: i % 4 ? 'typescript' : 'python' })]), [{ path: 'big.bin', reason: 'binary' }]);
      const bytes = encodeStateTable(table);
      for (const trial of flipTrials(seededRandom(7), 30)) {
        it(`at byte ${flipAt(trial, bytes.length)} of ${bytes.length}`, () => {
          assert.throws(() => decodeStateTable(flipped(bytes, trial)), StateFileError);
        });
      }
    });
  });

  it('reads a file that starts at an odd offset of a larger buffer', () => {
    const bytes = encodeStateTable(StateTable.of([['a.ts', entry(1)]]));
    const shifted = new Uint8Array(bytes.length + 3);
    shifted.set(bytes, 3);
    const { columns } = decodeStateTable(shifted.subarray(3));
    assert.deepEqual(columns.entry(0), entry(1));
  });
});
