// Minified files (a bundle on one or a few very long lines) are cut into pieces of a bounded number
// of characters instead of by syntax or by lines. By syntax, a bundle makes a definition chunk of
// every small function, each carrying its own metadata, so the index and an export would be several
// times the file; by lines, the whole line was one chunk no reader should load. A piece records its
// characters (`span`), so search finds its words, previews and columns point into the line, and the
// pieces together hold the file's text once.
import type { Chunk, SourceDocument } from '../../types';
import { languageInfo } from '../../languages';
import { makeChunkId, makeDocid } from '../ids';

/** A line at least this long is not written by hand. */
export const LONG_LINE_CHARS = 1000;

/** The largest piece; a cut is made at a token boundary in its last eighth when there is one. */
export const MINIFIED_PIECE_CHARS = 4096;

/**
 * Whether a document is minified: most of its text (at least half) sits on lines of
 * LONG_LINE_CHARS or more. One long string in an ordinary source file does not qualify, so that
 * file keeps its definitions.
 */
export function looksMinified(text: string): boolean {
  if (text.length < 2 * LONG_LINE_CHARS) return false;
  let long = 0;
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    if (end - start >= LONG_LINE_CHARS) long += end - start;
    start = end + 1;
  }
  return long * 2 >= text.length;
}

/** Characters after which a cut splits no word: statement, block, list and space boundaries. */
function isBoundary(c: number): boolean {
  return c === 59 /* ; */ || c === 125 /* } */ || c === 44 /* , */ || c === 41 /* ) */ || c === 32 || c === 9 || c === 10 || c === 13;
}

/** Where the piece starting at `start` ends (exclusive). */
function pieceEnd(text: string, start: number, max: number): number {
  const hard = start + max;
  if (hard >= text.length) return text.length;
  for (let i = hard - 1; i >= hard - (max >> 3); i--) if (isBoundary(text.charCodeAt(i))) return i + 1;
  // No boundary: cut where the budget ends, but never between the halves of a surrogate pair.
  const c = text.charCodeAt(hard - 1);
  return c >= 0xd800 && c <= 0xdbff ? hard - 1 : hard;
}

/** The document cut into character pieces of at most `max` characters, blank pieces left out. */
export function chunkMinified(doc: SourceDocument, max = MINIFIED_PIECE_CHARS): Chunk[] {
  const text = doc.text;
  const kind = languageInfo(doc.path).bucket === 'code' ? 'code' : 'text';
  const out: Chunk[] = [];
  let line = 1;
  let lineScanned = 0;
  const lineAt = (offset: number): number => {
    for (let i = text.indexOf('\n', lineScanned); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
      line++;
      lineScanned = i + 1;
    }
    return line;
  };
  for (let start = 0; start < text.length; ) {
    const end = pieceEnd(text, start, max);
    // Whitespace at a piece's edges belongs to no word: the piece stands for what lies between.
    let from = start;
    let to = end;
    while (from < to && isSpace(text.charCodeAt(from))) from++;
    while (to > from && isSpace(text.charCodeAt(to - 1))) to--;
    if (from < to) {
      const startLine = lineAt(from);
      const endLine = lineAt(to - 1);
      const piece = text.slice(from, to);
      out.push({
        docid: makeDocid(doc.path, startLine, endLine),
        // The offset is part of the id: two equal pieces of one line are still two chunks.
        id: makeChunkId(doc.path, kind, `@${from}`, startLine, piece),
        path: doc.path,
        startLine,
        endLine,
        text: piece,
        language: doc.language,
        kind,
        symbol: '',
        context: '',
        span: [from, to],
      });
    }
    start = end;
  }
  return out;
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 12 || c === 11;
}
