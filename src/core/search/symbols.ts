// The symbol table: every named definition of a snapshot, looked up in each segment's symbol
// dictionary (index/symbolDict.ts: sorted tables of names and initials written with the
// segment, read a page at a time), so a lookup reads a few pages per segment rather than every
// symbol and breadcrumb of the index.
//
// Match tiers, best first: exact (case-sensitive), exact ignoring case, qualified (`Class.method`,
// `pkg.func`), prefix, camel-case humps / initials (`gUN` -> getUserName), fuzzy (edit distance).
// After an exact match only prefixes fill the list; humps and edit distance stand in for a name
// that matched nothing as typed.
import { DEFINITION_KINDS, FLAG_CONTINUED, FLAG_TEST, FLAG_VENDORED, KINDS } from '../index/fields';
import type { Segment } from '../index/segment';
import { compareStrings, kindRank, pathDepth, RANK_OF_KIND, SYMBOL_KINDS, type SymbolDictionary, type SymbolEntry } from '../index/symbolDict';
import { forEachToken, identifierParts } from '../index/tokenizer';
import { CorruptDataError } from '../index/varint';
import type { Snapshot } from '../store/store';
import { distanceWithin } from './query';
import { docsWithShortField, nameLengthBound, SYMBOL_FIELD } from './namedDocs';
import { compilePathFilter } from './filters';
import { resolveLanguageFilter } from '../languages';
import type { ChunkKind, NestedDefinition } from '../types';
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
  /** Set when the symbol is a definition inside the document's code, not the document's own. */
  nested?: NestedDefinition;
}

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
  /**
   * Only the name as written (exact, any case, or qualified): no prefix, camel-case or fuzzy
   * tiers. A caller that wants definitions, not suggestions, skips the scan over every name
   * that a miss would otherwise start.
   */
  exactOnly?: boolean;
}

/** An entry of one segment's dictionary: the segment's index in the snapshot and the entry. */
interface Found {
  t: number;
  e: SymbolEntry;
}

export class SymbolIndex {
  private dictionaries?: SymbolDictionary[];
  private pathIndex?: Map<string, SymbolRef>;

  /** Cheap to construct: each segment's dictionary is opened (and kept with its segment) on first lookup. */
  constructor(private readonly snapshot: Snapshot) {}

  private get dicts(): SymbolDictionary[] {
    this.dictionaries ??= this.snapshot.segments.map((s) => s.symbolDictionary());
    return this.dictionaries;
  }

  get size(): number {
    return this.dicts.reduce((n, d) => n + d.size, 0);
  }

  /** Code definitions named exactly `name` (case-sensitive first), best first. */
  definitionsNamed(name: string): SymbolRef[] {
    return this.definitionsNamedViaIndex(name) ?? this.definitionsNamedInDictionary(name);
  }

  /**
   * `definitionsNamed` from the symbol dictionaries: every definition named `name` in any case,
   * exact spellings offered first. It answers names the term index cannot look up (no whole
   * token); unlike the term index it also knows nested definitions.
   */
  definitionsNamedInDictionary(name: string): SymbolRef[] {
    const found: Found[] = [];
    const lower = name.toLowerCase();
    this.dicts.forEach((d, t) => {
      for (const e of d.named(lower)) if (e.name === name) found.push({ t, e });
      for (const e of d.named(lower)) if (e.name !== name) found.push({ t, e });
    });
    return found
      .filter((f) => this.live(f) && DEFINITION_KINDS.has(kindOf(f.e)))
      .sort((a, b) => this.compare(a, b))
      .map((f) => ({ seg: f.t, doc: f.e.doc }));
  }

