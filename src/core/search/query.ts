// A short line is read in lunr's query language, parsed by lunr.QueryParser:
//   terms, field:term, +required, -excluded, prefix*, term~1, term^10
// when it is clearly written as one; any other text is plain text (queryText.ts).
// lunr lower-cases terms while parsing; the original spelling is recovered from the lexer so
// camelCase identifiers can still be split into parts and matched against definitions.
// Everything a search reads of a query is interpreted from these clauses once, in compiled.ts.
import lunr = require('lunr');
import { FIELDS, type FieldName } from '../index/fields';
import { analyzeQueryTerm, type QueryWord } from '../index/tokenizer';
import { escapeRegExp } from '../regExp';
import { readQueryText, textTerms, type TermRarity } from './queryText';

export type Presence = 'optional' | 'required' | 'prohibited';

export interface QueryClause {
  fields: FieldName[];
  presence: Presence;
  boost: number;
  /** Term as typed (original case, escapes removed). */
  raw: string;
  /** Words of the term analysed like indexed text; empty for wildcard terms. */
  words: QueryWord[];
  /** Lower-cased wildcard pattern (`fetch*`, `*user`), when the term has `*`. */
  wildcard?: string;
  /** Levenshtein distance for fuzzy terms (`term~1`). */
  editDistance: number;
  /** Words of the text left out stand before this clause: adjacent clauses spell no identifier across it. */
  gapBefore?: boolean;
}

export interface ParsedQuery {
  clauses: QueryClause[];
  /** Problems with the query that were worked around (shown to the user, never fatal). */
  warnings: string[];
}

export interface ParseOptions {
  /** The last word is still being typed: it also matches as a prefix, at PREFIX_WEIGHT. */
  prefixLast?: boolean;
  /** The index's word statistics: a long text keeps the words rarest in it. */
  rarity?: TermRarity;
}

/** A typed word's prefix matches weigh this much of the word itself: exact words rank first. */
export const PREFIX_WEIGHT = 0.5;

/** Field names accepted in `field:term`, with friendly aliases. */
const FIELD_ALIASES: Record<string, FieldName> = {
  ...Object.fromEntries(FIELDS.map((f) => [f, f])),
  name: 'symbol',
  sym: 'symbol',
  breadcrumb: 'context',
  file: 'path',
  sig: 'signature',
  doc: 'signature',
  code: 'body',
  text: 'prose',
  docs: 'prose',
};

const PRESENCE: Record<number, Presence> = {
  [lunr.Query.presence.OPTIONAL]: 'optional',
  [lunr.Query.presence.REQUIRED]: 'required',
  [lunr.Query.presence.PROHIBITED]: 'prohibited',
};

interface LunrClause {
  fields: string[];
  term: string;
  boost?: number;
  presence?: number;
  editDistance?: number;
  wildcard?: number;
}

interface Lexeme {
  type: string;
  str: string;
}

/** lunr ships QueryParser but its type definitions omit it. */
const LunrQueryParser = (lunr as unknown as { QueryParser: new (input: string, query: lunr.Query) => { parse(): void; lexemes: Lexeme[] } }).QueryParser;

/**
 * The longest text any front end searches (MCP's schema allows as much): an issue with its
 * traceback fits; the rest is cut with a warning. Its words are bounded apart (TEXT_MAX_WORDS).
 */
export const MAX_QUERY_CHARS = 16000;
/** Terms searched for at most: each costs a dictionary lookup and a postings walk. */
const MAX_CLAUSES = 64;
/** Wildcard and fuzzy terms expanded at most: each may walk the whole dictionary of every segment. */
const MAX_EXPANDING_CLAUSES = 8;

/**
 * The part of a query that is searched for: at most MAX_QUERY_CHARS characters, cut at a
 * space, with a warning when anything was cut.
 */
export function boundQuery(query: string): { query: string; warning?: string } {
  if (query.length <= MAX_QUERY_CHARS) return { query };
  const head = query.slice(0, MAX_QUERY_CHARS + 1);
  const space = head.search(/\s\S*$/);
  const cut = (space > MAX_QUERY_CHARS / 2 ? head.slice(0, space) : head.slice(0, MAX_QUERY_CHARS)).trimEnd();
  return { query: cut, warning: `the query was cut to its first ${cut.length} characters (of ${query.length}; at most ${MAX_QUERY_CHARS} are searched)` };
}

