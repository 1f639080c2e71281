// The symbol table: every named definition of a snapshot, kept as compact parallel arrays with
// hash maps for exact lookups, so go-to-symbol answers in well under a millisecond.
//
// Match tiers, best first: exact (case-sensitive), exact ignoring case, qualified (`Class.method`,
// `pkg.func`), prefix, camel-case humps / initials (`gUN` -> getUserName), fuzzy (edit distance).
import { DEFINITION_KINDS, FLAG_TEST, FLAG_VENDORED, KINDS } from '../index/fields';
import type { Segment } from '../index/segment';
import { identifierParts } from '../index/tokenizer';
import type { Snapshot } from '../store/store';
import { boundedLevenshtein } from './query';
import { compilePathFilter } from './filters';
import { resolveLanguageFilter } from '../languages';
import type { ChunkKind } from '../types';
import type { SymbolMatch } from './types';

export interface SymbolRef {
  seg: number;
  doc: number;
}

export interface SymbolCandidate extends SymbolRef {
  match: SymbolMatch;
  score: number;
  penalties: Array<{ name: string; value: number }>;
  qualifiedName: string;
}

/** Kinds that go-to-symbol offers, in order of how likely a user means them. */
const KIND_RANK: Partial<Record<ChunkKind, number>> = {
  class: 0, interface: 0, struct: 0, trait: 0, enum: 0, type: 1, function: 1, union: 1, module: 2, namespace: 2,
  method: 2, constructor: 3, impl: 3, macro: 3, constant: 4, variable: 5, property: 5,
  section: 6, key: 7, rule: 7, element: 7,
};
const SYMBOL_KINDS = new Set(Object.keys(KIND_RANK));

const TIER_SCORE: Record<SymbolMatch, number> = {
  exact: 100,
  'exact-ignore-case': 90,
  qualified: 80,
  prefix: 60,
  'camel-case': 50,
  fuzzy: 40,
};

export interface FindOptions {
  languages?: string[];
  kinds?: string[];
  paths?: string[];
  limit?: number;
}

export class SymbolIndex {
  private readonly seg: number[] = [];
  private readonly doc: number[] = [];
  private readonly names: string[] = [];
  private readonly lower: string[] = [];
  private readonly qualified: string[] = [];
  /** Breadcrumb as written (`HttpClient.fetchUser`), for display. */
  private readonly display: string[] = [];
  private readonly rank: number[] = [];
  private readonly exactMap = new Map<string, number[]>();
  private readonly lowerMap = new Map<string, number[]>();
  private readonly firstDocOfPath = new Map<string, SymbolRef>();
  private readonly lowerColumns: string[][] = [];
  private partsCache?: Array<readonly string[]>;

  constructor(private readonly snapshot: Snapshot) {
    snapshot.segments.forEach((segment, s) => {
      const deleted = snapshot.deleted[s] as Uint8Array;
      const symbols = segment.symbols();
      const contexts = segment.contexts();
      this.lowerColumns[s] = symbols.map((x) => x.toLowerCase());
      for (const file of segment.files) {
        if (file.docCount > 0 && !deleted[file.firstDoc] && !this.firstDocOfPath.has(file.path)) {
          this.firstDocOfPath.set(file.path, { seg: s, doc: file.firstDoc });
        }
      }
      for (let d = 0; d < segment.docCount; d++) {
        const name = symbols[d] as string;
        if (!name || deleted[d]) continue;
        const kind = segment.kindOf(d);
        if (!SYMBOL_KINDS.has(kind)) continue;
        const i = this.names.length;
        this.seg.push(s);
        this.doc.push(d);
        this.names.push(name);
        const lower = name.toLowerCase();
        this.lower.push(lower);
        this.qualified.push(normaliseQualified(contexts[d] || name));
        this.display.push(contexts[d] || name);
        this.rank.push(KIND_RANK[kind] ?? 8);
        push(this.exactMap, name, i);
        push(this.lowerMap, lower, i);
      }
    });
  }

  get size(): number {
    return this.names.length;
  }

  /** The lower-cased symbol of any document (used for exact-definition boosts in search). */
  lowerSymbol(seg: number, doc: number): string {
    return (this.lowerColumns[seg] as string[])[doc] as string;
  }

  /** Code definitions named exactly `name` (case-sensitive first), best first. */
  definitionsNamed(name: string): SymbolRef[] {
    const ids = [...(this.exactMap.get(name) ?? []), ...(this.lowerMap.get(name.toLowerCase()) ?? [])];
    const unique = [...new Set(ids)].filter((i) => DEFINITION_KINDS.has(this.kindOf(i)));
    return this.order(unique).map((i) => ({ seg: this.seg[i] as number, doc: this.doc[i] as number }));
  }

