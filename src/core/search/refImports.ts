// Import resolution for a reference lookup: which definition of the name a file sees — its
// own, one a module it imports gives it (directly, through files that import and re-export it,
// through `require` bindings and whole-module exports), or one of its package's (Go, Java) —
// and which defining files each file reaches. Files and their import specifiers are read at
// most once per lookup.
import * as posix from 'node:path/posix';
import { groupBy } from '../groupBy';
import { languageForPath } from '../languages';
import { exportsName, exportsWhole, jsBindings, type JsBindings } from './jsBindings';
import { MEMBER_KINDS, NAMED_IMPORTS, occurrencesOf, type Occurrence, type ReferenceSources } from './refOccurrences';
import type { ReferenceDefinition } from './types';

/** Hops through files that import and re-export a name. */
const REEXPORT_HOPS = 3;
/** Languages whose files of one folder are one package, referring to each other without imports. */
const FOLDER_PACKAGES: ReadonlySet<string> = new Set(['go', 'java', 'kotlin', 'scala']);
const C_SOURCE = /\.(c|cc|cpp|cxx|m|mm)$/;

const languageOf = (path: string): string => languageForPath(path)?.id ?? '';

/** The owner of a member definition (`Store` of `Store.save`, `Runtime` of `Runtime::block_on`). */
export function ownerOf(d: ReferenceDefinition): string | undefined {
  const parts = d.qualifiedName.split(/::|\.|#/);
  return parts.length > 1 ? parts[parts.length - 2] : undefined;
}

/** What the name's definitions are to each file, through its imports. */
export class ImportResolver {
  /** The definitions by the file they are in. */
  readonly defsByPath: Map<string, ReferenceDefinition[]>;
  /** Definitions that are the binding of an import (`var etag = require('etag')`): an import-role occurrence is at their name. */
  readonly bindings: readonly ReferenceDefinition[];
  /** `path:line:column` of each of `bindings`. */
  private readonly bindingPlaces = new Set<string>();
  private readonly bindingCache = new Map<string, JsBindings>();
  private readonly exportCache = new Map<string, boolean>();
  /** Per file: the defining files it makes visible (a defining file itself; a file that imports and re-exports one). */
  private exporters?: Map<string, Set<string>>;
  private readonly reachCache = new Map<string, { defs: Set<string>; via: string }>();

  constructor(
    private readonly src: ReferenceSources,
    private readonly name: string,
    private readonly definitions: readonly ReferenceDefinition[],
    private readonly occurrences: readonly Occurrence[],
    /** Named function expressions: their name is bound inside them only. */
    private readonly selfScoped: ReadonlySet<ReferenceDefinition>,
  ) {
    const importPlaces = new Set(occurrences.filter((o) => o.role === 'import').map((o) => `${o.file.path}:${o.line}:${o.column}`));
    this.bindings = definitions.filter((d) => importPlaces.has(`${d.path}:${d.line}:${d.column}`));
    for (const d of this.bindings) this.bindingPlaces.add(`${d.path}:${d.line}:${d.column}`);
    this.defsByPath = groupBy(definitions, (d) => d.path);
  }

  /**
   * The definition among `defs` a reference at `line` means: the one whose span holds the line
   * (the innermost), else the only top-level one, else the only one.
   */
  pick(defs: readonly ReferenceDefinition[], line?: number): ReferenceDefinition | undefined {
    if (defs.length <= 1) return defs[0];
    if (line !== undefined) {
      let best: ReferenceDefinition | undefined;
      for (const d of defs) if (line >= d.startLine && line <= d.endLine && (!best || d.endLine - d.startLine < best.endLine - best.startLine)) best = d;
      if (best && !MEMBER_KINDS.has(best.kind)) return best;
    }
    const top = defs.filter((d) => d.qualifiedName === this.name && !this.selfScoped.has(d));
    return top.length === 1 ? top[0] : undefined;
  }

  /**
   * The definition a local bound to a whole module (`const x = require('./a')`, `import x from
   * './a'`) is: the module's own `x` when it is what the module exports as a whole.
   */
  wholeExport(from: string, spec: string): ReferenceDefinition | undefined {
    for (const t of this.src.resolveImport(from, spec)) {
      if (t === from) continue;
      const own = this.ownDefinitions(t).filter((d) => !this.isBinding(d) && !MEMBER_KINDS.has(d.kind));
      if (own.length > 0 && exportsWhole(this.src.reader.wholeText(t) ?? '', this.name)) return this.pick(own);
    }
    return undefined;
  }

  /** Whether a script file exports the name as its own (exportsName), read once per lookup. */
  private exports(path: string): boolean {
    let e = this.exportCache.get(path);
    if (e === undefined) this.exportCache.set(path, (e = exportsName(this.src.reader.wholeText(path) ?? '', this.name)));
    return e;
  }

  /** A script file's module and export bindings, read once per lookup. */
  bindingsOf(path: string): JsBindings {
    let b = this.bindingCache.get(path);
    if (!b) this.bindingCache.set(path, (b = jsBindings(this.src.reader.wholeText(path) ?? '')));
    return b;
  }

  /** Whether a definition binds another module's export (`const x = require('./a').x`, `const x = utils.x`). */
  isBinding(d: ReferenceDefinition): boolean {
    if (this.bindingPlaces.has(`${d.path}:${d.line}:${d.column}`)) return true;
    if (!NAMED_IMPORTS.has(d.language)) return false;
    const b = this.bindingsOf(d.path).names.get(this.name);
    return b !== undefined && b.line <= d.line && d.line <= b.endLine;
  }

  /** What a binding definition resolves to in the index, if anything. */
  private forwardOf(d: ReferenceDefinition, depth: number): ReferenceDefinition | undefined {
    if (!this.isBinding(d)) return undefined;
    const b = this.bindingsOf(d.path).names.get(this.name);
    return b && b.imported === this.name ? this.resolveSpec(d.path, b.spec, depth + 1).def : undefined;
  }

  /** A file's own definitions of the name: those that do not forward to another module's. */
  ownDefinitions(path: string, depth = 0): ReferenceDefinition[] {
    return (this.defsByPath.get(path) ?? []).filter((d) => !this.forwardOf(d, depth));
  }

  /**
   * The definition a module specifier written in `from` gives the name as: the imported file's
   * own, or the one it imports or re-exports. `known` when the specifier resolves and nothing
   * in the index is what it gives (a package's export).
   */
  resolveSpec(from: string, spec: string, depth = 0): { def?: ReferenceDefinition; known: boolean; via: string } {
    const targets = this.src.resolveImport(from, spec);
    if (targets.length === 0 || depth > REEXPORT_HOPS) return { known: false, via: spec };
    for (const t of targets) {
      if (t === from) continue;
      // A module's own binding of a package (`var etag = require('etag')`) is not its export.
      const own = this.ownDefinitions(t, depth).filter((d) => !this.isBinding(d));
      // What a script module does not export is not what its importers get.
      if (own.length > 0 && NAMED_IMPORTS.has(languageOf(t)) && !this.exports(t)) return { known: false, via: t };
      if (own.length > 0) {
        const def = this.pick(own);
        return def ? { def, known: true, via: t } : { known: false, via: t };
      }
      const defs = this.defsByPath.get(t);
      if (defs?.length) {
        const def = defs.map((d) => this.forwardOf(d, depth)).find((x) => x);
        if (def) return { def, known: true, via: t };
      }
      if (NAMED_IMPORTS.has(languageOf(t))) {
        const b = this.bindingsOf(t).names.get(this.name);
        if (b && b.imported === this.name) {
          const further = this.resolveSpec(t, b.spec, depth + 1);
          if (further.def) return { ...further, via: t };
        }
      }
      const seen = this.exportersMap().get(t);
      const by = seen?.size === 1 ? ([...seen][0] as string) : undefined;
      if (by && by !== t) {
        const def = this.pick(this.ownDefinitions(by, depth).filter((d) => !this.isBinding(d)));
        if (def) return { def, known: true, via: t };
      }
      return { known: false, via: t };
    }
    return { known: true, via: spec };
  }

  /** The defining files `path` sees: its package's (Go, Java), those it imports, and those re-exported to it. */
  reach(path: string, language: string): { defs: Set<string>; via: string } {
    const known = this.reachCache.get(path);
    if (known) return known;
    const defs = new Set<string>();
    let via = '';
    if (FOLDER_PACKAGES.has(language)) {
      for (const d of this.definingFilesIn(posix.dirname(path))) {
        defs.add(d);
        via ||= `same package as ${d}`;
      }
    }
    const exporters = this.exportersMap();
    for (const target of this.importsAmong(path, exporters)) {
      const seen = exporters.get(target) as Set<string>;
      for (const d of seen) defs.add(d);
      via ||= seen.has(target) ? `imports ${target}` : `imports ${target}, which re-exports it`;
    }
    const result = { defs, via };
    this.reachCache.set(path, result);
    return result;
  }

  /** Defining files by folder, made on first use: every file of a package asks for its folder's. */
  private definingFolders?: Map<string, string[]>;

  private definingFilesIn(dir: string): readonly string[] {
    this.definingFolders ??= groupBy(this.defsByPath.keys(), (d) => posix.dirname(d));
    return this.definingFolders.get(dir) ?? [];
  }

  /**
   * Files that make a definition visible to the files importing them: defining files (and a C
   * source's header), then, hop by hop, files that import one of those and hold an import of
   * the name — or, for a method, of its class (`export class Hono extends HonoBase` brings
   * `route` along) — that is, files that re-export it.
   */
  private exportersMap(): Map<string, Set<string>> {
    if (this.exporters) return this.exporters;
    const exporters = new Map<string, Set<string>>();
    const add = (file: string, def: string): boolean => {
      let set = exporters.get(file);
      if (!set) {
        exporters.set(file, (set = new Set()));
        this.addHints(file);
      }
      if (set.has(def)) return false;
      set.add(def);
      return true;
    };
    for (const d of this.defsByPath.keys()) {
      add(d, d);
      // A C function is declared in the header beside its source file: including the header imports it.
      if (C_SOURCE.test(d)) {
        const stem = d.replace(C_SOURCE, '');
        for (const ext of ['.h', '.hpp', '.hh']) if (this.src.isIndexed(stem + ext)) add(stem + ext, d);
      }
    }
    const importing = new Set<string>();
    for (const o of this.occurrences) if (o.file.imports) importing.add(o.file.path);
    if (this.definitions.some((d) => MEMBER_KINDS.has(d.kind))) for (const file of this.classImporters()) importing.add(file);
    for (let hop = 0; hop < REEXPORT_HOPS; hop++) {
      let grew = false;
      for (const file of importing) {
        for (const target of this.importsAmong(file, exporters)) {
          for (const d of exporters.get(target) ?? []) if (add(file, d)) grew = true;
        }
      }
      if (!grew) break;
    }
    this.exporters = exporters;
    return exporters;
  }

  /** Files that import the class of a method (an import-role occurrence of its name). */
  private classImporters(): Set<string> {
    const classes = new Set<string>();
    for (const d of this.definitions) {
      if (!MEMBER_KINDS.has(d.kind)) continue;
      const owner = ownerOf(d);
      if (owner && owner !== this.name) classes.add(owner);
    }
    const files = new Set<string>();
    for (const owner of classes) for (const o of occurrencesOf(this.src.snapshot, owner, {})) if (o.role === 'import') files.add(o.file.path);
    return files;
  }

  /**
   * The files among `targets` (the exporters) that `path` imports. Only specifiers that can
   * name one of them — a segment of the specifier is a target's file stem or folder name — are
   * resolved: resolving every import of every file the name occurs in was most of a lookup
   * (Python's dotted modules try every `__init__.py` of the tree).
   */
  private importsAmong(path: string, targets: ReadonlyMap<string, unknown>): string[] {
    const specs = this.src.importsOf(path);
    if (!specs?.length || targets.size === 0) return [];
    const out: string[] = [];
    for (const spec of specs) {
      if (!mayName(this.segmentsOf(spec), this.hints)) continue;
      for (const target of this.src.resolveImport(path, spec)) if (target !== path && targets.has(target) && !out.includes(target)) out.push(target);
    }
    return out;
  }

  /** Segments a specifier naming an exporter holds: file stems and folder names (packages, `index`, `__init__`, `mod`). */
  private readonly hints = new Set<string>();
  /** Each specifier's segments, split once per lookup: files of one project import the same modules. */
  private readonly specSegments = new Map<string, readonly string[]>();

  private segmentsOf(spec: string): readonly string[] {
    let segments = this.specSegments.get(spec);
    if (!segments) this.specSegments.set(spec, (segments = spec.split(/[/.:\\\s'"<>@]+/).filter(Boolean)));
    return segments;
  }

  private addHints(file: string): void {
    const stem = firstPart(posix.basename(file));
    if (stem) this.hints.add(stem);
    const dir = firstPart(posix.basename(posix.dirname(file)));
    if (dir && dir !== '.') this.hints.add(dir);
  }
}

/** A file or folder name up to its first dot: what a specifier names it by (`foo.test.ts` → `foo`). */
function firstPart(name: string): string {
  const dot = name.indexOf('.');
  return dot < 0 ? name : name.slice(0, dot);
}

/**
 * Whether an import specifier, by its segments, may name a file whose stem or folder is in
 * `hints` (a specifier of separators alone, `.` or `..`, names a folder's index file).
 */
function mayName(segments: readonly string[], hints: ReadonlySet<string>): boolean {
  if (segments.length === 0) return true;
  for (const segment of segments) if (hints.has(segment)) return true;
  return false;
}