  /**
   * `definitionsNamed` through the term index: a chunk named `name` has the name's whole token
   * in its symbol field. Undefined when the name has no whole token to look up.
   */
  private definitionsNamedViaIndex(name: string): SymbolRef[] | undefined {
    const lower = name.toLowerCase();
    let whole: string | undefined;
    forEachToken(lower, (t) => (whole ??= t));
    if (!whole) return undefined;
    const found: SymbolRef[] = [];
    // A symbol spelled `name` holds no more tokens than `name` can make: chunks that merely
    // have the word as a part of a longer symbol are passed over without reading their symbol.
    const maxLength = nameLengthBound(lower);
    this.snapshot.segments.forEach((seg, s) => {
      const t = seg.findTerm(whole as string);
      if (t < 0) return;
      const deleted = this.snapshot.deleted[s] as Uint8Array;
      for (const doc of docsWithShortField(seg, seg.postings(t), SYMBOL_FIELD, maxLength)) {
        if (deleted[doc] || seg.docFlags.at(doc) & FLAG_CONTINUED) continue;
        const kind = seg.kindOf(doc);
        if (!SYMBOL_KINDS.has(kind) || !DEFINITION_KINDS.has(kind)) continue;
        if (seg.symbolOf(doc).toLowerCase() === lower) found.push({ seg: s, doc });
      }
    });
    return found.sort((a, b) => {
      const segA = this.segment(a.seg);
      const segB = this.segment(b.seg);
      return kindRank(segA.kindOf(a.doc)) - kindRank(segB.kindOf(b.doc)) || compareDocs(segA, a.doc, segB, b.doc);
    });
  }

  /** The first live chunk of a file, by exact relative path. */
  firstChunkOfPath(path: string): SymbolRef | undefined {
    if (!this.pathIndex) {
      this.pathIndex = new Map();
      this.snapshot.segments.forEach((segment, s) => {
        const deleted = this.snapshot.deleted[s] as Uint8Array;
        for (let i = 0; i < segment.fileCount; i++) {
          const first = segment.fileFirstDocOf(i);
          const path = segment.filePath(i);
          if (segment.fileDocCount(i) > 0 && !deleted[first] && !this.pathIndex!.has(path)) this.pathIndex!.set(path, { seg: s, doc: first });
        }
      });
    }
    return this.pathIndex.get(path);
  }

