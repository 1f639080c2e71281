// Code-aware tokenising, shared by indexing and querying so both sides agree exactly.
//
// An identifier is indexed whole (lower-cased) and also split into its parts:
//   fetchUserName -> fetchusername, fetch, user, name
//   fetch_user    -> fetch_user, fetch, user
//   HTTPServer    -> httpserver, http, server
// so both the exact name and its words match. Identifiers are never stemmed; only the
// `prose` field (docs text) goes through lunr's stemmer, on both sides.
import lunr = require('lunr');

/** Parts of an identifier: `HTTPServer2Go` -> HTTP, Server2, Go. */
const PART = /\p{Lu}+(?!\p{Ll})\p{N}*|\p{Lu}?\p{Ll}+\p{N}*|\p{N}+\p{Ll}*|\p{Lo}+\p{N}*/gu;
/** Tokens longer than this are noise (hashes, base64, minified blobs): not indexed. */
export const MAX_TOKEN_LENGTH = 48;

/**
 * A copy of `s` that shares no memory with the text it was cut from. V8 cuts substrings of 13
 * characters or more as views into their parent, so a cached slice of one word would keep its
 * whole file's text alive for as long as the cache holds it (hundreds of MB over a workspace).
 */
function detached(s: string): string {
  return s.length < 13 ? s : (s + ' ').slice(0, -1);
}

const partsCache = new Map<string, readonly string[]>();
const PARTS_CACHE_LIMIT = 200_000;
const NO_PARTS: readonly string[] = [];

/** The lower-cased parts of an identifier, or [] when it has only one part. Memoised: identifiers repeat. */
export function identifierParts(word: string): readonly string[] {
  const cached = partsCache.get(word);
  if (cached) return cached;
  let result: readonly string[] = NO_PARTS;
  if (word.length > 1) {
    const parts: string[] = [];
    for (const piece of word.split(/[_$]+/)) {
      if (!piece) continue;
      const m = piece.match(PART);
      if (m) for (const p of m) parts.push(p.toLowerCase());
      else parts.push(piece.toLowerCase());
    }
    const unique = [...new Set(parts.filter((p) => p.length > 1))];
    if (unique.length > 1 || (unique.length === 1 && unique[0] !== word.toLowerCase())) result = unique;
  }
  if (partsCache.size >= PARTS_CACHE_LIMIT) partsCache.clear();
  partsCache.set(detached(word), result === NO_PARTS ? result : result.map(detached));
  return result;
}

/** A word only needs splitting when it has capitals, `_`/`$`, digits or non-ASCII letters. */
const PLAIN = 0;
const NEEDS_SPLIT = 1;
const HAS_UPPER = 2;

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const LETTER = /\p{L}/u;

/**
 * Scans `text` for words (identifiers and numbers), calling `onWord(start, end, flags)`.
 * A hand-written ASCII scanner: this runs over every byte of the workspace, and a Unicode
 * regular expression was the single largest cost of indexing. Non-ASCII letters still count.
 */
function scanWords(text: string, onWord: (start: number, end: number, flags: number) => void): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    let c = text.charCodeAt(i);
    const isIdentStart = (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 36;
    const isDigit = c >= 48 && c <= 57;
    const isWide = c > 127 && LETTER.test(text[i] as string);
    if (!isIdentStart && !isDigit && !isWide) {
      i++;
      continue;
    }
    const start = i;
    let flags = isDigit ? NEEDS_SPLIT : PLAIN;
    for (; i < n; i++) {
      c = text.charCodeAt(i);
      if (c >= 97 && c <= 122) continue;
      if (c >= 65 && c <= 90) flags |= NEEDS_SPLIT | HAS_UPPER;
      else if (c >= 48 && c <= 57 || c === 95) flags |= NEEDS_SPLIT;
      else if (c === 36) {
        if (isDigit) break; // numbers take letters, digits and `_`, not `$`
        flags |= NEEDS_SPLIT;
      } else if (c > 127 && LETTER_OR_DIGIT.test(text[i] as string)) flags |= NEEDS_SPLIT | HAS_UPPER;
      else break;
    }
    onWord(start, i, flags);
  }
}

