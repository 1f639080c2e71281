// The import/dependency graph between indexed files. The AST chunker records each file's import
// specifiers (tree-sitter, per language); here they are resolved to indexed paths, in both
// directions, so a pack can follow "who imports this file" and "what does it import".
import * as posix from 'node:path/posix';

const RESOLVE_SUFFIXES = ['', '.ts', '.tsx', '.d.ts', '.js', '.jsx', '.mjs', '.cjs', '.mts', '.cts', '/index.ts', '/index.tsx', '/index.js', '/index.mjs', '.py', '/__init__.py', '.go', '.rs', '/mod.rs', '.rb', '.php', '.java', '.cs', '.swift', '.h', '.hpp', '.c', '.cc', '.cpp', '.css', '.scss', '.json'];

/** What resolving a specifier reads: the indexed paths alone, so graphs over one path set share it. */
export interface PathTables {
  /** The indexed paths in code-point order: ties between equally good resolutions go to the first. */
  paths: ReadonlySet<string>;
  /** Directory -> files directly in it (Go packages, Java/C# namespaces by folder). */
  byDir: Map<string, string[]>;
  /**
   * Each trailing run of whole path segments (`Order.java`, `acme/Order.java`, …) -> the
   * shortest path ending so, the first of equals. Resolving a module name looks its spellings up
   * here instead of walking every file that shares its stem: a big Java tree imports tens of
   * thousands of names, most of them from outside the repository.
   */
  byTail: Map<string, string>;
  /** Each trailing run of a directory's segments -> the first directory ending so. */
  dirByTail: Map<string, string>;
  /** Specifier suffixes resolved so far (the answer depends on the paths only). */
  suffixResolved: Map<string, string | null>;
  /** Module names (`com.acme.Order`, `pkg.models`) resolved so far: the importing file does not matter. */
  moduleResolved: Map<string, readonly string[]>;
  /**
   * Every file's stem and every directory's name: a module name whose last part is neither
   * names no indexed file, and most names a big tree imports come from outside it.
   */
  fileStems: Set<string>;
  dirNames: Set<string>;
}

export class ImportGraph {
  private out = new Map<string, Set<string>>();
  private in = new Map<string, Set<string>>();
  /** Each file's specifiers as given, so a later graph can tell which files' imports changed. */
  private specs = new Map<string, readonly string[]>();
  private readonly t: PathTables;

  /**
   * `indexedPaths` in any order: ties between equally good resolutions go to the path first in
   * code-point order, so a graph does not depend on the order files were indexed in.
   */
  constructor(imports: ReadonlyMap<string, readonly string[]>, indexedPaths: Iterable<string>, tables?: PathTables) {
    this.t = tables ?? pathTables(indexedPaths);
    for (const [from, specs] of imports) this.addImports(from, specs);
  }

  /** Whether `graph` was built over exactly these paths (so `updated` can start from it). */
  static covers(graph: ImportGraph, indexedPaths: readonly string[]): boolean {
    return sameSet(graph.t.paths, indexedPaths);
  }

  /**
   * The graph of `imports` over `indexedPaths`, made from `previous` when it covers the same
   * paths: only the files whose specifiers changed are resolved again, so an answer after a
   * save does not rebuild the whole repository's graph. Equal to a graph built from nothing.
   */
  static updated(previous: ImportGraph | undefined, imports: ReadonlyMap<string, readonly string[]>, indexedPaths: readonly string[]): ImportGraph {
    if (!previous || !ImportGraph.covers(previous, indexedPaths)) return new ImportGraph(imports, indexedPaths);
    const graph = new ImportGraph(new Map(), indexedPaths, previous.t);
    // Edge sets are shared with `previous` until a file's edges change; then that set is copied.
    graph.out = new Map(previous.out);
    graph.in = new Map(previous.in);
    graph.specs = new Map(previous.specs);
    const changed = new Set<string>();
    for (const [from, specs] of imports) if (!sameList(previous.specs.get(from), specs)) changed.add(from);
    for (const from of previous.specs.keys()) if (!imports.has(from)) changed.add(from);
    for (const from of changed) {
      graph.dropImports(from);
      const specs = imports.get(from);
      if (specs) graph.addImports(from, specs);
    }
    return graph;
  }

  /** Adds the edges of one file's import specifiers (a graph built in steps, warm.ts). */
  addImports(from: string, specs: readonly string[]): void {
    this.specs.set(from, specs);
    for (const spec of specs) {
      for (const to of this.resolve(from, spec)) {
        if (to === from) continue;
        this.add(this.out, from, to);
        this.add(this.in, to, from);
      }
    }
  }

