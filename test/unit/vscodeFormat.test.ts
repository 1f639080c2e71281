// How the extension writes things for people: numbers with the locale's separators, sizes,
// languages by name, a refresh in words, and what a search hit is called (short enough to leave
// its path in view; headings without their Markdown marks; unnamed chunks by what encloses them).
import { checkAll } from './check';
import { bytes, formatNumber, hitTitle, labelHighlights, matchedLine, plainLine, refreshWords, shortenBreadcrumb, skipDetail } from '../../src/vscode/format';
import { languageName } from '../../src/core/languages';

describe('vscode format', () => {
  describe('a Results row highlights the words its preview matched', () => {
    checkAll(
      [
        { name: 'a word of the name', input: { label: 'Point.distance', preview: 'return Math.hypot(«distance»)' }, expected: [[6, 14]] },
        { name: 'any case, every occurrence', input: { label: 'Greeter.greet', preview: 'a «greet» here' }, expected: [[0, 5], [8, 13]] },
        { name: 'two words side by side join', input: { label: 'parseConfig', preview: '«parse» the «config»' }, expected: [[0, 11]] },
        { name: 'nothing matched in the name', input: { label: 'Vector.length', preview: 'const «hypot» = 1' }, expected: [] },
        { name: 'no markers', input: { label: 'Vector.length', preview: 'length()' }, expected: [] },
      ],
      ({ label, preview }: { label: string; preview: string }) => labelHighlights(label, preview),
    );
  });

  describe('numbers in the UI locale', () => {
    checkAll(
      [
        { name: 'English thousands', input: { n: 2150, locale: 'en' }, expected: '2,150' },
        { name: 'English, a region', input: { n: 1234567, locale: 'en-GB' }, expected: '1,234,567' },
        { name: 'German thousands', input: { n: 2150, locale: 'de' }, expected: '2.150' },
        { name: 'French thousands (a narrow no-break space)', input: { n: 2150, locale: 'fr' }, expected: '2\u202f150' },
        { name: 'small numbers as they are', input: { n: 999, locale: 'de' }, expected: '999' },
        { name: 'a locale tag Intl does not know', input: { n: 2150, locale: 'qq-not-a-locale-' }, expected: '2,150' },
        { name: 'one decimal, dropped when zero', input: { n: 1.04, locale: 'en', digits: 1 }, expected: '1' },
        { name: 'German decimals', input: { n: 1234.56, locale: 'de', digits: 1 }, expected: '1.234,6' },
      ],
      ({ n, locale, digits }: { n: number; locale: string; digits?: number }) => formatNumber(n, digits, locale),
    );
  });

  describe('sizes', () => {
    checkAll(
      [
        { input: 900, expected: '900 B' },
        { input: 13_721, expected: '13.4 KB' },
        { input: 1_048_576, expected: '1 MB' },
        { input: 1_153_434, expected: '1.1 MB' },
        { input: 5 * 1024 ** 3, expected: '5 GB' },
      ],
      bytes,
    );
    checkAll(
      [
        { name: 'too large: sizes, not byte counts', input: '1153434 bytes (limit 1048576)', expected: '1.1 MB (limit 1 MB)' },
        { name: 'too large by less than the sizes show: exact counts', input: '1048600 bytes (limit 1048576)', expected: '1,048,600 bytes (limit 1,048,576 bytes)' },
        { name: 'grew while read', input: 'grew past the limit of 1048576 bytes while being read', expected: 'grew past the limit of 1 MB while being read' },
        { name: 'another detail as it is', input: 'EACCES', expected: 'EACCES' },
      ],
      skipDetail,
    );
  });

  describe('languages by name', () => {
    checkAll(
      [
        { input: 'typescript', expected: 'TypeScript' },
        { input: 'cpp', expected: 'C++' },
        { input: 'csharp', expected: 'C#' },
        { input: 'markdown', expected: 'Markdown' },
        { input: 'text', expected: 'Plain Text' },
        { input: 'klingon', expected: 'klingon' },
      ],
      languageName,
    );
  });

  describe('a refresh in words', () => {
    checkAll([{ input: { added: 2150, changed: 0, removed: 0 }, expected: '2,150 added, 0 changed, 0 removed' }], refreshWords);
  });

  describe('what a hit is called', () => {
    const span = { startLine: 204, endLine: 227 };
    checkAll(
      [
        { name: 'a method by its qualified name', input: { ...span, symbol: 'greet', context: 'Greeter.greet' }, expected: 'Greeter.greet' },
        { name: 'a chunk without a name of its own by the definition around it', input: { ...span, symbol: '', context: 'Flask' }, expected: 'Flask' },
        { name: 'a section by its heading path', input: { ...span, symbol: 'FAQ', context: 'User Guide > FAQ' }, expected: 'User Guide > FAQ' },
        {
          name: 'a long heading path keeps the nearest headings',
          input: { ...span, symbol: 'Blueprint Resource Folder', context: 'Modular Applications with Blueprints > Blueprint Resources > Blueprint Resource Folder' },
          expected: '… > Blueprint Resource Folder',
        },
        { name: 'only a chunk with neither by its lines', input: { ...span, symbol: '', context: '' }, expected: 'lines 204–227' },
      ],
      hitTitle,
    );
    checkAll(
      [
        { name: 'fits', input: 'a.b.c', expected: 'a.b.c' },
        { name: 'one part too long for the label: cut at the end', input: 'x'.repeat(60), expected: `${'x'.repeat(47)}…` },
        { name: 'qualified names lose their outer parts first', input: 'outermostNamespace.InnerNamespace.SomeClass.someMethodName', expected: '….InnerNamespace.SomeClass.someMethodName' },
      ],
      (name) => shortenBreadcrumb(name, '.'),
    );
  });

  describe('a line of a prose file as it reads rendered', () => {
    checkAll(
      [
        { name: 'an ATX heading', input: { text: '### Why is the greeting empty?', language: 'markdown' }, expected: 'Why is the greeting empty?' },
        { name: 'closing hashes', input: { text: '## Install ##', language: 'markdown' }, expected: 'Install' },
        { name: 'emphasis and code', input: { text: '## **Bold** _and_ `code` and *more*', language: 'markdown' }, expected: 'Bold and code and more' },
        { name: 'snake_case stays', input: { text: '# The read_span tool', language: 'markdown' }, expected: 'The read_span tool' },
        { name: 'an AsciiDoc title', input: { text: '== Getting started', language: 'asciidoc' }, expected: 'Getting started' },
        { name: 'body text as it is', input: { text: 'Names are **trimmed**.', language: 'markdown' }, expected: 'Names are **trimmed**.' },
        { name: 'code as it is', input: { text: '# not a heading in Python', language: 'python' }, expected: '# not a heading in Python' },
      ],
      ({ text, language }) => plainLine(text, language),
    );
    checkAll(
      [{ name: 'the Results view\'s matched line', input: { preview: '### Why is the «greeting» «empty»?\n\nNames are trimmed', previewLine: 31, startLine: 29, language: 'markdown' }, expected: '31: Why is the greeting empty?' }],
      matchedLine,
    );
  });
});
