// A file's whole text for a references lookup (FileReader.wholeText) is what its lines give
// (`text(path, 1, ∞)`: no BOM, no CR before a line break), decoded at once.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { checkAll } from './check';
import { FileReader } from '../../src/core/search/hydrate';

describe('FileReader.wholeText: a whole file, as its lines give it', () => {
  let root: string;
  before(() => (root = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-whole-'))));
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  checkAll<{ name: string; bytes: number[] | string }, { whole: string | undefined; sameAsLines: boolean }>(
    [
      { name: 'plain lines', input: { name: 'a.js', bytes: 'a\nb\n' }, expected: { whole: 'a\nb\n', sameAsLines: true } },
      { name: 'no line break at the end', input: { name: 'b.js', bytes: 'a\nb' }, expected: { whole: 'a\nb', sameAsLines: true } },
      { name: 'CRLF', input: { name: 'c.js', bytes: 'a\r\nb\r\n' }, expected: { whole: 'a\nb\n', sameAsLines: true } },
      { name: 'a CR inside a line stays', input: { name: 'd.js', bytes: 'a\rb\n' }, expected: { whole: 'a\rb\n', sameAsLines: true } },
      { name: 'a CR at the very end goes', input: { name: 'e.js', bytes: 'a\nb\r' }, expected: { whole: 'a\nb', sameAsLines: true } },
      { name: 'a BOM goes', input: { name: 'f.js', bytes: [0xef, 0xbb, 0xbf, 0x61, 0x0a] }, expected: { whole: 'a\n', sameAsLines: true } },
      { name: 'invalid UTF-8 decodes as the lines do', input: { name: 'g.js', bytes: [0x61, 0xff, 0x0a, 0x62] }, expected: { whole: 'a\ufffd\nb', sameAsLines: true } },
      { name: 'empty', input: { name: 'h.js', bytes: '' }, expected: { whole: '', sameAsLines: true } },
    ],
    ({ name, bytes }) => {
      fs.writeFileSync(path.join(root, name), typeof bytes === 'string' ? bytes : Buffer.from(bytes));
      const whole = new FileReader(root).wholeText(name);
      return { whole, sameAsLines: whole === new FileReader(root).text(name, 1, Number.MAX_SAFE_INTEGER) };
    },
  );

  it('a missing file has no text', () => {
    assert.equal(new FileReader(root).wholeText('gone.js'), undefined);
  });
});
