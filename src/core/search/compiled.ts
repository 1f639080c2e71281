// A query's one interpretation, made once per search from its parsed clauses: per clause the
// fields it searches, its presence bit(s), each word whole with its prose stem and its
// identifier parts with theirs, wildcard patterns; the words the ranking boosts look for; and
// the words a preview marks. The scorer, the boosts and preview marking all read this form;
// none of them analyses query text again, so what scores a hit is what its preview marks.
import { FIELDS, type FieldName } from '../index/fields';
import { looksLikeIdentifier, MAX_TOKEN_LENGTH, proseForm } from '../index/tokenizer';
import { colonNames, parseQuery, wildcardMatcher, type Presence, type QueryClause } from './query';
import type { TermRarity } from './queryText';

/** One word of a clause, in every form the index may hold it in. */
export interface CompiledWord {
  /** Lower-cased, leading and trailing `_`/`$` dropped: how the index holds an identifier whole. */
  whole: string;
  /** As typed. */
  original: string;
  /** The prose stem of `whole` (`pars` for `parsing`); '' for a stop word prose leaves out. */
  stem: string;
  /** Identifier parts (`fetch`, `user` of `fetchUser`); empty for a word of one part. */
  parts: readonly string[];
  /** The prose stem of each part. */
  partStems: readonly string[];
  /** The presence bit the word sets in a chunk that holds it, or -1 past the 31st word. */
  bit: number;
}

/** A wildcard term (`fetch*`, `*user`): matched against dictionary terms, and preview words. */
export interface CompiledWildcard {
  /** Lower-cased, with its `*`s. */
  pattern: string;
  /** Its letters before the first `*`. */
  prefix: string;
  test: (token: string) => boolean;
  bit: number;
}

export interface CompiledClause {
  /** Term as typed. */
  raw: string;
  fields: readonly FieldName[];
  /** Bit f set when field `FIELDS[f]` is searched. */
  fieldMask: number;
  presence: Presence;
  /** As typed (default 1), times the stop-word weight for a stop word of a long query. */
  boost: number;
  /** Levenshtein distance of a fuzzy term (`term~1`), else 0. */
  editDistance: number;
  /** Empty for a wildcard term. */
  words: readonly CompiledWord[];
  wildcard?: CompiledWildcard;
}

/** An identifier spelt by adjacent query words (`parse args` → `parse_args`): an optional extra term. */
export interface JoinedTerm {
  /** The joined token, as the tokenizer indexes an identifier whole (lower case). */
  token: string;
  /** Its prose stem. */
  stem: string;
  /** The query words it joins. */
  words: string[];
  fields: FieldName[];
  fieldMask: number;
  weight: number;
}

/** A word or wildcard of a clause that is not excluded: something a matching chunk holds. */
export interface PositiveTerm {
  /** The word; for a wildcard, its letters before the first `*`. */
  whole: string;
  /** '' for a wildcard. */
  stem: string;
  parts: readonly string[];
  partStems: readonly string[];
  /** The clause's boost. */
  boost: number;
  /** 0 for a wildcard. */
  editDistance: number;
  fields: readonly FieldName[];
  wildcard?: (token: string) => boolean;
  /** Plain letters prose leaves out as a stop word (`the`, `for`); never a wildcard. */
  stopWord: boolean;
}

export interface CompiledQuery {
  clauses: CompiledClause[];
  /** Problems with the query that were worked around (shown to the user, never fatal). */
  warnings: string[];
  /** Presence bits a chunk must all have (`+word`). */
  required: number;
  /** Per excluded clause, its bits: a chunk with all of a group's bits is left out. */
  prohibited: readonly number[];
  joins: JoinedTerm[];
  /** Words and wildcards of clauses that are not excluded, in query order. */
  positive: PositiveTerm[];
  /** Those a preview marks: all but the terms of clauses that search only paths. */
  marked: PositiveTerm[];
  /**
   * Words that name a definition the user is looking for (the exact-definition boost),
   * lower-cased: identifier-looking words (`parseConfig`, `load_user`), or every word of a one-
   * or two-word query. Ordinary words of a longer task (`fix the search results`) are not names:
   * boosting definitions named `search` would bury the real answer (measured with `cairn eval`,
   * docs/retrieval-quality.md).
   */
  identifiers: ReadonlySet<string>;
  /** Joined tokens that are not identifiers already (a definition named by adjacent words). */
  joinedNames: ReadonlySet<string>;
  /** Words that may name a file (the file-name boost): every positive word and joined token. */
  fileNames: ReadonlySet<string>;
  /** The query is about tests (so tests are not demoted). */
  mentionsTests: boolean;
  /**
   * The query reads like code or a code task: it holds an identifier (`parseConfig`,
   * `load_user`, `Server.start`) or starts with a verb of change (`fix`, `add`, `support`), and
   * is not a question about the docs (`how do I install`). Scope `auto` puts code first then.
   */
  codeLike: boolean;
}

