// The chunks a whole query word may name: those with the word in their symbol field, which is
// no longer than a symbol of that one word can make it. Scoring bounds only these with the name
// boost, the symbol table finds a word's named chunks through them, and a warm-up lists common
// words' ahead of the first long query.
import { FIELD_COUNT, FIELDS } from '../index/fields';
import type { Postings } from '../index/postingsCodec';
import type { Segment } from '../index/segment';

export const SYMBOL_FIELD = FIELDS.indexOf('symbol');
const NO_DOC = 0xffffffff;
/** Per postings list (a segment keeps common words' decoded), the named documents by field and length bound. */
const withField = new WeakMap<Postings, Map<number, Uint32Array>>();

/**
 * Lists the chunks a term whose postings a segment keeps decoded may name, as the first query
 * with the term as a whole word would: for a warm-up while idle, so that the first long query
 * of common words does not build these lists itself.
 */
export function warmNamedDocuments(seg: Segment, termIndex: number): void {
  docsWithShortField(seg, seg.postings(termIndex), SYMBOL_FIELD, nameLengthBound(seg.termAt(termIndex)));
}

/**
 * The documents of `postings` (ascending) that have the term in `field` and at most
 * `maxLength` tokens in it. Kept with the postings: a segment keeps common words' postings
 * decoded, and the same words name chunks query after query.
 */
export function docsWithShortField(seg: Segment, postings: Postings, field: number, maxLength: number): Uint32Array {
  let byKey = withField.get(postings);
  if (!byKey) withField.set(postings, (byKey = new Map()));
  const key = field * 0x10000 + Math.min(maxLength, 0xffff);
  let docs = byKey.get(key);
  if (!docs) {
    const found = new Uint32Array(postings.docs.length);
    let m = 0;
    for (let i = 0; i < postings.docs.length; i++) {
      if ((postings.tfs[i * FIELD_COUNT + field] as number) === 0) continue;
      const doc = postings.docs[i] as number;
      if (seg.fieldLength(doc, field) <= maxLength) found[m++] = doc;
    }
    docs = found.slice(0, m);
    byKey.set(key, docs);
  }
  return docs;
}

/**
 * The most tokens the symbol field of a chunk named `token` can hold. A symbol whose
 * normalised name is the token is one word: the tokenizer emits it whole, then its distinct
 * parts of two or more characters, disjoint pieces of the word, so at most half its length.
 */
export function nameLengthBound(token: string): number {
  return 1 + Math.floor(token.length / 2);
}

/** The union of two ascending lists, ascending and without repeats (each list is one term's documents). */
export function unionDocs(a: Uint32Array, b: Uint32Array): Uint32Array {
  const out = new Uint32Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length || j < b.length) {
    const x = i < a.length ? (a[i] as number) : NO_DOC;
    const y = j < b.length ? (b[j] as number) : NO_DOC;
    out[n++] = x < y ? x : y;
    if (x <= y) i++;
    if (y <= x) j++;
  }
  return out.subarray(0, n);
}

export const EMPTY_DOCS = new Uint32Array(0);