/** Field names typed in `field:term`: the index's fields and their aliases. */
const FIELD_NAMES: ReadonlySet<string> = new Set(Object.keys(FIELD_ALIASES));

/**
 * Names joined by colons that are not `field:term` (`Program:exit`, `eslint:recommended`,
 * `node:fs`), lower-cased: the query splits them into words, but a definition may be named by
 * the whole (an ESLint visitor `"Program:exit"() {}`).
 */
export function colonNames(input: string): string[] {
  const names: string[] = [];
  for (const m of input.matchAll(/(?<![\p{L}\p{N}_$:-])[\p{L}_$][\p{L}\p{N}_$-]*(?::[\p{L}\p{N}_$-]+)+/gu)) {
    const name = m[0].toLowerCase();
    if (!FIELD_NAMES.has(name.slice(0, name.indexOf(':')))) names.push(name);
  }
  return names;
}

/**
 * The clauses of any text; never throws. A short line written in the query language is parsed
 * as one; any other text is plain text, its operators just characters (readQueryText).
 */
export function parseQuery(input: string, options: ParseOptions = {}): ParsedQuery {
  const reading = readQueryText(input, FIELD_NAMES, parsedWithLunr);
  const warnings = [...reading.warnings];
  let clauses: QueryClause[];
  if ('syntax' in reading) clauses = reading.syntax;
  else {
    const text = textTerms(reading.text, options.rarity);
    warnings.push(...text.warnings);
    clauses = text.terms.map((t) => ({ fields: [...FIELDS], presence: 'optional', boost: 1, raw: t.raw, words: t.words, editDistance: 0, ...(t.gapBefore ? { gapBefore: true } : {}) }));
  }
  if (options.prefixLast && !/\s$/.test(input)) clauses = withLastAsPrefix(clauses);
  clauses = boundClauses(clauses, warnings);
  return { clauses, warnings };
}

/** The clauses of a query in lunr's language, or undefined when it does not parse. */
function parsedWithLunr(input: string): QueryClause[] | undefined {
  try {
    return parseWithLunr(input);
  } catch {
    return undefined;
  }
}

function parseWithLunr(input: string): QueryClause[] {
  const query = new lunr.Query(Object.keys(FIELD_ALIASES));
  const parser = new LunrQueryParser(input, query);
  parser.parse();
  const termLexemes = parser.lexemes.filter((l) => l.type === 'TERM');
  const raw = query.clauses as unknown as LunrClause[];
  const out: QueryClause[] = [];
  raw.forEach((c, i) => {
    const original = termLexemes[i]?.str ?? c.term;
    const fields = [...new Set(c.fields.map((f) => FIELD_ALIASES[f] ?? 'body'))];
    const base = {
      fields: fields.length === Object.keys(FIELD_ALIASES).length || c.fields.length > 1 ? [...FIELDS] : fields,
      presence: PRESENCE[c.presence ?? lunr.Query.presence.OPTIONAL] ?? 'optional',
      boost: c.boost && c.boost > 0 ? c.boost : 1,
      raw: original,
      editDistance: Math.min(Math.max(c.editDistance ?? 0, 0), 2),
    } satisfies Omit<QueryClause, 'words'>;
    if (original.includes('*')) {
      const pattern = original.toLowerCase().replace(/[^\p{L}\p{N}_$*]/gu, '');
      if (pattern.replace(/\*/g, '').length === 0) return; // a bare `*` matches nothing useful
      out.push({ ...base, words: [], wildcard: pattern });
      return;
    }
    const words = analyzeQueryTerm(original);
    if (words.length > 0) out.push({ ...base, words });
  });
  return out;
}

/** The last clause, a plain word, also as a prefix (`getSco` → `getsco*`), weighed below the word. */
function withLastAsPrefix(clauses: QueryClause[]): QueryClause[] {
  const last = clauses[clauses.length - 1];
  if (!last || last.presence !== 'optional' || last.wildcard || last.editDistance > 0 || last.words.length !== 1) return clauses;
  const word = last.words[0]!.whole;
  if (word.length < 2) return clauses;
  return [...clauses, { ...last, boost: last.boost * PREFIX_WEIGHT, raw: `${last.raw}*`, words: [], wildcard: `${word}*` }];
}