  /** Tiered lookup. `exact` is true when tier 1–3 matched; otherwise up to five closest symbols. */
  find(query: string, options: FindOptions = {}): { exact: boolean; candidates: SymbolCandidate[] } {
    const q = query.trim();
    const limit = Math.max(1, Math.min(options.limit ?? 20, 500));
    if (!q) return { exact: false, candidates: [] };
    const allow = this.filter(options);
    const taken = new Set<number>();
    const out: SymbolCandidate[] = [];
    // Each tier offers its entries to a bounded selection: a common name (`constructor`,
    // `__init__`) has thousands of entries, and neither sorting nor listing them all is needed.
    // `byName` tiers read the rows of one name, which a dictionary holds best first, so a
    // segment stops after `room` usable entries (and reads no page past them).
    const take = (pick: (d: SymbolDictionary, t: number) => Iterable<SymbolEntry>, match: SymbolMatch, extra = 0, byName = false) => {
      const room = limit - out.length;
      if (room <= 0) return;
      const top = new Smallest<Found>(room, (a, b) => this.compare(a, b));
      this.dicts.forEach((d, t) => {
        let usable = 0;
        for (const e of pick(d, t)) {
          if (byName && usable >= room) break;
          const f: Found = { t, e };
          if (taken.has(foundKey(f)) || !this.live(f) || !allow(f)) continue;
          usable++;
          top.offer(f);
        }
      });
      for (const f of top.items) {
        taken.add(foundKey(f));
        out.push(this.candidate(f, match, extra));
      }
    };

    const qualifiedQuery = /[.:#>]/.test(q) ? normaliseQualified(q) : undefined;
    const lastName = qualifiedQuery ? (qualifiedQuery.split('.').pop() as string) : q;
    const lowerQuery = q.toLowerCase();
    take((d) => filtered(d.named(lowerQuery), (e) => e.name === q), 'exact', 0, true);
    take((d) => d.named(lowerQuery), 'exact-ignore-case', 0, true);
    if (qualifiedQuery && lastName) {
      // A row can match only if its breadcrumb or its path holds the qualifier's last part: a
      // plain search passes over most rows of a common name (`append`, `get`) before the
      // normalising and path work a match needs.
      const qualifier = qualifiedQuery.slice(0, Math.max(0, qualifiedQuery.lastIndexOf('.')));
      const needle = qualifier.slice(qualifier.lastIndexOf('.') + 1);
      take(
        (d, t) =>
          filtered(d.named(lastName), (e) => {
            const path = this.segment(t).pathOf(e.doc);
            if (!e.display.toLowerCase().includes(needle) && !path.toLowerCase().includes(needle)) return false;
            return isQualifiedMatch(normaliseQualified(e.display), qualifiedQuery, path);
          }),
        'qualified',
      );
    }
    const exact = out.length > 0;
    if (options.exactOnly) return { exact, candidates: out };
    if (out.length < limit) {
      if (qualifiedQuery) {
        // `User.sa` continues a qualified name; other classes' `save` are not prefixes of it.
        // (The rows of `lastName` itself are offered twice, as the name and within the prefix.)
        const continues = (e: SymbolEntry) => {
          const qn = normaliseQualified(e.display);
          return qn.startsWith(qualifiedQuery) || qn.includes(`.${qualifiedQuery}`);
        };
        take((d) => filtered(concat(d.named(lastName), d.prefixed(lastName)), continues), 'prefix');
      } else {
        if (lowerQuery.length >= 2) take((d) => d.prefixed(lowerQuery), 'prefix');
        const humps = camelHumps(q);
        const initials = humps.map((h) => h[0]).join('');
        // Humps are for a name not matched as typed (`gUN`): beside an exact match, other names
        // that merely share its initials are noise, and scanning them was most of a lookup.
        if (!exact && initials.length >= 2) {
          take((d, t) => camelCased(d, initials, humps, (row) => taken.has(rowKey(t, row))), 'camel-case');
        }
      }
    }
    if (!exact && out.length < 5) {
      // Edit distance over everything: the slow path, only when nothing matched by name.
      const target = qualifiedQuery ?? lowerQuery;
      const maxDist = Math.max(1, Math.floor(target.length / 3));
      const fuzzy: Array<[Found, number]> = [];
      // Names come sorted, so the rows of one name are adjacent: each name is measured once.
      let lastName: string | undefined;
      let lastDist = 0;
      const editDistance = distanceWithin(target, maxDist);
      const distanceOf = (s: string): number => {
        if (s !== lastName) {
          lastName = s;
          lastDist = s.includes(target) ? Math.min(maxDist, s.length - target.length) : editDistance(s);
        }
        return lastDist;
      };
      const offer = (t: number, e: SymbolEntry) => {
        const f: Found = { t, e };
        if (taken.has(foundKey(f)) || !this.live(f) || !allow(f)) return;
        const dist = distanceOf(qualifiedQuery ? normaliseQualified(e.display) : e.key);
        if (dist <= maxDist) fuzzy.push([f, dist]);
      };
      this.dicts.forEach((d, t) => {
        // A qualified name needs each row's breadcrumb; otherwise only the rows of near names are read.
        if (qualifiedQuery) for (const e of d.all()) offer(t, e);
        else for (const key of d.distinctNames()) if (distanceOf(key) <= maxDist) for (const e of d.named(key)) offer(t, e);
      });
      // Ties as the segments list their entries (by document, own definitions first).
      fuzzy.sort((a, b) => a[1] - b[1] || this.compare(a[0], b[0]) || a[0].t - b[0].t || a[0].e.doc - b[0].e.doc || a[0].e.nested - b[0].e.nested);
      for (const [f, dist] of fuzzy.slice(0, 5 - out.length)) out.push(this.candidate(f, 'fuzzy', -5 * dist));
    }
    return { exact, candidates: exact ? out : out.slice(0, Math.min(limit, 5)) };
  }

  private live(f: Found): boolean {
    return !(this.snapshot.deleted[f.t] as Uint8Array)[f.e.doc];
  }

  private segment(t: number): Segment {
    return this.snapshot.segments[t] as Segment;
  }

  private candidate(f: Found, match: SymbolMatch, extra: number): SymbolCandidate {
    const { t, e } = f;
    const penalties: Array<{ name: string; value: number }> = [];
    if (extra) penalties.push({ name: 'edit-distance', value: extra });
    if (e.flags & FLAG_TEST) penalties.push({ name: 'test-file', value: -5 });
    if (e.flags & FLAG_VENDORED) penalties.push({ name: 'vendored-or-generated', value: -8 });
    const rank = RANK_OF_KIND[e.kind] as number;
    if (rank > 0) penalties.push({ name: `kind:${kindOf(e)}`, value: -rank });
    let nested: NestedDefinition | undefined;
    if (e.nested) {
      const seg = this.segment(t);
      nested = seg.record(e.doc).nested?.[e.nested - 1];
      if (!nested) throw new CorruptDataError(`segment ${seg.name}: symbol dictionary names nested definition ${e.nested - 1} of document ${e.doc}, which its record lacks`);
      penalties.push({ name: 'nested-definition', value: -1 });
    }
    const score = TIER_SCORE[match] + penalties.reduce((s, p) => s + p.value, 0);
    const candidate: SymbolCandidate = { seg: t, doc: e.doc, match, score, penalties, qualifiedName: e.display };
    if (nested) candidate.nested = nested;
    return candidate;
  }

  private filter(options: FindOptions): (f: Found) => boolean {
    const langs = options.languages?.length ? new Set(options.languages.flatMap(resolveLanguageFilter)) : undefined;
    const kinds = options.kinds?.length ? new Set(options.kinds.map((k) => k.toLowerCase())) : undefined;
    const pathOk = compilePathFilter(options.paths);
    if (!langs && !kinds && !pathOk) return () => true;
    return ({ t, e }) => {
      const seg = this.segment(t);
      const file = seg.fileIndexOf(e.doc);
      return (!langs || langs.has(seg.fileLanguage(file))) && (!kinds || kinds.has(kindOf(e))) && (!pathOk || pathOk(seg.filePath(file)));
    };
  }

  /**
   * Order within a tier: source before tests/vendored, kind rank, a chunk's own definition
   * before a nested one, then shorter paths, then path and line (stable). Within one segment
   * that is the order its dictionary recorded.
   */
  private compare(a: Found, b: Found): number {
    if (a.t === b.t) return a.e.order - b.e.order;
    return (
      (a.e.flags & PENALISED ? 1 : 0) - (b.e.flags & PENALISED ? 1 : 0) ||
      (RANK_OF_KIND[a.e.kind] as number) - (RANK_OF_KIND[b.e.kind] as number) ||
      (a.e.nested ? 1 : 0) - (b.e.nested ? 1 : 0) ||
      comparePlaces(this.segment(a.t), a.e.doc, this.segment(b.t), b.e.doc) ||
      a.e.nameLine - b.e.nameLine
    );
  }
}

const PENALISED = FLAG_TEST | FLAG_VENDORED;
const kindOf = (e: SymbolEntry): ChunkKind => KINDS[e.kind] ?? 'text';

/** A number naming an entry, for sets (segments stay far below 2^21, rows below 2^32). */
function foundKey(f: Found): number {
  return rowKey(f.t, f.e.row);
}

function rowKey(t: number, row: number): number {
  return t * 0x100000000 + row;
}

function* filtered<T>(items: Iterable<T>, keep: (item: T) => boolean): Generator<T> {
  for (const item of items) if (keep(item)) yield item;
}

function* concat<T>(first: Iterable<T>, second: Iterable<T>): Generator<T> {
  yield* first;
  yield* second;
}

/**
 * Entries whose initials start with `initials` and whose name's parts the humps prefix in
 * order: by initials, then as the segment lists its entries (by document, own definitions
 * first). Entries `taken` already (an exact match is a camel-case one too) are not read.
 */
function camelCased(d: SymbolDictionary, initials: string, humps: readonly string[], taken: (row: number) => boolean): Array<SymbolEntry> {
  const found: Array<[string, SymbolEntry]> = [];
  // Parts of an ASCII name are pieces of its lower-cased spelling, so a name that lacks a hump
  // cannot match: such rows are passed over unread (splitting every name in a wide range of
  // initials was most of a lookup's time).
  const mayMatch = (lower: string) => !isAscii(lower) || humps.every((h) => lower.includes(h));
  for (const r of d.withInitials(initials, mayMatch)) {
    if (taken(r.row)) continue;
    const split = identifierParts(r.name);
    if (camelMatch(split.length ? split : [r.name.toLowerCase()], humps)) found.push([r.initials, d.entry(r.row)]);
  }
  return found.sort(([ia, a], [ib, b]) => compareStrings(ia, ib) || a.doc - b.doc || a.nested - b.nested).map(([, e]) => e);
}

const penalised = (seg: Segment, doc: number): number => (seg.docFlags.at(doc) & (FLAG_TEST | FLAG_VENDORED) ? 1 : 0);

/** Order of two symbols of the same kind rank: source before tests/vendored, then shallower and shorter paths, then path and line (stable). */
function compareDocs(segA: Segment, docA: number, segB: Segment, docB: number): number {
  return penalised(segA, docA) - penalised(segB, docB) || comparePlaces(segA, docA, segB, docB);
}

/** Shallower and shorter paths first, then path and line (stable). */
function comparePlaces(segA: Segment, docA: number, segB: Segment, docB: number): number {
  const pathA = segA.pathOf(docA);
  const pathB = segB.pathOf(docB);
  return (
    pathDepth(pathA) - pathDepth(pathB) ||
    pathA.length - pathB.length ||
    compareStrings(pathA, pathB) ||
    segA.docStart.at(docA) - segB.docStart.at(docB) ||
    (segA === segB ? docA - docB : 0)
  );
}

/** The `k` smallest items offered, in order: a sorted list of at most `k`, for `k` far below the count. */
class Smallest<T> {
  readonly items: T[] = [];

