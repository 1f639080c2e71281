// Honest emptiness: which of the query's words a chunk holds. Each word typed (not its parts,
// not a stop word) has a presence bit that only the whole word sets, so a chunk that matched
// `fooBar` through `foo` and `bar` alone lacks the word `fooBar`. When no chunk has them all,
// the answer says so rather than listing partial matches as if they were results.
import type { CompiledQuery } from './compiled';

export interface WordsNeeded {
  /** The presence bits of the words every full match holds; 0 when there is nothing to check. */
  bits: number;
  /** Those words as typed, in query order. */
  words: string[];
}

/** The words of `compiled` a result should hold: positive words and wildcards, stop words left out. */
export function wordsNeeded(compiled: CompiledQuery): WordsNeeded {
  let bits = 0;
  const words: string[] = [];
  let previous: { bit: number; raw: string } | undefined;
  for (const c of compiled.clauses) {
    if (c.presence === 'prohibited') continue;
    // A word still being typed (`createGre`, searched as you type) is also its prefix
    // (`createGre*`, which matches the word itself too): holding either is holding the word.
    if (c.wildcard && previous && c.raw === `${previous.raw}*` && c.wildcard.bit >= 0) {
      bits = (bits & ~(1 << previous.bit)) | (1 << c.wildcard.bit);
      previous = undefined;
      continue;
    }
    previous = undefined;
    if (c.wildcard) {
      if (c.wildcard.bit >= 0 && !(bits & (1 << c.wildcard.bit))) {
        bits |= 1 << c.wildcard.bit;
        words.push(c.raw);
      }
      continue;
    }
    for (const w of c.words) {
      // A stop word ("the", "how") has no prose form: a result need not hold it.
      if (w.bit < 0 || w.stem === '') continue;
      bits |= 1 << w.bit;
      words.push(w.original);
      if (c.words.length === 1) previous = { bit: w.bit, raw: c.raw };
    }
  }
  return { bits, words };
}

/** True when a chunk with presence `bits` lacks some needed word. */
export function isPartial(needed: WordsNeeded, bits: number): boolean {
  return needed.bits !== 0 && (bits & needed.bits) !== needed.bits;
}

/** The line an answer of partial matches only carries: `No result has all of: a, b; 12 partial matches`. */
export function partialNote(words: readonly string[], total: number, totalIsLowerBound = false): string {
  return `No result has all of: ${words.join(', ')}; ${total}${totalIsLowerBound ? '+' : ''} partial match${total === 1 && !totalIsLowerBound ? '' : 'es'}`;
}