/** Tokens shorter than this (`i`, `x`, `0`) match everything and mean nothing: not indexed. */
export const MIN_TOKEN_LENGTH = 2;

/**
 * Calls `emit` for every index token of `text`: each word whole (lower-cased), then its parts.
 * Allocation-light: this runs over every byte of the workspace.
 */
export function forEachToken(text: string, emit: (token: string) => void): void {
  scanWords(text, (start, end, flags) => {
    const length = end - start;
    if (length > MAX_TOKEN_LENGTH || length < MIN_TOKEN_LENGTH) return;
    const word = text.slice(start, end);
    if (flags === PLAIN) {
      emit(word); // already lower case, nothing to trim or split
      return;
    }
    const trimmed = trimAffixes(flags & HAS_UPPER ? word.toLowerCase() : word);
    if (trimmed.length >= MIN_TOKEN_LENGTH) emit(trimmed);
    const parts = identifierParts(word);
    for (let k = 0; k < parts.length; k++) {
      const p = parts[k] as string;
      if (p !== trimmed) emit(p);
    }
  });
}

/** `__init__` -> `init`, `$el` -> `el`: leading/trailing `_`/`$` carry no meaning for search. */
function trimAffixes(token: string): string {
  let start = 0;
  let end = token.length;
  while (start < end && (token.charCodeAt(start) === 95 || token.charCodeAt(start) === 36)) start++;
  while (end > start && (token.charCodeAt(end - 1) === 95 || token.charCodeAt(end - 1) === 36)) end--;
  return start === 0 && end === token.length ? token : token.slice(start, end);
}

/** All index tokens of a text, in order, with repeats. */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  forEachToken(text, (t) => out.push(t));
  return out;
}

// ---------------------------------------------------------------------------
// Prose: lunr's stop-word filter and Porter stemmer, applied to the same tokens.

const stemCache = new Map<string, string>();

/** The prose form of a token: '' for stop words, else its stem. Numbers and long identifiers pass through. */
export function proseForm(token: string): string {
  const cached = stemCache.get(token);
  if (cached !== undefined) return cached;
  let result: string;
  if (isStopWord(token)) result = '';
  else if (/^[a-z]{3,}$/.test(token)) result = String(lunr.stemmer(new lunr.Token(token, {})));
  else result = token;
  if (stemCache.size >= PARTS_CACHE_LIMIT) stemCache.clear();
  stemCache.set(detached(token), detached(result));
  return result;
}

function isStopWord(token: string): boolean {
  return lunr.stopWordFilter(new lunr.Token(token, {})) === undefined;
}

/** Prose tokens of a text: code tokens mapped through proseForm, stop words dropped. */
export function forEachProseToken(text: string, emit: (token: string) => void): void {
  forEachToken(text, (t) => {
    const p = proseForm(t);
    if (p) emit(p);
  });
}

// ---------------------------------------------------------------------------
// Query side

/** One word of a query term, analysed like the index analyses text. */
export interface QueryWord {
  /** The whole word, lower-cased and trimmed: what an exact identifier match needs. */
  whole: string;
  /** Its parts (empty when it has one part). */
  parts: readonly string[];
  /** The original spelling, for exact-name boosts and symbol lookup. */
  original: string;
}

/** Splits a query term (original case) into words the way the index tokenises text. */
export function analyzeQueryTerm(term: string): QueryWord[] {
  const words: QueryWord[] = [];
  scanWords(term, (start, end) => {
    const original = term.slice(start, end);
    if (original.length > MAX_TOKEN_LENGTH) return;
    const whole = trimAffixes(original.toLowerCase());
    const parts = identifierParts(original).filter((p) => p !== whole);
    if (whole.length < MIN_TOKEN_LENGTH && parts.length === 0) return;
    words.push({ whole, parts, original });
  });
  return words;
}

/** True when a word looks like a code identifier rather than an English word (camelCase, snake_case, digits). */
export function looksLikeIdentifier(word: string): boolean {
  return /\p{Ll}\p{Lu}|\p{Lu}{2}\p{Ll}|_|\$|\p{L}\p{N}/u.test(word);
}
