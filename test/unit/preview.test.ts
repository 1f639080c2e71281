// Previews at the match: a hit's preview starts at its chunk's best-matching line (the most and
// strongest query words, by the index's own token rules), names that line, and lists the lines
// where the query's words occur.
import * as assert from 'node:assert/strict';
import { checkAll } from './check';
import { LazyLines } from '../../src/core/search/lazyLines';
import { preview, type PreviewContext } from '../../src/core/search/preview';
import { compileQuery } from '../../src/core/search/compiled';
import { c, searcher } from './helpers/snapshot';

interface PreviewCase {
  /** The chunk's lines (the chunk is all of them). */
  lines: string[];
  /** The query; undefined for a hit found without one (a cross-reference, a symbol). */
  query?: string;
  context?: PreviewContext;
  count?: number;
}

interface Shown {
  text: string;
  firstLine?: number;
  matchLines?: number[];
}

function shown({ lines, query, context, count = 3 }: PreviewCase): Shown {
  const p = preview(LazyLines.of(Buffer.from(lines.join('\n'))), 1, lines.length, count, query === undefined ? undefined : compileQuery(query), context);
  const out: Shown = { text: p.text };
  if (p.firstLine !== undefined) out.firstLine = p.firstLine;
  if (p.matchLines) out.matchLines = p.matchLines;
  return out;
}

const DOC_COMMENTED = ['/**', ' * Sends the message.', ' */', 'export function send(msg) {', '  const payload = encode(msg);', '  return retryRequest(payload, 3);', '}'];
const RETURN_OBJECT = ['  return {', '    name: user.name,', '    email: formatEmail(user),', '  };'];
const YAML = ['---', 'name: ci', 'on:', '  push:', '    branches: [main]'];
const PARSE = ['export function parseConfig(raw: string): Config {', '  const config = parse(raw);', '  return config;', '}'];

