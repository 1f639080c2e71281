// Chunks cross from the chunk workers to the pool without what the pool's document already
// holds (verbatim text, path, language, docid), and come back exactly as they left.
import * as assert from 'node:assert/strict';
import { fromWire, toWire } from '../../src/core/chunking/protocol';
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

describe('chunk worker wire format', () => {
  checkAll<Chunk, true>(
    [
      { name: 'a verbatim function', input: chunk({}), expected: true },
      { name: 'a text that is not a verbatim span (merged definitions)', input: chunk({ text: 'export function a() {}\nexport function a() {}' }), expected: true },
      { name: 'a text as long as its span but not the same', input: chunk({ text: 'export function a() {\n  return 2;\n}' }), expected: true },
      { name: 'a chunk of another language than its file (embedded code)', input: chunk({ language: 'css' }), expected: true },
      { name: 'a docid other than path:start-end', input: chunk({ docid: 'custom' }), expected: true },
      { name: 'a path other than the document', input: chunk({ path: 'src/other.ts', docid: makeDocid('src/other.ts', 1, 3) }), expected: true },
      { name: 'optional fields', input: chunk({ signature: 'function a()', decorators: ['@x'], visibility: 'public', parent: '' }), expected: true },
      { name: 'the last line without a newline after it', input: chunk({ startLine: 5, endLine: 5, text: 'export const b = 2;', docid: makeDocid(doc.path, 5, 5) }), expected: true },
    ],
    (c) => {
      const result: FileChunks = { path: doc.path, chunks: [c], strategy: 'ast', diagnostics: [] };
      const back = fromWire(doc, toWire(doc, result));
      assert.deepEqual(back, result);
      assert.equal(JSON.stringify(back), JSON.stringify(result), 'same keys in the same order');
      return true;
    },
  );

  it('leaves out what the document already holds', () => {
    const wire = toWire(doc, { path: doc.path, chunks: [chunk({})], strategy: 'ast', diagnostics: [] }).chunks[0]!;
    assert.equal(wire.text, '');
    assert.equal(wire.path, '');
    assert.equal(wire.docid, '');
    assert.equal(wire.language, '');
    assert.deepEqual(wire.textRange, [0, 35]);
  });
});
