// Code-aware tokenising, shared by indexing and querying so both sides agree exactly.
//
// An identifier is indexed whole (lower-cased) and also split into its parts:
//   fetchUserName -> fetchusername, fetch, user, name
//   fetch_user    -> fetch_user, fetch, user
//   HTTPServer    -> httpserver, http, server
// so both the exact name and its words match. Identifiers are never stemmed; only the
// `prose` field (docs text) goes through lunr's stemmer, on both sides.
import lunr = require('lunr');
import { grown } from './listPool';

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

// The module's two memos (parts and prose forms of a word) are pure: a result depends on the
// word alone and is immutable (strings, and arrays typed readonly, not frozen: V8's slice, map
// and filter take a slow path on frozen arrays), so sharing them between callers is safe.
// They are bounded: at most MEMO_ENTRIES words of at most MAX_TOKEN_LENGTH characters each
// (longer words are rare and computed afresh), emptied when full.
const MEMO_ENTRIES = 200_000;
const partsCache = new Map<string, readonly string[]>();
const NO_PARTS: readonly string[] = [];

/** The lower-cased parts of an identifier, or [] when it has only one part (shared: never change it). Memoised: identifiers repeat. */
export function identifierParts(word: string): readonly string[] {
  const cached = partsCache.get(word);
  if (cached) return cached;
  const split = splitIdentifier(word);
  if (word.length > MAX_TOKEN_LENGTH) return split;
  const result = split === NO_PARTS ? split : split.map(detached);
  if (partsCache.size >= MEMO_ENTRIES) partsCache.clear();
  partsCache.set(detached(word), result);
  return result;
}

/** identifierParts without the memo (the word table keeps its own). */
function splitIdentifier(word: string): readonly string[] {
  if (word.length <= 1) return NO_PARTS;
  const parts: string[] = [];
  for (const piece of word.split(/[_$]+/)) {
    if (!piece) continue;
    const m = piece.match(PART);
    if (m) for (const p of m) parts.push(p.toLowerCase());
    else parts.push(piece.toLowerCase());
  }
  const unique = [...new Set(parts.filter((p) => p.length > 1))];
  if (unique.length > 1 || (unique.length === 1 && unique[0] !== word.toLowerCase())) return unique;
  return NO_PARTS;
}

/** A word only needs splitting when it has capitals, `_`/`$`, digits or non-ASCII letters. */
const PLAIN = 0;
const NEEDS_SPLIT = 1;
const HAS_UPPER = 2;

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const LETTER = /\p{L}/u;

/** Where `nextWord` found a word. One object reused for every word, so scanning allocates nothing. */
interface WordSpan {
  start: number;
  end: number;
  flags: number;
  /** A hash of the word's characters, for the word table. */
  hash: number;
}

const newSpan = (): WordSpan => ({ start: 0, end: 0, flags: PLAIN, hash: 0 });

// FNV-1a over UTF-16 code units, computed while scanning; `finishHash` mixes the high bits
// down, because the table indexes by the low bits and FNV's low bits only see the chars' low bits.
const HASH_SEED = 0x811c9dc5 | 0;
const HASH_PRIME = 0x01000193;

/** The hash nextWord computes for a word, of a whole string. */
function hashOf(s: string): number {
  let hash = HASH_SEED;
  for (let i = 0; i < s.length; i++) hash = Math.imul(hash ^ s.charCodeAt(i), HASH_PRIME);
  return finishHash(hash);
}

function finishHash(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x45d9f3b);
  return h ^ (h >>> 16);
}

// What each ASCII character is to the scanner: 0 outside words, else WORD_CHAR with the flags
// it gives a word and whether it is a digit or `$`. One table load instead of a chain of
// comparisons per character.
const WORD_CHAR = 4;
const DIGIT = 8;
const DOLLAR = 16;
const ASCII_KIND = new Uint8Array(128);
for (let c = 97; c <= 122; c++) ASCII_KIND[c] = WORD_CHAR; // a-z
for (let c = 65; c <= 90; c++) ASCII_KIND[c] = WORD_CHAR | NEEDS_SPLIT | HAS_UPPER; // A-Z
for (let c = 48; c <= 57; c++) ASCII_KIND[c] = WORD_CHAR | DIGIT | NEEDS_SPLIT; // 0-9
ASCII_KIND[95] = WORD_CHAR | NEEDS_SPLIT; // _
ASCII_KIND[36] = WORD_CHAR | DOLLAR | NEEDS_SPLIT; // $

