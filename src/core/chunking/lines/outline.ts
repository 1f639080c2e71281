// Finds the headings of a prose document (Markdown, reStructuredText, AsciiDoc) and the
// verbatim blocks (code fences, front matter, comments) inside which nothing is a heading and
// no chunk may be cut.
import { isBlank } from './spans';

export type ProseFlavor = 'markdown' | 'restructuredtext' | 'asciidoc';

export interface Heading {
  /** First line of the heading (the overline, or the first line of a multi-line setext title). */
  start: number;
  /** 1 = top level. */
  level: number;
  title: string;
}

export interface Outline {
  headings: Heading[];
  /** noCutBefore[i]: line i is inside a verbatim block (after its opening line). */
  noCutBefore: boolean[];
}

const MAX_TITLE_CHARS = 200;

export function outlineOf(lines: readonly string[], flavor: ProseFlavor): Outline {
  const noCutBefore = new Array<boolean>(lines.length).fill(false);
  const markVerbatim = (open: number, close: number): void => {
    for (let i = open + 1; i <= close && i < lines.length; i++) noCutBefore[i] = true;
  };
  const headings =
    flavor === 'restructuredtext' ? rstHeadings(lines) : markdownLikeHeadings(lines, flavor, markVerbatim);
  return { headings, noCutBefore };
}

// ---------------------------------------------------------------------------
// Markdown (and AsciiDoc, which shares `#`-style headings and fenced code)

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$/;
const SETEXT_UNDERLINE = /^ {0,3}(=+|-+)[ \t]*$/;
/** Lines that open a list item, quote, HTML block or table: a `---` under them is a thematic break. */
const CONTAINER_START = /^ {0,3}(?:[-*+][ \t]|\d{1,9}[.)][ \t]|>|<|\|)/;
const INDENTED_CODE = /^(?: {4}|\t)/;
const ASCIIDOC_TITLE = /^(={1,6})[ \t]+(\S.*?)(?:[ \t]+=+)?[ \t]*$/;
const ASCIIDOC_DELIMITER = /^(-{4,}|\.{4,}|\+{4,}|\/{4,}|_{4,}|\*{4,}|={4,})[ \t]*$/;

function markdownLikeHeadings(
  lines: readonly string[],
  flavor: 'markdown' | 'asciidoc',
  markVerbatim: (open: number, close: number) => void,
): Heading[] {
  const headings: Heading[] = [];
  let i = flavor === 'markdown' ? skipFrontMatter(lines, markVerbatim) : 0;
  /** First line of the paragraph being read, -1 when not inside a plain paragraph. */
  let paragraph = -1;
  /** Inside a list item or quote: lines until the next blank one are never setext titles. */
  let inContainer = false;

  for (; i < lines.length; i++) {
    const line = lines[i] as string;
    if (isBlank(line)) {
      paragraph = -1;
      inContainer = false;
      continue;
    }
    const close = verbatimBlockEnd(lines, i, flavor);
    if (close !== undefined) {
      markVerbatim(i, close);
      i = close;
      paragraph = -1;
      continue;
    }
    const atx = ATX.exec(line);
    if (atx) {
      headings.push({ start: i, level: (atx[1] as string).length, title: cleanTitle(stripClosingHashes(atx[2] ?? '')) });
      paragraph = -1;
      continue;
    }
    if (flavor === 'asciidoc') {
      const adoc = ASCIIDOC_TITLE.exec(line);
      if (adoc) {
        // `= Document title` is level 0 in AsciiDoc; it and `== Section` both sit at the top.
        headings.push({ start: i, level: Math.max(1, (adoc[1] as string).length - 1), title: cleanTitle(adoc[2] as string) });
        continue;
      }
    }
    if (flavor === 'markdown' && paragraph >= 0 && !inContainer) {
      const underline = SETEXT_UNDERLINE.exec(line);
      if (underline) {
        const title = lines.slice(paragraph, i).map((l) => l.trim()).join(' ');
        headings.push({ start: paragraph, level: (underline[1] as string)[0] === '=' ? 1 : 2, title: cleanTitle(title) });
        paragraph = -1;
        continue;
      }
    }
    if (paragraph >= 0) {
      // A list item or quote interrupts the paragraph; other lines continue it.
      if (CONTAINER_START.test(line)) {
        paragraph = -1;
        inContainer = true;
      }
      continue;
    }
    if (inContainer) continue;
    if (CONTAINER_START.test(line) || INDENTED_CODE.test(line)) inContainer = true;
    else paragraph = i;
  }
  return headings;
}

