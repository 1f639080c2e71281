// Human output shows the control characters a file name or a file's text holds instead of
// letting the terminal obey them; JSON output keeps them, escaped by JSON itself.
import * as assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { Output, visible } from '../../src/cli/output';
import { checkAll } from './check';

describe('CLI output', () => {
  describe('control characters are shown, not obeyed', () => {
    checkAll(
      [
        { name: 'a colour escape in a file name', input: 'src/\u001b[31mred.ts:1-3', expected: 'src/\\x1b[31mred.ts:1-3' },
        { name: 'a title escape ended by BEL in a file text', input: 'x = "\u001b]0;owned\u0007"', expected: 'x = "\\x1b]0;owned\\x07"' },
        { name: 'a carriage return that would overwrite the line', input: 'ok\rfake', expected: 'ok\\x0dfake' },
        { name: 'C1 CSI and DEL', input: 'a\u009b2Jb\u007f', expected: 'a\\x9b2Jb\\x7f' },
        { name: 'tabs, newlines and non-ASCII stay as they are', input: 'a\tb\nc größe 😀', expected: 'a\tb\nc größe 😀' },
      ],
      visible,
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
});
