import * as assert from 'node:assert/strict';
import { checkAll } from './check';
import { chunkByLines } from '../../src/core/chunking/lines';
import type { ChunkingPolicy } from '../../src/core/chunking/policy';
import { assertLineChunkInvariants, docOf, flatPolicy, prng, text, view, type ChunkView } from './lineChunkerSupport';

const para = (word: string, n = 8): string => Array.from({ length: n }, () => word).join(' ');
const chunk = (path: string, t: string, policy: ChunkingPolicy = flatPolicy(1200)): ChunkView[] => view(chunkByLines(docOf(path, t), policy));
const S = (symbol: string, context: string, lines: string, parent?: string): ChunkView =>
  parent === undefined ? { kind: 'section', symbol, context, lines } : { kind: 'section', symbol, context, lines, parent };
const T = (lines: string): ChunkView => ({ kind: 'text', symbol: '', context: '', lines });

describe('line chunker: markdown and other prose', () => {
  describe('sections and breadcrumbs', () => {
    checkAll<string, ChunkView[]>(
      [
        {
          name: 'ATX headings nest by level; text before the first heading is a text chunk',
          input: text('intro', '', '# Install', para('setup'), '', '## Linux', para('apt'), '## macOS', para('brew'), '# Usage', para('run')),
          expected: [
            T('1-1'),
            S('Install', 'Install', '3-4'),
            S('Linux', 'Install > Linux', '6-7', 'Install'),
            S('macOS', 'Install > macOS', '8-9', 'Install'),
            S('Usage', 'Usage', '10-11'),
          ],
        },
        {
          name: '# lines inside fenced code blocks are not headings',
          input: text('# Build', para('make'), '```sh', '# not a heading', 'make all', '```', '~~~', '## nor this', '~~~', '## Test', para('check')),
          expected: [S('Build', 'Build', '1-9'), S('Test', 'Build > Test', '10-11', 'Build')],
        },
        {
          name: 'a longer fence is only closed by a fence at least as long',
          input: text('# A', para('alpha'), '````md', '```', '# inside', '```', '````', '# B', para('beta')),
          expected: [S('A', 'A', '1-7'), S('B', 'B', '8-9')],
        },
        {
          name: 'setext headings, including a multi-line title',
          input: text('Title', '=====', para('intro'), '', 'Sub', 'section', '---', para('body')),
          expected: [S('Title', 'Title', '1-3'), S('Sub section', 'Title > Sub section', '5-8', 'Title')],
        },
        {
          name: 'a --- after a blank line, a list item or a quote is a thematic break',
          input: text('# A', para('alpha'), '', '---', '- item', '---', '> quote', '---', 'x'),
          expected: [S('A', 'A', '1-9')],
        },
        {
          name: 'front matter is part of the leading text chunk and holds no headings',
          input: text('---', 'title: Guide', '# not: a heading', '---', '', '# Guide', para('text')),
          expected: [T('1-4'), S('Guide', 'Guide', '6-7')],
        },
        {
          name: 'headings are cleaned of closing hashes, code ticks, links and anchors',
          input: text('## `chunkDocument()` ##', para('api'), '## See [the docs](https://x.y) {#docs}', para('more')),
          expected: [S('chunkDocument()', 'chunkDocument()', '1-2'), S('See the docs', 'See the docs', '3-4')],
        },
        {
          name: '#hashtag and indented # are not headings',
          input: text('# Real', para('a'), '#hashtag', '    # code', para('b')),
          expected: [S('Real', 'Real', '1-5')],
        },
        {
          name: 'HTML comments hide headings',
          input: text('# A', para('a'), '<!--', '# hidden', '-->', '# B', para('b')),
          expected: [S('A', 'A', '1-5'), S('B', 'B', '6-7')],
        },
      ],
      (input) => chunk('README.md', input, flatPolicy(160)),
    );
  });

  describe('headings in labels and breadcrumbs are plain text, as rendered', () => {
    checkAll<string, string>(
      [
        { name: 'anchors, links and code spans', input: '## <a name="x"></a>Install [Linux](url) `code`', expected: 'Install Linux code' },
        { name: 'closing hashes', input: '### Build steps ###', expected: 'Build steps' },
        { name: 'emphasis, strong and strikethrough markers', input: '# The *quick* **brown** _fox_ ~~old~~', expected: 'The quick brown fox old' },
        { name: 'a badge: an image inside a link', input: '# Cairn [![Build](https://ci/x.svg)](https://ci)', expected: 'Cairn Build' },
        { name: 'reference links, full and collapsed', input: '## [API][api] and [docs][]', expected: 'API and docs' },
        { name: 'HTML tags, entities and comments', input: '## Use <code>foo</code> &amp; bar <!-- todo -->', expected: 'Use foo & bar' },
        { name: 'an autolink keeps its address', input: '## Mirror (<https://x.y>)', expected: 'Mirror (https://x.y)' },
        { name: 'code spans keep their text as written', input: '## `__init__` and ``a `b` c``', expected: '__init__ and a `b` c' },
        { name: 'underscores inside words and unpaired stars stay', input: '## my_var_name, *args and **kwargs', expected: 'my_var_name, *args and **kwargs' },
        { name: 'backslash escapes resolved', input: '## Config \\*stars\\*', expected: 'Config *stars*' },
        { name: 'setext headings too', input: '**Bold** [title](x)\n===', expected: 'Bold title' },
      ],
      (heading) => {
        const chunks = chunk('README.md', text(heading, para('body')));
        const section = chunks.find((ch) => ch.kind === 'section');
        assert.ok(section, JSON.stringify(chunks));
        assert.equal(section.context, section.symbol, 'the breadcrumb of a top-level section is its title');
        return section.symbol;
      },
    );

    it('breadcrumbs join the plain titles', () => {
      const chunks = chunk('README.md', text('# **Guide** `v2`', para('intro', 30), '', '## <a id="i"></a>[Install](#install)', para('steps', 30)), flatPolicy(400));
      assert.deepEqual(chunks.map((ch) => [ch.symbol, ch.context, ch.parent]), [['Guide v2', 'Guide v2', undefined], ['Install', 'Guide v2 > Install', 'Guide v2']]);
    });
  });

  describe('tiny sections', () => {
    checkAll<string, ChunkView[]>(
      [
        {
          name: 'a tiny parent folds into its first subsection, which keeps its own name',
          input: text('# Install', '## Linux', para('apt'), '## macOS', para('brew')),
          expected: [S('Linux', 'Install > Linux', '1-3', 'Install'), S('macOS', 'Install > macOS', '4-5', 'Install')],
        },
        {
          name: 'folding chains down several levels',
          input: text('# A', '## B', '### C', para('deep')),
          expected: [S('C', 'A > B > C', '1-4', 'A > B')],
        },
        {
          name: 'tiny siblings stay apart',
          input: text('## One', 'x', '## Two', 'y'),
          expected: [S('One', 'One', '1-2'), S('Two', 'Two', '3-4')],
        },
      ],
      (input) => chunk('doc.md', input, flatPolicy(400)),
    );
  });

  describe('sections over budget', () => {
    const policy = flatPolicy(200);
    it('are cut at paragraph boundaries and keep the breadcrumb', () => {
      const p = para('lorem', 10); // 59 chars
      const t = text('# Top', '## Long', p, p, '', p, p, '', p, p, '## Next', 'short');
      assert.deepEqual(chunk('a.md', t, policy), [
        S('Long', 'Top > Long', '1-4', 'Top'),
        S('Long', 'Top > Long', '6-7', 'Top'),
        S('Long', 'Top > Long', '9-10', 'Top'),
        S('Next', 'Top > Next', '11-12', 'Top'),
      ]);
    });
    it('never cut inside a fence that fits the budget', () => {
      const t = text('# Code', para('intro', 28), '```', 'a();', 'b();', 'c();', 'd();', '```', 'after'); // 209 chars
      assert.deepEqual(chunk('a.md', t, policy), [S('Code', 'Code', '1-2'), S('Code', 'Code', '3-9')]);
    });
    it('cut inside a fence only when the fence alone is over budget', () => {
      const body = Array.from({ length: 30 }, (_, i) => `line_${i}();`); // 12 chars each
      const chunks = chunkByLines(docOf('a.md', text('# Big', '```js', ...body, '```')), policy);
      assert.ok(chunks.length >= 2);
      for (const c of chunks) assert.equal(c.context, 'Big');
      assertLineChunkInvariants(docOf('a.md', text('# Big', '```js', ...body, '```')), chunks, policy);
    });
  });

  describe('reStructuredText and AsciiDoc', () => {
    it('reStructuredText: underlined and overlined titles, levels in order of appearance', () => {
      const t = text('=====', 'Guide', '=====', '', para('intro'), '', 'Install', '-------', '', para('steps'), '', 'Linux', '~~~~~', '', para('apt'), '', 'Usage', '-----', '', para('run'));
      assert.deepEqual(chunk('docs/guide.rst', t, flatPolicy(160)), [
        S('Guide', 'Guide', '1-5'),
        S('Install', 'Guide > Install', '7-10', 'Guide'),
        S('Linux', 'Guide > Install > Linux', '12-15', 'Guide > Install'),
        S('Usage', 'Guide > Usage', '17-20', 'Guide'),
      ]);
    });
    it('reStructuredText: a line right under a paragraph line is not a title', () => {
      assert.deepEqual(chunk('a.rst', text('Some text', 'more text', '---------', 'end')), [T('1-4')]);
    });
    it('AsciiDoc: = titles, delimited blocks hide headings', () => {
      const t = text('= Manual', '', para('intro'), '', '== Setup', '', para('setup'), '', '----', '== not a title', '----', '', '=== Linux', para('apt'));
      assert.deepEqual(chunk('manual.adoc', t, flatPolicy(160)), [
        S('Manual', 'Manual', '1-3'),
        S('Setup', 'Setup', '5-11'),
        S('Linux', 'Setup > Linux', '13-14', 'Setup'),
      ]);
    });
  });

  it('a document without headings is text chunks', () => {
    assert.deepEqual(chunk('notes.md', text('just', 'some', 'notes')), [T('1-3')]);
  });

  it('holds the invariants on generated documents', () => {
    const random = prng(11);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
    for (let n = 0; n < 300; n++) {
      const lines: string[] = [];
      const count = Math.floor(random() * 80);
      while (lines.length < count) {
        const r = random();
        if (r < 0.12) lines.push(`${'#'.repeat(1 + Math.floor(random() * 4))} ${pick(['Intro', 'Setup', 'API', ''])}`);
        else if (r < 0.2) lines.push('');
        else if (r < 0.25) lines.push(pick(['```', '~~~', '---', '===', '- item', '> quote', '<!--', '-->']));
        else if (r < 0.27) lines.push('x'.repeat(500));
        else lines.push(para(pick(['a', 'bb', 'ccc']), 1 + Math.floor(random() * 20)));
      }
      const doc = docOf(`gen/${n}.${pick(['md', 'rst', 'adoc'])}`, lines.join('\n'));
      for (const chars of [60, 300, 1200]) assertLineChunkInvariants(doc, chunkByLines(doc, flatPolicy(chars)), flatPolicy(chars));
    }
  });
});