export interface CompileOptions {
  /** Weight of a joined term (default 1): a typed word's is its clause boost. */
  joinWeight?: number;
  /**
   * Weight of English stop words (`the`, `for`, `when`) in a query of three or more other
   * words, unless they look like identifiers or are required (default 0.2).
   */
  stopWordWeight?: number;
  /** The last word is still being typed: it also matches as a prefix, at PREFIX_WEIGHT. */
  prefixLast?: boolean;
  /** The index's word statistics: a long text is searched for the words rarest in it. */
  rarity?: TermRarity;
}

export const DEFAULT_STOP_WORD_WEIGHT = 0.2;

/** Queries with at least this many content words weigh their stop words down. */
const STOP_WORDS_AFTER = 3;
/** Presence bits available (a chunk's bits are one 32-bit integer). */
const PRESENCE_BITS = 31;

/** Parses (`parseQuery`) and interprets a query: the one form every stage of a search reads. */
export function compileQuery(input: string, options: CompileOptions = {}): CompiledQuery {
  const parsed = parseQuery(input, { prefixLast: options.prefixLast, rarity: options.rarity });
  const syntax = parsed.clauses;
  let nextBit = 0;
  const bit = () => (nextBit < PRESENCE_BITS ? nextBit++ : -1);
  const clauses = syntax.map((c): CompiledClause => {
    const clause: CompiledClause = { raw: c.raw, fields: c.fields, fieldMask: maskOf(c.fields), presence: c.presence, boost: c.boost, editDistance: c.editDistance, words: [] };
    if (c.wildcard) {
      const { prefix, test } = wildcardMatcher(c.wildcard);
      clause.wildcard = { pattern: c.wildcard, prefix, test, bit: bit() };
    } else clause.words = c.words.map((w) => ({ whole: w.whole, original: w.original, stem: proseForm(w.whole), parts: w.parts, partStems: w.parts.map(proseForm), bit: bit() }));
    return clause;
  });
  let required = 0;
  const prohibited: number[] = [];
  for (const c of clauses) {
    const bits = (c.wildcard ? [c.wildcard.bit] : c.words.map((w) => w.bit)).filter((b) => b >= 0);
    if (c.presence === 'required') for (const b of bits) required |= 1 << b;
    if (c.presence === 'prohibited' && bits.length) prohibited.push(bits.reduce((m, b) => m | (1 << b), 0));
  }
  const words = clauses.filter((c) => c.presence !== 'prohibited').flatMap((c) => c.words);
  const short = words.length <= 2;
  const identifiers = new Set(words.filter((w) => short || looksLikeIdentifier(w.original)).map((w) => w.whole));
  for (const name of colonNames(input)) identifiers.add(name);
  const joins = joinAdjacent(syntax, options.joinWeight ?? 1);
  weighStopWords(clauses, options.stopWordWeight ?? DEFAULT_STOP_WORD_WEIGHT);
  const positive = clauses.filter((c) => c.presence !== 'prohibited').flatMap(positiveTerms);
  return {
    clauses,
    warnings: parsed.warnings,
    required,
    prohibited,
    joins,
    positive,
    marked: positive.filter((t) => t.fields.some((f) => f !== 'path')),
    identifiers,
    joinedNames: new Set(joins.map((j) => j.token).filter((t) => !identifiers.has(t))),
    fileNames: new Set([...words.map((w) => w.whole), ...joins.map((j) => j.token)]),
    mentionsTests: TEST_WORDS.test(input),
    codeLike: looksLikeCode(syntax, input),
  };
}

function maskOf(fields: readonly FieldName[]): number {
  return fields.reduce((m, f) => m | (1 << FIELDS.indexOf(f)), 0);
}

function positiveTerms(c: CompiledClause): PositiveTerm[] {
  if (c.wildcard) return [{ whole: c.wildcard.prefix, stem: '', parts: [], partStems: [], boost: c.boost, editDistance: 0, fields: c.fields, wildcard: c.wildcard.test, stopWord: false }];
  return c.words.map((w) => ({
    whole: w.whole,
    stem: w.stem,
    parts: w.parts,
    partStems: w.partStems,
    boost: c.boost,
    editDistance: c.editDistance,
    fields: c.fields,
    stopWord: w.stem === '' && /^\p{L}+$/u.test(w.whole),
  }));
}

