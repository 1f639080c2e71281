// The symbol table: every named definition of a snapshot, kept as compact per-segment tables
// (built once per immutable segment and cached with it), with hash maps for exact names and
// sorted arrays for prefixes and camel-case initials, so go-to-symbol answers in well under a
// millisecond and a refresh only builds the table of its new segment.
//
// Match tiers, best first: exact (case-sensitive), exact ignoring case, qualified (`Class.method`,
// `pkg.func`), prefix, camel-case humps / initials (`gUN` -> getUserName), fuzzy (edit distance).
import { DEFINITION_KINDS, FLAG_CONTINUED, FLAG_NESTED, FLAG_TEST, FLAG_VENDORED, KIND_INDEX, KINDS } from '../index/fields';
import type { Segment } from '../index/segment';
import { forEachToken, identifierParts } from '../index/tokenizer';
import type { Snapshot } from '../store/store';
import { boundedLevenshtein } from './query';
import { docsWithShortField, nameLengthBound, SYMBOL_FIELD } from './scorer';
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

/** Kinds that go-to-symbol offers, in order of how likely a user means them. */
const KIND_RANK: Partial<Record<ChunkKind, number>> = {
  class: 0, interface: 0, struct: 0, trait: 0, enum: 0, type: 1, function: 1, union: 1, module: 2, namespace: 2,
  method: 2, constructor: 3, impl: 3, macro: 3, constant: 4, variable: 5, property: 5,
  section: 6, key: 7, rule: 7, element: 7,
};
const SYMBOL_KINDS = new Set(Object.keys(KIND_RANK));
const kindRank = (kind: ChunkKind): number => KIND_RANK[kind] ?? 8;

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

/**
 * The symbols of one segment. Entry `i` is document `doc[i]`'s own symbol, or one of the
 * definitions nested in its code (`nested.get(i)`); the later parts of a definition split for
 * size have no entry. Immutable, like its segment.
 * The sorted prefix and initials indexes are built on first use: plain searches never pay for them.
 */
class SegmentSymbols {
  readonly doc: Uint32Array;
  readonly names: string[] = [];
  readonly lower: string[] = [];
  readonly qualified: string[] = [];
  readonly display: string[] = [];
  readonly rank: Uint8Array;
  /** KIND_INDEX of each entry's kind. */
  readonly kind: Uint8Array;
  readonly nested = new Map<number, NestedDefinition>();
  readonly exact = new Map<string, number[]>();
  readonly byLower = new Map<string, number[]>();
  private prefixOrder?: Uint32Array;
  private initialsList?: string[];
  private initialsOrder?: Uint32Array;
  private partsCache: Array<readonly string[] | undefined> = [];

  constructor(segment: Segment) {
    const symbols = segment.symbols();
    const contexts = segment.contexts();
    const docs: number[] = [];
    const ranks: number[] = [];
    const kinds: number[] = [];
    const add = (d: number, name: string, kind: ChunkKind, context: string): number => {
      const i = docs.length;
      docs.push(d);
      this.names.push(name);
      const lower = name.toLowerCase();
      this.lower.push(lower);
      this.qualified.push(normaliseQualified(context));
      this.display.push(context);
      ranks.push(kindRank(kind));
      kinds.push(KIND_INDEX.get(kind) ?? 0);
      push(this.exact, name, i);
      push(this.byLower, lower, i);
      return i;
    };
    for (let d = 0; d < segment.docCount; d++) {
      const flags = segment.docFlags.at(d);
      const name = symbols[d] as string;
      const kind = segment.kindOf(d);
      if (name && SYMBOL_KINDS.has(kind) && !(flags & FLAG_CONTINUED)) add(d, name, kind, (contexts[d] as string) || name);
      if (!(flags & FLAG_NESTED)) continue;
      for (const n of segment.record(d).nested ?? []) {
        if (n.symbol && SYMBOL_KINDS.has(n.kind)) this.nested.set(add(d, n.symbol, n.kind, n.context || n.symbol), n);
      }
    }
    this.doc = Uint32Array.from(docs);
    this.rank = Uint8Array.from(ranks);
    this.kind = Uint8Array.from(kinds);
  }

  get size(): number {
    return this.names.length;
  }

