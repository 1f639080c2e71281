import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import * as zlib from 'node:zlib';
import { crc32, crc32Table } from '../../src/core/index/crc32';
import { CheckedSource, FileSource, memorySource, type ByteSource } from '../../src/core/index/byteSource';
import { Segment } from '../../src/core/index/segment';
import { CorruptDataError } from '../../src/core/index/varint';
import { seededRandom } from '../../src/eval/symbolCheck';
import { SnapshotScorer } from '../../src/core/search/scorer';
import { SymbolIndex } from '../../src/core/search/symbols';
import { FileReader } from '../../src/core/search/hydrate';
import { searchSnapshot } from '../../src/core/search/search';
import { IndexStore } from '../../src/core/store/store';
import { checkAll } from './check';
import { checksumsAt, flipAt, flipped, flipTrials, sectionBounds, type FlipTrial } from './helpers/damage';
import { TempWorkspace } from './helpers/workspace';

describe('CRC-32', () => {
  checkAll(
    [
      { name: 'nothing', input: '', expected: 0 },
      { name: 'the check value of CRC-32/ISO-HDLC', input: '123456789', expected: 0xcbf43926 },
      { name: 'a sentence', input: 'The quick brown fox jumps over the lazy dog', expected: 0x414fa339 },
    ],
    (text) => {
      const bytes = new TextEncoder().encode(text);
      const table = crc32Table(bytes);
      assert.equal(crc32(bytes), table, 'zlib and the table agree');
      return table;
    },
  );

  it('the table version gives zlib\'s value for any bytes, in one piece or continued across pieces', () => {
    const bytes = randomBytes(10_000);
    const expected = (zlib as { crc32?: (b: Uint8Array) => number }).crc32?.(bytes) ?? crc32(bytes);
    for (const length of [0, 1, 7, 8, 9, 4095, 4096, 10_000]) {
      assert.equal(crc32Table(bytes.subarray(0, length)), crc32(bytes.subarray(0, length)), `${length} bytes`);
    }
    for (const cut of [0, 1, 3, 4096, 9999]) {
      assert.equal(crc32Table(bytes.subarray(cut), crc32Table(bytes.subarray(0, cut))), expected, `cut at ${cut}`);
    }
  });
});