  private dropImports(from: string): void {
    this.specs.delete(from);
    for (const to of this.out.get(from) ?? []) {
      const importers = this.own(this.in, to);
      importers.delete(from);
      if (!importers.size) this.in.delete(to);
    }
    this.out.delete(from);
  }

  /** Edge sets this graph made; the others are shared with the graph it was updated from. */
  private readonly owned = new WeakSet<Set<string>>();

  /** `key`'s set, copied first when it is shared, so changing it leaves the earlier graph as it was. */
  private own(map: Map<string, Set<string>>, key: string): Set<string> {
    const set = map.get(key);
    if (set && this.owned.has(set)) return set;
    const mine = new Set(set);
    this.owned.add(mine);
    map.set(key, mine);
    return mine;
  }

  private add(map: Map<string, Set<string>>, key: string, value: string): void {
    this.own(map, key).add(value);
  }

  /** Files `path` imports. */
  importsOf(path: string): string[] {
    return [...(this.out.get(path) ?? [])].sort();
  }

  /** Files that import `path`. */
  importersOf(path: string): string[] {
    return [...(this.in.get(path) ?? [])].sort();
  }

  get edgeCount(): number {
    let n = 0;
    for (const s of this.out.values()) n += s.size;
    return n;
  }

  /** Resolves an import specifier written in `from` to indexed paths (possibly several for a package). */
  resolve(from: string, spec: string): string[] {
    // A big tree imports the same few thousand module names from every file.
    const known = this.t.moduleResolved.get(spec);
    if (known) return [...known];
    const s = spec.trim().replace(/^['"<]|['">]$/g, '');
    if (!s) return [];
    const dir = posix.dirname(from);
    // Relative specifiers: ./x, ../x (JS/TS, CSS, C includes "x.h", Ruby require_relative, PHP require).
    if (s.startsWith('./') || s.startsWith('../') || (!s.includes(':') && /\.(h|hpp|hh|c|cc|cpp|php|rb|css|scss)$/.test(s))) {
      const base = posix.normalize(posix.join(dir, s));
      const hit = this.withSuffixes(base);
      if (hit) return [hit];
      if (!s.startsWith('.')) {
        const anywhere = this.bySuffix(s);
        if (anywhere) return [anywhere];
      }
      return [];
    }
    // Python relative imports: `.models`, `..utils.io`.
    const pyRel = /^(\.+)(.*)$/.exec(s);
    if (pyRel) {
      let base = dir;
      for (let i = 1; i < (pyRel[1] as string).length; i++) base = posix.dirname(base);
      const rest = (pyRel[2] as string).replace(/\./g, '/');
      const hit = this.withSuffixes(rest ? posix.join(base, rest) : posix.join(base, '__init__'));
      return hit ? [hit] : [];
    }
    // Dotted / slashed module paths: Python `a.b.c`, Java `com.x.Y`, Go `github.com/o/r/pkg`,
    // Rust `crate::a::b`, C# `A.B`, Swift/Kotlin modules. Try the longest suffix that is indexed.
    const resolved = this.moduleFile(s);
    this.t.moduleResolved.set(spec, resolved);
    return [...resolved];
  }

  /** The indexed file (or Go package's files) a module name means: the longest suffix that is indexed. */
  private moduleFile(s: string): readonly string[] {
    const parts = s.replace(/^(crate|self|super)::/, '').split(/::|\.|\//).filter(Boolean);
    for (let start = 0; start < parts.length; start++) {
      const candidate = parts.slice(start).join('/');
      const file = this.bySuffix(candidate);
      if (file) return [file];
      // A package directory (Go): every file in it.
      const pkg = this.dirBySuffix(candidate);
      if (pkg) return pkg;
    }
    return [];
  }

  private withSuffixes(base: string): string | undefined {
    for (const suffix of RESOLVE_SUFFIXES) if (this.t.paths.has(base + suffix)) return base + suffix;
    return undefined;
  }

  /**
   * An indexed file whose path ends with `rel` plus a known suffix, named `rel`'s stem or a
   * package's file (`__init__`, `index`, `mod`): the shortest; among equals, one named as `rel`
   * first, then the first in code-point order.
   */
  private bySuffix(rel: string): string | undefined {
    // The same module is imported by many files (`java.util.List` by thousands): resolved once.
    let found = this.t.suffixResolved.get(rel);
    if (found === undefined) this.t.suffixResolved.set(rel, (found = this.resolveSuffix(rel) ?? null));
    return found ?? undefined;
  }

  private resolveSuffix(rel: string): string | undefined {
    // A key `rel + suffix` ends in a file named (last part of `rel`) + suffix, whose stem is that
    // part or its own stem, or, for a suffix of its own folder (`/index.ts`), in a folder so named.
    const last = rel.slice(rel.lastIndexOf('/') + 1);
    const asFile = this.t.fileStems.has(last) || this.t.fileStems.has(stemOf(last));
    const asFolder = this.t.dirNames.has(last);
    if (!asFile && !asFolder) return undefined;
    const stem = stemOf(rel);
    /** 0 for a file named as `rel`, then a package's files in PACKAGE_STEMS order; -1 for any other. */
    const group = (p: string): number => {
      const s = stemOf(p);
      if (s === stem) return 0;
      const i = PACKAGE_STEMS.indexOf(s);
      return i < 0 ? -1 : i + 1;
    };
    let best: string | undefined;
    for (const suffix of RESOLVE_SUFFIXES) {
      // A bare suffix only when the specifier names a file (`util.h`), not a module (`pkg.models`).
      if (!suffix && !/\.[A-Za-z0-9]{1,8}$/.test(rel)) continue;
      if (suffix.startsWith('/') ? !asFolder : !asFile) continue;
      const p = this.t.byTail.get(rel + suffix);
      if (p === undefined || group(p) < 0) continue;
      if (!best || p.length < best.length || (p.length === best.length && this.earlier(p, best, group))) best = p;
    }
    return best;
  }

  /** Between two files of one length: the one a stem-by-stem walk would have met first. */
  private earlier(a: string, b: string, group: (p: string) => number): boolean {
    const ga = group(a);
    const gb = group(b);
    if (ga !== gb) return ga < gb;
    // The paths are walked in code-point order.
    return a < b;
  }

  private dirBySuffix(rel: string): string[] | undefined {
    if (!rel.includes('/')) return undefined;
    const dir = this.t.dirByTail.get(rel);
    return dir === undefined ? undefined : (this.t.byDir.get(dir) as string[]).filter((f) => !/_test\.go$/.test(f));
  }
}

const PACKAGE_STEMS = ['__init__', 'index', 'mod'];

function pathTables(indexedPaths: Iterable<string>): PathTables {
  const t = emptyTables(indexedPaths);
  for (const p of t.paths) addPath(t, p);
  return t;
}

/**
 * The tables of `indexedPaths`, built by a long-lived host while idle: `pause` is awaited
 * whenever `due` says the thread has worked long enough, so a query waits for one slice.
 */
export async function pathTablesInSteps(indexedPaths: Iterable<string>, due: () => boolean, pause: () => Promise<unknown>): Promise<PathTables> {
  const t = emptyTables(indexedPaths);
  for (const p of t.paths) {
    if (due()) await pause();
    addPath(t, p);
  }
  return t;
}

function emptyTables(indexedPaths: Iterable<string>): PathTables {
  return { paths: new Set([...indexedPaths].sort(byCodePoint)), byDir: new Map(), byTail: new Map(), dirByTail: new Map(), suffixResolved: new Map(), moduleResolved: new Map(), fileStems: new Set(), dirNames: new Set() };
}

function addPath(t: PathTables, p: string): void {
  const dir = posix.dirname(p);
  t.fileStems.add(stemOf(p));
  if (!t.byDir.has(dir)) {
    forEachTail(dir, (tail) => setFirst(t.dirByTail, tail, dir));
    for (let d = dir; d !== '.' && d !== '/' && d !== ''; d = posix.dirname(d)) t.dirNames.add(posix.basename(d));
  }
  push(t.byDir, dir, p);
  forEachTail(p, (tail) => {
    const had = t.byTail.get(tail);
    if (had === undefined || p.length < had.length) t.byTail.set(tail, p);
  });
}

function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function sameSet(set: ReadonlySet<string>, list: readonly string[]): boolean {
  if (set.size !== list.length) return false;
  for (const p of list) if (!set.has(p)) return false;
  return true;
}

function sameList(a: readonly string[] | undefined, b: readonly string[]): boolean {
  if (!a || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** `a/b/c` gives `c`, `b/c` and `a/b/c`. */
function forEachTail(path: string, use: (tail: string) => void): void {
  for (let k = path.lastIndexOf('/'); k >= 0; k = path.lastIndexOf('/', k - 1)) {
    use(path.slice(k + 1));
    if (k === 0) break;
  }
  use(path);
}

function setFirst(map: Map<string, string>, key: string, value: string): void {
  if (!map.has(key)) map.set(key, value);
}

function stemOf(p: string): string {
  const name = p.split('/').pop() as string;
  return name.replace(/(\.d)?\.[^.]+$/, '');
}

function push(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}


