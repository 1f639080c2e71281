// A hit's preview: the span's best-matching line (by the index's token rules, PreviewMatcher)
// and the lines after it, dedented and clipped, with matched words marked «…».
import type { LazyLines } from './lazyLines';
import type { CompiledQuery } from './compiled';
import { PreviewMatcher } from './previewMatcher';

const MAX_PREVIEW_LINE = 240;
/** Lines of a chunk searched for its best preview line: past this, a long chunk is not read. */
const MAX_SCANNED_LINES = 400;
/** Characters of a line compared with the query (a minified line is not read whole). */
const MAX_SCANNED_LINE = 1000;
/** Lines a hit lists in `matchLines`. */
export const MAX_MATCH_LINES = 5;
/** Scores closer than this are a tie. */
const EPSILON = 1e-9;
/** A line a reader can recognise: it holds a letter or a digit (not `/**`, `---`, `{`, `"""`). */
const HAS_WORD = /[\p{L}\p{N}]/u;
/** A line of a comment in most languages: `//`, `/*`, ` * `, `#` (not `#define`), `--`, `;`, `%`, `"""`. */
const COMMENT_LINE = /^\s*(?:\/\/|\/\*|\*|#(?!\s*define\b)|--|;|%|"""|''')/;
/** A Markdown, AsciiDoc or reStructuredText-style heading line. */
const HEADING_LINE = /^ {0,3}(?:#{1,6}|={1,6})[ \t]+\S/;

/** What a preview knows of its chunk, to prefer its definition line among equally good lines. */
export interface PreviewContext {
  /** The chunk's symbol (`Server.start`): a line naming it is the definition line. */
  symbol?: string;
  /** Prose: heading lines are the definition lines. */
  prose?: boolean;
}

export interface Preview {
  /** Up to `count` lines from the best line, dedented by its indentation, matches marked «…». */
  text: string;
  /** 1-based line (in the numbering of `lines`) where the preview starts; undefined when nothing was read. */
  firstLine?: number;
  /**
   * Lines holding query matches (1-based, ascending, at most MAX_MATCH_LINES: the best ones,
   * the preview's own line among them); undefined without a query.
   */
  matchLines?: number[];
}

/**
 * The preview of a span: its best-matching line and the lines after it, up to `count`. The best
 * line has the most and strongest query matches (a whole word over a part of it; equal lines:
 * the definition line, then the earlier one). Without a match (fuzzy, path-only or no query) it
 * is the first line with a word in it, so not a comment opener, a `---` or a lone brace.
 */
export function preview(
  lines: LazyLines,
  startLine: number,
  endLine: number,
  count: number,
  query: CompiledQuery | undefined,
  context: PreviewContext = {},
): Preview {
  const matcher = query ? PreviewMatcher.of(query) : undefined;
  const active = matcher && matcher.terms.length > 0 ? matcher : undefined;
  let best = -1;
  let bestScore = 0;
  let bestText = '';
  let withWord = -1;
  let nonBlank = -1;
  const matched: Array<{ line: number; score: number }> = [];
  let isDefinition: ((line: string) => boolean) | undefined;
  const last = Math.min(endLine, startLine - 1 + MAX_SCANNED_LINES);
  for (let n = startLine; n <= last; n++) {
    const line = lines.get(n - 1, MAX_SCANNED_LINE);
    if (line === undefined) break;
    if (nonBlank < 0 && line.trim() !== '') nonBlank = n;
    if (withWord < 0 && HAS_WORD.test(line)) {
      withWord = n;
      if (!active) break;
    }
    if (!active) continue;
    const score = active.lineScore(line);
    if (score <= 0) continue;
    matched.push({ line: n, score });
    if (score > bestScore + EPSILON) {
      best = n;
      bestScore = score;
      bestText = line;
    } else if (score > bestScore - EPSILON) {
      isDefinition ??= definitionLineTest(context);
      if (!isDefinition(bestText) && isDefinition(line)) {
        best = n;
        bestText = line;
      }
    }
  }
  const first = best > 0 ? best : withWord > 0 ? withWord : nonBlank;
  const out: Preview = { text: '' };
  if (matcher) out.matchLines = strongest(matched, best);
  if (first < 0) return out;
  out.firstLine = first;
  const slice: string[] = [];
  for (let n = first; n <= endLine && slice.length < count; n++) {
    const line = lines.get(n - 1, MAX_SCANNED_LINE);
    if (line === undefined) break;
    slice.push(line.trimEnd());
  }
  // Dedented by the first line's indentation (a line after it loses at most what it has): the
  // best line reads from its first word, wherever in a block it sits.
  const indent = /^\s*/.exec(slice[0] ?? '')?.[0].length ?? 0;
  const text = slice.map((l) => clipLine(l.slice(Math.min(indent, /^\s*/.exec(l)?.[0].length ?? 0)), active)).join('\n');
  out.text = active ? active.mark(text) : text;
  return out;
}

/** The lines of the strongest matches, the best line first among them, in line order. */
function strongest(matched: ReadonlyArray<{ line: number; score: number }>, best: number): number[] {
  if (matched.length <= MAX_MATCH_LINES) return matched.map((m) => m.line);
  const ranked = [...matched].sort((a, b) => (a.line === best ? -1 : b.line === best ? 1 : b.score - a.score || a.line - b.line));
  return ranked.slice(0, MAX_MATCH_LINES).map((m) => m.line).sort((a, b) => a - b);
}

/** Whether a line is where the chunk's definition is: it names the symbol, or is a prose heading. */
function definitionLineTest(context: PreviewContext): (line: string) => boolean {
  if (context.prose) return (line) => HEADING_LINE.test(line);
  const symbol = context.symbol ?? '';
  // The last name of a qualified symbol (`Server.start` → `start`).
  let end = symbol.length;
  while (end > 0 && !isWordChar(symbol.charCodeAt(end - 1))) end--;
  let start = end;
  while (start > 0 && isWordChar(symbol.charCodeAt(start - 1))) start--;
  const name = symbol.slice(start, end);
  if (!name) return () => false;
  return (line) => {
    // A comment naming the symbol (a usage example in its doc comment) is not its definition.
    if (COMMENT_LINE.test(line)) return false;
    for (let i = line.indexOf(name); i >= 0; i = line.indexOf(name, i + 1)) {
      if ((i === 0 || !isWordChar(line.charCodeAt(i - 1))) && !isWordChar(line.charCodeAt(i + name.length))) return true;
    }
    return false;
  };
}

/** A character of an identifier: ASCII letters, digits, `_`, `$`, and any non-ASCII character (NaN past the end: no). */
function isWordChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 36 || c >= 128;
}

/**
 * A line cut to MAX_PREVIEW_LINE characters. When its first match lies beyond what would be
 * shown, the cut keeps the match and a little before it (`…` marks each cut).
 */
function clipLine(line: string, matcher: PreviewMatcher | undefined): string {
  if (line.length <= MAX_PREVIEW_LINE) return line;
  const at = matcher ? matcher.firstMatch(line) : -1;
  let from = 0;
  if (at > MAX_PREVIEW_LINE - 60) {
    from = at - 40;
    const space = line.lastIndexOf(' ', from);
    if (space > from - 20) from = space + 1;
  }
  const body = line.slice(from, from + MAX_PREVIEW_LINE);
  return `${from > 0 ? '…' : ''}${body}${from + MAX_PREVIEW_LINE < line.length ? '…' : ''}`;
}