/** The kind of a non-ASCII character: a letter starts a word; letters and digits continue one. */
function wideKind(text: string, i: number, starting: boolean): number {
  return (starting ? LETTER : LETTER_OR_DIGIT).test(text[i] as string) ? WORD_CHAR | NEEDS_SPLIT | HAS_UPPER : 0;
}

/**
 * Finds the first word (identifier or number) at or after `from` and describes it in `word`;
 * false when none is left. A hand-written ASCII scanner: this runs over every byte of the
 * workspace, and a Unicode regular expression was the single largest cost of indexing.
 * Non-ASCII letters still count.
 */
function nextWord(text: string, from: number, word: WordSpan): boolean {
  const n = text.length;
  let i = from;
  let kind = 0;
  for (; i < n; i++) {
    const c = text.charCodeAt(i);
    kind = c < 128 ? (ASCII_KIND[c] as number) : wideKind(text, i, true);
    if (kind !== 0) break;
  }
  if (i >= n) return false;
  const start = i;
  const isNumber = (kind & DIGIT) !== 0;
  const stop = isNumber ? DOLLAR : 0; // numbers take letters, digits and `_`, not `$`
  let flags = isNumber ? NEEDS_SPLIT : PLAIN;
  let hash = HASH_SEED;
  for (; i < n; i++) {
    const c = text.charCodeAt(i);
    kind = c < 128 ? (ASCII_KIND[c] as number) : wideKind(text, i, false);
    if (kind === 0 || (kind & stop) !== 0) break;
    flags |= kind;
    hash = Math.imul(hash ^ c, HASH_PRIME);
  }
  word.start = start;
  word.end = i;
  word.flags = flags & (NEEDS_SPLIT | HAS_UPPER);
  word.hash = finishHash(hash);
  return true;
}

/** Calls `onWord(start, end, flags)` for each word of `text`. */
function scanWords(text: string, onWord: (start: number, end: number, flags: number) => void): void {
  const word = newSpan();
  for (let from = 0; nextWord(text, from, word); from = word.end) onWord(word.start, word.end, word.flags);
}

/** Tokens shorter than this (`i`, `x`, `0`) match everything and mean nothing: not indexed. */
export const MIN_TOKEN_LENGTH = 2;

const isIndexedLength = (length: number): boolean => length >= MIN_TOKEN_LENGTH && length <= MAX_TOKEN_LENGTH;

/**
 * Calls `emit` for every index token of `text`: each word whole (lower-cased), then its parts.
 * Allocation-light: this runs over every byte of the workspace.
 */
export function forEachToken(text: string, emit: (token: string) => void): void {
  scanWords(text, (start, end, flags) => {
    if (isIndexedLength(end - start)) emitWordTokens(text.slice(start, end), flags, identifierParts, emit);
  });
}

