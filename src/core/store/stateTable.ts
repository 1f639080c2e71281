// The per-file state table: what the index knows about each file (its lstat, content hash,
// where its chunks are). Every refresh compares the whole tree against it, so a one-shot
// command (a fresh `cairn search`) reads it whole before it can answer. It is kept on disk as
// columns (stateFile.ts) and read lazily: a refresh that finds nothing changed compares stats
// straight from the columns and builds no per-file object: parsing the table as JSON objects
// took a fresh process several times as long (docs/index-design.md, "Measurements").
import { compareCodeUnits } from '../discovery/paths';
import type { FileStat, SkippedFile } from '../types';
import { sameFileStat } from './fileStat';

/**
 * What the index knows about one file. Its chunks are documents `firstDoc .. firstDoc+docCount-1`
 * of `segment`; their stable ids are in that segment's id column (`IndexStore.chunkIdsOf`), so
 * the table stays small enough to rewrite on every commit.
 */
export interface FileState extends FileStat {
  /**
   * The stat was taken so close to the read that it cannot vouch for the content (fileStat.ts
   * isRacy): the next refresh hashes the file whatever its stat says.
   */
  racy?: boolean;
  hash: string;
  language: string;
  segment: string;
  firstDoc: number;
  docCount: number;
  /** Import specifiers the file contains (for the dependency graph of context packs). */
  imports?: string[];
}

/** The decoded columns of a state file: entries are sorted by path (UTF-16 code units). */
export interface StateColumnsData {
  paths: string[];
  size: Float64Array;
  mtimeMs: Float64Array;
  ctimeMs: Float64Array;
  ino: Float64Array;
  dev: Float64Array;
  /** Per file: bit 0 set for a racy entry. */
  flags: Uint8Array;
  firstDoc: Uint32Array;
  docCount: Uint32Array;
  /** Indexes into `languages` and `segments`. */
  language: Uint32Array;
  segment: Uint32Array;
  languages: string[];
  segments: string[];
  /** SHA-256 digests, 32 bytes per file. */
  hashes: Uint8Array;
  /** Each file's imports as JSON text in `importText`, ending at `importEnd[i]` (empty: none). */
  importEnd: Uint32Array;
  importText: Uint8Array;
}

const decoder = new TextDecoder();

/** The bit of `flags` that marks a racy entry. */
export const RACY = 1;

/** Entries of a state file, materialised one at a time on demand. */
export class StateColumns {
  private index: Map<string, number> | undefined;

  constructor(private readonly data: StateColumnsData) {}

  get count(): number {
    return this.data.paths.length;
  }

  get paths(): readonly string[] {
    return this.data.paths;
  }

  indexOf(path: string): number {
    // Built on first lookup: readers that only iterate (status, the import graph) never build it.
    if (!this.index) {
      const index = new Map<string, number>();
      this.data.paths.forEach((p, i) => index.set(p, i));
      this.index = index;
    }
    return this.index.get(path) ?? -1;
  }

  languageAt(i: number): string {
    return this.data.languages[this.data.language[i] as number] as string;
  }

  /** True when entry `i` was recorded with exactly this stat, and not racily unless `evenRacy`. */
  sameStat(i: number, stat: FileStat, evenRacy = false): boolean {
    const d = this.data;
    return (
      d.size[i] === stat.size &&
      d.mtimeMs[i] === stat.mtimeMs &&
      d.ctimeMs[i] === stat.ctimeMs &&
      d.ino[i] === stat.ino &&
      d.dev[i] === stat.dev &&
      (evenRacy || ((d.flags[i] as number) & RACY) === 0)
    );
  }

  entry(i: number): FileState {
    const d = this.data;
    const state: FileState = {
      size: d.size[i] as number,
      mtimeMs: d.mtimeMs[i] as number,
      ctimeMs: d.ctimeMs[i] as number,
      ino: d.ino[i] as number,
      dev: d.dev[i] as number,
      hash: Buffer.from(d.hashes.buffer, d.hashes.byteOffset + i * 32, 32).toString('hex'),
      language: this.languageAt(i),
      segment: d.segments[d.segment[i] as number] as string,
      firstDoc: d.firstDoc[i] as number,
      docCount: d.docCount[i] as number,
    };
    if ((d.flags[i] as number) & RACY) state.racy = true;
    const imports = this.importsAt(i);
    if (imports) state.imports = imports;
    return state;
  }

  importsAt(i: number): string[] | undefined {
    const d = this.data;
    const start = i === 0 ? 0 : (d.importEnd[i - 1] as number);
    const end = d.importEnd[i] as number;
    return end > start ? (JSON.parse(decoder.decode(d.importText.subarray(start, end))) as string[]) : undefined;
  }
}

/**
 * A state table: the entries of a state file (if any) with a map of changes over them (`null`
 * removes a file). Immutable: `withChanges` makes a new table sharing the columns, so a refresh
 * that touches a few files costs a few entries, not a copy of the table.
 */
export class StateTable {
  private sortedPaths: string[] | undefined;

  private constructor(
    private readonly base: StateColumns | undefined,
    private readonly changes: ReadonlyMap<string, FileState | null>,
    /** Files left out by the last full refresh, with reasons (shown in status views). */
    readonly skipped: SkippedFile[],
  ) {}

  static empty(): StateTable {
    return new StateTable(undefined, new Map(), []);
  }

  static ofColumns(columns: StateColumns, skipped: SkippedFile[]): StateTable {
    return new StateTable(columns, new Map(), skipped);
  }

  /** A table of exactly these entries (tests, and tables built in memory). */
  static of(entries: Iterable<[string, FileState]>, skipped: SkippedFile[] = []): StateTable {
    return new StateTable(undefined, new Map(entries), skipped);
  }

