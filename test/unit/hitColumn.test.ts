// Where opening a search hit puts the caret on its matched line: at the occurrence of the
// matched word that the preview shows, which on a minified line is rarely the word's first.
import { checkAll } from './check';
import { matchColumn } from '../../src/vscode/hitLine';

/** A minified line: `word` first occurs in another piece at column 17,303; this hit's piece holds it at 40,000 and on. */
const filler = (n: number) => 'a=1;'.repeat(n / 4);
const MINIFIED = `${filler(17300)}var debounceRender=function(e){return e};${filler(22660)}var q=debounceRender;renderQueue.flush(q);${filler(400)}`;

describe('the caret on a matched line', () => {
  checkAll(
    [
      {
        name: 'a piece of a minified line: the occurrence its preview shows, not the line\'s first',
        input: { line: MINIFIED, preview: 'a=1;a=1;var q=«debounceRender»;«renderQueue».flush(q);a=1;' },
        expected: MINIFIED.indexOf('q=debounceRender') + 2,
      },
      {
        name: 'a minified piece whose preview starts at the word',
        input: { line: MINIFIED, preview: '«debounceRender»;renderQueue.flush(q);a=1;a=1;' },
        expected: MINIFIED.indexOf('q=debounceRender') + 2,
      },
      {
        name: 'a long line cut around the match (`…` at both ends)',
        input: { line: MINIFIED, preview: '…a=1;var q=«debounceRender»;«renderQueue».flush…' },
        expected: MINIFIED.indexOf('q=debounceRender') + 2,
      },
      { name: 'an ordinary line, dedented in the preview', input: { line: '    return retryRequest(x);', preview: 'return «retryRequest»(x);\n}' }, expected: 11 },
      { name: 'the whole word, not a word that contains it', input: { line: 'const users = user;', preview: 'const users = «user»;' }, expected: 14 },
      { name: 'a numbered ripgrep preview', input: { line: '// TODO(alice): retry', preview: '3: // «TODO(alice)»: retry' }, expected: 3 },
      { name: 'the file changed since: the word\'s first occurrence', input: { line: 'let total = sum(xs);', preview: 'const «total» = 0;' }, expected: 4 },
      { name: 'nothing marked: the first non-blank character', input: { line: '    name: ci', preview: 'name: ci' }, expected: 4 },
    ],
    ({ line, preview }: { line: string; preview: string }) => matchColumn(line, preview),
  );
});
