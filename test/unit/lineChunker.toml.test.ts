import * as assert from 'node:assert/strict';
import { checkAll } from './check';
import { chunkByLines } from '../../src/core/chunking/lines';
import { assertLineChunkInvariants, docOf, flatPolicy, text, view, type ChunkView } from './lineChunkerSupport';

const S = (name: string, lines: string): ChunkView => ({ kind: 'section', symbol: name, context: name, lines });
const T = (lines: string): ChunkView => ({ kind: 'text', symbol: '', context: '', lines });

describe('line chunker: toml and ini', () => {
  checkAll<{ path: string; text: string }, ChunkView[]>(
    [
      {
        name: 'one section per table; keys before the first table are text; comments above a header belong to it',
        input: {
          path: 'Cargo.toml',
          text: text('title = "x"', '', '[package]', 'name = "cairn"', '', '# runtime deps', '[dependencies]', 'serde = "1"', '', '[[bin]]', 'name = "c"'),
        },
        expected: [T('1-1'), S('package', '3-4'), S('dependencies', '6-8'), S('bin', '10-11')],
      },
      {
        name: 'a [line] inside a multi-line string is not a header',
        input: { path: 'a.toml', text: text('[a]', 'doc = """', '[not-a-table]', '"""', '[b]', 'x = 1') },
        expected: [S('a', '1-4'), S('b', '5-6')],
      },
      {
        name: 'ini and editorconfig sections with globs',
        input: { path: '.editorconfig', text: text('root = true', '', '[*]', 'indent_style = space', '', '; python', '[*.{py,pyi}]', 'indent_size = 4') },
        expected: [T('1-1'), S('*', '3-4'), S('*.{py,pyi}', '6-8')],
      },
      {
        name: 'dotted table names are kept whole',
        input: { path: 'pyproject.toml', text: text('[tool.black]', 'line-length = 100') },
        expected: [S('tool.black', '1-2')],
      },
    ],
    (input) => view(chunkByLines(docOf(input.path, input.text), flatPolicy(800))),
  );

  it('cuts a long section at blank lines and keeps its name', () => {
    const keys = (n: number): string[] => Array.from({ length: n }, (_, i) => `key_${i} = "some value ${i}"`);
    const doc = docOf('big.toml', text('[big]', ...keys(8), '', ...keys(8), '', ...keys(8)));
    const chunks = chunkByLines(doc, flatPolicy(300));
    assert.ok(chunks.length >= 3, `${chunks.length} chunks`);
    for (const c of chunks) assert.equal(c.context, 'big');
    assertLineChunkInvariants(doc, chunks, flatPolicy(300));
  });
});