/**
 * True for an English stop word (lunr's list) that does not look like an identifier. (Stricter
 * than `PositiveTerm.stopWord`, which previews weigh: `_the` is one there, not here.)
 */
function isStopWord(word: CompiledWord): boolean {
  return word.parts.length === 0 && word.stem === '' && !looksLikeIdentifier(word.original);
}

/**
 * In a query of several content words, optional clauses made only of stop words weigh
 * `weight` of a word: they still break ties, but `the`/`for`/`when`, found in every file's
 * comments, no longer outweigh the words the query is about.
 */
function weighStopWords(clauses: CompiledClause[], weight: number): void {
  if (weight === 1) return;
  const plain = clauses.filter((c) => c.presence === 'optional' && !c.wildcard && c.editDistance === 0);
  const content = plain.filter((c) => !c.words.every(isStopWord)).length;
  if (content < STOP_WORDS_AFTER) return;
  for (const c of plain) if (c.words.length > 0 && c.words.every(isStopWord)) c.boost *= weight;
}

/** A word that can be part of a joined identifier: one lower-case part, letters and digits. */
const JOINABLE = /^[\p{Ll}\p{N}]+$/u;

/**
 * Identifiers adjacent words may spell: every pair and triple of neighbouring plain words of
 * optional or required clauses searching the same fields, concatenated (`unused disable
 * directives` → `unuseddisabledirectives`, which camelCase indexes as) and joined with `_`
 * (`parse args` → `parse_args`). Excluded, wildcard and fuzzy terms, and words a long text
 * left out between two clauses, break the sequence.
 */
export function joinAdjacent(clauses: readonly QueryClause[], weight: number): JoinedTerm[] {
  const out: JoinedTerm[] = [];
  const seen = new Set<string>();
  let run: Array<{ word: string; fields: FieldName[] }> = [];
  const flush = () => {
    for (let i = 0; i < run.length; i++) {
      for (let n = 2; n <= 3 && i + n <= run.length; n++) {
        const slice = run.slice(i, i + n);
        const fields = (slice[0] as { fields: FieldName[] }).fields;
        if (slice.some((w) => w.fields.join() !== fields.join())) continue;
        const words = slice.map((w) => w.word);
        for (const token of [words.join(''), words.join('_')]) {
          if (token.length > MAX_TOKEN_LENGTH || seen.has(token)) continue;
          seen.add(token);
          out.push({ token, stem: proseForm(token), words, fields, fieldMask: maskOf(fields), weight });
        }
      }
    }
    run = [];
  };
  for (const c of clauses) {
    if (c.gapBefore) flush();
    if (c.presence === 'prohibited' || c.wildcard || c.editDistance > 0) {
      flush();
      continue;
    }
    for (const w of c.words) {
      if (w.parts.length > 0 || !JOINABLE.test(w.whole)) {
        flush();
        continue;
      }
      run.push({ word: w.whole, fields: c.fields });
    }
  }
  flush();
  return out;
}

const TEST_WORDS = /\b(tests?|specs?|testing|unittests?|e2e|fixtures?|mocks?)\b/i;

/** Words that start a task about code ("fix the retry logic", "add a timeout option"). */
const TASK_VERBS = new Set(
  'add allow avoid bump call change check clean convert correct create deprecate disable drop enable ensure expose extract fix handle implement improve introduce make merge move optimise optimize parse pass prevent raise refactor remove rename replace reset restore return revert rewrite run set simplify skip split support switch throw update upgrade use validate'.split(' '),
);
/** Words of a question about the docs rather than the code. */
const DOCS_WORDS = /^(how|why|what|where|when|can|does|is)\b|\b(docs?|documentation|readme|guide|tutorial|changelog|faq|install(ation)?|introduction|overview|quickstart)\b/i;

function looksLikeCode(clauses: readonly QueryClause[], input: string): boolean {
  // A text's first line says what it is about (a title, a subject): a traceback or a body may
  // mention the docs or installing without being a question about them.
  if (DOCS_WORDS.test(input.trim().split('\n', 1)[0] as string)) return false;
  const typed = clauses.filter((c) => c.presence !== 'prohibited' && !c.fields.every((f) => f === 'prose'));
  // `Server.start`, `os::path`, `user->name`: a member path is code too.
  if (typed.some((c) => /\p{L}(\.|::|->)\p{L}/u.test(c.raw) || c.words.some((w) => looksLikeIdentifier(w.original)))) return true;
  const first = typed[0]?.raw.toLowerCase();
  return first !== undefined && TASK_VERBS.has(first) && typed.length > 1;
}