describe('previews at the match', () => {
  describe('the best line, the window after it, and the lines that match', () => {
    checkAll<PreviewCase, Shown>(
      [
        {
          name: 'a doc comment before a function whose body matches: the body line',
          input: { lines: DOC_COMMENTED, query: 'retry' },
          expected: { text: 'return «retryRequest»(payload, 3);\n}', firstLine: 6, matchLines: [6] },
        },
        {
          name: 'a chunk starting `return {`: the line that matches',
          input: { lines: RETURN_OBJECT, query: 'format email' },
          expected: { text: '«email»: «formatEmail»(user),\n};', firstLine: 3, matchLines: [3] },
        },
        {
          name: 'YAML after `---`: the key that matches',
          input: { lines: YAML, query: 'branches' },
          expected: { text: '«branches»: [main]', firstLine: 5, matchLines: [5] },
        },
        {
          name: 'signature and body match equally: the definition line',
          input: { lines: PARSE, query: 'parse config', context: { symbol: 'parseConfig' } },
          expected: { text: 'export function «parseConfig»(raw: string): «Config» {\n  const «config» = «parse»(raw);\n  return «config»;', firstLine: 1, matchLines: [1, 2, 3] },
        },
        {
          name: 'a usage example in the doc comment is not the definition line: the first equal line wins',
          input: { lines: ['/**', ' * Basic auth middleware.', ' *', ' *   basicAuth({ user })', ' */'], query: 'basic auth', context: { symbol: 'basicAuth' } },
          expected: { text: '* «Basic» «auth» middleware.\n*\n*   «basicAuth»({ user })', firstLine: 2, matchLines: [2, 4] },
        },
        {
          name: 'a C macro is a definition line, whatever its `#`',
          input: { lines: ['/* max buffer size */', '#define MAX_BUFFER 4096'], query: 'buffer', context: { symbol: 'MAX_BUFFER' } },
          expected: { text: '#define «MAX_BUFFER» 4096', firstLine: 2, matchLines: [1, 2] },
        },
        {
          name: 'the body matches more of the query than the signature: the body line',
          input: { lines: PARSE, query: 'return config', context: { symbol: 'parseConfig' } },
          expected: { text: '«return» «config»;\n}', firstLine: 3, matchLines: [1, 2, 3] },
        },
        {
          name: 'a whole identifier beats its words spread over a comment',
          input: { lines: ['// fetch the user name', 'const n = fetchUserName(id);'], query: 'fetchUserName' },
          expected: { text: 'const n = «fetchUserName»(id);', firstLine: 2, matchLines: [1, 2] },
        },
        {
          name: 'no match at all: the first line with a word, past the comment opener',
          input: { lines: DOC_COMMENTED, query: 'zebra' },
          expected: { text: '* Sends the message.\n*/\nexport function send(msg) {', firstLine: 2, matchLines: [] },
        },
        {
          name: 'no query (a cross-reference): YAML starts past `---`',
          input: { lines: YAML },
          expected: { text: 'name: ci\non:\n  push:', firstLine: 2 },
        },
        {
          name: 'a path-only query matches no line',
          input: { lines: RETURN_OBJECT, query: 'path:user' },
          expected: { text: 'return {\n  name: user.name,\n  email: formatEmail(user),', firstLine: 1, matchLines: [] },
        },
        {
          name: 'fuzzy terms match within their edit distance',
          input: { lines: DOC_COMMENTED, query: 'retyr~1' },
          expected: { text: 'return «retryRequest»(payload, 3);\n}', firstLine: 6, matchLines: [6] },
        },
        {
          name: 'prose is matched by stem',
          input: { lines: ['# Errors', '', 'Parsing errors are reported once.'], query: 'parse', context: { prose: true } },
          expected: { text: '«Parsing» errors are reported once.', firstLine: 3, matchLines: [3] },
        },
        {
          name: 'stop words count for little beside the other words',
          input: { lines: ['for the sake of the argument', 'config.load()'], query: 'the config' },
          expected: { text: '«config».load()', firstLine: 2, matchLines: [1, 2] },
        },
        {
          name: 'excluded words match nothing',
          input: { lines: ['legacy loader', 'modern loader'], query: 'loader -legacy' },
          expected: { text: 'legacy «loader»\nmodern «loader»', firstLine: 1, matchLines: [1, 2] },
        },
        {
          name: 'a one-line preview',
          input: { lines: DOC_COMMENTED, query: 'encode', count: 1 },
          expected: { text: 'const payload = «encode»(msg);', firstLine: 5, matchLines: [5] },
        },
        {
          name: 'at most five match lines: the best one and the strongest others, in line order',
          input: { lines: ['a user', 'b user', 'c user', 'd user', 'e user', 'f user', 'g user', 'user session'], query: 'user session', count: 1 },
          expected: { text: '«user» «session»', firstLine: 8, matchLines: [1, 2, 3, 4, 8] },
        },
        {
          name: 'a blank chunk has no preview line',
          input: { lines: ['', '   '], query: 'x' },
          expected: { text: '', matchLines: [] },
        },
      ],
      shown,
    );
  });

  it('a match far into a long line is kept in view, the cuts marked', () => {
    const long = `${'filler '.repeat(60)}needle ${'tail '.repeat(60)}`;
    const p = shown({ lines: [long], query: 'needle', count: 1 });
    assert.equal(p.firstLine, 1);
    assert.ok(p.text.startsWith('…') && p.text.endsWith('…'), p.text);
    assert.match(p.text, /«needle»/);
    assert.ok(p.text.length < 260, `${p.text.length} characters`);
  });

  describe('search hits carry the line in file numbers', () => {
    const search = searcher([
      c('src/send.ts:11-17 function send', DOC_COMMENTED.join('\n')),
      c('config/ci.yml:1-5 key name', YAML.join('\n')),
    ]);
    checkAll(
      [
        { name: 'a chunk deep in its file (read from its recorded offset)', input: 'retry', expected: { docid: 'src/send.ts:11-17', previewLine: 16, matchLines: [16], preview: 'return «retryRequest»(payload, 3);\n}' } },
        { name: 'the encode line', input: 'encode payload', expected: { docid: 'src/send.ts:11-17', previewLine: 15, matchLines: [15, 16], preview: 'const «payload» = «encode»(msg);\nreturn retryRequest(«payload», 3);\n}' } },
        { name: 'YAML', input: 'branches', expected: { docid: 'config/ci.yml:1-5', previewLine: 5, matchLines: [5], preview: '«branches»: [main]' } },
      ],
      (q) => {
        const h = search(q).hits[0]!;
        return { docid: h.docid, previewLine: h.previewLine, matchLines: h.matchLines, preview: h.preview };
      },
    );

    it('without preview lines there is no preview line', () => {
      const h = search('retry', { previewLines: 0 }).hits[0]!;
      assert.equal(h.preview, '');
      assert.equal(h.previewLine, undefined);
      assert.equal(h.matchLines, undefined);
    });
  });
});
