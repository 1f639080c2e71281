import * as assert from 'node:assert/strict';
import { LENGTH_PAGE_SHIFT, LENGTH_PAGE_SLOTS, Segment } from '../../src/core/index/segment';
import { SegmentBuilder } from '../../src/core/index/segmentBuilder';
import { mergeSegments } from '../../src/core/index/merge';
import { CorruptDataError } from '../../src/core/index/varint';
import { FileSource } from '../../src/core/index/byteSource';
import { resealed, sectionBounds, withSectionFilled } from './helpers/damage';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { FIELDS } from '../../src/core/index/fields';
import { makeChunkId, makeDocid } from '../../src/core/chunking/ids';
import type { Chunk, ChunkKind } from '../../src/core/types';

/** Runs `check` with the segment `bytes` written to a file in a scratch folder, removed after. */
function withSegmentFile(bytes: Uint8Array, check: (file: string) => void): void {
  const dir = fs.mkdtempSync(nodePath.join(os.tmpdir(), 'cairn-seg-'));
  try {
    const file = nodePath.join(dir, 'seg.cseg');
    fs.writeFileSync(file, bytes);
    check(file);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function chunk(path: string, start: number, end: number, kind: ChunkKind, symbol: string, text: string): Chunk {
  return { docid: makeDocid(path, start, end), id: makeChunkId(path, kind, symbol, start, text), path, startLine: start, endLine: end, text, language: 'typescript', kind, symbol, context: symbol, signature: `function ${symbol}()` };
}

/** One document's field lengths, read into an array of the caller's own. */
function lengthsOf(seg: Segment, doc: number): number[] {
  const out = new Uint16Array(FIELDS.length);
  seg.readFieldLengths(doc, out, 0);
  return [...out];
}

function build(files: Array<[string, Chunk[]]>): Uint8Array {
  const b = new SegmentBuilder();
  for (const [path, chunks] of files) b.addFile({ path, size: 10, mtimeMs: 1, hash: 'h', language: 'typescript' }, chunks);
  return b.build();
}

/**
 * A copy of a segment whose postings section is all 0xff bytes (section 15, see SECTION), its
 * checksums recomputed: for the decoder's own checks behind them.
 */
function withPostingsOverwritten(bytes: Uint8Array): Uint8Array {
  return resealed(withSectionFilled(bytes, 15, 0xff));
}

const sample: Array<[string, Chunk[]]> = [
  ['src/a.ts', [chunk('src/a.ts', 1, 3, 'function', 'loadUser', 'function loadUser(id) { return fetchUser(id) }'), chunk('src/a.ts', 5, 9, 'class', 'UserStore', 'class UserStore { users = new Map() }')]],
  ['src/b.ts', [chunk('src/b.ts', 1, 2, 'function', 'saveUser', 'function saveUser(user) { db.write(user) }')]],
];

describe('segment format', () => {
  it('round-trips documents, metadata and postings', () => {
    const seg = new Segment('seg-test.cseg', build(sample));
    assert.equal(seg.docCount, 3);
    assert.deepEqual(seg.files.map((f) => [f.path, f.firstDoc, f.docCount]), [['src/a.ts', 0, 2], ['src/b.ts', 2, 1]]);
    assert.deepEqual(seg.symbols(), ['loadUser', 'UserStore', 'saveUser']);
    assert.equal(seg.kindOf(1), 'class');
    assert.equal(seg.record(0).signature, 'function loadUser()');
    assert.equal(seg.id(2), sample[1]![1][0]!.id);
    assert.deepEqual(seg.contexts(), ['loadUser', 'UserStore', 'saveUser']);
    const t = seg.findTerm('user');
    assert.ok(t >= 0);
    const p = seg.postings(t);
    assert.deepEqual([...p.docs], [0, 1, 2]);
    // `user` is a part of the symbol loadUser (doc 0) and appears in doc 2's body twice.
    assert.equal(p.tfs[0 * FIELDS.length + FIELDS.indexOf('symbol')], 1);
    assert.equal(p.tfs[2 * FIELDS.length + FIELDS.indexOf('body')], 3);
    assert.equal(seg.findTerm('nosuchterm'), -1);
    assert.deepEqual(seg.terms(), [...seg.terms()].sort());
  });

  it('indexes path terms once per file, not per chunk', () => {
    const seg = new Segment('seg-p.cseg', build(sample));
    const t = seg.findTerm('src');
    assert.equal(seg.df(t), 0, 'no chunk posting for a path-only term');
    assert.equal(seg.fileDf(t), 2);
    assert.deepEqual([...seg.filePostings(t).files], [0, 1]);
    assert.deepEqual(seg.files.map((f) => f.pathLength), [2, 2], '"src" and "ts"; one-letter names are not tokens');
    const a = seg.findTerm('user');
    assert.equal(seg.fileDf(a), 0, '"user" is in the text, not in any path');
  });

  it('keeps every file entry exactly: odd paths, languages, sizes, mtimes, hashes, files without chunks', () => {
    const files = [
      { path: 'docs/ünïcode 😀.md', size: 0, mtimeMs: 1732924800123.456, hash: 'a'.repeat(64), language: 'markdown' },
      { path: 'src/new\nline.ts', size: 2 ** 40, mtimeMs: 0, hash: '', language: 'typescript' },
      { path: 'empty.txt', size: 5, mtimeMs: 7, hash: 'h3', language: 'text' },
      { path: 'src/z.ts', size: 9, mtimeMs: 8, hash: 'h4', language: 'typescript' },
    ];
    const b = new SegmentBuilder();
    files.forEach((f, i) => b.addFile(f, i === 2 ? [] : [chunk(f.path, 1, 2, 'function', `f${i}`, `function f${i}() {}`)]));
    const seg = new Segment('seg-f.cseg', b.build());
    assert.equal(seg.fileCount, 4);
    assert.deepEqual(
      seg.files.map((f) => ({ path: f.path, size: f.size, mtimeMs: f.mtimeMs, hash: f.hash, language: f.language })),
      files,
    );
    assert.deepEqual(seg.files.map((f) => [f.firstDoc, f.docCount]), [[0, 1], [1, 1], [2, 0], [2, 1]]);
    assert.deepEqual([0, 1, 2].map((d) => seg.pathOf(d)), ['docs/ünïcode 😀.md', 'src/new\nline.ts', 'src/z.ts']);
    assert.deepEqual([0, 1, 2].map((d) => seg.fileIndexOf(d)), [0, 1, 3], 'an empty file owns no document');
    assert.throws(() => seg.fileIndexOf(3), CorruptDataError);
    assert.equal(seg.fileOf(2), seg.file(3), 'a file entry is decoded once');
  });

  it('gives the same paths read one by one, past the point where it decodes them all, from a file', () => {
    // 1,500 files with non-ASCII paths: the first 1,024 are decoded one at a time, then all at once.
    const paths = Array.from({ length: 1500 }, (_, i) => `pkg/ü${i % 7}/file ${i}.ts`);
    const b = new SegmentBuilder();
    for (const p of paths) b.addFile({ path: p, size: 1, mtimeMs: 1, hash: 'h', language: 'typescript' }, [chunk(p, 1, 1, 'function', 'f', 'function f() {}')]);
    withSegmentFile(b.build(), (file) => {
      const source = new FileSource(file);
      try {
        const seg = new Segment('seg-p.cseg', source);
        const order = paths.map((_, i) => (i * 7919) % paths.length); // every file once, scattered
        for (const i of order) assert.equal(seg.filePath(i), paths[i]);
        assert.deepEqual(seg.files.map((f) => f.path), paths);
      } finally {
        source.close();
      }
    });
  });

  it('records: bare signatures, JSON when needed, long signatures cut for display', () => {
    const base = chunk('r.ts', 1, 1, 'function', 'f', 'x');
    const cases: Array<[Partial<Chunk>, object]> = [
      [{ signature: 'function f(a: string)' }, { signature: 'function f(a: string)' }],
      [{ signature: '{ a, b } = props' }, { signature: '{ a, b } = props' }],
      [{ signature: 'def f(self)', decorators: ['@cached'] }, { signature: 'def f(self)', decorators: ['@cached'] }],
      [{ signature: undefined, visibility: 'private' }, { visibility: 'private' }],
      [{ signature: undefined }, {}],
      [{ signature: `f(${'x'.repeat(300)})` }, { signature: `f(${'x'.repeat(158)}…` }],
    ];
    const b = new SegmentBuilder();
    b.addFile({ path: 'r.ts', size: 1, mtimeMs: 1, hash: 'h', language: 'typescript' }, cases.map(([c], i) => ({ ...base, ...c, startLine: i + 1, endLine: i + 1 })));
    const seg = new Segment('seg-r.cseg', b.build());
    assert.deepEqual(cases.map((_, i) => seg.record(i)), cases.map(([, e]) => e));
  });

  it('a segment read from its file on demand answers exactly like one in memory, and merges', () => {
    const bytes = build(sample);
    withSegmentFile(bytes, (file) => {
      const mem = new Segment('seg-m.cseg', bytes);
      const source = new FileSource(file);
      const onDisk = new Segment('seg-f.cseg', source);
      const describe = (seg: Segment) => ({
        docs: Array.from({ length: seg.docCount }, (_, d) => [seg.docStart.at(d), seg.docEnd.at(d), seg.id(d), seg.symbolOf(d), seg.contextOf(d), seg.record(d), seg.rawRecord(d)]),
        terms: seg.terms().map((t, i) => [t, seg.df(i), seg.fileDf(i), [...seg.postings(i).docs], [...seg.filePostings(i).files]]),
    });
    assert.deepEqual(describe(onDisk), describe(mem));
    const merged = new Segment('seg-x.cseg', mergeSegments([{ segment: onDisk, deleted: new Uint8Array(onDisk.docCount) }]));
    assert.deepEqual(describe(merged), describe(mem));
    source.close();
    const other = new FileSource(file);
    const unread = new Segment('seg-f.cseg', other);
    other.close();
    assert.throws(() => unread.record(0), /closed/, 'a closed source refuses reads instead of returning garbage');
    });
  });

  it('stores breadcrumbs compactly and gives them back exactly', () => {
    const cases: Array<[string, string]> = [['Linux', 'Install > Linux'], ['send', 'HttpClient::send'], ['Bar', 'fooBar'], ['x', ''], ['', ''], ['run', 'A.B.run'], ['m', 'K#m'], ['n', 'n']];
    const b = new SegmentBuilder();
    b.addFile({ path: 'a.md', size: 1, mtimeMs: 1, hash: 'h', language: 'markdown' }, cases.map(([symbol, context], i) => ({ ...chunk('a.md', i + 1, i + 1, 'section', symbol, 'text'), context })));
    const seg = new Segment('seg-c.cseg', b.build());
    assert.deepEqual(seg.contexts(), cases.map(([, context]) => context));
    assert.deepEqual(seg.symbols(), cases.map(([symbol]) => symbol));
  });

  it('finds one row of a many-stride column from its file without reading the whole column', () => {
    // 300 documents over a few files: rows across strides, empty symbols, multi-byte text, breadcrumbs.
    const files: Array<[string, Chunk[]]> = [];
    for (let f = 0; f < 5; f++) {
      const p = `src/f${f}.ts`;
      files.push([p, Array.from({ length: f === 2 ? 0 : 75 }, (_, i) => {
        const symbol = i % 9 === 0 ? '' : `sym_${f}_${i}${i % 7 === 0 ? '_ünï' : ''}`;
        return { ...chunk(p, i + 1, i + 1, 'function', symbol, 'x'), context: i % 5 === 0 && symbol ? `Outer${f}.${symbol}` : symbol };
      })]);
    }
    const b = new SegmentBuilder();
    for (const [p, chunks] of files) b.addFile({ path: p, size: 1, mtimeMs: 1, hash: 'h', language: 'typescript' }, chunks);
    const bytes = b.build();
    withSegmentFile(bytes, (file) => {
      const expected = files.flatMap(([, chunks]) => chunks);
      const source = new FileSource(file);
      const seg = new Segment('seg-r.cseg', source);
      assert.equal(seg.docCount, 300);
      for (const d of [0, 1, 63, 64, 65, 127, 128, 200, 255, 256, 299]) {
        assert.equal(seg.symbolOf(d), expected[d]!.symbol, `symbol of ${d}`);
        assert.equal(seg.contextOf(d), expected[d]!.context, `context of ${d}`);
        assert.equal(seg.fileOf(d).path, expected[d]!.path, `file of ${d}`);
      }
      assert.deepEqual(seg.symbols(), expected.map((c) => c.symbol));
      source.close();
    });
  });

  it('a warmed segment answers like a fresh one, reading nothing but postings from its file', () => {
    // Enough documents and terms that every column is past the small-section size (16 KB).
    const files: Array<[string, Chunk[]]> = [];
    for (let f = 0; f < 40; f++) {
      const p = `src/mod${f}/file_${f}.ts`;
      files.push([p, Array.from({ length: 60 }, (_, i) => ({ ...chunk(p, 3 * i + 1, 3 * i + 2, 'function', `handler_${f}_${i}Ünï`, `call${f}x${i} shared${i % 7} word${(f * 60 + i) % 997} everywhere`), signature: `function handler_${f}_${i}()` }))]);
    }
    const b = new SegmentBuilder();
    for (const [p, chunks] of files) b.addFile({ path: p, size: 1, mtimeMs: 1, hash: 'h', language: 'typescript' }, chunks);
    const bytes = b.build();
    withSegmentFile(bytes, (file) => {
      const reference = new Segment('seg-w.cseg', bytes);
      const source = new FileSource(file);
      let reads = 0;
      const counting = {
        length: source.length,
        read: (o: number, l: number) => (reads++, source.read(o, l)),
        readInto: (o: number, into: Uint8Array) => (reads++, source.readInto(o, into)),
      };
      const seg = new Segment('seg-w.cseg', counting);
      seg.warmForQueries();
      const answer = (s: Segment) =>
        ['call7x3', 'shared2', 'word500', 'handler_3_4ünï', 'mod9', 'missing'].map((t) => {
          const i = s.findTerm(t);
          const docs = i >= 0 && s.df(i) > 0 ? [...s.postings(i).docs] : [];
          return { t, i, docs, files: i >= 0 && s.fileDf(i) > 0 ? [...s.filePostings(i).files] : [], rows: docs.slice(0, 3).map((d) => [s.symbolOf(d), s.contextOf(d), s.record(d), s.id(d), s.docStart.at(d), s.docEnd.at(d), s.startByteOf(d), s.fileOf(d).path, lengthsOf(s, (d >>> 9) << 9), lengthsOf(s, d)]) };
        });
      reads = 0;
      const warm = answer(seg);
      const termsWithPostings = warm.filter((w) => w.docs.length > 0).length;
      const termsWithFiles = warm.filter((w) => w.files.length > 0).length;
      assert.deepEqual(warm, answer(reference));
      // One read per postings list and per path postings list; the file table's sizes and hashes are not warmed.
      assert.ok(reads <= termsWithPostings + termsWithFiles + 2, `${reads} reads`);
      // The most common words' postings are decoded ahead too.
      seg.warmPostings();
      reads = 0;
      assert.deepEqual([...seg.postings(seg.findTerm('everywhere')).docs], [...reference.postings(reference.findTerm('everywhere')).docs]);
      assert.equal(reads, 0);
      source.close();
    });
  });

  it('reads field lengths from its file in reused page buffers, exactly as the column read whole, in any order', () => {
    // More pages than buffers, with chunks of varied lengths, visited out of order so pages share
    // buffers and come back after others took them.
    const files: Array<[string, Chunk[]]> = [];
    for (let f = 0; f < 160; f++) {
      const p = `src/lengths/f${f}.ts`;
      files.push([p, Array.from({ length: 60 }, (_, i) => chunk(p, 2 * i + 1, 2 * i + 2, 'function', `fn${f}_${i}`, `word${i} `.repeat(1 + ((f * 60 + i) % 37))))]);
    }
    const bytes = build(files);
    withSegmentFile(bytes, (file) => {
      const reference = new Segment('seg-l.cseg', bytes);
      const source = new FileSource(file);
      const seg = new Segment('seg-l.cseg', source);
      const pages = Math.ceil(seg.docCount / (1 << LENGTH_PAGE_SHIFT));
      assert.ok(pages > LENGTH_PAGE_SLOTS + 1, `${pages} pages`);
      const expected = reference.allFieldLengths();
      const lens = new Uint16Array(FIELDS.length);
      for (let i = 0; i < 3 * seg.docCount; i += 7) {
        const doc = (i * 7919) % seg.docCount;
        seg.readFieldLengths(doc, lens, 0);
        assert.deepEqual([...lens], [...expected.subarray(doc * FIELDS.length, (doc + 1) * FIELDS.length)], `document ${doc}`);
      }
      // Whole pages, in an order where pages share buffers and come back after others took them.
      for (const page of [0, LENGTH_PAGE_SLOTS, 0, pages - 1, pages - 1 - LENGTH_PAGE_SLOTS, 1, pages - 1]) {
        const first = page << LENGTH_PAGE_SHIFT;
        const end = Math.min(first + (1 << LENGTH_PAGE_SHIFT), seg.docCount);
        const read: number[] = [];
        for (let doc = first; doc < end; doc++) read.push(...lengthsOf(seg, doc));
        assert.deepEqual(read, [...expected.subarray(first * FIELDS.length, end * FIELDS.length)], `page ${page}`);
        for (const doc of [first, end - 1]) assert.equal(seg.fieldLength(doc, 4), expected[doc * FIELDS.length + 4], `document ${doc}'s body`);
      }
      assert.throws(() => seg.readFieldLengths(seg.docCount, lens, 0), CorruptDataError);
      assert.throws(() => seg.fieldLength(seg.docCount, 0), CorruptDataError);
      source.close();
    });
  });

  it('an answer read from a segment file stays as it was however much is read after it', () => {
    // Read buffers are reused: more length pages than buffers, deflated and plain postings
    // lists, path postings, dictionary blocks and string blocks, all read from the file.
    const files: Array<[string, Chunk[]]> = [];
    for (let f = 0; f < 160; f++) {
      const p = `src/held${f % 9}/f${f}.ts`;
      files.push([p, Array.from({ length: 60 }, (_, i) => chunk(p, 2 * i + 1, 2 * i + 2, 'function', `fn${f}_${i}`, `common word${i} w${f}x ${'filler '.repeat(1 + ((f * 60 + i) % 37))}`))]);
    }
    const bytes = build(files);
    withSegmentFile(bytes, (file) => {
      const reference = new Segment('seg-h.cseg', bytes);
      const source = new FileSource(file);
      const seg = new Segment('seg-h.cseg', source);
      const lastPage = ((seg.docCount - 1) >>> LENGTH_PAGE_SHIFT) << LENGTH_PAGE_SHIFT;
      /** Answers of every kind, as a caller holds them: typed arrays and objects, not copies. */
      const answers = (s: Segment) => {
        const lens = [0, 1, lastPage].map((doc) => {
          const out = new Uint16Array(FIELDS.length);
          s.readFieldLengths(doc, out, 0);
          return out;
        });
        const terms = ['common', 'word7', 'w3x', 'held4', 'fn42_7'].map((t) => s.findTerm(t));
        return {
          lens,
          postings: terms.map((i) => (s.df(i) > 0 ? s.postings(i) : undefined)),
          read: terms.map((i) => (s.df(i) > 0 ? s.readPostings(i) : undefined)),
          files: terms.map((i) => (s.fileDf(i) > 0 ? s.filePostings(i) : undefined)),
          termAt: terms.map((i) => s.termAt(i)),
          rows: [0, 700, seg.docCount - 1].map((d) => [s.symbolOf(d), s.contextOf(d), s.record(d), s.id(d), s.pathOf(d)]),
        };
      };
      const held = answers(seg);
      // Everything else, read from the file through the same buffers.
      const lens = new Uint16Array(FIELDS.length);
      for (let doc = seg.docCount - 1; doc >= 0; doc -= 37) seg.readFieldLengths(doc, lens, 0);
      for (let i = 0; i < seg.termCount; i += 7) {
        if (seg.df(i) > 0) seg.readPostings(i);
        if (seg.fileDf(i) > 0) seg.filePostings(i);
        seg.findTerm(`${seg.termAt(i)}0`);
      }
      for (let d = 0; d < seg.docCount; d += 301) seg.record(d);
      assert.ok(held.postings.some((p) => p && p.docs.length >= 1024), 'a list long enough to be deflated');
      assert.deepEqual(held, answers(reference));
      source.close();
    });
  });

  it('looks terms up in a many-block dictionary read from its file, exactly as in the whole list', () => {
    // 600 distinct identifiers, some non-ASCII: about ten dictionary blocks.
    const words = Array.from({ length: 600 }, (_, i) => `w${(i * 7919) % 1000}${i % 50 === 0 ? 'é' : ''}x${i}`);
    const b = new SegmentBuilder();
    b.addFile({ path: 'src/words.ts', size: 1, mtimeMs: 1, hash: 'h', language: 'typescript' }, words.map((w, i) => chunk('src/words.ts', i + 1, i + 1, 'function', w, `function ${w}() {}`)));
    const bytes = b.build();
    withSegmentFile(bytes, (file) => {
      const whole = new Segment('seg-m.cseg', bytes).terms();
      assert.ok(whole.length > 5 * 64, `only ${whole.length} terms`);
      const probes = [...whole.filter((_, i) => i % 7 === 0), '', '0', 'a', 'w5', 'w999', 'w999z', 'zzzz', 'é', whole[64]!, whole[128]!, `${whole[63]!}0`];
      for (const probe of probes) {
        // A fresh segment per probe: every lookup goes through the block index, never a loaded list.
        const source = new FileSource(file);
        const seg = new Segment('seg-d.cseg', source);
        const expectedFind = whole.indexOf(probe);
        assert.equal(seg.findTerm(probe), expectedFind, `findTerm(${JSON.stringify(probe)})`);
        let lb = whole.findIndex((t) => t >= probe);
        if (lb < 0) lb = whole.length;
        assert.equal(seg.lowerBound(probe), lb, `lowerBound(${JSON.stringify(probe)})`);
        if (lb < whole.length) assert.equal(seg.termAt(lb), whole[lb]);
        source.close();
      }
    });
  });

  describe('long postings lists are stored deflated and read back exactly', () => {
    // 800 chunks that all say `common` (a list far over the deflate threshold) and a few `rare`.
    const many: Array<[string, Chunk[]]> = Array.from({ length: 40 }, (_, f) => [
      `src/m${f}.ts`,
      Array.from({ length: 20 }, (_, k) => chunk(`src/m${f}.ts`, k * 3 + 1, k * 3 + 2, 'function', `f${f}_${k}`, `common common ${k % 7 === 0 ? 'rare' : 'x'} ${'common '.repeat(k % 4)}`)),
    ]);
    const bytes = build(many);
    const seg = new Segment('seg-many.cseg', bytes);
    const expectedCommon = (f: number) => 2 + (f % 4);

    it('a deflated list and a plain one give their documents and frequencies', () => {
      const common = seg.postings(seg.findTerm('common'));
      assert.equal(common.docs.length, 800);
      assert.equal(seg.df(seg.findTerm('common')), 800, 'the stored flag does not leak into the document frequency');
      common.docs.forEach((d, i) => {
        assert.equal(d, i);
        assert.equal(common.tfs[i * FIELDS.length + FIELDS.indexOf('body')], expectedCommon(i % 20));
      });
      const rare = seg.postings(seg.findTerm('rare'));
      assert.deepEqual([...rare.docs], many.flatMap(([, cs], f) => cs.map((c, k) => (c.text.includes('rare') ? f * 20 + k : -1))).filter((d) => d >= 0));
    });

    it('is much smaller than the same postings plain', () => {
      const view = new DataView(bytes.buffer, bytes.byteOffset);
      const offsets = sectionBounds(bytes, 13).offset; // postingOffsets
      const t = seg.findTerm('common');
      const stored = view.getUint32(offsets + (t + 1) * 4, true) - view.getUint32(offsets + t * 4, true);
      // Plain, each of the 800 postings takes two bytes (document delta, packed frequency).
      assert.ok(stored < 400, `the list of \`common\` takes ${stored} bytes`);
    });

    it('merging rewrites them the same way', () => {
      const merged = new Segment('seg-mm.cseg', mergeSegments([{ segment: seg, deleted: new Uint8Array(seg.docCount) }]));
      const a = seg.postings(seg.findTerm('common'));
      const b = merged.postings(merged.findTerm('common'));
      assert.deepEqual([...b.docs], [...a.docs]);
      assert.deepEqual([...b.tfs], [...a.tfs]);
    });

    it('a damaged deflated list fails with CorruptDataError', () => {
      const damaged = new Segment('seg-x.cseg', withPostingsOverwritten(bytes));
      assert.throws(() => damaged.postings(damaged.findTerm('common')), CorruptDataError);
    });
  });

  it('merges segments, dropping tombstoned documents and remapping postings', () => {
    const a = new Segment('seg-a.cseg', build(sample));
    const b = new Segment('seg-b.cseg', build([['src/c.ts', [chunk('src/c.ts', 1, 1, 'function', 'loadUser', 'function loadUser() {}')]]]));
    const deletedA = new Uint8Array(a.docCount);
    deletedA[0] = 1;
    deletedA[1] = 1; // all of src/a.ts
    const merged = new Segment('seg-m.cseg', mergeSegments([{ segment: a, deleted: deletedA }, { segment: b, deleted: new Uint8Array(b.docCount) }]));
    assert.deepEqual(merged.files.map((f) => [f.path, f.firstDoc, f.docCount]), [['src/b.ts', 0, 1], ['src/c.ts', 1, 1]]);
    assert.deepEqual(merged.symbols(), ['saveUser', 'loadUser']);
    assert.deepEqual([...merged.postings(merged.findTerm('loaduser')).docs], [1]);
    assert.equal(merged.findTerm('userstore'), -1, 'terms only in deleted documents are gone');
    assert.deepEqual([...merged.filePostings(merged.findTerm('src')).files], [0, 1], 'path postings follow the surviving files');
  });

  describe('rejects damaged data with CorruptDataError', () => {
    const good = build(sample);
    const cases: Array<[string, (b: Uint8Array) => Uint8Array]> = [
      ['truncated', (b) => b.slice(0, b.length - 100)],
      ['garbage', () => new TextEncoder().encode('not a segment at all, just some text that is long enough')],
      ['wrong version', (b) => { const c = b.slice(); c[8] = 99; return c; }],
      ['missing trailer', (b) => { const c = b.slice(); c[c.length - 1] = 0; return c; }],
      ['page checksums out of place', (b) => { const c = b.slice(); new DataView(c.buffer).setUint32(32, 8, true); return c; }],
      ['a damaged page', (b) => { const c = b.slice(); c[100] = (c[100] as number) ^ 1; return c; }],
      // Checksums recomputed over the damage (a writer's bug, not bit rot): structural checks remain.
      ['section table out of bounds', (b) => { const c = b.slice(); new DataView(c.buffer).setUint32(40, 0xfffffff8, true); return resealed(c); }],
    ];
    /** Overwrites u32 `index` of section `section` (see SECTION in segment.ts), checksums recomputed. */
    const setU32 = (section: number, index: number, value: number) => (b: Uint8Array) => {
      const c = b.slice();
      new DataView(c.buffer).setUint32(sectionBounds(c, section).offset + index * 4, value, true);
      return resealed(c);
    };
    cases.push(
      ['a file that starts before the previous one', setU32(0, 1, 0xffff)],
      ['files that own fewer documents than there are', setU32(0, 2, 1)],
      ['a file whose language is not in the list', setU32(23, 0, 0x00070007)],
      ['file paths whose offsets run past their bytes', setU32(25, 2, 0xffff)],
    );
    for (const [name, damage] of cases) {
      it(name, () => assert.throws(() => new Segment('seg-x.cseg', damage(good)), CorruptDataError));
    }
    it('a path offset inside the table that points backwards fails when paths are read', () => {
      const damaged = new Segment('seg-x.cseg', setU32(25, 1, 0xfff)(good));
      assert.throws(() => damaged.fileOf(0), CorruptDataError);
    });
    it('postings that point past the documents', () => {
      const seg = new Segment('seg-x.cseg', good);
      // Flip bytes inside the postings block: decoding must fail cleanly, never return wild doc numbers.
      const damaged = new Segment('seg-x.cseg', withPostingsOverwritten(good));
      assert.throws(() => damaged.postings(damaged.findTerm('user')), CorruptDataError);
      assert.ok(seg.postings(seg.findTerm('user')).docs.length > 0);
    });
  });
});