describe('a checked source reads pages whole the first time, checks them once, and returns exactly the bytes asked for', () => {
  const PAGE = 4096;
  const dataEnd = 75 * PAGE + 1000; // a short last page
  const data = randomBytes(dataEnd);
  const sums = new DataView(new ArrayBuffer(4 * Math.ceil(dataEnd / PAGE)));
  for (let p = 0; p * PAGE < dataEnd; p++) sums.setUint32(4 * p, crc32(data.subarray(p * PAGE, Math.min((p + 1) * PAGE, dataEnd))), true);
  const file = Buffer.concat([data, new Uint8Array(sums.buffer)]);
  let dir: string;
  const opened: FileSource[] = [];
  before(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-checked-'))));
  after(() => {
    for (const s of opened) s.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A source over `bytes` (from a file or memory) that counts the bytes it reads. */
  const counted = (bytes: Uint8Array, inFile: boolean) => {
    let raw: ByteSource = memorySource(bytes);
    if (inFile) {
      const name = path.join(dir, `c${Math.random()}.bin`);
      fs.writeFileSync(name, bytes);
      const f = new FileSource(name);
      opened.push(f);
      raw = f;
    }
    const count = { bytes: 0 };
    const wrapped: ByteSource = {
      length: raw.length,
      inMemory: raw.inMemory,
      read: (o, l) => ((count.bytes += l), raw.read(o, l)),
      readInto: raw.readInto && ((o, into) => ((count.bytes += into.length), raw.readInto!(o, into))),
    };
    return { source: new CheckedSource(wrapped, dataEnd, () => 'test'), count };
  };
  // [offset, length]: inside one page, across pages, longer than the 64 KB read whole before copying, all.
  const reads: Array<[number, number]> = [[0, 1], [4095, 2], [5000, 100], [PAGE, PAGE], [10, 70_000], [1000, 200_000], [dataEnd - 5, 5], [0, dataEnd]];
  const flipAtByte = 9 * PAGE + 77;
  for (const inFile of [true, false]) {
    const where = inFile ? 'from a file' : 'in memory';
    checkAll(reads.map(([offset, length]) => ({ name: `${length} bytes at ${offset}, ${where}`, input: [offset, length] as const, expected: true })), ([offset, length]) => {
      const { source } = counted(file, inFile);
      assert.deepEqual(Buffer.from(source.read(offset, length)), data.subarray(offset, offset + length));
      const into = new Uint8Array(length);
      source.readInto(offset, into);
      assert.deepEqual(Buffer.from(into), data.subarray(offset, offset + length));
      // A flip fails the reads that touch its page, and no other.
      const damaged = Buffer.from(file);
      damaged[flipAtByte] = (damaged[flipAtByte] as number) ^ 0x20;
      const touches = Math.floor(offset / PAGE) <= Math.floor(flipAtByte / PAGE) && Math.floor(flipAtByte / PAGE) <= Math.floor((offset + length - 1) / PAGE);
      const read = () => counted(damaged, inFile).source.read(offset, length);
      if (touches) assert.throws(read, /test: checksum mismatch in bytes 36864\.\.40960/);
      else assert.deepEqual(Buffer.from(read()), data.subarray(offset, offset + length));
      return true;
    });
  }

  it('a page once checked is read as asked, not whole again', () => {
    const { source, count } = counted(file, true);
    source.read(5000, 100);
    assert.equal(count.bytes, PAGE + 4 * Math.ceil(dataEnd / PAGE), 'the page, and the checksums that share a 4 KB page of the file');
    count.bytes = 0;
    source.read(5100, 10);
    source.read(PAGE, 1);
    assert.equal(count.bytes, 11);
  });
});

/** A small workspace of code and docs: a segment of a few dozen 4 KB pages, several sections over 16 KB. */
function fixture(): Record<string, string> {
  const files: Record<string, string> = {};
  const words = ['session', 'cookie', 'header', 'router', 'token', 'cache', 'stream', 'buffer', 'query', 'render', 'signal', 'queue'];
  for (let f = 0; f < 40; f++) {
    const w = (k: number) => words[(f + k) % words.length] as string;
    const fns = Array.from({ length: 8 }, (_, k) => [
      `/** Reads the ${w(k)} of a ${w(k + 1)} and returns its ${w(k + 2)}. */`,
      `export function ${w(k)}${f}From${w(k + 3)}${k}(input: string, limit = ${k}): string {`,
      `  const ${w(k + 1)} = input.split('${w(k + 4)}').slice(0, limit);`,
      `  return ${w(k + 1)}.join('${w(k + 5)}') + ${JSON.stringify(`${w(k)} ${f} ${k}`)};`,
      '}',
    ].join('\n'));
    const cls = [`export class ${w(2)}Store${f} {`, `  private readonly items = new Map<string, number>();`, `  ${w(3)}Count(): number {`, '    return this.items.size;', '  }', '}'].join('\n');
    files[`src/${w(0)}/module${f}.ts`] = `${fns.join('\n\n')}\n\n${cls}\n`;
  }
  for (let d = 0; d < 6; d++) {
    files[`docs/guide${d}.md`] = Array.from({ length: 6 }, (_, s) => `## ${words[(d + s) % words.length]} handling\n\nThe ${words[(d + s + 1) % words.length]} is kept until the ${words[(d + s + 2) % words.length]} expires; see section ${s}.\n`).join('\n');
  }
  return files;
}

/** A segment read from its own file on demand, as a store opens it. */
function openFile(dir: string, bytes: Uint8Array, name = 'seg-flip.cseg'): { segment: Segment; source: FileSource } {
  const file = path.join(dir, name);
  fs.writeFileSync(file, bytes);
  const source = new FileSource(file);
  try {
    return { segment: new Segment(name, source), source };
  } catch (e) {
    source.close();
    throw e;
  }
}

/** Every byte's worth of what a segment holds, read through its public API. */
function everything(seg: Segment): unknown {
  const docs = Array.from({ length: seg.docCount }, (_, d) => [seg.docStart.at(d), seg.docEnd.at(d), seg.startByteOf(d), seg.docKind.at(d), seg.docFlags.at(d), seg.id(d), seg.symbolOf(d), seg.contextOf(d), seg.rawRecord(d)]);
  const terms = seg.terms().map((t, i) => [t, seg.df(i), seg.fileDf(i), [...seg.readPostings(i).docs], [...seg.readPostings(i).tfs], [...seg.filePostings(i).files], [...seg.filePostings(i).tfs]]);
  const dictionary = seg.symbolDictionary();
  const symbols = { names: [...dictionary.all()], initials: [...dictionary.withInitials('')] };
  const occurrences = [...seg.occurrenceTable().all()].map((l) => [l.name, [...l.docs], [...l.lineOffsets], [...l.columns], [...l.roles]]);
  return { docs, terms, lengths: [...seg.allFieldLengths()], files: seg.files, totals: [...seg.fieldTotals], symbols, occurrences };
}

/** What a user sees for a few queries and a symbol lookup, answered from `seg` alone. */
function answers(seg: Segment, root: string, manifest: ReturnType<IndexStore['readManifest']>): string {
  const snapshot = { manifest: manifest!, segments: [seg], deleted: [new Uint8Array(seg.docCount)] };
  const scorer = new SnapshotScorer(snapshot);
  const symbols = new SymbolIndex(snapshot);
  const reader = new FileReader(root);
  const out = [
    searchSnapshot(scorer, symbols, reader, 'session7FromStream3', { crossReferences: false }),
    searchSnapshot(scorer, symbols, reader, 'cookie expires', { crossReferences: false, limit: 5 }),
    searchSnapshot(scorer, symbols, reader, 'render', { crossReferences: false, limit: 3 }),
    symbols.find('QueryStore', { limit: 3 }),
  ];
  return JSON.stringify(out, (k, v: unknown) => (k === 'tookMs' ? undefined : v));
}

type Outcome<T> = { corrupt: string } | { value: T };
function outcome<T>(read: () => T): Outcome<T> {
  try {
    return { value: read() };
  } catch (e) {
    if (e instanceof CorruptDataError) return { corrupt: e.message };
    throw e;
  }
}

describe('segment checksums: random 16-byte flips in a real segment', function () {
  this.timeout(60000);
  let ws: TempWorkspace;
  let scratch: string;
  let intact: Uint8Array;
  let manifest: ReturnType<IndexStore['readManifest']>;
  let intactAll: unknown;
  let intactAnswers: string;
  const noticedByQueries: boolean[] = [];

  before(async () => {
    ws = new TempWorkspace(fixture());
    await ws.engine().refresh();
    manifest = new IndexStore(ws.storeDir).readManifest();
    assert.equal(manifest?.segments.length, 1);
    intact = fs.readFileSync(path.join(ws.storeDir, manifest!.segments[0]!.name));
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-flip-'));
    const all = openFile(scratch, intact, 'seg-intact.cseg');
    intactAll = everything(all.segment);
    const lazy = openFile(scratch, intact, 'seg-intact.cseg');
    intactAnswers = answers(lazy.segment, ws.root, manifest);
    all.source.close();
    lazy.source.close();
  });
  after(async () => {
    await ws.dispose();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  it('the fixture is a real segment of many pages, whose queries read only some of them', () => {
    assert.ok(intact.length > 16 * 4096, `${intact.length} bytes`);
    assert.ok(sectionBounds(intact, 15).length > 16 * 1024, 'the postings are read lazily, not whole on first use');
    assert.ok(JSON.parse(intactAnswers)[0].hits.length > 0);
  });

  // Evenly spread flips (one per 1/40 of the file), then the parts that are not sections.
  const trials: Array<[string, FlipTrial, ((bytes: Uint8Array) => number)?]> = flipTrials(seededRandom(20240611), 40).map((t) => [`in slice ${t.slice + 1} of ${t.slices}`, t]);
  const [extra] = flipTrials(seededRandom(5), 1) as [FlipTrial];
  trials.push(
    ['over the header', extra, () => 12],
    ['over the section table', extra, () => 100],
    ['over the padding after a section', extra, (b) => {
      const padded = Array.from({ length: 32 }, (_, i) => sectionBounds(b, i)).find((s) => s.length % 8 !== 0);
      assert.ok(padded, 'some section is padded');
      return padded.offset + padded.length;
    }],
    ['over the page checksums', extra, (b) => checksumsAt(b)],
    ['over the trailer', extra, (b) => b.length - 16],
  );
  for (const [name, trial, place] of trials) {
    it(`a flip ${name} is reported when read, and a query either reports it or reads past it unchanged`, () => {
      const at = place ? place(intact) : flipAt(trial, intact.length);
      const damaged = flipped(intact, trial, at);
      // Every byte of the file is checked by the time all of it is read.
      const opened = outcome(() => openFile(scratch, damaged));
      if ('value' in opened) {
        const all = outcome(() => everything(opened.value.segment));
        opened.value.source.close();
        assert.ok('corrupt' in all, `a flip at ${at} read back ${JSON.stringify(all) === JSON.stringify({ value: intactAll }) ? 'unchanged' : 'CHANGED'}, without a CorruptDataError`);
      }
      // A query reads only the pages it needs: the damage is reported, or it changes nothing.
      const query = outcome(() => {
        const { segment, source } = openFile(scratch, damaged);
        try {
          return answers(segment, ws.root, manifest);
        } finally {
          source.close();
        }
      });
      if ('value' in query) assert.equal(query.value, intactAnswers, `a flip at ${at} changed the answers without a CorruptDataError`);
      else assert.match(query.corrupt, /seg-flip\.cseg/, 'the message names the segment');
      noticedByQueries.push('corrupt' in query);
    });
  }

  it('queries noticed some flips and, reading lazily, never read others', () => {
    assert.ok(noticedByQueries.some((n) => n) && noticedByQueries.some((n) => !n), JSON.stringify(noticedByQueries));
  });
});

describe('segment checksums: a flip on disk, through the engine', function () {
  this.timeout(60000);
  /** Where to flip in the segment file: [what, place given the file and its segment]. */
  const cases: Array<[string, (bytes: Uint8Array, seg: Segment) => number]> = [
    ['the section table (checked on open)', () => 64],
    ['the postings of the searched word (checked mid-query)', (bytes, seg) => {
      const t = seg.findTerm('cookie');
      assert.ok(t >= 0 && seg.df(t) > 0, 'the fixture has the word');
      const offsets = sectionBounds(bytes, 13).offset;
      return sectionBounds(bytes, 15).offset + new DataView(bytes.buffer, bytes.byteOffset).getUint32(offsets + 4 * t, true);
    }],
  ];
  for (const [name, place] of cases) {
    it(`a flip in ${name} gives a store-corrupt diagnostic and the intact answer, from a rebuilt index`, async () => {
      const ws = new TempWorkspace(fixture());
      try {
        const first = await ws.engine().search('cookie', { limit: 5 });
        assert.ok(first.results.length > 0);
        const file = path.join(ws.storeDir, new IndexStore(ws.storeDir).readManifest()!.segments[0]!.name);
        const bytes = fs.readFileSync(file);
        const source = new FileSource(file);
        const at = place(bytes, new Segment('seg-x.cseg', source));
        source.close();
        const [trial] = flipTrials(seededRandom(3), 1) as [FlipTrial];
        fs.writeFileSync(file, flipped(bytes, trial, at));

        const after = await ws.engine().search('cookie', { limit: 5 });
        const hits = (r: typeof first) => r.results.map((h) => [h.path, h.startLine, h.endLine, h.score, h.symbol, h.preview]);
        assert.deepEqual(hits(after), hits(first));
        const corrupt = after.diagnostics.filter((d) => d.code === 'store-corrupt');
        assert.equal(corrupt.length, 1, JSON.stringify(after.diagnostics));
        assert.match(corrupt[0]!.message, /seg-[\w-]+\.cseg .*checksum mismatch/);
        // The rebuilt store is sound: the next process answers without a diagnostic.
        const again = await ws.engine().search('cookie', { limit: 5 });
        assert.deepEqual(hits(again), hits(first));
        assert.deepEqual(again.diagnostics.filter((d) => d.code === 'store-corrupt'), []);
      } finally {
        await ws.dispose();
      }
    });
  }
});
