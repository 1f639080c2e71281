// Chunks record the byte offset of their first line, so a hit's preview reads its file from
// there. Offsets must match the file's bytes exactly (BOM, multi-byte text, CRLF), and a
// preview must be the same whether it is read from the offset or from the top of the file.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { lineStartBytes, NO_START_BYTE, spanBytes } from '../../src/core/index/lineBytes';
import { checkAll } from './check';
import { TempWorkspace } from './helpers/workspace';
import { matchColumn } from '../../src/vscode/hitLine';

const U = NO_START_BYTE;

/** Offsets computed from the encoded bytes themselves: where each `\n` is, plus one. */
function fromBytes(bytes: Buffer, lines: number[]): number[] {
  const starts = [bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0];
  for (let i = bytes.indexOf(10); i >= 0; i = bytes.indexOf(10, i + 1)) starts.push(i + 1);
  return lines.map((l) => starts[l - 1] ?? U);
}

describe('byte offsets of chunk start lines', () => {
  checkAll(
    [
      { name: 'ASCII lines', input: { text: 'a\nbb\nccc\n', bom: false, lines: [1, 2, 3, 4] }, expected: [0, 2, 5, 9] },
      { name: 'past the last line', input: { text: 'a\nb', bom: false, lines: [2, 3, 9] }, expected: [2, U, U] },
      { name: 'lines asked out of order, repeated', input: { text: 'x\ny\nz', bom: false, lines: [3, 1, 3, 2] }, expected: [4, 0, 4, 2] },
      { name: 'after a BOM', input: { text: 'a\nb', bom: true, lines: [1, 2] }, expected: [3, 5] },
      { name: 'multi-byte and astral characters before the line', input: { text: 'é\nñx\n😀\nz', bom: false, lines: [2, 3, 4] }, expected: [3, 7, 12] },
      { name: 'CRLF line ends', input: { text: 'a\r\nb\r\nc', bom: false, lines: [2, 3] }, expected: [3, 6] },
      { name: 'no line 0 or negative lines', input: { text: 'a\nb', bom: false, lines: [0, -1, 1] }, expected: [U, U, 0] },
    ],
    ({ text, bom, lines }) => {
      const bytes = Buffer.concat([bom ? Buffer.from([0xef, 0xbb, 0xbf]) : Buffer.alloc(0), Buffer.from(text, 'utf8')]);
      const got = [...lineStartBytes(text, bytes.length, lines)];
      assert.deepEqual(got, fromBytes(bytes, lines), 'agrees with the encoded bytes');
      return got;
    },
  );

  it('a size that does not fit the text (the file changed while read) gives no offsets', () => {
    assert.deepEqual([...lineStartBytes('a\nb', 5, [1, 2])], [U, U]);
  });

  describe('byte ranges of chunks that stand for characters', () => {
    checkAll<{ text: string; bom: boolean; spans: Array<[number, number] | undefined> }, number[]>(
      [
        { name: 'ASCII', input: { text: 'var a=1;function f(){}', bom: false, spans: [[0, 8], [8, 22]] }, expected: [0, 8, 8, 22] },
        { name: 'after a BOM', input: { text: 'var a=1;function f(){}', bom: true, spans: [[8, 22]] }, expected: [11, 25] },
        { name: 'multi-byte and astral characters before and inside', input: { text: 'var é="😀";function ñ(){}', bom: false, spans: [[0, 11], [11, 25]] }, expected: [0, 14, 14, 29] },
        { name: 'spans out of order, overlapping (a class and its method)', input: { text: 'class É{m(){return "ü"}}', bom: false, spans: [[8, 23], [0, 24]] }, expected: [9, 25, 0, 26] },
        { name: 'chunks without a span', input: { text: 'é;f()', bom: false, spans: [undefined, [2, 5]] }, expected: [U, U, 3, 6] },
        { name: 'a span past the text', input: { text: 'ab', bom: false, spans: [[0, 9]] }, expected: [U, U] },
      ],
      ({ text, bom, spans }) => {
        const prefix = bom ? 3 : 0;
        const size = prefix + Buffer.byteLength(text, 'utf8');
        const got = [...spanBytes(text, size, spans)];
        const expected = spans.flatMap((s) => (s && s[1] <= text.length ? s.map((o) => prefix + Buffer.byteLength(text.slice(0, o), 'utf8')) : [U, U]));
        assert.deepEqual(got, expected, 'agrees with the encoded text');
        return got;
      },
    );

    it('a size that does not fit the text gives no ranges', () => {
      assert.deepEqual([...spanBytes('var é=1', 4, [[0, 3]])], [U, U]);
    });
  });

  describe('previews on a minified line come from the hit\'s own characters', function () {
    this.timeout(20000);
    const functions = Array.from({ length: 300 }, (_, i) => `function f${i}(a){return "é${i}"+a}`).join('');
    const files: Record<string, string> = {
      'lib/bundle.min.js': `\ufeff${functions}var minifiedMarker=1;${functions.replace(/f(\d)/g, 'g$1')}\n`,
    };
    let ws: TempWorkspace;
    before(async () => {
      ws = new TempWorkspace(files);
      await ws.engine({ strategy: 'ast' }).refresh();
    });
    after(() => ws.dispose());

    it('shows the matched code, not the start of the line, and the caret lands on the match', async () => {
      const hit = (await ws.engine({ strategy: 'ast' }).search('minifiedMarker', { limit: 1, refresh: 'never' })).results[0];
      assert.match(hit?.preview ?? '', /var «minifiedMarker»=1;/);
      assert.equal(hit?.startLine, 1);
      const line = files['lib/bundle.min.js']!.slice(1).split('\n')[0]!;
      assert.equal(matchColumn(line, hit!.preview), line.indexOf('minifiedMarker'));
    });
  });

  describe('previews read from the offset are the ones read from the top', function () {
    this.timeout(20000);
    const filler = Array.from({ length: 400 }, (_, i) => `call(${i}, 'ünïcødé ${'x'.repeat(i % 50)}');`).join('\n');
    const files: Record<string, string> = {
      'src/deep.ts': `${filler}\nexport function deepTarget() {\n  return 'deep';\n}\n`,
      'src/bom.ts': `\ufeffcall(0);\n${filler}\r\nexport function bomTarget() {\r\n  return 'bom';\r\n}\r\n`,
      'src/astral.ts': `call('${'😀'.repeat(300)}');\n${filler}\nexport function astralTarget() {\n  return '😀';\n}\n`,
    };
    let ws: TempWorkspace;
    before(async () => {
      ws = new TempWorkspace(files);
      await ws.engine({ strategy: 'ast' }).refresh();
    });
    after(() => ws.dispose());

    checkAll(
      [
        { name: 'deep in an ASCII-and-accents file', input: 'deepTarget', expected: "export function «deepTarget»() {\n  return '«deep»';\n}" },
        { name: 'after a BOM, with CRLF line ends', input: 'bomTarget', expected: "export function «bomTarget»() {\n  return '«bom»';\n}" },
        { name: 'after a line of astral characters', input: 'astralTarget', expected: "export function «astralTarget»() {\n  return '😀';\n}" },
      ],
      async (query) => {
        const hit = (await ws.engine({ strategy: 'ast' }).search(query, { limit: 1, refresh: 'never' })).results[0];
        assert.ok(hit && hit.startLine > 400, `${query} found deep in its file: ${JSON.stringify(hit)}`);
        return hit.preview;
      },
    );

    it('a file rewritten with the same size and time is read from the top, not at a wrong offset', async () => {
      const abs = path.join(ws.root, 'src/deep.ts');
      const st = fs.statSync(abs);
      // One byte off the first line, one added at the end: same size, same lines, but every
      // line now starts one byte earlier than the index says.
      const shifted = `${fs.readFileSync(abs, 'utf8').slice(1)} `;
      assert.equal(Buffer.byteLength(shifted), st.size);
      fs.writeFileSync(abs, shifted);
      fs.utimesSync(abs, st.atime, st.mtime);
      const hit = (await ws.engine({ strategy: 'ast' }).search('deepTarget', { limit: 1, refresh: 'never' })).results[0];
      assert.equal(hit?.preview, "export function «deepTarget»() {\n  return '«deep»';\n}");
    });
  });
});
