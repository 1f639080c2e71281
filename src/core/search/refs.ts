// References: where a name occurs as code, read from each segment's occurrence table (the
// chunker's identifier nodes, so comments and strings never match), with the definitions
// go-to-symbol finds for it. Each occurrence is `certain` when it resolves to those
// definitions — in a defining file, in a file that imports one (directly, through a file that
// re-exports it, or as a package Go and Java share by folder) — and a `name-match` otherwise: a
// same-named member of something else, a name defined in several places, a name the index does
// not define. Certain ones rank first. Only the references returned are read from the working
// tree (their line, and whether the file changed since it was indexed).
import * as posix from 'node:path/posix';
import { DEFINITION_KINDS, FLAG_TEST, FLAG_VENDORED, isTestPath } from '../index/fields';
import type { Segment, SegmentFile } from '../index/segment';
import { resolveLanguageFilter } from '../languages';
import type { Snapshot } from '../store/store';
import { OCCURRENCE_ROLES, type ChunkKind, type NestedDefinition } from '../types';
import { compilePathFilter } from './filters';
import { symbolHit, type FileReader } from './hydrate';
import type { SymbolIndex } from './symbols';
import type { ReferenceCallerGroup, ReferenceCertainty, ReferenceDefinition, ReferenceFileGroup, ReferenceHit, ReferenceOptions, ReferenceRole, ReferencesResponse } from './types';

/** What a lookup reads besides the occurrence tables. */
export interface ReferenceSources {
  snapshot: Snapshot;
  symbols: SymbolIndex;
  reader: FileReader;
  /** The import specifiers the chunker recorded for a file (the state table's). */
  importsOf(path: string): readonly string[] | undefined;
  /** The indexed files a specifier written in `from` names (pack/graph.ts's resolution; a host caches it). */
  resolveImport(from: string, spec: string): readonly string[];
  isIndexed(path: string): boolean;
}

export type ReferencesAnswer = Omit<ReferencesResponse, 'tookMs' | 'index'>;

export const DEFAULT_REFERENCE_LIMIT = 100;
/** Definitions of one name considered (a name such as `get` has hundreds). */
const MAX_DEFINITIONS = 500;
/** Characters of a reference's line shown, around the name when the line is longer. */
const MAX_TEXT = 240;
const TEXT_BEFORE_NAME = 80;
/** Lines listed per caller group. */
const CALLER_LINES = 20;
/** Hops through files that import and re-export a name. */
const REEXPORT_HOPS = 3;

/**
 * Member names so common that `x.get(…)` says nothing about which `get` it is, even in a file
 * that imports the one definition of `get` the index has.
 */
const COMMON_MEMBERS: ReadonlySet<string> = new Set([
  'get', 'set', 'has', 'add', 'delete', 'remove', 'clear', 'push', 'pop', 'shift', 'unshift', 'keys', 'values', 'entries', 'items',
  'map', 'filter', 'forEach', 'reduce', 'find', 'some', 'every', 'includes', 'indexOf', 'slice', 'splice', 'concat', 'join', 'split',
  'length', 'size', 'len', 'count', 'name', 'id', 'type', 'value', 'key', 'data', 'text', 'message', 'error', 'code', 'path', 'url',
  'then', 'catch', 'finally', 'call', 'apply', 'bind', 'toString', 'valueOf', 'equals', 'hashCode', 'compareTo', 'clone', 'copy',
  'init', 'run', 'start', 'stop', 'close', 'open', 'read', 'write', 'send', 'emit', 'on', 'off', 'once', 'next', 'update', 'create',
  'build', 'parse', 'format', 'append', 'insert', 'sort', 'reverse', 'log', 'info', 'debug', 'warn', 'trace', 'iterator', 'hasNext',
  'String', 'Error', 'New', 'Close', 'Read', 'Write', 'Get', 'Set', 'Add', 'Len', 'Run', 'Start', 'Stop', 'Next', 'Reset', 'reset',
  'lock', 'unlock', 'Lock', 'Unlock', 'flush', 'Flush', 'handle', 'process', 'render', 'test', 'exec', 'match', 'replace', 'trim',
  'as_str', 'as_ref', 'unwrap', 'to_string', 'iter', 'into', 'from', 'default', 'fmt', 'is_empty', 'contains',
]);

