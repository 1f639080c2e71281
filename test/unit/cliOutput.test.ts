// Human output shows the control characters a file name or a file's text holds instead of
// letting the terminal obey them; JSON output keeps them, escaped by JSON itself.
import * as assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { Output, visible, visibleBlock } from '../../src/cli/output';
import { checkAll } from './check';

describe('CLI output', () => {
  describe('control characters are shown, not obeyed', () => {
    checkAll(
      [
        { name: 'a colour escape in a file name', input: 'src/\u001b[31mred.ts:1-3', expected: 'src/\\x1b[31mred.ts:1-3' },
        { name: 'a title escape ended by BEL in a file text', input: 'x = "\u001b]0;owned\u0007"', expected: 'x = "\\x1b]0;owned\\x07"' },
        { name: 'a carriage return that would overwrite the line', input: 'ok\rfake', expected: 'ok\\rfake' },
        { name: 'a line feed in a file name that would forge another row', input: 'a.ts\nsrc/fake.ts:1-9  function login', expected: 'a.ts\\nsrc/fake.ts:1-9  function login' },
        { name: 'C1 CSI and DEL', input: 'a\u009b2Jb\u007f', expected: 'a\\x9b2Jb\\x7f' },
        { name: 'a right-to-left override that makes txt.exe read as exe.txt', input: 'invoice\u202etxt.exe', expected: 'invoice\\u{202E}txt.exe' },
        { name: 'embeddings and overrides', input: '\u202a\u202b\u202c\u202d', expected: '\\u{202A}\\u{202B}\\u{202C}\\u{202D}' },
        { name: 'isolates', input: 'x\u2066\u2067\u2068\u2069y', expected: 'x\\u{2066}\\u{2067}\\u{2068}\\u{2069}y' },
        { name: 'the direction marks', input: '\u200e\u200f\u061c', expected: '\\u{200E}\\u{200F}\\u{61C}' },
        { name: 'a vertical tab and a form feed', input: 'a\u000bb\u000cc', expected: 'a\\x0bb\\x0cc' },
        { name: 'tabs, non-ASCII and right-to-left letters stay as they are', input: 'a\tb größe 😀 שלום', expected: 'a\tb größe 😀 שלום' },
      ],
      visible,
    );
  });

  describe('a block keeps its line feeds and shows everything else', () => {
    checkAll(
      [
        { name: 'lines of a file', input: 'one\ntwo\n\tthree', expected: 'one\ntwo\n\tthree' },
        { name: 'a CRLF file', input: 'one\r\ntwo', expected: 'one\\r\ntwo' },
        { name: 'an override and an escape inside', input: 'a\u202eb\n\u001b[2J', expected: 'a\\u{202E}b\n\\x1b[2J' },
      ],
      visibleBlock,
    );
  });

  it('line and note escape, record writes JSON as it is', () => {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const out = new Output(false, stdout as unknown as NodeJS.WriteStream, stderr as unknown as NodeJS.WriteStream);
    out.line('\u001b[2Jhit');
    out.note('\u001b[2Jnote');
    out.record({ path: '\u001b[2J' });
    assert.equal(String(stdout.read()), '\\x1b[2Jhit\n{"path":"\\u001b[2J"}\n');
    assert.equal(String(stderr.read()), '\\x1b[2Jnote\n');
  });

  it('an error in JSON stays valid JSON holding the characters as they are', () => {
    const stderr = new PassThrough();
    const out = new Output(true, new PassThrough() as unknown as NodeJS.WriteStream, stderr as unknown as NodeJS.WriteStream);
    out.error('x', 'bad \u202e name\n');
    assert.deepEqual(JSON.parse(String(stderr.read())), { error: { code: 'x', message: 'bad \u202e name\n' } });
  });
});
