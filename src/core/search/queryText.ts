// Any text is a query. A short single line whose operators parse is read in the query language
// (`+retry -test`, `symbol:Greeter`, `fetch*`, `tokenzie~1`, `load^2`); anything else — an issue,
// a traceback, a log, a pasted diff — is read as plain text, its operators just characters, and
// a long one is searched for its most telling words: the rarest in this index, code-shaped
// words first, wherever in the text they stand.
import { analyzeQueryTerm, looksLikeIdentifier, proseForm, type QueryWord } from '../index/tokenizer';

/** A line of at most this many space-separated terms may be written in the query language. */
export const SYNTAX_MAX_TERMS = 12;
/** A text of at most this many words is searched for all of them, in order (as a query is). */
export const TEXT_ALL_WORDS_UP_TO = 64;
/** A longer text is searched for at most this many of its words (each costs a postings walk). */
export const TEXT_MAX_WORDS = 32;

/** How one text is read: in the query language (`syntax`, as parsed) or as plain text. */
export type TextReading<T> = { syntax: T; warnings: string[] } | { text: string; warnings: string[] };

/** What the index says about a word: in how many chunks it occurs, of how many. */
export interface TermRarity {
  documentFrequency(token: string): number;
  documents: number;
}

const FIELD_PREFIX = /^([+-]?)([\p{L}_][\p{L}\p{N}_]*):(.*)$/su;
/** Filters of the search box (`lang:ts`): searched as words when they reach the engine's query. */
const FILTER_NAMES = new Set(['lang', 'language', 'kind', 'scope']);

/**
 * Reads `input` in the query language when it is clearly written as a query: one line of at
 * most SYNTAX_MAX_TERMS terms, no operator standing alone (`-` between words is a dash), and
 * `parse` accepts it (returns its parse) once every `word:` that is not one of `fields` is made
 * plain (`node:fs`, `eslint:recommended`, `http://x` are words, not fields). Anything else is
 * plain text.
 */
export function readQueryText<T>(input: string, fields: ReadonlySet<string>, parse: (query: string) => T | undefined): TextReading<T> {
  const trimmed = input.trim();
  const terms = trimmed.split(/\s+/).filter(Boolean);
  if (/[\r\n]/.test(trimmed) || terms.length > SYNTAX_MAX_TERMS) return { text: input, warnings: [] };
  if (terms.some((t) => /^[-+~^:]+$/.test(t))) return { text: input, warnings: syntaxWarning(trimmed) };
  const warnings: string[] = [];
  const plain = terms.map((t) => {
    const m = FIELD_PREFIX.exec(t);
    if (!m) return t;
    const name = (m[2] as string).toLowerCase();
    if (fields.has(name) && m[3] !== '' && !(m[3] as string).startsWith(':')) return t;
    if (FILTER_NAMES.has(name) && m[3]) warnings.push(`${t} was searched as words: filter by language, kind or scope with the search's own options`);
    return t.replace(/:/g, ' ');
  });
  const parsed = parse(plain.join(' '));
  if (parsed !== undefined) return { syntax: parsed, warnings };
  return { text: input, warnings: syntaxWarning(trimmed) };
}

/** Said only of a short line that used operators: a long text is plain text by design. */
function syntaxWarning(line: string): string[] {
  return /[+\-:*~^]/.test(line) ? ['the query\'s operators (+ - : * ~ ^) did not form a query; its words were searched as plain text'] : [];
}

/** One term of a plain text: what lunr would have made a term (split at spaces and dashes). */
export interface TextTerm {
  raw: string;
  words: QueryWord[];
  /** Not next to the previous term in the text: words left out stand between them. */
  gapBefore?: boolean;
}

/**
 * The terms a plain text is searched for. A text of at most TEXT_ALL_WORDS_UP_TO words keeps
 * them all, in order. A longer one keeps the TEXT_MAX_WORDS distinct words that best tell it
 * apart (`telling`), each a term of its own, in text order, with a warning saying so.
 */
export function textTerms(text: string, rarity?: TermRarity): { terms: TextTerm[]; warnings: string[] } {
  const terms: TextTerm[] = [];
  for (const raw of text.split(/[\s-]+/)) {
    const words = analyzeQueryTerm(raw);
    if (words.length > 0) terms.push({ raw, words });
  }
  const count = terms.reduce((n, t) => n + t.words.length, 0);
  if (count <= TEXT_ALL_WORDS_UP_TO) return { terms, warnings: [] };
  const candidates = candidatesOf(text);
  const kept = telling(candidates, rarity);
  const out: TextTerm[] = [];
  let previous = -2;
  for (const c of kept) {
    out.push({ raw: c.word.original, words: [withTellingParts(c.word, rarity)], ...(c.first !== previous + 1 ? { gapBefore: true } : {}) });
    previous = c.first;
  }
  return { terms: out, warnings: [`a long text: searched for ${out.length} of its ${candidates.length} distinct words, those rarest in this index (code-shaped words first)`] };
}