  constructor(
    private readonly k: number,
    private readonly compare: (a: T, b: T) => number,
  ) {}

  offer(item: T): void {
    const top = this.items;
    if (top.length === this.k && this.compare(item, top[this.k - 1] as T) >= 0) return;
    let lo = 0;
    let hi = top.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.compare(top[mid] as T, item) <= 0) lo = mid + 1;
      else hi = mid;
    }
    top.splice(lo, 0, item);
    if (top.length > this.k) top.pop();
  }
}

function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return false;
  return true;
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

/** `gUN` -> [g, u, n]; `getUN` -> [get, u, n]; `gun` -> [g, u, n] (initials). */
function camelHumps(q: string): string[] {
  const humps = (q.match(/[A-Z][a-z0-9]*|[a-z0-9]+/g) ?? []).map((h) => h.toLowerCase());
  // An all-lower-case query of a few letters is read as initials.
  if (humps.length === 1 && /^[a-z]{2,5}$/.test(q)) return q.split('');
  return humps;
}

/** Each hump prefixes the next parts in order, starting with the first part. */
function camelMatch(parts: readonly string[], humps: readonly string[]): boolean {
  if (humps.length === 0 || parts.length === 0 || !(parts[0] as string).startsWith(humps[0] as string)) return false;
  let k = 1;
  for (let h = 1; h < humps.length; h++) {
    while (k < parts.length && !(parts[k] as string).startsWith(humps[h] as string)) k++;
    if (k >= parts.length) return false;
    k++;
  }
  return true;
}
