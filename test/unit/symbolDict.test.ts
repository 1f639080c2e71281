import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FileSource, type ByteSource } from '../../src/core/index/byteSource';
import { Segment } from '../../src/core/index/segment';
import { PAGE_BYTES } from '../../src/core/index/pagedTableWriter';
import { SymbolIndex } from '../../src/core/search/symbols';
import { IndexStore } from '../../src/core/store/store';
import type { Chunk } from '../../src/core/types';
import { checkAll } from './check';
import { flipped, flipTrials, sectionBounds, type FlipTrial } from './helpers/damage';
import { c, segmentBytesOf, snapshotOf } from './helpers/snapshot';
import { TempWorkspace } from './helpers/workspace';
import { seededRandom } from '../../src/eval/symbolCheck';

/** The segment sections by number (segment.ts SECTION) that a lookup must not read. */
const SYMBOL_COLUMNS = { symbolBlocks: 1, symbols: 7, contexts: 8, contextBlocks: 9, records: 10, recordBlocks: 30 };
const SYMBOL_DICT = 32;

const LONG_NAME = `veryLong${'Ab'.repeat(3000)}Name`;
const handler = (i: number) => `handler${String(i).padStart(4, '0')}`;

/** Chunks whose names fill many dictionary pages: shared prefixes, one name 300 times, unicode, a name longer than a page. */
function fixture(): Chunk[] {
  const chunks: Chunk[] = [];
  for (let i = 0; i < 1500; i++) chunks.push(c(`src/h/handlers${Math.floor(i / 100)}.ts:${1 + 3 * (i % 100)}-${2 + 3 * (i % 100)} function ${handler(i)}`, `function ${handler(i)}() {}`));
  for (let k = 0; k < 300; k++) {
    chunks.push(c(`src/run/runner${k}.ts:1-9 class Runner${k}`, `class Runner${k} {}`, `Runner${k}`));
    chunks.push(c(`src/run/runner${k}.ts:3-5 method run`, 'run() {}', `Runner${k}.run`));
  }
  chunks.push(
    c('src/user.ts:1-3 function getUserName', 'function getUserName() {}'),
    c('src/user.py:1-3 function get_user_name', 'def get_user_name(): pass'),
    c('src/users/more.ts:1-2 function __getUserNameNow', 'function __getUserNameNow() {}'),
    c('src/net.rs:1-9 impl HttpClient', 'impl HttpClient {}', 'HttpClient'),
    c('src/net.rs:2-4 method send', 'fn send() {}', 'HttpClient::send'),
    c('src/intl.ts:1-2 class Ärger', 'class Ärger {}'),
    c('src/intl.ts:4-5 function naïveSort', 'function naïveSort() {}'),
    c('src/intl.ts:7-8 function 日本語関数', 'function 日本語関数() {}'),
    c('src/intl.ts:10-11 function İstanbul', 'function İstanbul() {}'),
    c('src/intl.ts:13-14 function 𝒳ray', 'function 𝒳ray() {}'),
    c(`src/long.ts:1-2 function ${LONG_NAME}`, `function ${LONG_NAME}() {}`),
    c('docs/notes.txt:1-3 text', 'plain text, no symbol'),
  );
  const outer = c('src/outer.ts:1-9 function outer', 'function outer() {\n  function innerHelper() {}\n}');
  outer.nested = [{ kind: 'function', symbol: 'innerHelper', context: 'outer.innerHelper', startLine: 2, endLine: 2, nameLine: 2, nameColumn: 12 }];
  chunks.push(outer);
  return chunks;
}

