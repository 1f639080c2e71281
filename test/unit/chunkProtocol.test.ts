// Chunks cross from the chunk workers to the pool without what the pool's document already
// holds (verbatim text, path, language, docid), and come back exactly as they left.
import * as assert from 'node:assert/strict';
import { fromWire, toWire, wireTransfer } from '../../src/core/chunking/protocol';
import { makeDocid } from '../../src/core/chunking/ids';
import type { Chunk, FileChunks, SourceDocument } from '../../src/core/types';
import { checkAll } from './check';

const doc: SourceDocument = {
  path: 'src/app.ts',
  text: 'export function a() {\n  return 1;\n}\n\nexport const b = 2;\n',
  language: 'typescript',
} as SourceDocument;

function chunk(over: Partial<Chunk>): Chunk {
  const base: Chunk = {
    docid: makeDocid(doc.path, 1, 3),
    id: '0123456789abcdef',
    path: doc.path,
    startLine: 1,
    endLine: 3,
    text: 'export function a() {\n  return 1;\n}',
    language: doc.language,
    kind: 'function',
    symbol: 'a',
    context: 'a',
  };
  return { ...base, ...over };
}

function withoutKey(c: Chunk, key: keyof Chunk): Chunk {
  const copy: Partial<Chunk> = { ...c };
  delete copy[key];
  return copy as Chunk;
}