/** At most MAX_CLAUSES terms, of which at most MAX_EXPANDING_CLAUSES wildcard or fuzzy ones (later fuzzy terms match exactly). */
function boundClauses(clauses: QueryClause[], warnings: string[]): QueryClause[] {
  let kept = clauses;
  if (kept.length > MAX_CLAUSES) {
    warnings.push(`only the first ${MAX_CLAUSES} of ${kept.length} terms were searched for`);
    kept = kept.slice(0, MAX_CLAUSES);
  }
  let expanding = 0;
  let dropped = 0;
  let exact = 0;
  kept = kept.flatMap((c) => {
    if (!c.wildcard && c.editDistance === 0) return [c];
    if (++expanding <= MAX_EXPANDING_CLAUSES) return [c];
    if (c.wildcard) {
      dropped++;
      return [];
    }
    exact++;
    return [{ ...c, editDistance: 0 }];
  });
  if (dropped || exact) {
    const what = [dropped ? `${dropped} more wildcard terms were left out` : '', exact ? `${exact} more fuzzy terms matched exactly` : ''].filter(Boolean).join(' and ');
    warnings.push(`only the first ${MAX_EXPANDING_CLAUSES} wildcard or fuzzy terms were expanded; ${what}`);
  }
  return kept;
}

/** Compiles a lower-case wildcard pattern to a test function over dictionary terms. */
export function wildcardMatcher(pattern: string): { prefix: string; test: (term: string) => boolean } {
  const firstStar = pattern.indexOf('*');
  const prefix = firstStar < 0 ? pattern : pattern.slice(0, firstStar);
  if (/^[^*]*\*$/.test(pattern)) return { prefix, test: (t) => t.startsWith(prefix) };
  const re = new RegExp(`^${pattern.split('*').map(escapeRegExp).join('.*')}$`, 'u');
  return { prefix, test: (t) => re.test(t) };
}

/**
 * Edit distance with adjacent transpositions counting one edit (optimal string alignment),
 * like lunr's fuzzy matching; abandons early once every path exceeds `max`.
 */
/**
 * `boundedLevenshtein(target, s, max)` for many `s` against one target (a scan of a term or
 * symbol dictionary): the same answers, without allocating per call, and most strings turned
 * away by a count of the characters they do not share with the target (every edit changes
 * that count by at most one, so it bounds the distance from below).
 */
export function distanceWithin(target: string, max: number): (s: string) => number {
  const n = target.length;
  const counts = new Int32Array(128);
  let ascii = true;
  for (let i = 0; i < n; i++) {
    const c = target.charCodeAt(i);
    if (c < 128) counts[c]++;
    else ascii = false;
  }
  const left = new Int32Array(128);
  let prev2 = new Int32Array(n + 1);
  let prev = new Int32Array(n + 1);
  let curr = new Int32Array(n + 1);
  return (s) => {
    if (Math.abs(s.length - n) > max) return max + 1;
    if (s === target) return 0;
    if (ascii) {
      left.set(counts);
      let unmatched = 0;
      for (let i = 0; i < s.length; i++) {
        const c = s.charCodeAt(i);
        if (c < 128 && left[c]! > 0) left[c]!--;
        else unmatched++;
      }
      if (Math.max(unmatched, n - (s.length - unmatched)) > max) return max + 1;
    }
    if (prev.length < s.length + 1) {
      prev2 = new Int32Array(s.length + 1);
      prev = new Int32Array(s.length + 1);
      curr = new Int32Array(s.length + 1);
    }
    return withinRows(target, s, max, prev2, prev, curr);
  };
}

/**
 * The edit distance of `a` and `b` (a transposition is one edit), or max + 1 once every cell
 * of a row is past `max`: rows over `a`, columns over `b`, in three rows of at least b.length + 1
 * cells that it overwrites.
 */
function withinRows(a: string, b: string, max: number, prev2: Int32Array, prev: Int32Array, curr: Int32Array): number {
  const n = b.length;
  prev2.fill(0, 0, n + 1);
  for (let j = 0; j <= n; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    curr[0] = i;
    let rowMin = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= n; j++) {
      const cb = b.charCodeAt(j - 1);
      let v = Math.min(prev[j]! + 1, curr[j - 1]! + 1, prev[j - 1]! + (ca === cb ? 0 : 1));
      if (i > 1 && j > 1 && ca === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === cb) v = Math.min(v, prev2[j - 2]! + 1);
      curr[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    [prev2, prev, curr] = [prev, curr, prev2];
  }
  return prev[n]!;
}

export function boundedLevenshtein(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (a === b) return 0;
  const n = b.length + 1;
  return withinRows(a, b, max, new Int32Array(n), new Int32Array(n), new Int32Array(n));
}
