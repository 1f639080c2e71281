// Minified text is cut into bounded character pieces whatever its language, so a bundle makes a
// few chunks (not one per definition, not one the size of the line) that together hold its text.
import { checkAll } from './check';
import { chunkDocument } from '../../src/core/chunking/chunkFile';
import { MINIFIED_PIECE_CHARS, chunkMinified } from '../../src/core/chunking/lines/minified';
import { DEFAULT_POLICY } from '../../src/core/chunking/policy';
import { docOf } from './lineChunkerSupport';

const bundle = (n: number): string => Array.from({ length: n }, (_, i) => `function f${i}(a,b){return a*${i}+b}`).join('');

/** What a user of the index sees of a file's chunks: how many, the largest, and whether any word was cut. */
function summary(path: string, text: string): { chunks: number; largest: number; wordsIntact: boolean; spans: boolean } {
  const chunks = chunkMinified(docOf(path, text));
  const words = new Set(text.match(/\w+/g));
  return {
    chunks: chunks.length,
    largest: Math.max(...chunks.map((c) => c.text.length)),
    wordsIntact: chunks.every((c) => (c.text.match(/\w+/g) ?? []).every((w) => words.has(w))),
    spans: chunks.every((c) => c.span !== undefined && text.slice(c.span[0], c.span[1]) === c.text),
  };
}

describe('line chunker: minified text', () => {
  describe('which files count as minified (through the dispatcher)', () => {
    checkAll(
      [
        { name: 'a one-line bundle: pieces, not a chunk per function', input: { path: 'lib/app.min.js', text: `${bundle(3000)}\n` }, expected: { strategy: 'lines', pieces: true } },
        { name: 'a bundle under a license comment', input: { path: 'lib/app.js', text: `/*! v1.0 | MIT */\n${bundle(3000)}\n` }, expected: { strategy: 'lines', pieces: true } },
        { name: 'a minified stylesheet', input: { path: 'a.min.css', text: `${'.a{color:red}'.repeat(2000)}\n` }, expected: { strategy: 'lines', pieces: true } },
        { name: 'an ordinary file with one long string keeps its line chunks', input: { path: 'src/a.txt', text: `const a = 1;\n${'x'.repeat(1500)}\n${'const b = 2;\n'.repeat(200)}` }, expected: { strategy: 'lines', pieces: false } },
        { name: 'a short long line is not minified', input: { path: 'src/a.txt', text: `${'y'.repeat(1200)}\n` }, expected: { strategy: 'lines', pieces: false } },
      ],
      async ({ path, text }: { path: string; text: string }) => {
        const r = await chunkDocument(docOf(path, text), { policy: DEFAULT_POLICY, strategy: 'lines' });
        return { strategy: r.strategy, pieces: r.chunks.length > 0 && r.chunks.every((c) => c.span !== undefined) };
      },
    );
  });

  describe('the pieces', () => {
    checkAll(
      [
        { name: 'a 100 KB line: 26 pieces of at most the bound, words whole, each its own characters', input: { path: 'a.min.js', text: bundle(3000) }, expected: { chunks: 26, largest: 4096, wordsIntact: true, spans: true } },
        { name: 'no boundary in reach: cut at the bound', input: { path: 'a.min.js', text: 'z'.repeat(10_000) }, expected: { chunks: 3, largest: MINIFIED_PIECE_CHARS, wordsIntact: false, spans: true } },
        { name: 'astral characters are never cut in half', input: { path: 'a.txt', text: '😀'.repeat(5000) }, expected: { chunks: 3, largest: MINIFIED_PIECE_CHARS, wordsIntact: true, spans: true } },
      ],
      ({ path, text }: { path: string; text: string }) => summary(path, text),
    );
  });
});