/** YAML (`---`) or TOML (`+++`) front matter at the very top; returns the first line after it. */
function skipFrontMatter(lines: readonly string[], markVerbatim: (open: number, close: number) => void): number {
  const first = (lines[0] ?? '').trimEnd();
  if (first !== '---' && first !== '+++') return 0;
  for (let i = 1; i < lines.length; i++) {
    const l = (lines[i] as string).trimEnd();
    if (l === first || (first === '---' && l === '...')) {
      markVerbatim(0, i);
      return i + 1;
    }
  }
  return 0;
}

/**
 * When line `i` opens a verbatim block (code fence, HTML comment, AsciiDoc delimited block),
 * the index of its closing line (the last line when unclosed); otherwise undefined.
 */
function verbatimBlockEnd(lines: readonly string[], i: number, flavor: 'markdown' | 'asciidoc'): number | undefined {
  const line = lines[i] as string;
  const fence = FENCE_OPEN.exec(line);
  if (fence && !((fence[1] as string)[0] === '`' && (fence[2] as string).includes('`'))) {
    const marker = fence[1] as string;
    const closing = new RegExp(`^ {0,3}${marker[0] === '`' ? '`' : '~'}{${marker.length},}[ \\t]*$`);
    return findLine(lines, i + 1, (l) => closing.test(l));
  }
  if (flavor === 'asciidoc') {
    const delimiter = ASCIIDOC_DELIMITER.exec(line);
    if (delimiter) return findLine(lines, i + 1, (l) => l.trimEnd() === delimiter[1]);
    return undefined;
  }
  const comment = line.indexOf('<!--');
  if (comment >= 0 && !line.includes('-->', comment + 4)) return findLine(lines, i + 1, (l) => l.includes('-->'));
  return undefined;
}

function findLine(lines: readonly string[], from: number, match: (line: string) => boolean): number {
  for (let j = from; j < lines.length; j++) if (match(lines[j] as string)) return j;
  return lines.length - 1;
}