describe('chunk worker wire format', () => {
  checkAll<Chunk, true>(
    [
      { name: 'a verbatim function', input: chunk({}), expected: true },
      { name: 'a text that is not a verbatim span (merged definitions)', input: chunk({ text: 'export function a() {}\nexport function a() {}' }), expected: true },
      { name: 'a text as long as its span but not the same', input: chunk({ text: 'export function a() {\n  return 2;\n}' }), expected: true },
      { name: 'a chunk of another language than its file (embedded code)', input: chunk({ language: 'css' }), expected: true },
      { name: 'a docid other than path:start-end', input: chunk({ docid: 'custom' }), expected: true },
      { name: 'a path other than the document', input: chunk({ path: 'src/other.ts', docid: makeDocid('src/other.ts', 1, 3) }), expected: true },
      { name: 'optional fields in the order chunkers write them', input: chunk({ signature: 'function a()', docstring: 'Returns one.', parent: '', visibility: 'public', decorators: ['@x', '@y(1)'] }), expected: true },
      { name: 'optional fields in another order (travels as an object)', input: chunk({ decorators: ['@x'], signature: 'function a()', visibility: 'public', parent: '' }), expected: true },
      { name: 'a name position and the end of a split definition', input: chunk({ signature: 'function a()', nameLine: 1, nameColumn: 17, definitionEndLine: 9 }), expected: true },
      { name: 'a later part of a split definition', input: chunk({ continued: true }), expected: true },
      {
        name: 'nested definitions',
        input: chunk({ nested: [{ kind: 'function', symbol: 'inner', context: 'a.inner', startLine: 2, endLine: 2, nameLine: 2, nameColumn: 12 }] }),
        expected: true,
      },
      { name: 'no decorators, as an empty list', input: chunk({ decorators: [] }), expected: true },
      { name: 'characters of a line (a span), verbatim', input: chunk({ startLine: 5, endLine: 5, docid: makeDocid(doc.path, 5, 5), text: 'const b = 2;', span: [44, 56] }), expected: true },
      { name: 'a span whose text is a summary, not its characters', input: chunk({ kind: 'class', text: 'class A {\n  m()\n}', span: [7, 36] }), expected: true },
      { name: 'a span with nested definitions after it', input: chunk({ span: [0, 36], nested: [{ kind: 'function', symbol: 'inner', context: 'a.inner', startLine: 2, endLine: 2, nameLine: 2, nameColumn: 12 }] }), expected: true },
      { name: 'an optional field present but undefined', input: chunk({ signature: undefined }), expected: true },
      { name: 'strings beyond Latin-1 and empty ones', input: chunk({ symbol: 'größe', context: 'Ω.größe', docstring: '😀 emoji\u0000nul', kind: 'code' }), expected: true },
      { name: 'a required key missing (travels as an object)', input: withoutKey(chunk({}), 'context'), expected: true },
      { name: 'a key no chunker writes (travels as an object)', input: { ...chunk({}), score: 3 } as Chunk, expected: true },
      { name: 'the last line without a newline after it', input: chunk({ startLine: 5, endLine: 5, text: 'export const b = 2;', docid: makeDocid(doc.path, 5, 5) }), expected: true },
    ],
    (c) => {
      const result: FileChunks = { path: doc.path, chunks: [c], strategy: 'ast', diagnostics: [] };
      const back = fromWire(doc, toWire(doc, result));
      assert.deepEqual(back, result);
      assert.deepEqual(Object.keys(back.chunks[0]!), Object.keys(c), 'same keys in the same order');
      assert.equal(JSON.stringify(back), JSON.stringify(result), 'same keys in the same order');
      return true;
    },
  );

  it('leaves out what the document already holds', () => {
    const { packed } = toWire(doc, { path: doc.path, chunks: [chunk({})], strategy: 'ast', diagnostics: [] });
    assert.equal(packed.objects.length, 0);
    assert.equal(packed.strings, '0123456789abcdef' + 'function' + 'a' + 'a', 'only id, kind, symbol and context travel as text');
    assert.ok([...packed.ints].includes(35), 'the text travels as its offsets');
  });

  it('keeps the order of a file\'s chunks, packed or not, and what else the file carries', () => {
    const result: FileChunks = {
      path: doc.path,
      chunks: [
        chunk({}),
        chunk({ decorators: ['@x'], signature: 'a()' }),
        chunk({ startLine: 5, endLine: 5, text: 'export const b = 2;', docid: makeDocid(doc.path, 5, 5), kind: 'constant', symbol: 'b', context: 'b', signature: 'const b' }),
        chunk({ id: 'fedcba9876543210', text: 'merged\ntext' }),
      ],
      strategy: 'ast',
      diagnostics: [{ code: 'parse-errors', message: '1 syntax error node', path: doc.path, severity: 'warning' }],
      imports: ['./util'],
    };
    const wire = toWire(doc, result);
    assert.equal(wire.packed.objects.length, 1);
    assert.equal(JSON.stringify(fromWire(doc, wire)), JSON.stringify(result));
  });

  it('a span\'s verbatim text travels as the span, not as text', () => {
    const { packed } = toWire(doc, { path: doc.path, chunks: [chunk({ startLine: 5, endLine: 5, docid: makeDocid(doc.path, 5, 5), text: 'const b = 2;', span: [44, 56] })], strategy: 'ast', diagnostics: [] });
    assert.equal(packed.strings, '0123456789abcdef' + 'function' + 'a' + 'a');
  });

  it('a file\'s occurrences travel as one string of names and one transferred array, and come back equal', () => {
    const occurrences = { names: ['a', 'b', 'ünï'], entries: new Int32Array([0, 1, 17, 0 << 2, 1, 5, 14, (1 << 2) | 3, 1, 5, 20, (2 << 2) | 1]) };
    const result: FileChunks = { path: doc.path, chunks: [chunk({})], strategy: 'ast', diagnostics: [], occurrences };
    const wire = toWire(doc, result);
    assert.equal(wire.occurrences?.names, 'a\nb\nünï');
    assert.ok(wireTransfer(wire).includes(occurrences.entries.buffer as ArrayBuffer), 'the entries are transferred, not copied');
    assert.deepEqual(fromWire(doc, wire), result);
  });

  it('packs a file without chunks', () => {
    const result: FileChunks = { path: doc.path, chunks: [], strategy: 'lines', diagnostics: [] };
    assert.deepEqual(fromWire(doc, toWire(doc, result)), result);
  });
});