/**
 * In a long text, a part of a name that more than this share of the index's chunks hold is not
 * searched for: among thirty names it tells nothing, and its postings would make nearly every
 * chunk a candidate.
 */
export const COMMON_PART_SHARE = 0.05;

/** `word` without the parts most of the index holds (COMMON_PART_SHARE). */
function withTellingParts(word: QueryWord, rarity?: TermRarity): QueryWord {
  if (!rarity || word.parts.length === 0) return word;
  const most = COMMON_PART_SHARE * rarity.documents;
  const parts = word.parts.filter((p) => rarity.documentFrequency(p) <= most);
  return parts.length === word.parts.length ? word : { ...word, parts };
}

/** A distinct word of a long text. */
export interface Candidate {
  word: QueryWord;
  /** Its first position among the text's words. */
  first: number;
  /** How often the text holds it. */
  count: number;
  /** Written as code somewhere: identifier-shaped, or in a path, a dotted name, a call, quotes, backticks, or a code line. */
  code: boolean;
  /** In the text's first line: an issue's title, a commit's subject, an error's message says what the text is about. */
  title: boolean;
}

/** Lines of code in a text: fenced or indented blocks, diff lines, traceback and stack frames. */
const CODE_LINE = /^(\s{2,}|\t|@@|diff --git|---|\+\+\+|File "|Traceback)/;
/** In a diff (it has a hunk header), added and removed lines are code; elsewhere `- ` starts a list item. */
const DIFF_LINE = /^[+-]/;
/** A term written as code: a path, a dotted or `::` name, a call, quoted or in backticks. */
const CODE_TERM = /[\p{L}\p{N}_][./\\][\p{L}\p{N}_]|::|->|[()`'"[\]{}<>=]/u;

/** Every distinct word of a text (stop words and bare numbers left out), with where and how it is written. */
export function candidatesOf(text: string): Candidate[] {
  const byWord = new Map<string, Candidate>();
  let position = 0;
  let fenced = false;
  const diff = /^@@ /m.test(text);
  let titleDone = false;
  for (const line of text.split(/\r?\n/)) {
    const isTitle = !titleDone && line.trim() !== '';
    if (isTitle) titleDone = true;
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      continue;
    }
    const codeLine = fenced || CODE_LINE.test(line) || (diff && DIFF_LINE.test(line));
    for (const raw of line.split(/[\s-]+/)) {
      const codeTerm = codeLine || CODE_TERM.test(raw);
      for (const word of analyzeQueryTerm(raw)) {
        const at = position++;
        if (/^\p{N}+$/u.test(word.whole) || (proseForm(word.whole) === '' && !looksLikeIdentifier(word.original))) continue;
        const code = codeTerm || looksLikeIdentifier(word.original);
        const seen = byWord.get(word.whole);
        if (seen) {
          seen.count++;
          seen.code ||= code;
          seen.title ||= isTitle;
        } else byWord.set(word.whole, { word, first: at, count: 1, code, title: isTitle });
      }
    }
  }
  return [...byWord.values()];
}

/** A word written as code weighs this much more than a word of prose. */
const CODE_WEIGHT = 2;
/** A word of the text's first line weighs this much more than one only in its body. */
const TITLE_WEIGHT = 2;
/** A word the index holds only in parts (`solve_poly_system` as `solve`, `poly`, `system`) counts its parts' rarity at this weight. */
const PARTS_WEIGHT = 0.5;

/**
 * The TEXT_MAX_WORDS candidates that best tell the text apart, in text order: by rarity in this
 * index (idf, as the scorer weighs a word; a word the index lacks tells nothing and is left
 * out), times CODE_WEIGHT for a word written as code, times 1 + ln(repeats). Without an index
 * every word is equally rare. Ties go to the earlier word.
 */
export function telling(candidates: readonly Candidate[], rarity?: TermRarity): Candidate[] {
  const idf = (token: string): number => {
    if (!rarity) return 1;
    const stem = proseForm(token);
    const df = Math.max(rarity.documentFrequency(token), stem && stem !== token ? rarity.documentFrequency(stem) : 0);
    if (df === 0) return 0;
    const n = Math.max(rarity.documents, df);
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  };
  const scored = candidates.map((c) => {
    let r = idf(c.word.whole);
    if (r === 0 && c.word.parts.length > 0) r = PARTS_WEIGHT * Math.max(...c.word.parts.map(idf));
    return { c, score: r * (c.code ? CODE_WEIGHT : 1) * (c.title ? TITLE_WEIGHT : 1) * (1 + Math.log(c.count)) };
  });
  return scored
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.c.first - b.c.first)
    .slice(0, TEXT_MAX_WORDS)
    .map((s) => s.c)
    .sort((a, b) => a.first - b.first);
}
