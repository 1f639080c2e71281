// Labels and tooltips in plain text: a heading's Markdown and HTML (anchors, bold, code marks)
// read as rendered, and a score's parts in words rather than the scorer's notation.
import { checkAll } from './check';
import { hitTitle, plainLine } from '../../src/vscode/format';
import { scoreWords } from '../../src/vscode/plainText';
import type { ScoreComponent } from '../../src/core/api';

describe('plain text for people', () => {
  describe('a hit\'s label: raw breadcrumb → shown', () => {
    const section = (context: string, symbol = context.split(' > ').pop() as string) => ({ startLine: 3, endLine: 9, symbol, context, language: 'markdown' });
    checkAll(
      [
        { name: 'an HTML anchor before a heading', input: section('<a name="no-unused-vars"></a>no-unused-vars'), expected: 'no-unused-vars' },
        { name: 'bold in a heading path', input: section('Migrating > **Codemod:** flat config'), expected: 'Migrating > Codemod: flat config' },
        { name: 'an anchor with an id, and code marks', input: section('Rules > <a id="x"></a>`no-console`'), expected: 'Rules > no-console' },
        { name: 'a code span keeps its underscores and angle brackets', input: section('API > `__init__(<T>)`'), expected: 'API > __init__(<T>)' },
        { name: 'a link keeps its text', input: section('See [the guide](docs/guide.md) first'), expected: 'See the guide first' },
        { name: 'entities as characters', input: section('Q &amp; A'), expected: 'Q & A' },
        { name: 'snake_case stays', input: section('The read_span tool'), expected: 'The read_span tool' },
        { name: 'code names are left as written', input: { startLine: 1, endLine: 2, symbol: 'Vec<T>', context: 'Vec<T>', language: 'cpp' }, expected: 'Vec<T>' },
      ],
      hitTitle,
    );
    checkAll(
      [{ name: 'a heading line in a preview', input: '## <a name="codemod"></a>**Codemod:** `run`', expected: 'Codemod: run' }],
      (line: string) => plainLine(line, 'markdown'),
    );
  });

  describe('a score\'s parts in words', () => {
    checkAll<ScoreComponent, string>(
      [
        { name: 'a word of the query in the name', input: { kind: 'field', field: 'symbol', term: 'directives', value: 1 }, expected: '“directives” in its name' },
        { name: 'a prefix that found the word itself', input: { kind: 'field', field: 'body', term: 'directives*→directives', value: 1 }, expected: '“directives” in its code' },
        { name: 'a prefix that found a longer word', input: { kind: 'field', field: 'context', term: 'direct*→directives', value: 1 }, expected: '“directives” (starts with “direct”) in the names around it' },
        { name: 'a near miss', input: { kind: 'field', field: 'prose', term: 'recieve~receive', value: 1 }, expected: '“receive” (close to “recieve”) in its text' },
        { name: 'words joined into a name', input: { kind: 'field', field: 'symbol', term: 'parse args→parseargs', value: 1 }, expected: '“parseargs” (your words “parse args” as one name) in its name' },
        { name: 'a boost', input: { kind: 'boost', name: 'exact-definition', factor: 3, value: 2 }, expected: 'Defines a name you searched for (× 3)' },
        { name: 'a demotion', input: { kind: 'boost', name: 'code-first:prose', factor: 0.3, value: -1 }, expected: 'Documentation, while code comes first (× 0.3)' },
        { name: 'fused lists', input: { kind: 'match', name: 'rrf: ripgrep rank 2 (× 0.5)', value: 1 }, expected: 'Ranked 2 by ripgrep (weighed × 0.5)' },
        { name: 'a file\'s best chunk', input: { kind: 'match', name: 'best chunk', value: 1 }, expected: 'Best chunk' },
      ],
      scoreWords,
    );
  });
});