  /** The first live chunk of a file, by exact relative path. */
  firstChunkOfPath(path: string): SymbolRef | undefined {
    return this.firstDocOfPath.get(path);
  }

  /** Tiered lookup. `exact` is true when tier 1–3 matched; otherwise up to five closest symbols. */
  find(query: string, options: FindOptions = {}): { exact: boolean; candidates: SymbolCandidate[] } {
    const q = query.trim();
    const limit = Math.max(1, Math.min(options.limit ?? 20, 500));
    if (!q) return { exact: false, candidates: [] };
    const allow = this.filter(options);
    const taken = new Set<number>();
    const out: SymbolCandidate[] = [];
    const take = (ids: Iterable<number>, match: SymbolMatch, extra = 0) => {
      for (const i of this.order([...ids].filter((i) => !taken.has(i) && allow(i)))) {
        taken.add(i);
        out.push(this.candidate(i, match, extra));
      }
    };

    const qualifiedQuery = /[.:#>]/.test(q) ? normaliseQualified(q) : undefined;
    const lastName = qualifiedQuery ? (qualifiedQuery.split('.').pop() as string) : q;
    take(this.exactMap.get(q) ?? [], 'exact');
    take(this.lowerMap.get(q.toLowerCase()) ?? [], 'exact-ignore-case');
    if (qualifiedQuery && lastName) {
      const byName = this.lowerMap.get(lastName) ?? [];
      take(byName.filter((i) => isQualifiedMatch(this.qualified[i] as string, qualifiedQuery, this.pathOf(i))), 'qualified');
    }
    const exact = out.length > 0;
    if (out.length < limit) {
      const needle = (qualifiedQuery ? lastName : q).toLowerCase();
      const humps = qualifiedQuery ? [] : camelHumps(q);
      const prefix: number[] = [];
      const camel: number[] = [];
      for (let i = 0; i < this.names.length; i++) {
        if (taken.has(i)) continue;
        if (qualifiedQuery) {
          // `User.sa` continues a qualified name; other classes' `save` are not prefixes of it.
          const qn = this.qualified[i] as string;
          if (qn.startsWith(qualifiedQuery) || qn.includes(`.${qualifiedQuery}`)) prefix.push(i);
          continue;
        }
        const lower = this.lower[i] as string;
        if (needle.length >= 2 && lower.startsWith(needle)) prefix.push(i);
        else if (humps.length > 0 && this.camelMatch(i, humps)) camel.push(i);
      }
      take(prefix, 'prefix');
      take(camel, 'camel-case');
      if (!exact && out.length < 5) {
        // Qualified queries are compared with qualified names, plain ones with names.
        const target = qualifiedQuery ?? needle;
        const haystack = qualifiedQuery ? this.qualified : this.lower;
        const maxDist = Math.max(1, Math.floor(target.length / 3));
        const fuzzy: Array<[number, number]> = [];
        for (let i = 0; i < this.names.length; i++) {
          if (taken.has(i) || !allow(i)) continue;
          const lower = haystack[i] as string;
          const d = lower.includes(target) ? Math.min(maxDist, lower.length - target.length) : boundedLevenshtein(target, lower, maxDist);
          if (d <= maxDist) fuzzy.push([i, d]);
        }
        fuzzy.sort((a, b) => a[1] - b[1] || this.compare(a[0], b[0]));
        for (const [i, d] of fuzzy.slice(0, 5)) {
          taken.add(i);
          out.push(this.candidate(i, 'fuzzy', -5 * d));
        }
      }
    }
    return { exact, candidates: exact ? out.slice(0, limit) : out.slice(0, Math.min(limit, 5)) };
  }

  private candidate(i: number, match: SymbolMatch, extra: number): SymbolCandidate {
    const seg = this.segment(i);
    const flags = seg.docFlags[this.doc[i] as number] as number;
    const penalties: Array<{ name: string; value: number }> = [];
    if (extra) penalties.push({ name: 'edit-distance', value: extra });
    if (flags & FLAG_TEST) penalties.push({ name: 'test-file', value: -5 });
    if (flags & FLAG_VENDORED) penalties.push({ name: 'vendored-or-generated', value: -8 });
    const rank = this.rank[i] as number;
    if (rank > 0) penalties.push({ name: `kind:${this.kindOf(i)}`, value: -rank });
    const score = TIER_SCORE[match] + penalties.reduce((s, p) => s + p.value, 0);
    return { seg: this.seg[i] as number, doc: this.doc[i] as number, match, score, penalties, qualifiedName: this.display[i] as string };
  }

  private camelMatch(i: number, humps: readonly string[]): boolean {
    if (!this.partsCache) this.partsCache = [];
    let parts = this.partsCache[i];
    if (!parts) {
      const p = identifierParts(this.names[i] as string);
      parts = p.length ? p : [this.lower[i] as string];
      this.partsCache[i] = parts;
    }
    // Initials: `gun` -> get User Name.
    if (humps.length === 1) {
      const h = humps[0] as string;
      if (h.length >= 2 && h.length <= parts.length && parts.every((p, k) => k >= h.length || p.startsWith(h[k] as string))) return true;
      return false;
    }
    // Humps: `gUN`, `getUN` -> each hump prefixes consecutive parts from the start.
    let k = 0;
    for (const h of humps) {
      while (k < parts.length && !(parts[k] as string).startsWith(h)) k++;
      if (k >= parts.length) return false;
      k++;
    }
    return true;
  }

  private filter(options: FindOptions): (i: number) => boolean {
    const langs = options.languages?.length ? new Set(options.languages.flatMap(resolveLanguageFilter)) : undefined;
    const kinds = options.kinds?.length ? new Set(options.kinds.map((k) => k.toLowerCase())) : undefined;
    const pathOk = compilePathFilter(options.paths);
    if (!langs && !kinds && !pathOk) return () => true;
    return (i) => {
      const seg = this.segment(i);
      const file = seg.fileOf(this.doc[i] as number);
      return (!langs || langs.has(file.language)) && (!kinds || kinds.has(this.kindOf(i))) && (!pathOk || pathOk(file.path));
    };
  }

  private segment(i: number): Segment {
    return this.snapshot.segments[this.seg[i] as number] as Segment;
  }

  private kindOf(i: number): ChunkKind {
    return KINDS[this.segment(i).docKind[this.doc[i] as number] as number] ?? 'text';
  }

  private pathOf(i: number): string {
    return this.segment(i).fileOf(this.doc[i] as number).path;
  }

  /** Order within a tier: kind rank, source before tests/vendored, then path and line (stable). */
  private compare(a: number, b: number): number {
    const fa = this.segment(a).docFlags[this.doc[a] as number] as number;
    const fb = this.segment(b).docFlags[this.doc[b] as number] as number;
    const pa = (fa & (FLAG_TEST | FLAG_VENDORED)) !== 0 ? 1 : 0;
    const pb = (fb & (FLAG_TEST | FLAG_VENDORED)) !== 0 ? 1 : 0;
    const patha = this.pathOf(a);
    const pathb = this.pathOf(b);
    return (
      (this.rank[a] as number) - (this.rank[b] as number) ||
      pa - pb ||
      (patha < pathb ? -1 : patha > pathb ? 1 : 0) ||
      (this.segment(a).docStart[this.doc[a] as number] as number) - (this.segment(b).docStart[this.doc[b] as number] as number)
    );
  }

  private order(ids: number[]): number[] {
    return ids.sort((a, b) => this.compare(a, b));
  }
}

function push(map: Map<string, number[]>, key: string, i: number): void {
  const list = map.get(key);
  if (list) list.push(i);
  else map.set(key, [i]);
}

/** `Foo::bar`, `Foo#bar`, `Foo->bar`, `Install > Linux` all become `foo.bar` style dotted paths. */
function normaliseQualified(s: string): string {
  return s
    .toLowerCase()
    .replace(/\s*>\s*|::|#|->/g, '.')
    .replace(/\.+/g, '.');
}

/**
 * `inner.method` matches breadcrumb `outer.inner.method`; `client.fetchuser` also matches a
 * top-level `fetchUser` in a file named `client.*` (module-qualified names).
 */
function isQualifiedMatch(qualified: string, query: string, path: string): boolean {
  if (qualified === query || qualified.endsWith(`.${query}`)) return true;
  const dot = query.lastIndexOf('.');
  const qualifier = query.slice(0, dot);
  const name = query.slice(dot + 1);
  const stem = path.toLowerCase().replace(/\.[^./]+$/, '');
  const modulePath = stem.replace(/\//g, '.');
  return qualified.endsWith(name) && (modulePath === qualifier || modulePath.endsWith(`.${qualifier}`));
}

/** `gUN` -> [g, u, n]; `getUN` -> [get, u, n]; `gun` -> [gun]. */
function camelHumps(q: string): string[] {
  const humps = q.match(/[A-Z][a-z0-9]*|[a-z0-9]+/g) ?? [];
  return humps.map((h) => h.toLowerCase());
}
