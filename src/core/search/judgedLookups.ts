// References lookups already judged over one view, kept for the next ask of the same name.
// Judging reads every file the name occurs in (its imports, the line of each member use), so a
// common name costs the same on every ask; an agent or the references view asks again. A view is
// one index generation: a refresh opens a new view, with nothing kept, so what is kept is always
// judged against the index it answers from. The lines a returned reference shows are still read
// from the working tree on every ask.
import type { ReferenceOptions } from './types';

/** A judged lookup as far as keeping it goes: its occurrences are what it weighs. */
export interface Judged {
  readonly occurrences: readonly unknown[];
}

/** Occurrences kept over all lookups of a view; past it, the least recently asked go first. */
export const KEPT_OCCURRENCES = 250_000;

export class JudgedLookups<T extends Judged = Judged> {
  /** By lookup key, least recently asked first. */
  private readonly lookups = new Map<string, T>();
  private kept = 0;

  constructor(private readonly limit = KEPT_OCCURRENCES) {}

  /** What was judged for the key, marked as asked now. */
  get(key: string): T | undefined {
    const lookup = this.lookups.get(key);
    if (lookup) {
      this.lookups.delete(key);
      this.lookups.set(key, lookup);
    }
    return lookup;
  }

  /** Keeps a lookup unless it alone is over the limit, letting go of the least recently asked beyond it. */
  set(key: string, lookup: T): void {
    if (lookup.occurrences.length > this.limit) return;
    const before = this.lookups.get(key);
    if (before) {
      this.kept -= before.occurrences.length;
      this.lookups.delete(key);
    }
    this.lookups.set(key, lookup);
    this.kept += lookup.occurrences.length;
    for (const [oldKey, old] of this.lookups) {
      if (this.kept <= this.limit) break;
      this.lookups.delete(oldKey);
      this.kept -= old.occurrences.length;
    }
  }

  /** Occurrences kept now. */
  get size(): number {
    return this.kept;
  }
}

/** What a lookup's judged occurrences depend on: the name, and the options that choose definitions and occurrences. */
export function lookupKey(name: string, qualifier: string | undefined, options: ReferenceOptions): string {
  return JSON.stringify([name, qualifier ?? null, options.kinds ?? [], options.paths ?? [], options.languages ?? []]);
}