function stripClosingHashes(title: string): string {
  return title.replace(/(?:^|[ \t]+)#+[ \t]*$/, '');
}

/**
 * Heading text as a reader sees it rendered: plain text, no markup. Code spans keep their text
 * as written (ticks dropped); elsewhere HTML tags and comments go, links and images become their
 * text, emphasis and strikethrough markers go, entities and backslash escapes are resolved.
 * `<a name="x"></a>Install [Linux](url) \`code\`` → `Install Linux code`.
 */
export function cleanTitle(raw: string): string {
  const pieces: string[] = [];
  let last = 0;
  const text = raw.replace(/\s*\{#[^}]*\}\s*$/, '');
  for (const m of text.matchAll(CODE_SPAN)) {
    pieces.push(plainMarkup(text.slice(last, m.index)), (m[2] as string).trim());
    last = m.index + m[0].length;
  }
  pieces.push(plainMarkup(text.slice(last)));
  const title = pieces.join('').replace(/\s+/g, ' ').trim();
  return title.length > MAX_TITLE_CHARS ? title.slice(0, MAX_TITLE_CHARS) : title;
}

/** A code span: a run of backticks, text, the same run (CommonMark). */
const CODE_SPAN = /(`+)([\s\S]*?[^`])\1(?!`)/g;
const HTML_COMMENT = /<!--[\s\S]*?(?:-->|$)/g;
const HTML_TAG = /<\/?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?\/?>/g;
const AUTOLINK = /<((?:https?|ftp|mailto):[^<>\s]*)>/g;
/** An inline link or image with no brackets inside its text: replaced from the innermost out. */
const INLINE_LINK = /!?\[([^[\]]*)\]\((?:[^()]|\([^()]*\))*\)/g;
/** A reference link or image, full (`[text][ref]`), collapsed (`[text][]`). */
const REFERENCE_LINK = /!?\[([^[\]]*)\]\[[^[\]]*\]/g;
/**
 * Emphasis, strong emphasis and strikethrough: an opening and a closing run around text that
 * neither starts nor ends with a space (CommonMark's flanking rule, simplified); `_` only at the
 * edges of words, never inside one (`snake_case`). An unpaired `*` (`*args`) stays.
 */
const EMPHASIS = [
  /(?<![\\*])\*\*(?=[^\s*])(.+?)(?<=[^\s*\\])\*\*(?!\*)/g,
  /(?<![\p{L}\p{N}_\\])__(?=[^\s_])(.+?)(?<=[^\s_\\])__(?![\p{L}\p{N}_])/gu,
  /(?<![\\*])\*(?=[^\s*])(.+?)(?<=[^\s*\\])\*(?!\*)/g,
  /(?<![\p{L}\p{N}_\\])_(?=[^\s_])(.+?)(?<=[^\s_\\])_(?![\p{L}\p{N}_])/gu,
  /(?<!\\)~~(?=\S)(.+?)(?<=\S)~~/g,
];
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };

/** Text outside code spans as rendered: see cleanTitle. */
function plainMarkup(text: string): string {
  let t = text.replace(HTML_COMMENT, '').replace(AUTOLINK, '$1').replace(HTML_TAG, '');
  for (let before = ''; before !== t; ) {
    before = t;
    t = t.replace(INLINE_LINK, '$1');
  }
  t = t.replace(REFERENCE_LINK, '$1');
  for (let before = ''; before !== t; ) {
    before = t;
    for (const re of EMPHASIS) t = t.replace(re, '$1');
  }
  return t
    .replace(/&(amp|lt|gt|quot|apos|nbsp|#39);/g, (_, name: string) => ENTITIES[name] as string)
    .replace(/\\([!-/:-@[-`{-~])/g, '$1');
}

// ---------------------------------------------------------------------------
// reStructuredText: a title is a line underlined (and optionally overlined) by a run of one
// punctuation character; levels are assigned in the order styles first appear.

const RST_ADORNMENT = /^([!-/:-@[-`{-~])\1+[ \t]*$/;

function rstHeadings(lines: readonly string[]): Heading[] {
  const headings: Heading[] = [];
  const styleLevels = new Map<string, number>();
  for (let i = 0; i + 1 < lines.length; i++) {
    const title = lines[i] as string;
    const under = RST_ADORNMENT.exec(lines[i + 1] as string);
    if (!under || isBlank(title) || RST_ADORNMENT.test(title)) continue;
    const text = title.trim();
    const underLength = (lines[i + 1] as string).trimEnd().length;
    if (underLength < Math.min(text.length, 3)) continue;
    const over = i > 0 && (lines[i - 1] as string).trimEnd() === (lines[i + 1] as string).trimEnd();
    // Only overlined titles may be indented (centred); an indented line is otherwise a quote.
    if (!over && /^\s/.test(title)) continue;
    const before = over ? i - 2 : i - 1;
    // Body elements are separated by blank lines: a title never continues a paragraph.
    if (before >= 0 && !isBlank(lines[before] as string)) continue;
    const style = `${under[1]}${over ? 'o' : 'u'}`;
    if (!styleLevels.has(style)) styleLevels.set(style, styleLevels.size + 1);
    headings.push({ start: over ? i - 1 : i, level: styleLevels.get(style) as number, title: cleanTitle(text) });
    i++;
  }
  return headings;
}