  get(path: string): FileState | undefined {
    const changed = this.changes.get(path);
    if (changed !== undefined) return changed ?? undefined;
    if (!this.base) return undefined;
    const i = this.base.indexOf(path);
    return i < 0 ? undefined : this.base.entry(i);
  }

  has(path: string): boolean {
    const changed = this.changes.get(path);
    if (changed !== undefined) return changed !== null;
    return !!this.base && this.base.indexOf(path) >= 0;
  }

  /**
   * True when the table holds `path` with exactly this stat, recorded not racily: the refresh's
   * test for skipping the read. `evenRacy`: a racy entry counts too (its file is read again, but
   * most likely holds what was read last time).
   */
  sameStat(path: string, stat: FileStat, evenRacy = false): boolean {
    const changed = this.changes.get(path);
    if (changed !== undefined) return changed !== null && (evenRacy || !changed.racy) && sameFileStat(changed, stat);
    if (!this.base) return false;
    const i = this.base.indexOf(path);
    return i >= 0 && this.base.sameStat(i, stat, evenRacy);
  }

  /** Every path, sorted by UTF-16 code units (as discovery sorts them). */
  paths(): readonly string[] {
    if (this.sortedPaths) return this.sortedPaths;
    if (this.changes.size === 0) return this.base?.paths ?? [];
    // The base is sorted already: merge the few changed paths into it rather than sort it all.
    const kept = (this.base?.paths ?? []).filter((p) => !this.changes.has(p));
    const added = [...this.changes].filter(([, s]) => s !== null).map(([p]) => p).sort(compareCodeUnits);
    const merged: string[] = [];
    let k = 0;
    for (const p of added) {
      while (k < kept.length && compareCodeUnits(kept[k] as string, p) < 0) merged.push(kept[k++] as string);
      merged.push(p);
    }
    while (k < kept.length) merged.push(kept[k++] as string);
    return (this.sortedPaths = merged);
  }

  /**
   * The paths at or under these relative paths (a file, or a folder's files), sorted; a
   * refresh of a few paths reads only theirs ('' or '.': every path).
   */
  pathsUnder(prefixes: readonly string[]): string[] {
    if (prefixes.some((p) => p === '' || p === '.')) return [...this.paths()];
    const found = new Set<string>();
    const base = this.base?.paths ?? [];
    for (const prefix of prefixes) {
      const folder = prefix.endsWith('/') ? prefix : `${prefix}/`;
      // `a/` names only a folder; `a` a file or a folder.
      const file = prefix.endsWith('/') ? undefined : prefix;
      if (file !== undefined && base[lowerBound(base, file)] === file && !this.changes.has(file)) found.add(file);
      // Sorted by code units, a folder's files are one run from `folder` on (`a-b` and `a.txt`
      // may sort between `a` and `a/`).
      for (let i = lowerBound(base, folder); i < base.length; i++) {
        const p = base[i] as string;
        if (!p.startsWith(folder)) break;
        if (!this.changes.has(p)) found.add(p);
      }
      for (const [p, s] of this.changes) if (s !== null && (p === file || p.startsWith(folder))) found.add(p);
    }
    return [...found].sort(compareCodeUnits);
  }

  get size(): number {
    if (this.sortedPaths || !this.base) return this.paths().length;
    let n = this.base.count;
    for (const [p, s] of this.changes) {
      const inBase = this.base.indexOf(p) >= 0;
      if (inBase && s === null) n--;
      else if (!inBase && s !== null) n++;
    }
    return n;
  }

  *entries(): IterableIterator<[string, FileState]> {
    for (const p of this.paths()) yield [p, this.get(p) as FileState];
  }

  /** Each file's language, in no particular order, without reading whole entries (status views). */
  languages(): IterableIterator<[path: string, language: string]> {
    return this.project((c, i) => c.languageAt(i), (s) => s.language);
  }

  /** The import lists of the files that have one, without reading whole entries (the import graph). */
  imports(): IterableIterator<[path: string, imports: string[]]> {
    return this.project((c, i) => c.importsAt(i), (s) => (s.imports?.length ? s.imports : undefined));
  }

  /** One field of every file (undefined: skip the file), read from the columns or the changes. */
  private *project<T>(fromColumns: (c: StateColumns, i: number) => T | undefined, fromState: (s: FileState) => T | undefined): IterableIterator<[string, T]> {
    const base = this.base;
    if (base) {
      for (let i = 0; i < base.count; i++) {
        const p = base.paths[i] as string;
        const value = this.changes.has(p) ? undefined : fromColumns(base, i);
        if (value !== undefined) yield [p, value];
      }
    }
    for (const [p, s] of this.changes) {
      const value = s ? fromState(s) : undefined;
      if (value !== undefined) yield [p, value];
    }
  }

  /** This table with `changes` applied (`null` removes a path) and a new list of skipped files. */
  withChanges(changes: ReadonlyMap<string, FileState | null>, skipped: SkippedFile[]): StateTable {
    if (changes.size === 0) return new StateTable(this.base, this.changes, skipped);
    const merged = new Map(this.changes);
    for (const [p, s] of changes) {
      // A path the columns never had needs no removal marker.
      if (s === null && !(this.base && this.base.indexOf(p) >= 0)) merged.delete(p);
      else merged.set(p, s);
    }
    return new StateTable(this.base, merged, skipped);
  }
}

/** The first index of sorted `paths` whose path is not before `path` (code-unit order). */
function lowerBound(paths: readonly string[], path: string): number {
  let lo = 0;
  let hi = paths.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareCodeUnits(paths[mid] as string, path) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