/** Languages where a method's plain name inside its class calls it (no `this.` or `self.` needed). */
const IMPLICIT_RECEIVER: ReadonlySet<string> = new Set(['java', 'csharp', 'cpp', 'c', 'ruby', 'swift', 'kotlin', 'scala']);
/**
 * Languages where a file that uses another's name imports it by that name (`import { x }`,
 * `const { x } = require(…)`) or reaches it through a module object (`utils.x`, a member): a
 * bare name in a file importing the defining one, without an import of the name, is its own
 * (`var etag;` in a file that requires the `utils.js` that defines another `etag`).
 */
const NAMED_IMPORTS: ReadonlySet<string> = new Set(['typescript', 'tsx', 'javascript']);
/** Languages whose files of one folder are one package, referring to each other without imports. */
const FOLDER_PACKAGES: ReadonlySet<string> = new Set(['go', 'java', 'kotlin', 'scala']);
const MEMBER_KINDS: ReadonlySet<ChunkKind> = new Set<ChunkKind>(['method', 'constructor', 'property']);
const C_SOURCE = /\.(c|cc|cpp|cxx|m|mm)$/;
/**
 * The sigil forms a plain name also has, and the languages that write them: Ruby's instance,
 * class and global variables, PHP's variables. The occurrence table keeps the sigil (`@name` is
 * not the method `name`), so a plain query looks these up as well; a query written with the
 * sigil looks up only that form.
 */
const SIGIL_FORMS: ReadonlyArray<{ sigil: string; languages: readonly string[] }> = [
  { sigil: '@', languages: ['ruby'] },
  { sigil: '@@', languages: ['ruby'] },
  { sigil: '$', languages: ['ruby', 'php'] },
];
const PLAIN_NAME = /^[\p{L}_]/u;