describe('the symbol dictionary', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-dict-'));
  const snapshot = snapshotOf(fixture(), root);
  const segment = snapshot.segments[0] as Segment;
  const symbols = new SymbolIndex(snapshot);
  const find = (q: string, limit = 3) => symbols.find(q, { limit }).candidates.map((x) => `${x.match} ${x.qualifiedName}`);
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it('spans many pages, and the rows of one name cross a page boundary', () => {
    const dict = segment.symbolDictionary();
    assert.equal(dict.size, 1500 + 600 + 12 + 1, 'every definition and the nested one; not the text chunk');
    const runs = [...dict.named('run')];
    assert.equal(runs.length, 300);
    // A row holds its breadcrumb's prefix (`Runner`, a number and a dot: 8 bytes or more) and
    // 10 bytes more at least (key, tags, document, kind, flags, order): 300 fill more than a page.
    assert.ok(runs.length * 18 > PAGE_BYTES);
    assert.deepEqual(runs.map((e) => e.display), Array.from({ length: 300 }, (_, k) => `Runner${k}.run`).sort((a, b) => a.length - b.length || (a < b ? -1 : 1)), 'shorter paths first');
  });

  describe('looks names up: exact, ignoring case, qualified, prefix, initials, fuzzy', () => {
    checkAll<string, string[]>(
      [
        { input: 'handler0420', expected: ['exact handler0420'] },
        { input: 'HANDLER0420', expected: ['exact-ignore-case handler0420'] },
        { name: 'a prefix whose names run over several pages, in ranking order', input: 'handler04', expected: ['prefix handler0400', 'prefix handler0401', 'prefix handler0402'] },
        { input: 'Runner7.run', expected: ['qualified Runner7.run'] },
        { name: 'a qualified prefix, then the closest names', input: 'Runner12.ru', expected: ['prefix Runner12.run', 'fuzzy Runner1.run', 'fuzzy Runner2.run'] },
        { input: 'HttpClient::send', expected: ['qualified HttpClient::send'] },
        { name: 'a name defined 300 times: the best first', input: 'run', expected: ['exact Runner0.run', 'exact Runner1.run', 'exact Runner2.run'] },
        { name: 'camel-case humps match camel and snake case, and a name with more parts', input: 'gUN', expected: ['camel-case get_user_name', 'camel-case getUserName', 'camel-case __getUserNameNow'] },
        { name: 'initials', input: 'gun', expected: ['camel-case get_user_name', 'camel-case getUserName', 'camel-case __getUserNameNow'] },
        { name: 'humps that skip a part', input: 'gUNow', expected: ['camel-case __getUserNameNow'] },
        { input: 'Ärger', expected: ['exact Ärger'] },
        { input: 'ärger', expected: ['exact-ignore-case Ärger'] },
        { input: 'NAÏVESORT', expected: ['exact-ignore-case naïveSort'] },
        { input: '日本語関数', expected: ['exact 日本語関数'] },
        { name: 'a name whose lower case is longer than itself', input: 'i̇stanbul', expected: ['exact-ignore-case İstanbul'] },
        { name: 'an astral-plane name', input: '𝒳ray', expected: ['exact 𝒳ray'] },
        { name: 'a name longer than a page', input: LONG_NAME, expected: [`exact ${LONG_NAME}`] },
        { name: 'a name longer than a page, lower-cased', input: LONG_NAME.toLowerCase(), expected: [`exact-ignore-case ${LONG_NAME}`] },
        { name: 'a name longer than a page, by prefix', input: 'veryLongAbAb', expected: [`prefix ${LONG_NAME}`] },
        { name: 'a nested definition', input: 'innerHelper', expected: ['exact outer.innerHelper'] },
        { name: 'a nested definition, qualified', input: 'outer.innerHelper', expected: ['qualified outer.innerHelper'] },
        { name: 'fuzzy: the closest first', input: 'handlr0420', expected: ['fuzzy handler0420'] },
        { name: 'fuzzy: a near name defined 300 times, its rows across pages best first', input: 'rux', expected: ['fuzzy Runner0.run', 'fuzzy Runner1.run', 'fuzzy Runner2.run'] },
        { name: 'a text chunk is no symbol', input: 'notes', expected: [] },
      ],
      (q) => find(q).slice(0, q === 'handlr0420' ? 1 : 3),
    );
  });

  it('a name defined 300 times: the best `limit` are the first of ranking them all', () => {
    const all = find('run', 500).filter((h) => h.startsWith('exact '));
    assert.equal(all.length, 300);
    assert.deepEqual(find('run', 20), all.slice(0, 20));
  });

  it('a prefix lists every name that starts with it, across pages, in order', () => {
    const dict = segment.symbolDictionary();
    const keys = [...dict.prefixed('handler1')].map((e) => e.key);
    assert.deepEqual(keys, Array.from({ length: 500 }, (_, i) => handler(1000 + i)));
    assert.deepEqual([...dict.withInitials('hc')].map((r) => r.name), ['HttpClient']);
    assert.deepEqual([...dict.withInitials('gu')].map((r) => `${r.initials} ${r.name}`), ['gun get_user_name', 'gun getUserName', 'gunn __getUserNameNow']);
    // Only names of two initials or more have a row: `handler0420` has one.
    assert.deepEqual([...dict.withInitials('')].filter((r) => r.name.startsWith('handler')), []);
  });

  it('every distinct name once, in order, across pages: what an edit-distance lookup measures', () => {
    const dict = segment.symbolDictionary();
    const names = dict.distinctNames();
    assert.deepEqual(names, [...new Set([...dict.all()].map((e) => e.key))]);
    assert.equal(names.filter((n) => n === 'run').length, 1);
    assert.ok(names.every((n, i) => i === 0 || (names[i - 1] as string) < n), 'strictly increasing');
    assert.equal(dict.distinctNames(), names, 'read once, then kept');
    assert.deepEqual(find('handlr0420').slice(0, 1), ['fuzzy handler0420'], 'a second fuzzy lookup, from the kept names');
  });

  it('a nested definition keeps its place and a penalty', () => {
    const [hit] = symbols.find('innerHelper').candidates;
    assert.equal(hit?.nested?.nameLine, 2);
    assert.deepEqual(hit?.penalties.map((p) => p.name), ['kind:function', 'nested-definition']);
  });

  describe('read from its file, a lookup reads a few pages of the dictionary and no symbol or breadcrumb column', () => {
    let dir: string;
    let bytes: Uint8Array;
    before(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-dict-file-'));
      bytes = segmentBytesOf(fixture(), dir);
      fs.writeFileSync(path.join(dir, 'seg.cseg'), bytes);
    });
    after(() => fs.rmSync(dir, { recursive: true, force: true }));
    checkAll(
      ['handler0420', 'HANDLER0420', 'run', 'Runner7.run', 'gUN', '日本語関数', LONG_NAME].map((q) => ({ name: q.slice(0, 40), input: q, expected: true })),
      (q) => {
        const label = q.slice(0, 40);
        const { segment: fromFile, reads, source } = openCounted(path.join(dir, 'seg.cseg'));
        try {
          const lookup = new SymbolIndex({ ...snapshot, segments: [fromFile] });
          reads.length = 0;
          assert.deepEqual(lookup.find(q, { limit: 3 }), symbols.find(q, { limit: 3 }));
          const touched = (i: number) => {
            const s = sectionBounds(bytes, i);
            return reads.some(([o, l]) => o < s.offset + s.length && s.offset < o + l);
          };
          for (const [column, i] of Object.entries(SYMBOL_COLUMNS)) assert.ok(!touched(i), `${label}: read the ${column} column`);
          const dict = sectionBounds(bytes, SYMBOL_DICT);
          const read = reads.reduce((n, [, l]) => n + l, 0);
          // The lookup of the long name reads its two pages; others a page or two of each table.
          assert.ok(read <= 6 * 4096 + LONG_NAME.length * 2 || read < dict.length / 4, `${label}: read ${read} bytes of a ${dict.length}-byte dictionary`);
          return true;
        } finally {
          source.close();
        }
      },
    );
  });

  it('a segment without symbols has an empty dictionary', () => {
    const empty = snapshotOf([c('docs/a.txt:1-2 text', 'nothing here')], fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-dict-empty-')));
    const lookup = new SymbolIndex(empty);
    assert.equal(lookup.size, 0);
    assert.deepEqual(lookup.find('anything').candidates, []);
  });
});