  /** Entry indexes sorted by lower-cased name, for prefix ranges. */
  get byPrefix(): Uint32Array {
    this.prefixOrder ??= Uint32Array.from(this.names.keys()).sort((a, b) => compareStrings(this.lower[a] as string, this.lower[b] as string));
    return this.prefixOrder;
  }

  /** Initials of each entry (`gun` for getUserName). */
  get initials(): string[] {
    this.initialsList ??= this.names.map(initialsOf);
    return this.initialsList;
  }

  /** Entry indexes sorted by initials. */
  get byInitials(): Uint32Array {
    const initials = this.initials;
    this.initialsOrder ??= Uint32Array.from(this.names.keys()).sort((a, b) => compareStrings(initials[a] as string, initials[b] as string));
    return this.initialsOrder;
  }

  /** Entries whose key (through `order`) starts with `prefix`. */
  range(order: Uint32Array, keys: readonly string[], prefix: string): Uint32Array {
    let lo = 0;
    let hi = order.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((keys[order[mid] as number] as string) < prefix) lo = mid + 1;
      else hi = mid;
    }
    let end = lo;
    while (end < order.length && (keys[order[end] as number] as string).startsWith(prefix)) end++;
    return order.subarray(lo, end);
  }

  parts(i: number): readonly string[] {
    let p = this.partsCache[i];
    if (!p) {
      const split = identifierParts(this.names[i] as string);
      p = split.length ? split : [this.lower[i] as string];
      this.partsCache[i] = p;
    }
    return p;
  }
}

const tables = new WeakMap<Segment, SegmentSymbols>();
/** Per-name entry lists of the tables already sorted in tier order. */
const orderedLists = new WeakSet<number[]>();
const NONE: number[] = [];
function tableOf(segment: Segment): SegmentSymbols {
  let t = tables.get(segment);
  if (!t) tables.set(segment, (t = new SegmentSymbols(segment)));
  return t;
}

/** A global entry: table index and entry index within it. */
type Entry = [table: number, entry: number];

export class SymbolIndex {
  private segmentTables?: SegmentSymbols[];
  private pathIndex?: Map<string, SymbolRef>;

  /** Cheap to construct: per-segment tables are built (and cached with their segment) on first lookup. */
  constructor(private readonly snapshot: Snapshot) {}

  private get tables(): SegmentSymbols[] {
    this.segmentTables ??= this.snapshot.segments.map(tableOf);
    return this.segmentTables;
  }

  get size(): number {
    return this.tables.reduce((n, t) => n + t.size, 0);
  }