/** `Class.method`, `Class::method`, `Class#method` → the class and the method; a plain name → the name. */
export function parseReferenceName(query: string): { name: string; qualifier?: string } {
  const q = query.trim();
  const m = /^(.*?)(::|->|\.|#)([^.:#\s]+)$/.exec(q);
  if (!m) return { name: q };
  const [, qualifier, separator, name] = m as unknown as [string, string, string, string];
  // `#field` (a private field) is a name; `.foo` and `::foo` are `foo`.
  if (!qualifier) return { name: separator === '#' ? q : name };
  return { name, qualifier };
}

interface Occurrence {
  seg: number;
  doc: number;
  /** The name as the table spells it: the query's name, or a sigil form of it (`@name`, `$name`). */
  spelling: string;
  file: FileInfo;
  line: number;
  column: number;
  role: ReferenceRole;
  certainty: ReferenceCertainty;
  reason: string;
  penalised: boolean;
}

interface FileInfo {
  seg: number;
  index: number;
  path: string;
  language: string;
  /** Any occurrence of the name in this file is an import (the file may re-export it). */
  imports: boolean;
  test: boolean;
}

/** The references of `query` in a snapshot. */
export function findReferences(src: ReferenceSources, query: string, options: ReferenceOptions = {}): ReferencesAnswer {
  const { name, qualifier } = parseReferenceName(query);
  const limit = Math.max(0, options.limit ?? DEFAULT_REFERENCE_LIMIT);
  const selfScoped = new Set<ReferenceDefinition>();
  const definitions = definitionsOf(src, name, qualifier, options.kinds, selfScoped);
  const base = { name, ...(qualifier ? { qualifier } : {}), definitions };
  if (!name) return { ...base, references: [], byFile: [], total: 0, certain: 0, truncated: false, note: 'no name to look up', diagnostics: [] };

  const occurrences = occurrencesOf(src.snapshot, name, options, true);
  const resolver = new Resolver(src, name, definitions, qualifier !== undefined, occurrences, selfScoped);
  for (const o of occurrences) resolver.judge(o);
  occurrences.sort(compareOccurrences);

  const references: ReferenceHit[] = [];
  let dropped = 0;
  const contexts = new ContextOf(src.snapshot);
  for (const o of occurrences) {
    if (references.length >= limit) break;
    const hit = hitOf(src.snapshot, src.reader, o, contexts, options.lineText !== false);
    if (hit) references.push(hit);
    else dropped++;
  }
  const total = occurrences.length;
  const certain = occurrences.reduce((n, o) => n + (o.certainty === 'certain' ? 1 : 0), 0);
  const answer: ReferencesAnswer = {
    ...base,
    references,
    byFile: byFile(occurrences),
    total,
    certain,
    truncated: total - dropped > references.length,
    diagnostics: [],
  };
  if (options.callers) answer.callers = callersOf(occurrences, contexts);
  if (dropped > 0) answer.diagnostics.push({ code: 'stale-references', severity: 'warning', message: `${dropped} reference${dropped === 1 ? '' : 's'} left out: ${dropped === 1 ? 'its file has' : 'their files have'} changed since indexing and the name is no longer there` });
  const shown = qualifier ? `${qualifier}.${name}` : name;
  if (total === 0) answer.note = definitions.length ? `${shown} is defined but occurs nowhere else as code` : `"${shown}" occurs nowhere as code in the index`;
  else if (definitions.length === 0) answer.note = `no definition of ${shown} in the index: every reference is a name match`;
  return answer;
}

/**
 * Before a function's name, what makes it a declaration: nothing (a statement), a block's
 * brace, `export`, `export default`; `async` and `*` aside. Anything else (`(`, `,`, `=`,
 * `return`) makes it a function expression.
 */
const DECLARATION_BEFORE = /(?:^|[;{}]|\bexport(?:\s+default)?)\s*(?:async\s+)?function\s*\*?\s*$/;
const FUNCTION_BEFORE = /\bfunction\s*\*?\s*$/;

/**
 * Whether a JavaScript function's name is bound only inside the function: a named function
 * expression (`defineGetter(req, 'host', function host() {…})`), read from its name's line.
 */
function namesOnlyItself(src: ReferenceSources, seg: Segment, doc: number, hit: { language: string; kind: string; nameLine?: number; nameColumn?: number }): boolean {
  if (!NAMED_IMPORTS.has(hit.language) || hit.kind !== 'function' || hit.nameLine === undefined || hit.nameColumn === undefined) return false;
  const before = src.reader.lineOf(seg.fileOf(doc), hit.nameLine, hit.nameColumn).text?.slice(0, hit.nameColumn - 1);
  return before !== undefined && FUNCTION_BEFORE.test(before) && !DECLARATION_BEFORE.test(before);
}

/**
 * The definitions go-to-symbol finds for the name (exact spelling; `Class.method` qualified),
 * code kinds only; the named function expressions among them are added to `selfScoped`.
 */
function definitionsOf(src: ReferenceSources, name: string, qualifier: string | undefined, kinds: readonly string[] | undefined, selfScoped: Set<ReferenceDefinition>): ReferenceDefinition[] {
  if (!name) return [];
  const { candidates } = src.symbols.find(qualifier ? `${qualifier}.${name}` : name, { ...(kinds?.length ? { kinds: [...kinds] } : {}), limit: MAX_DEFINITIONS });
  const out: ReferenceDefinition[] = [];
  const seen = new Set<string>();
  for (const c of candidates) {
    if (qualifier ? c.match !== 'qualified' : c.match !== 'exact') continue;
    const seg = src.snapshot.segments[c.seg] as Segment;
    const hit = symbolHit(src.reader, seg, c.doc, 0, c.nested);
    if (hit.symbol !== name || !DEFINITION_KINDS.has(hit.kind)) continue;
    const line = hit.nameLine ?? hit.startLine;
    const column = hit.nameColumn ?? 1;
    const key = `${hit.path}:${line}:${column}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const definition: ReferenceDefinition = { path: hit.path, startLine: hit.startLine, endLine: hit.endLine, line, column, kind: hit.kind, qualifiedName: c.qualifiedName, language: hit.language };
    out.push(definition);
    if (c.nested && namesOnlyItself(src, seg, c.doc, hit)) selfScoped.add(definition);
  }
  return out;
}

/**
 * Every live occurrence of `name` that passes the path and language filters, unjudged; for a
 * plain name, with its sigil forms in the languages that write them (`sigils`).
 */
function occurrencesOf(snapshot: Snapshot, name: string, options: ReferenceOptions, sigils = false): Occurrence[] {
  const out: Occurrence[] = [];
  collectOccurrences(snapshot, name, undefined, options, out);
  if (sigils && PLAIN_NAME.test(name)) for (const form of SIGIL_FORMS) collectOccurrences(snapshot, form.sigil + name, form.languages, options, out);
  return out;
}

/** Appends the live occurrences of one spelling to `out`, in files of `only` languages when given. */
function collectOccurrences(snapshot: Snapshot, spelling: string, only: readonly string[] | undefined, options: ReferenceOptions, out: Occurrence[]): void {
  const langs = options.languages?.length ? new Set(options.languages.flatMap(resolveLanguageFilter)) : undefined;
  const pathOk = compilePathFilter(options.paths);
  snapshot.segments.forEach((seg, s) => {
    // A segment without a file of the form's languages is not asked for it.
    if (only && !only.some((l) => seg.hasLanguage(l))) return;
    const list = seg.occurrenceTable().lookup(spelling);
    if (!list) return;
    const deleted = snapshot.deleted[s] as Uint8Array;
    const files = new Map<number, FileInfo | null>();
    let lastDoc = -1;
    let file: FileInfo | null = null;
    let startLine = 0;
    let penalised = false;
    for (let i = 0; i < list.docs.length; i++) {
      const doc = list.docs[i] as number;
      if (deleted[doc]) continue;
      if (doc !== lastDoc) {
        lastDoc = doc;
        const index = seg.fileIndexOf(doc);
        let known = files.get(index);
        if (known === undefined) {
          const path = seg.filePath(index);
          const language = seg.fileLanguage(index);
          known = (!langs || langs.has(language)) && (!only || only.includes(language)) && (!pathOk || pathOk(path)) ? { seg: s, index, path, language, imports: false, test: (seg.docFlags.at(doc) & FLAG_TEST) !== 0 } : null;
          files.set(index, known);
        }
        file = known;
        startLine = seg.docStart.at(doc);
        penalised = (seg.docFlags.at(doc) & (FLAG_TEST | FLAG_VENDORED)) !== 0;
      }
      if (!file) continue;
      const role = OCCURRENCE_ROLES[list.roles[i] as number] ?? 'code';
      if (role === 'import') file.imports = true;
      out.push({ seg: s, doc, spelling, file, line: startLine + (list.lineOffsets[i] as number), column: list.columns[i] as number, role, certainty: 'name-match', reason: '', penalised });
    }
  });
}

/** Decides which occurrences resolve to the definitions. */
class Resolver {
  private readonly defsByPath = new Map<string, ReferenceDefinition[]>();
  private readonly defPlaces = new Set<string>();
  /** Per file: the defining files it makes visible (a defining file itself; a file that imports and re-exports one). */
  private exporters?: Map<string, Set<string>>;
  private readonly reachCache = new Map<string, { defs: Set<string>; via: string }>();
  /** Every definition is a method or property: it travels with its class. */
  private readonly memberDefinitions: boolean;
  /**
   * Every definition is a binding of an imported module (`var etag = require('etag')`): another
   * file reaches the module's export of the name, never this binding (`utils.etag` is whatever
   * `exports.etag` was set to).
   */
  private readonly bindingDefinitions: boolean;
  /** `path:line` of each definition that binds an import: other import names on its line are the imported module's. */
  private readonly bindingLines = new Set<string>();

  constructor(
    private readonly src: ReferenceSources,
    private readonly name: string,
    private readonly definitions: readonly ReferenceDefinition[],
    private readonly qualified: boolean,
    private readonly occurrences: readonly Occurrence[],
    /** Named function expressions: their name is bound inside them only. */
    private readonly selfScoped: ReadonlySet<ReferenceDefinition> = new Set(),
  ) {
    this.memberDefinitions = definitions.length > 0 && definitions.every((d) => MEMBER_KINDS.has(d.kind));
    const importPlaces = new Set(occurrences.filter((o) => o.role === 'import').map((o) => `${o.file.path}:${o.line}:${o.column}`));
    const bindings = definitions.filter((d) => importPlaces.has(`${d.path}:${d.line}:${d.column}`));
    this.bindingDefinitions = definitions.length > 0 && bindings.length === definitions.length;
    for (const d of bindings) this.bindingLines.add(`${d.path}:${d.line}`);
    for (const d of definitions) {
      let list = this.defsByPath.get(d.path);
      if (!list) this.defsByPath.set(d.path, (list = []));
      list.push(d);
      this.defPlaces.add(`${d.path}:${d.line}:${d.column}`);
    }
  }

  judge(o: Occurrence): void {
    const [certainty, reason] = this.verdict(o);
    o.certainty = certainty;
    o.reason = reason;
  }

  private verdict(o: Occurrence): [ReferenceCertainty, string] {
    // `@name`, `$name`: a variable spelled like the name, never a call of the definition.
    if (o.spelling !== this.name) return ['name-match', `the variable ${o.spelling}`];
    if (this.definitions.length === 0) return ['name-match', 'not defined in the index'];
    const path = o.file.path;
    if (o.role === 'definition' && this.defPlaces.has(`${path}:${o.line}:${o.column}`)) return ['certain', 'definition'];
    const here = this.defsByPath.get(path);
    const common = COMMON_MEMBERS.has(this.name);
    if (here) {
      // `var isIP = require('node:net').isIP`: the second isIP is net's, which the binding names.
      if (o.role === 'import' && this.bindingLines.has(`${path}:${o.line}`) && !this.defPlaces.has(`${path}:${o.line}:${o.column}`)) return ['name-match', "the imported module's own name"];
      const members = here.every((d) => MEMBER_KINDS.has(d.kind));
      if (o.role === 'member') {
        if (!here.some((d) => MEMBER_KINDS.has(d.kind)) && !this.qualified) return ['name-match', 'a member, and the definition here is not one'];
        if (common) return ['name-match', 'common member name'];
        return ['certain', 'same file'];
      }
      // A function expression's name outside it is another binding (`var host = this.host`).
      if (o.role === 'code' && here.every((d) => this.selfScoped.has(d) && (o.line < d.startLine || o.line > d.endLine))) return ['name-match', 'outside the function expression it names'];
      // A method's bare name calls it only where an implicit receiver does.
      if (o.role === 'code' && (members || this.qualified) && !IMPLICIT_RECEIVER.has(o.file.language)) return ['name-match', 'not a member access'];
      return ['certain', 'same file'];
    }
    // A method is reached through a receiver: a bare name in another file is something else.
    if (o.role === 'code' && (this.qualified || this.memberDefinitions)) return ['name-match', 'not a member access'];
    const reach = this.reach(path, o.file.language);
    if (reach.defs.size === 0) return ['name-match', this.defsByPath.size === 1 ? `no import of ${[...this.defsByPath.keys()][0]}` : 'no import of a defining file'];
    if (o.role === 'member' && common) return ['name-match', 'common member name'];
    if (o.role === 'member' && this.bindingDefinitions) return ['name-match', 'the definition binds an imported module, which others do not reach through it'];
    // A member could be another class's method of the name: one this file does not reach. (A
    // definition in a test is seen by tests only.)
    if (o.role === 'member') {
      for (const [d, list] of this.defsByPath) {
        if (!reach.defs.has(d) && (o.file.test || !isTestPath(d)) && list.some((x) => MEMBER_KINDS.has(x.kind))) return ['name-match', 'defined elsewhere too'];
      }
    }
    if (o.role === 'code' && !o.file.imports && NAMED_IMPORTS.has(o.file.language)) return ['name-match', 'the name is not imported here'];
    if (reach.defs.size > 1) return ['name-match', 'imports several definitions'];
    return ['certain', reach.via];
  }

  /** The defining files `path` sees: its package's (Go, Java), those it imports, and those re-exported to it. */
  private reach(path: string, language: string): { defs: Set<string>; via: string } {
    const known = this.reachCache.get(path);
    if (known) return known;
    const defs = new Set<string>();
    let via = '';
    if (FOLDER_PACKAGES.has(language)) {
      const dir = posix.dirname(path);
      for (const d of this.defsByPath.keys()) {
        if (posix.dirname(d) === dir) {
          defs.add(d);
          via ||= `same package as ${d}`;
        }
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
      const parts = d.qualifiedName.split(/::|\.|#/);
      const owner = parts.length > 1 ? parts[parts.length - 2] : undefined;
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
      if (!mayName(spec, this.hints)) continue;
      for (const target of this.src.resolveImport(path, spec)) if (target !== path && targets.has(target) && !out.includes(target)) out.push(target);
    }
    return out;
  }

  /** Segments a specifier naming an exporter holds: file stems and folder names (packages, `index`, `__init__`, `mod`). */
  private readonly hints = new Set<string>();

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

/** Whether an import specifier may name a file whose stem or folder is in `hints` (`.` and `..` name folders' index files). */
function mayName(spec: string, hints: ReadonlySet<string>): boolean {
  let any = false;
  for (const segment of spec.split(/[/.:\\\s'"<>@]+/)) {
    if (!segment) continue;
    any = true;
    if (hints.has(segment)) return true;
  }
  return !any;
}

/** Certain first, then source before tests and vendored code, then by place. */
function compareOccurrences(a: Occurrence, b: Occurrence): number {
  return (
    (a.certainty === 'certain' ? 0 : 1) - (b.certainty === 'certain' ? 0 : 1) ||
    (a.penalised ? 1 : 0) - (b.penalised ? 1 : 0) ||
    (a.file.path < b.file.path ? -1 : a.file.path > b.file.path ? 1 : 0) ||
    a.line - b.line ||
    a.column - b.column
  );
}

/** The breadcrumb and kind of the definition around a line of a document: the document's, or its innermost nested definition's. */
class ContextOf {
  private readonly docs = new Map<string, { context: string; kind: ChunkKind; startLine: number; endLine: number; nested: readonly NestedDefinition[] }>();

  constructor(private readonly snapshot: Snapshot) {}

  at(seg: number, doc: number, line: number): { context: string; kind: ChunkKind } {
    const key = `${seg}:${doc}`;
    let d = this.docs.get(key);
    if (!d) {
      const segment = this.snapshot.segments[seg] as Segment;
      d = { context: segment.contextOf(doc), kind: segment.kindOf(doc), startLine: segment.docStart.at(doc), endLine: segment.docEnd.at(doc), nested: segment.record(doc).nested ?? [] };
      this.docs.set(key, d);
    }
    let best: NestedDefinition | undefined;
    for (const n of d.nested) {
      if (line < n.startLine || line > n.endLine) continue;
      if (!best || n.endLine - n.startLine < best.endLine - best.startLine) best = n;
    }
    return best ? { context: best.context, kind: best.kind } : { context: d.context, kind: d.kind };
  }
}

const NAME_CHAR = /[\p{L}\p{N}_$]/u;

/** A reference as returned: its line read from the working tree. Undefined when its file changed and the name is not there any more. */
function hitOf(snapshot: Snapshot, reader: FileReader, o: Occurrence, contexts: ContextOf, lineText: boolean): ReferenceHit | undefined {
  const name = o.spelling;
  const { context, kind } = contexts.at(o.seg, o.doc, o.line);
  let text = '';
  let stale = false;
  if (lineText) {
    const file: SegmentFile = (snapshot.segments[o.file.seg] as Segment).file(o.file.index);
    const read = reader.lineOf(file, o.line, o.column + name.length + MAX_TEXT);
    if (read.stale) {
      // The file changed: keep the reference only where the name still is.
      const at = o.column - 1;
      const line = read.text;
      if (read.stale === 'deleted' || line === undefined || line.slice(at, at + name.length) !== name || NAME_CHAR.test(line[at + name.length] ?? '') || NAME_CHAR.test(line[at - 1] ?? '')) return undefined;
      stale = true;
    }
    text = shownText(read.text ?? '', o.column);
  }
  const hit: ReferenceHit = {
    path: o.file.path,
    line: o.line,
    column: o.column,
    endColumn: o.column + name.length,
    role: o.role,
    context,
    contextKind: kind,
    text,
    certainty: o.certainty,
    reason: o.reason,
    language: o.file.language,
  };
  if (stale) hit.stale = true;
  return hit;
}

/** A line as shown: trimmed, and cut around the name when long. */
function shownText(line: string, column: number): string {
  const trimmed = line.trim();
  if (trimmed.length <= MAX_TEXT) return trimmed;
  const start = Math.max(0, column - 1 - TEXT_BEFORE_NAME);
  const piece = line.slice(start, start + MAX_TEXT).trim();
  return `${start > 0 ? '…' : ''}${piece}${start + MAX_TEXT < line.length ? '…' : ''}`;
}

function byFile(ranked: readonly Occurrence[]): ReferenceFileGroup[] {
  const groups = new Map<string, ReferenceFileGroup>();
  for (const o of ranked) {
    let g = groups.get(o.file.path);
    if (!g) groups.set(o.file.path, (g = { path: o.file.path, language: o.file.language, references: 0, certain: 0 }));
    g.references++;
    if (o.certainty === 'certain') g.certain++;
  }
  return [...groups.values()];
}

function callersOf(ranked: readonly Occurrence[], contexts: ContextOf): ReferenceCallerGroup[] {
  const groups = new Map<string, ReferenceCallerGroup>();
  for (const o of ranked) {
    if (o.role === 'definition' || o.role === 'import') continue;
    const { context, kind } = contexts.at(o.seg, o.doc, o.line);
    const key = `${o.file.path}\u0000${context}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { path: o.file.path, context, kind, references: 0, certain: 0, lines: [] }));
    g.references++;
    if (o.certainty === 'certain') g.certain++;
    if (!g.lines.includes(o.line)) g.lines.push(o.line);
  }
  for (const g of groups.values()) g.lines = g.lines.sort((a, b) => a - b).slice(0, CALLER_LINES);
  return [...groups.values()];
}
