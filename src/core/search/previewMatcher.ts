// How preview lines match a query: each word of a line compared with the query's words by the
// index's own rules (tokens, identifier parts, prose stems, fuzzy and wildcard terms).
import { identifierParts, proseForm } from '../index/tokenizer';
import { escapeRegExp } from '../regExp';
import { boundedLevenshtein } from './query';
import type { CompiledQuery } from './compiled';

const WORD = /[\p{L}_$][\p{L}\p{N}_$]*|\p{N}[\p{L}\p{N}_]*/gu;
/** Needles of a query with none: no line holds them. */
const NOTHING = /(?!)/;

/** Wraps words of `text` that the query matched in «». */
export function markMatches(text: string, query: CompiledQuery): string {
  return PreviewMatcher.of(query).mark(text);
}

/** How strongly a preview word matches a query word. */
const WHOLE = 1; // one of the word's index tokens (itself or a part) is the query word
const STEM = 0.9; // the same prose stem (`parses` for `parsing`)
const FUZZY = 0.8; // within a fuzzy term's edit distance
/** All parts of a query identifier matched separately (`fetch(user)` for `fetchUser`), scaled by the share matched. */
const ALL_PARTS = 0.6;
/** Weight of a stop word of the query (`the`, `for`) beside its other words. */
const STOP_WORD_WEIGHT = 0.2;

/** One word of the query that preview words are compared with (a wildcard term is one too). */
interface PreviewTerm {
  /** The word, lower-cased (for a wildcard term: its letters before the first `*`). */
  whole: string;
  wholeStem: string;
  parts: readonly string[];
  partStems: readonly string[];
  weight: number;
  editDistance: number;
  wildcard?: (token: string) => boolean;
}

/** A preview word's match of one term: how strongly as a whole, and which of the term's parts (bits). */
interface WordMatch {
  term: number;
  whole: number;
  parts: number;
}

/**
 * A query's words as preview lines are compared with them, made once per query from the words
 * the compiled query marks (`CompiledQuery.marked`: not excluded, not only about paths). A word
 * of a line matches by the index's own rules: its tokens (the word whole, lower-cased, and its
 * identifier parts) against the query's, or prose stems against prose stems.
 */
export class PreviewMatcher {
  readonly terms: PreviewTerm[] = [];
  /** Matches of each word seen, or null: the words of code repeat across lines and hits. */
  private readonly memo = new Map<string, readonly WordMatch[] | null>();
  private readonly wholeOf: Float64Array;
  private readonly partsOf: Int32Array;
  /**
   * The first two letters of the query's prose stems. A stem keeps its word's first letters
   * (Porter rewrites suffixes only), so a word starting otherwise is never stemmed.
   */
  private readonly stemStarts = new Set<string>();
  /** Matches a lower-cased line or word holding one of the needles; undefined when any line may match. */
  private readonly needles: RegExp | undefined;

  private static readonly byQuery = new WeakMap<CompiledQuery, PreviewMatcher>();

  static of(query: CompiledQuery): PreviewMatcher {
    let m = PreviewMatcher.byQuery.get(query);
    if (!m) PreviewMatcher.byQuery.set(query, (m = new PreviewMatcher(query)));
    return m;
  }

  private constructor(query: CompiledQuery) {
    for (const t of query.marked) {
      // A word's matched parts are bits of an Int32.
      const term: PreviewTerm = { whole: t.whole, wholeStem: t.stem, parts: t.parts.slice(0, 30), partStems: t.partStems.slice(0, 30), weight: t.boost * (t.stopWord ? STOP_WORD_WEIGHT : 1), editDistance: t.editDistance };
      if (t.wildcard) term.wildcard = t.wildcard;
      this.terms.push(term);
    }
    for (const t of this.terms) for (const stem of [t.wholeStem, ...t.partStems]) if (stem) this.stemStarts.add(stem.slice(0, 2));
    // What a line must contain (lower-cased) to match at all: a token is a piece of its word, and
    // a word with a stem holds all of that stem but its last two letters (Porter rewrites at most
    // those: `happi` ← `happy`, `possibl` ← `possibly`). Fuzzy terms and wildcards with no prefix
    // can match anything.
    const needles = new Set<string>();
    for (const t of this.terms) {
      for (const piece of t.wildcard ? [t.whole] : [t.whole, ...t.parts]) if (piece) needles.add(piece);
      for (const stem of [t.wholeStem, ...t.partStems]) if (stem) needles.add(stem.slice(0, Math.max(2, stem.length - 2)));
    }
    const anyLine = this.terms.some((t) => t.editDistance > 0 || (t.wildcard && !t.whole));
    // One alternation, not a search per needle: a long text has a hundred of them.
    this.needles = anyLine ? undefined : needles.size === 0 ? NOTHING : new RegExp([...needles].map(escapeRegExp).join('|'));
    this.wholeOf = new Float64Array(this.terms.length);
    this.partsOf = new Int32Array(this.terms.length);
  }