describe('the symbol dictionary gives every name back as the symbol column does', () => {
  const NAMES = ['MAX_VALUE', 'HTTPServer', 'getUserName', 'XMLHttpRequest', 'x_Y_z', 'ÄrgerFall', 'İstanbul', 'straße', 'STRASSE', 'a1B2c3', '$el', '_', 'ǅemal', '\ud800lone', LONG_NAME.toUpperCase()];
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-dict-names-'));
  const dict = snapshotOf(NAMES.map((n, i) => c(`src/n${i}.ts:1-2 function ${n}`, `function f${i}() {}`)), root).segments[0]!.symbolDictionary();
  after(() => fs.rmSync(root, { recursive: true, force: true }));
  // A chunk's own name is stored as UTF-8, where a lone surrogate reads back as U+FFFD.
  const stored = (n: string) => Buffer.from(n).toString();
  checkAll(
    NAMES.map((n) => ({ name: n.slice(0, 40), input: stored(n), expected: [stored(n)] })),
    (n) => [...dict.named(n.toLowerCase())].map((e) => e.name),
  );
});

describe('a damaged page of the symbol dictionary, through the engine', function () {
  this.timeout(60000);
  it('gives a store-corrupt diagnostic and the intact answer, from a rebuilt index', async () => {
    const files: Record<string, string> = {};
    for (let f = 0; f < 30; f++) files[`src/m${f}.ts`] = Array.from({ length: 20 }, (_, k) => `export function task${f}Step${k}(input: string): string {\n  return input + '${f}-${k}';\n}\n`).join('\n');
    const ws = new TempWorkspace(files);
    try {
      const first = await ws.engine().findSymbol('task7Step3', { limit: 5 });
      assert.equal(first.results[0]?.symbol, 'task7Step3');
      const file = path.join(ws.storeDir, new IndexStore(ws.storeDir).readManifest()!.segments[0]!.name);
      const bytes = fs.readFileSync(file);
      const dict = sectionBounds(bytes, SYMBOL_DICT);
      assert.ok(dict.length > 0);
      const [trial] = flipTrials(seededRandom(7), 1) as [FlipTrial];
      fs.writeFileSync(file, flipped(bytes, trial, dict.offset + Math.floor(dict.length / 2)));

      const after = await ws.engine().findSymbol('task7Step3', { limit: 5 });
      const hits = (r: typeof first) => r.results.map((h) => [h.path, h.startLine, h.endLine, h.score, h.symbol, h.match]);
      assert.deepEqual(hits(after), hits(first));
      const corrupt = after.diagnostics.filter((d) => d.code === 'store-corrupt');
      assert.equal(corrupt.length, 1, JSON.stringify(after.diagnostics));
      assert.match(corrupt[0]!.message, /seg-[\w-]+\.cseg \(.*symbolDict.*\).*checksum mismatch/);
      const again = await ws.engine().findSymbol('task7Step3', { limit: 5 });
      assert.deepEqual(hits(again), hits(first));
      assert.deepEqual(again.diagnostics.filter((d) => d.code === 'store-corrupt'), []);
    } finally {
      await ws.dispose();
    }
  });
});

/** A segment read from its file through a source that records every read after the segment is opened. */
function openCounted(file: string): { segment: Segment; reads: Array<[number, number]>; source: FileSource } {
  const source = new FileSource(file);
  const reads: Array<[number, number]> = [];
  const counted: ByteSource = {
    length: source.length,
    read: (o, l) => (reads.push([o, l]), source.read(o, l)),
    readInto: (o, into) => (reads.push([o, into.length]), source.readInto(o, into)),
  };
  return { segment: new Segment('seg.cseg', counted), reads, source };
}