  /** Code definitions named exactly `name` (case-sensitive first), best first. */
  definitionsNamed(name: string): SymbolRef[] {
    // Before any lookup has built the tables (a one-shot search adding cross-references),
    // the term index finds the few chunks named so: building the tables decodes every
    // symbol of the index, 1.6 s and 280 MB for 628k chunks.
    if (!this.segmentTables) {
      const viaIndex = this.definitionsNamedViaIndex(name);
      if (viaIndex) return viaIndex;
    }
    const found: Entry[] = [];
    this.tables.forEach((t, ti) => {
      for (const i of new Set([...(t.exact.get(name) ?? []), ...(t.byLower.get(name.toLowerCase()) ?? [])])) found.push([ti, i]);
    });
    return this.order(found.filter((e) => this.live(e) && DEFINITION_KINDS.has(this.kindOf(e)))).map((e) => this.ref(e));
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
    // `byName` tiers read a table's list for one name, sorted in place once in tier order (the
    // order depends on the segment alone), so a table stops after `room` usable entries.
    const take = (pick: (t: SegmentSymbols) => ArrayLike<number>, match: SymbolMatch, extra = 0, byName = false) => {
      const room = limit - out.length;
      if (room <= 0) return;
      const top = new Smallest<Entry>(room, (a, b) => this.compare(a, b));
      this.tables.forEach((t, ti) => {
        const picked = pick(t);
        if (byName && !orderedLists.has(picked as number[])) {
          (picked as number[]).sort((a, b) => this.compare([ti, a], [ti, b]));
          orderedLists.add(picked as number[]);
        }
        let usable = 0;
        for (let k = 0; k < picked.length && !(byName && usable >= room); k++) {
          const e: Entry = [ti, picked[k] as number];
          if (taken.has(entryKey(e)) || !this.live(e) || !allow(e)) continue;
          usable++;
          top.offer(e);
        }
      });
      for (const e of top.items) {
        taken.add(entryKey(e));
        out.push(this.candidate(e, match, extra));
      }
    };

    const qualifiedQuery = /[.:#>]/.test(q) ? normaliseQualified(q) : undefined;
    const lastName = qualifiedQuery ? (qualifiedQuery.split('.').pop() as string) : q;
    take((t) => t.exact.get(q) ?? NONE, 'exact', 0, true);
    take((t) => t.byLower.get(q.toLowerCase()) ?? NONE, 'exact-ignore-case', 0, true);
    if (qualifiedQuery && lastName) {
      take((t) => (t.byLower.get(lastName) ?? []).filter((i) => isQualifiedMatch(t.qualified[i] as string, qualifiedQuery, this.pathOfEntry(t, i))), 'qualified');
    }
    const exact = out.length > 0;
    if (out.length < limit) {
      if (qualifiedQuery) {
        // `User.sa` continues a qualified name; other classes' `save` are not prefixes of it.
        take((t) => (t.byLower.get(lastName) ?? []).concat([...t.range(t.byPrefix, t.lower, lastName)]).filter((i) => {
          const qn = t.qualified[i] as string;
          return qn.startsWith(qualifiedQuery) || qn.includes(`.${qualifiedQuery}`);
        }), 'prefix');
      } else {
        const needle = q.toLowerCase();
        if (needle.length >= 2) take((t) => t.range(t.byPrefix, t.lower, needle), 'prefix');
        const humps = camelHumps(q);
        const initials = humps.map((h) => h[0]).join('');
        if (initials.length >= 2) {
          take((t) => t.range(t.byInitials, t.initials, initials).filter((i) => camelMatch(t.parts(i), humps)), 'camel-case');
        }
      }
    }
    if (!exact && out.length < 5) {
      // Edit distance over everything: the slow path, only when nothing matched by name.
      const target = qualifiedQuery ?? q.toLowerCase();
      const maxDist = Math.max(1, Math.floor(target.length / 3));
      const fuzzy: Array<[Entry, number]> = [];
      this.tables.forEach((t, ti) => {
        const hay = qualifiedQuery ? t.qualified : t.lower;
        for (let i = 0; i < t.size; i++) {
          const e: Entry = [ti, i];
          if (taken.has(entryKey(e)) || !this.live(e) || !allow(e)) continue;
          const s = hay[i] as string;
          const d = s.includes(target) ? Math.min(maxDist, s.length - target.length) : boundedLevenshtein(target, s, maxDist);
          if (d <= maxDist) fuzzy.push([e, d]);
        }
      });
      fuzzy.sort((a, b) => a[1] - b[1] || this.compare(a[0], b[0]));
      for (const [e, d] of fuzzy.slice(0, 5 - out.length)) out.push(this.candidate(e, 'fuzzy', -5 * d));
    }
    return { exact, candidates: exact ? out : out.slice(0, Math.min(limit, 5)) };
  }

  private live([ti, i]: Entry): boolean {
    const t = this.tables[ti] as SegmentSymbols;
    return !(this.snapshot.deleted[ti] as Uint8Array)[t.doc[i] as number];
  }

  private ref([ti, i]: Entry): SymbolRef {
    return { seg: ti, doc: (this.tables[ti] as SegmentSymbols).doc[i] as number };
  }

  private segment(ti: number): Segment {
    return this.snapshot.segments[ti] as Segment;
  }

  private kindOf([ti, i]: Entry): ChunkKind {
    return KINDS[(this.tables[ti] as SegmentSymbols).kind[i] as number] ?? 'text';
  }

  private pathOfEntry(t: SegmentSymbols, i: number): string {
    const ti = this.tables.indexOf(t);
    return this.segment(ti).pathOf(t.doc[i] as number);
  }

  private candidate(e: Entry, match: SymbolMatch, extra: number): SymbolCandidate {
    const [ti, i] = e;
    const t = this.tables[ti] as SegmentSymbols;
    const doc = t.doc[i] as number;
    const flags = this.segment(ti).docFlags.at(doc);
    const penalties: Array<{ name: string; value: number }> = [];
    if (extra) penalties.push({ name: 'edit-distance', value: extra });
    if (flags & FLAG_TEST) penalties.push({ name: 'test-file', value: -5 });
    if (flags & FLAG_VENDORED) penalties.push({ name: 'vendored-or-generated', value: -8 });
    const rank = t.rank[i] as number;
    if (rank > 0) penalties.push({ name: `kind:${this.kindOf(e)}`, value: -rank });
    const nested = t.nested.get(i);
    if (nested) penalties.push({ name: 'nested-definition', value: -1 });
    const score = TIER_SCORE[match] + penalties.reduce((s, p) => s + p.value, 0);
    const candidate: SymbolCandidate = { seg: ti, doc, match, score, penalties, qualifiedName: t.display[i] as string };
    if (nested) candidate.nested = nested;
    return candidate;
  }

  private filter(options: FindOptions): (e: Entry) => boolean {
    const langs = options.languages?.length ? new Set(options.languages.flatMap(resolveLanguageFilter)) : undefined;
    const kinds = options.kinds?.length ? new Set(options.kinds.map((k) => k.toLowerCase())) : undefined;
    const pathOk = compilePathFilter(options.paths);
    if (!langs && !kinds && !pathOk) return () => true;
    return (e) => {
      const [ti, i] = e;
      const seg = this.segment(ti);
      const file = seg.fileIndexOf((this.tables[ti] as SegmentSymbols).doc[i] as number);
      return (!langs || langs.has(seg.fileLanguage(file))) && (!kinds || kinds.has(this.kindOf(e))) && (!pathOk || pathOk(seg.filePath(file)));
    };
  }

  /**
   * Order within a tier: source before tests/vendored, kind rank, a chunk's own definition
   * before a nested one, then shorter paths, then path and line (stable).
   */
  private compare([ta, ia]: Entry, [tb, ib]: Entry): number {
    const a = this.tables[ta] as SegmentSymbols;
    const b = this.tables[tb] as SegmentSymbols;
    const segA = this.segment(ta);
    const segB = this.segment(tb);
    const docA = a.doc[ia] as number;
    const docB = b.doc[ib] as number;
    return (
      penalised(segA, docA) - penalised(segB, docB) ||
      (a.rank[ia] as number) - (b.rank[ib] as number) ||
      (a.nested.has(ia) ? 1 : 0) - (b.nested.has(ib) ? 1 : 0) ||
      compareDocs(segA, docA, segB, docB) ||
      (a.nested.get(ia)?.nameLine ?? 0) - (b.nested.get(ib)?.nameLine ?? 0)
    );
  }

  private order(entries: Entry[]): Entry[] {
    return entries.sort((a, b) => this.compare(a, b));
  }
}

const penalised = (seg: Segment, doc: number): number => (seg.docFlags.at(doc) & (FLAG_TEST | FLAG_VENDORED) ? 1 : 0);

/** Folders in a path: a definition nearer the root is the likelier target. */
function depthOf(path: string): number {
  let n = 0;
  for (let i = path.indexOf('/'); i >= 0; i = path.indexOf('/', i + 1)) n++;
  return n;
}

/** Order of two symbols of the same kind rank: source before tests/vendored, then shallower and shorter paths, then path and line (stable). */
function compareDocs(segA: Segment, docA: number, segB: Segment, docB: number): number {
  const pathA = segA.pathOf(docA);
  const pathB = segB.pathOf(docB);
  return (
    penalised(segA, docA) - penalised(segB, docB) ||
    depthOf(pathA) - depthOf(pathB) ||
    pathA.length - pathB.length ||
    compareStrings(pathA, pathB) ||
    segA.docStart.at(docA) - segB.docStart.at(docB) ||
    (segA === segB ? docA - docB : 0)
  );
}

/** A number naming an entry, for sets (tables stay far below 2^21, entries below 2^32). */
function entryKey([ti, i]: Entry): number {
  return ti * 0x100000000 + i;
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

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function push(map: Map<string, number[]>, key: string, i: number): void {
  const list = map.get(key);
  if (list) list.push(i);
  else map.set(key, [i]);
}

/** `getUserName` -> `gun`; `get_user_name` -> `gun`; `HTTPServer` -> `hs`. */
function initialsOf(name: string): string {
  const parts = identifierParts(name);
  return (parts.length ? parts : [name.toLowerCase()]).map((p) => p[0]).join('');
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