  /** How well a line matches the query: per query word its strongest match, weighted and summed. */
  lineScore(line: string): number {
    // Most lines of a chunk hold no query word: lower-casing and one pattern rule them out,
    // where tokenising them cost a cold query most of its preview time.
    if (this.needles && !this.needles.test(line.toLowerCase())) return 0;
    const { wholeOf, partsOf, terms } = this;
    wholeOf.fill(0);
    partsOf.fill(0);
    let any = false;
    WORD.lastIndex = 0;
    for (let m = WORD.exec(line); m; m = WORD.exec(line)) {
      const matches = this.matchesOf(m[0]);
      if (!matches) continue;
      any = true;
      for (const wm of matches) {
        if (wm.whole > (wholeOf[wm.term] as number)) wholeOf[wm.term] = wm.whole;
        partsOf[wm.term] = (partsOf[wm.term] as number) | wm.parts;
      }
    }
    if (!any) return 0;
    let score = 0;
    for (let t = 0; t < terms.length; t++) {
      const term = terms[t] as PreviewTerm;
      const parts = term.parts.length > 0 ? (ALL_PARTS * bitCount(partsOf[t] as number)) / term.parts.length : 0;
      score += term.weight * Math.max(wholeOf[t] as number, parts);
    }
    return score;
  }

  /** Where the first matched word of a line starts, or -1. */
  firstMatch(line: string): number {
    WORD.lastIndex = 0;
    for (let m = WORD.exec(line); m; m = WORD.exec(line)) if (this.matchesOf(m[0])) return m.index;
    return -1;
  }

  /** `text` with every matched word wrapped in «». */
  mark(text: string): string {
    if (this.terms.length === 0) return text;
    return text.replace(WORD, (word) => (this.matchesOf(word) ? `«${word}»` : word));
  }

  private matchesOf(word: string): readonly WordMatch[] | null {
    const known = this.memo.get(word);
    if (known !== undefined) return known;
    // Most words of a line that holds a query word are other words: no splitting or stemming for them.
    if (this.needles && !this.needles.test(word.toLowerCase())) return this.remember(word, null);
    const forms = formsOf(word);
    const tokens = forms.parts.length > 0 ? [forms.lower, ...forms.parts] : [forms.lower];
    const lower = forms.lower;
    const prose = this.stemStarts.has(lower.slice(0, 2)) || this.stemStarts.has(lower.slice(0, 1)) ? proseOf(forms) : '';
    const out: WordMatch[] = [];
    this.terms.forEach((term, t) => {
      let whole = 0;
      if (term.wildcard) {
        if (tokens.some(term.wildcard)) whole = WHOLE;
      } else if (tokens.includes(term.whole)) whole = WHOLE;
      else if (term.wholeStem && prose === term.wholeStem) whole = STEM;
      else if (term.editDistance > 0 && tokens.some((tok) => tok.length >= MIN_FUZZY_LENGTH && boundedLevenshtein(tok, term.whole, term.editDistance) <= term.editDistance)) whole = FUZZY;
      let parts = 0;
      term.parts.forEach((p, k) => {
        const stem = term.partStems[k];
        if (tokens.includes(p) || (stem && prose === stem)) parts |= 1 << k;
      });
      if (whole > 0 || parts !== 0) out.push({ term: t, whole, parts });
    });
    return this.remember(word, out.length > 0 ? out : null);
  }

  private remember(word: string, result: readonly WordMatch[] | null): readonly WordMatch[] | null {
    if (this.memo.size >= WORD_FORMS_KEPT) this.memo.clear();
    this.memo.set(word, result);
    return result;
  }
}

/** Tokens shorter than this never match a fuzzy term (`a` is one edit from every one-letter word). */
const MIN_FUZZY_LENGTH = 2;

function bitCount(n: number): number {
  let c = 0;
  for (let v = n; v !== 0; v &= v - 1) c++;
  return c;
}

interface WordForms {
  lower: string;
  parts: readonly string[];
  /** The prose stem of `lower`, once asked for (stemming is most of a cold query's preview cost). */
  prose?: string;
}

function proseOf(forms: WordForms): string {
  return (forms.prose ??= proseForm(forms.lower));
}

/**
 * What a preview word is compared by, remembered across hits and queries: the words of code
 * repeat, and stemming each one anew was most of the cost of marking a hit's preview.
 */
function formsOf(word: string): WordForms {
  const known = wordForms.get(word);
  if (known) return known;
  const lower = word.toLowerCase().replace(/^[_$]+|[_$]+$/g, '');
  const forms: WordForms = { lower, parts: identifierParts(word) };
  if (wordForms.size >= WORD_FORMS_KEPT) wordForms.clear();
  wordForms.set(word, forms);
  return forms;
}

const wordForms = new Map<string, WordForms>();
/** Distinct words remembered (a few MB at most); past it the memory starts over. */
const WORD_FORMS_KEPT = 20_000;
