import * as assert from 'node:assert/strict';
import { checkAll } from './check';
import { chunkByLines } from '../../src/core/chunking/lines';
import { REFERENCE_POLICY } from '../../src/core/chunking/policy';
import { assertLineChunkInvariants, docOf, flatPolicy, prng, text, view } from './lineChunkerSupport';

const lineRanges = (t: string, chars = 400): string[] =>
  chunkByLines(docOf('src/a.ts', t), flatPolicy(chars)).map((c) => `${c.startLine}-${c.endLine}`);

describe('line chunker: plain', () => {
  describe('reference policy (flat 400): greedy packing while lines + newlines <= 400', () => {
    const line = (n: number, ch = 'x'): string => ch.repeat(n);
    checkAll(
      [
        // 99 chars + newline = 100: exactly four lines fill a chunk.
        { name: '10 lines of 99 chars -> 4+4+2', input: text(...Array.from({ length: 10 }, () => line(99))), expected: ['1-4', '5-8', '9-10'] },
        // 100 + 100 + 100 + 97 chars = 397, plus 4 newlines = 401: the fourth line starts a new chunk.
        { name: '401 with newlines does not fit', input: text(line(100), line(100), line(100), line(97)), expected: ['1-3', '4-4'] },
        { name: '400 with newlines fits', input: text(line(100), line(100), line(100), line(96)), expected: ['1-4'] },
        { name: 'a line longer than the budget is a chunk alone', input: text('a', line(1000), 'b'), expected: ['1-1', '2-2', '3-3'] },
        { name: 'a single 400-char line (401 with newline) is still one chunk', input: line(400), expected: ['1-1'] },
        { name: 'blank lines count toward the budget but are trimmed', input: text('', '', 'a', '', 'b', '', ''), expected: ['3-5'] },
        { name: 'a chunk of only blank lines disappears', input: text(line(399), ...Array.from({ length: 300 }, () => ''), line(10)), expected: ['1-1', '302-302'] },
        { name: 'empty file', input: '', expected: [] },
        { name: 'blank-only file', input: text('', '   ', '\t', '', ''), expected: [] },
      ],
      (input) => lineRanges(input),
    );
  });

  it('names nothing: kind text, empty symbol and context, no parent', () => {
    const chunks = chunkByLines(docOf('notes.txt', text('hello', 'world')), REFERENCE_POLICY);
    assert.deepEqual(view(chunks), [{ kind: 'text', symbol: '', context: '', lines: '1-2' }]);
    assert.equal(chunks[0]?.text, 'hello\nworld');
    assert.equal(chunks[0]?.docid, 'notes.txt:1-2');
    assert.equal(chunks[0]?.language, 'text');
  });

  it('reads CRLF files like LF files, without the carriage returns', () => {
    const crlf = chunkByLines(docOf('a.txt', 'one\r\ntwo\r\n\r\nthree\r\n'), REFERENCE_POLICY);
    const lf = chunkByLines(docOf('a.txt', 'one\ntwo\n\nthree\n'), REFERENCE_POLICY);
    assert.deepEqual(crlf, lf);
    assert.equal(crlf[0]?.text, 'one\ntwo\n\nthree');
  });

  it('uses the per-suffix target of the policy', () => {
    const policy = { ...flatPolicy(400), suffixChunkChars: { '.ts': 20 } };
    const doc = docOf('a.ts', text('aaaaaaaaa', 'bbbbbbbbb', 'ccccccccc'));
    assert.deepEqual(view(chunkByLines(doc, policy)).map((v) => v.lines), ['1-2', '3-3']);
  });

  it('keeps chunk ids stable for unchanged lines and changes them with the content', () => {
    const before = chunkByLines(docOf('a.ts', text('x'.repeat(300), 'y'.repeat(300))), REFERENCE_POLICY);
    const after = chunkByLines(docOf('a.ts', text('x'.repeat(300), 'z'.repeat(300))), REFERENCE_POLICY);
    assert.equal(before[0]?.id, after[0]?.id);
    assert.notEqual(before[1]?.id, after[1]?.id);
  });

  it('holds the invariants on generated files', () => {
    const random = prng(7);
    for (let n = 0; n < 200; n++) {
      const lines = Array.from({ length: Math.floor(random() * 120) }, () =>
        random() < 0.2 ? (random() < 0.5 ? '' : '  ') : 'w'.repeat(Math.floor(random() * (random() < 0.05 ? 900 : 90))),
      );
      const doc = docOf(`gen/${n}.py`, lines.join(random() < 0.2 ? '\r\n' : '\n'));
      for (const chars of [50, 400, 1200]) assertLineChunkInvariants(doc, chunkByLines(doc, flatPolicy(chars)), flatPolicy(chars));
    }
  });
});