/** The tokens of one word (of indexed length): whole, trimmed and lower-cased, then the parts that differ from it. */
function emitWordTokens(word: string, flags: number, partsOf: (word: string) => readonly string[], emit: (token: string) => void): void {
  if (flags === PLAIN) {
    emit(word); // already lower case, nothing to trim or split
    return;
  }
  const trimmed = trimAffixes(flags & HAS_UPPER ? word.toLowerCase() : word);
  if (trimmed.length >= MIN_TOKEN_LENGTH) emit(trimmed);
  const parts = partsOf(word);
  for (let k = 0; k < parts.length; k++) {
    const p = parts[k] as string;
    if (p !== trimmed) emit(p);
  }
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

/** Prose forms by token: a bounded pure memo (see partsCache). */
const stemCache = new Map<string, string>();

/** The prose form of a token: '' for stop words, else its stem. Numbers and long identifiers pass through. */
export function proseForm(token: string): string {
  const cached = stemCache.get(token);
  if (cached !== undefined) return cached;
  const result = stem(token);
  if (token.length > MAX_TOKEN_LENGTH) return result;
  if (stemCache.size >= MEMO_ENTRIES) stemCache.clear();
  stemCache.set(detached(token), detached(result));
  return result;
}

/** proseForm without the memo (the word table keeps its own). */
function stem(token: string): string {
  if (isStopWord(token)) return '';
  if (/^[a-z]{3,}$/.test(token)) return String(lunr.stemmer(new lunr.Token(token, {})));
  return token;
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
// The word table: tokens by spelling, for analysing whole files fast.

export interface WordTableLimits {
  /** Distinct spellings kept. */
  words: number;
  /** Characters kept, spellings and tokens together. */
  chars: number;
}

/**
 * Default budget of a word table: past it a table costs a cold index more peak memory than it
 * saves in analysis time (docs/index-design.md, Measurements).
 */
export const WORD_TABLE_LIMITS: Readonly<WordTableLimits> = { words: 100_000, chars: 2_000_000 };

const NOT_STEMMED = -2;
const STOP_WORD = -1;
const INITIAL_SLOTS = 1024;

/**
 * Open-addressing hash slots: pairs (hash, value + 1), 0 when empty. Users probe `pairs`
 * linearly from `(hash << 1) & (pairs.length - 1)`, two by two, until an empty pair.
 * Kept at most half full, so probes stay short.
 */
class Slots {
  pairs = new Int32Array(2 * INITIAL_SLOTS);
  private used = 0;

  /** Adds a value whose key is not in the slots yet. */
  add(hash: number, value: number): void {
    if (2 * ++this.used > this.pairs.length / 2) this.resize(2 * this.pairs.length);
    place(this.pairs, hash, value);
  }

  /** Empties the slots, keeping their size. */
  clear(): void {
    this.pairs.fill(0);
    this.used = 0;
  }

  private resize(length: number): void {
    const old = this.pairs;
    this.pairs = new Int32Array(length);
    for (let s = 0; s < old.length; s += 2) if (old[s + 1] !== 0) place(this.pairs, old[s] as number, (old[s + 1] as number) - 1);
  }
}

function place(pairs: Int32Array, hash: number, value: number): void {
  const mask = pairs.length - 1;
  let s = (hash << 1) & mask;
  while (pairs[s + 1] !== 0) s = (s + 2) & mask;
  pairs[s] = hash;
  pairs[s + 1] = value + 1;
}

// A word's record in WordTable.records, in consecutive int32s: its length, its UTF-16 code
// units, the number of its tokens, their ids.
const RECORD_LENGTH = 0;
const RECORD_CHARS = 1;

/**
 * The index tokens of each word spelling seen on this thread, with every token numbered (a
 * token id), so that analysing a file costs one hash probe per word and allocates no string
 * for a spelling seen before. Keyed by the word as written (case kept): what it emits is a
 * function of its spelling alone.
 *
 * The word slots point into one array of records; a record holds the spelling's characters
 * (so a hit is checked against the text in place, and no string of the text is kept) and
 * then the word's token ids, so a hit reads two places in memory.
 */
export class WordTable {
  /** The token ids written by the last `scan`. */
  ids = new Int32Array(1024);
  private readonly span = newSpan();
  private readonly wordSlots = new Slots();
  private records = new Int32Array(8 * INITIAL_SLOTS);
  private recordsEnd = 0;
  private wordCount = 0;
  // Tokens by id: text and the id of the prose form (NOT_STEMMED until needed); and slots to
  // find an id by text (cheaper than a Map).
  private tokens: string[] = [];
  private proseIds = new Int32Array(INITIAL_SLOTS).fill(NOT_STEMMED);
  private readonly tokenSlots = new Slots();
  private chars = 0;

  /** How many token ids are in use: every id is below this. */
  get tokenCount(): number {
    return this.tokens.length;
  }

  /** The token a token id stands for. */
  token(id: number): string {
    return this.tokens[id] as string;
  }

  /**
   * Empties the table when it holds more than `limits` allow, keeping its grown arrays for
   * what comes next. Token ids are reused: call it between files only.
   */
  clearWhenFull(limits: WordTableLimits = WORD_TABLE_LIMITS): void {
    if (this.wordCount <= limits.words && this.chars <= limits.chars) return;
    this.wordSlots.clear();
    this.recordsEnd = 0;
    this.wordCount = 0;
    this.tokens = [];
    this.proseIds.fill(NOT_STEMMED);
    this.tokenSlots.clear();
    this.chars = 0;
  }

  /**
   * Writes to `ids` the token ids of `text`, in the order forEachToken emits the tokens (or,
   * with `prose`, forEachProseToken), and returns how many there are.
   */
  scan(text: string, prose: boolean): number {
    const span = this.span;
    let count = 0;
    for (let from = 0; nextWord(text, from, span); from = span.end) {
      if (!isIndexedLength(span.end - span.start)) continue;
      let r = this.find(text, span);
      if (r < 0) r = this.add(text, span);
      // The record's token count follows its characters; the token ids follow the count.
      const first = r + RECORD_CHARS + (span.end - span.start) + 1;
      const end = first + (this.records[first - 1] as number);
      if (count + end - first > this.ids.length) this.ids = grown(this.ids, Math.max(count + end - first, 2 * this.ids.length));
      for (let k = first; k < end; k++) {
        const id = prose ? this.proseId(this.records[k] as number) : (this.records[k] as number);
        if (id !== STOP_WORD) this.ids[count++] = id;
      }
    }
    return count;
  }

  /** The record of the word spelled like `text` at `span`, or -1. */
  private find(text: string, span: WordSpan): number {
    const { records } = this;
    const pairs = this.wordSlots.pairs;
    const mask = pairs.length - 1;
    const length = span.end - span.start;
    for (let s = (span.hash << 1) & mask; pairs[s + 1] !== 0; s = (s + 2) & mask) {
      const r = (pairs[s + 1] as number) - 1;
      if (pairs[s] === span.hash && records[r + RECORD_LENGTH] === length && spelledAt(text, span.start, records, r + RECORD_CHARS, length)) return r;
    }
    return -1;
  }

  /** Adds the word at `span` with its tokens; returns its record. */
  private add(text: string, span: WordSpan): number {
    const length = span.end - span.start;
    const r = this.recordsEnd;
    this.reserve(RECORD_CHARS + length + 1);
    const records = this.records;
    records[r + RECORD_LENGTH] = length;
    for (let k = 0; k < length; k++) records[r + RECORD_CHARS + k] = text.charCodeAt(span.start + k);
    const countAt = r + RECORD_CHARS + length;
    this.recordsEnd = countAt + 1;
    emitWordTokens(text.slice(span.start, span.end), span.flags, splitIdentifier, (token) => {
      const id = this.tokenId(token);
      this.reserve(1);
      this.records[this.recordsEnd++] = id;
    });
    this.records[countAt] = this.recordsEnd - countAt - 1;
    this.wordSlots.add(span.hash, r);
    this.wordCount++;
    this.chars += length;
    return r;
  }

  private reserve(n: number): void {
    if (this.recordsEnd + n > this.records.length) this.records = grown(this.records, Math.max(this.recordsEnd + n, 2 * this.records.length));
  }

  private tokenId(token: string): number {
    const hash = hashOf(token);
    const pairs = this.tokenSlots.pairs;
    const mask = pairs.length - 1;
    for (let s = (hash << 1) & mask; pairs[s + 1] !== 0; s = (s + 2) & mask) {
      const id = (pairs[s + 1] as number) - 1;
      if (pairs[s] === hash && this.tokens[id] === token) return id;
    }
    const id = this.tokens.length;
    // Detached: a kept token must not keep the whole text it was cut from alive.
    this.tokens.push(detached(token));
    this.tokenSlots.add(hash, id);
    this.chars += token.length;
    return id;
  }

  /** The id of a token's prose form, or STOP_WORD. */
  private proseId(id: number): number {
    if (id >= this.proseIds.length) this.proseIds = grown(this.proseIds, Math.max(id + 1, 2 * this.proseIds.length), NOT_STEMMED);
    let prose = this.proseIds[id] as number;
    if (prose === NOT_STEMMED) {
      const form = stem(this.tokens[id] as string);
      prose = form ? this.tokenId(form) : STOP_WORD;
      this.proseIds[id] = prose;
    }
    return prose;
  }
}

/** True when `text` has at `start` the `length` characters stored in `chars` from `at`. */
function spelledAt(text: string, start: number, chars: Int32Array, at: number, length: number): boolean {
  for (let k = 0; k < length; k++) if (text.charCodeAt(start + k) !== chars[at + k]) return false;
  return true;
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
