// `cairn export` prints each chunk's own text: a chunk on a line it shares (minified code, code
// beside a one-line function) prints its characters, read from the working tree by the byte
// range the index recorded, never the whole line; other chunks print their lines.
import type { ExportedChunk } from '../../src/core/api';
import * as assert from 'node:assert/strict';

import { MINIFIED_PIECE_CHARS } from '../../src/core/chunking/lines/minified';
import { checkAll } from './check';
import { TempWorkspace } from './helpers/workspace';

async function exported(ws: TempWorkspace): Promise<ExportedChunk[]> {
  const out: ExportedChunk[] = [];
  for await (const c of ws.engine({ strategy: 'ast' }).exportChunks()) out.push(c);
  return out;
}

describe('export', function () {
  this.timeout(30000);

  checkAll<string, string[]>(
    [
      { name: 'a one-line file with three functions', input: 'function a(){return 1}function b(){return 2}function c(){return 3}\n', expected: ['function a(){return 1}', 'function b(){return 2}', 'function c(){return 3}'] },
      { name: 'code beside a function, after a BOM, with multi-byte text', input: '\ufeffvar é="ü";function f(){return "😀"}\n', expected: ['var é="ü";', 'function f(){return "😀"}'] },
      { name: 'a multi-line file: whole lines, as before', input: 'var marker = 1;\n\nfunction f() {\n  return 2;\n}\n', expected: ['var marker = 1;', 'function f() {\n  return 2;\n}'] },
    ],
    async (text) => {
      const ws = new TempWorkspace({ 'src/a.js': text });
      try {
        await ws.engine({ strategy: 'ast' }).refresh();
        const chunks = await exported(ws);
        assert.ok(chunks.every((c) => !c.stale));
        return chunks.map((c) => c.text);
      } finally {
        await ws.dispose();
      }
    },
  );

  it('a minified line exports about its own size, in a few bounded pieces', async () => {
    const line = Array.from({ length: 2000 }, (_, i) => `var v${i}=${i};function f${i}(a){return a+v${i}}`).join('');
    const ws = new TempWorkspace({ 'src/bundle.min.js': `${line}\n` });
    try {
      await ws.engine({ strategy: 'ast' }).refresh();
      const chunks = (await exported(ws)).map((c) => c.text);
      // Each chunk carries a few hundred bytes of metadata: a chunk per definition made the
      // export several times the file.
      assert.ok(chunks.length <= Math.ceil(line.length / 2048), `${chunks.length} chunks for a line of ${line.length}`);
      assert.ok(chunks.every((c) => c.length <= MINIFIED_PIECE_CHARS), 'a piece over the bound');
      // A cut at a space leaves the space out of both pieces; every other character is there once.
      const visible = (t: string): string => t.replace(/\s+/g, '');
      assert.equal(visible(chunks.join('')), visible(line), 'the pieces hold the line once, in order');
      assert.ok(chunks.some((c) => c.includes('var v1999=1999;')));
    } finally {
      await ws.dispose();
    }
  });

  it('a file changed since indexing says so, and prints the same place, no bigger', async () => {
    const ws = new TempWorkspace({ 'src/a.js': 'function a(){return 1}function b(){return 2}\n' });
    try {
      await ws.engine({ strategy: 'ast' }).refresh();
      ws.write('src/a.js', 'function x(){return 9}function y(){return 8}function z(){return 7}\n');
      const chunks = await exported(ws);
      assert.deepEqual(chunks.map((c) => [c.symbol, c.stale, c.text]), [['a', true, 'function x(){return 9}'], ['b', true, 'function y(){return 8}']]);
    } finally {
      await ws.dispose();
    }
  });
});
