// References: where a name occurs as code, read from each segment's occurrence table (the
// chunker's identifier nodes, so comments and strings never match), with the definitions
// go-to-symbol finds for it. Each occurrence is `certain` when it resolves to those
// definitions — in a defining file, in a file that imports one (directly, through a file that
// re-exports it, or as a package Go and Java share by folder) — and a `name-match` otherwise: a
// same-named member of something else, a name defined in several places, a name the index does
// not define. Certain ones rank first. Only the references returned are read from the working
// tree (their line, and whether the file changed since it was indexed).
import * as posix from 'node:path/posix';
import { DEFINITION_KINDS, FLAG_TEST, FLAG_VENDORED } from '../index/fields';
import type { Segment } from '../index/segment';
import type { SegmentFile } from '../index/segmentFormat';
import { languageForPath, resolveLanguageFilter } from '../languages';
import type { Snapshot } from '../store/store';
import { OCCURRENCE_ROLES, type ChunkKind, type NestedDefinition } from '../types';
import { compilePathFilter } from './filters';
import { symbolHit, type FileReader } from './hydrate';
import { annotatedType } from './annotations';
import { exportsName, exportsWhole, jsBindings, receiverOf, shadowed, type JsBindings } from './jsBindings';
import type { SymbolIndex } from './symbols';
import type { ReferenceCallerGroup, ReferenceCertainty, ReferenceDefinition, ReferenceFileGroup, ReferenceHit, ReferenceOptions, ReferencePlace, ReferenceRole, ReferencesResponse } from './types';

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
/** Receivers that are the enclosing class's (impl's) own instance or type. */
const SELF_RECEIVERS: ReadonlySet<string> = new Set(['this', 'self', 'Self', '$this', 'cls', 'super']);

const languageOf = (path: string): string => languageForPath(path)?.id ?? '';

/** How one occurrence is judged: certain ones name the definition they resolve to. */
interface Verdict {
  certainty: ReferenceCertainty;
  reason: string;
  to?: ReferenceDefinition;
  /** A name match's possible definitions, when known (`[]`: none of the index's). */
  could?: readonly ReferenceDefinition[];
}

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
  /** The definition a certain occurrence resolves to. */
  to?: ReferenceDefinition;
  /** The definitions a name match may still mean, when the index can tell (none: any). */
  could?: readonly ReferenceDefinition[];
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
  const place = options.definition ?? placeOf(query);
  const anchored = place ? nameAt(src, place, options.kinds) : undefined;
  const { name, qualifier }: { name: string; qualifier?: string } = anchored ?? (place ? { name: '' } : parseReferenceName(query));
  const limit = Math.max(0, options.limit ?? DEFAULT_REFERENCE_LIMIT);
  const selfScoped = new Set<ReferenceDefinition>();
  const found = definitionsOf(src, name, qualifier, options.kinds, selfScoped);
  const anchor = place ? definitionAtPlace(found, place) : undefined;
  const definitions = anchor ? [anchor] : found;
  const base = { name, ...(qualifier ? { qualifier } : {}), definitions };
  if (place && !anchor) {
    const where = `${place.path}:${place.line}`;
    const message = name ? `no definition of ${name} at ${where}` : `no definition's name at ${where}`;
    return { ...base, definitions: [], references: [], byFile: [], total: 0, certain: 0, truncated: false, note: message, diagnostics: [{ code: 'no-definition-here', severity: 'error', message: `${message}: give the line of a definition's name (cairn refs PATH:LINE), or the name itself` }] };
  }
  if (!name) return { ...base, references: [], byFile: [], total: 0, certain: 0, truncated: false, note: 'no name to look up', diagnostics: [] };

  const contexts = new ContextOf(src.snapshot);
  let occurrences = occurrencesOf(src.snapshot, name, options, true);
  // Judged against every definition, so a reference of another one is known to be that one's.
  const resolver = new Resolver(src, name, found, qualifier !== undefined, occurrences, contexts, selfScoped);
  for (const o of occurrences) resolver.judge(o);
  // From a definition: what resolves to it, and the name matches that may still be it.
  if (anchor) occurrences = occurrences.filter((o) => (o.certainty === 'certain' ? o.to === anchor : !o.could || o.could.includes(anchor)));
  occurrences.sort(compareOccurrences);

  const references: ReferenceHit[] = [];
  let dropped = 0;
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

/** `PATH:LINE` or `PATH:LINE:COLUMN` (a path with a folder or an extension): a place to ask from. */
export function placeOf(query: string): ReferencePlace | undefined {
  const m = /^(.+?):(\d+)(?::(\d+))?$/.exec(query.trim());
  if (!m) return undefined;
  const path = (m[1] as string).replace(/\\/g, '/').replace(/^\.\//, '');
  if (!/[/.]/.test(path) || /\s/.test(path)) return undefined;
  return { path, line: Number(m[2]), ...(m[3] ? { column: Number(m[3]) } : {}) };
}

const WORD = /[\p{L}_$][\p{L}\p{N}_$]*/gu;

/** The name a definition at a place has: the word at its column, else the first word on its line that names a definition there. */
function nameAt(src: ReferenceSources, place: ReferencePlace, kinds: readonly string[] | undefined): { name: string } | undefined {
  const line = src.reader.text(place.path, place.line, place.line);
  if (line === undefined) return undefined;
  const words = [...line.matchAll(WORD)].map((m) => ({ word: m[0], start: (m.index ?? 0) + 1 }));
  const atColumn = place.column === undefined ? undefined : words.find((w) => place.column! >= w.start && place.column! <= w.start + w.word.length);
  const ordered = atColumn ? [atColumn, ...words.filter((w) => w !== atColumn)] : words;
  const tried = new Set<string>();
  for (const { word } of ordered) {
    if (tried.has(word)) continue;
    tried.add(word);
    if (definitionAtPlace(definitionsOf(src, word, undefined, kinds, new Set()), place)) return { name: word };
  }
  return undefined;
}

/** The definition whose name is at the place (its line; its column when given). */
function definitionAtPlace(definitions: readonly ReferenceDefinition[], place: ReferencePlace): ReferenceDefinition | undefined {
  const onLine = definitions.filter((d) => d.path === place.path && d.line === place.line);
  return onLine.find((d) => place.column !== undefined && place.column >= d.column && place.column < d.column + (d.qualifiedName.split(/::|\.|#/).pop() ?? '').length) ?? onLine[0];
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
  /** Each definition by `path:line:column` of its name. */
  private readonly defAt = new Map<string, ReferenceDefinition>();
  /** Definitions that are the binding of an import (`var etag = require('etag')`). */
  private readonly bindingPlaces = new Set<string>();
  private readonly bindingCache = new Map<string, JsBindings>();
  private readonly exportCache = new Map<string, boolean>();
  /** Each chunk's lines (`seg:doc`), read once per lookup for the annotations in it. */
  private readonly chunkCache = new Map<string, readonly string[]>();
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
    private readonly contexts: ContextOf,
    /** Named function expressions: their name is bound inside them only. */
    private readonly selfScoped: ReadonlySet<ReferenceDefinition> = new Set(),
  ) {
    this.memberDefinitions = definitions.length > 0 && definitions.every((d) => MEMBER_KINDS.has(d.kind));
    const importPlaces = new Set(occurrences.filter((o) => o.role === 'import').map((o) => `${o.file.path}:${o.line}:${o.column}`));
    const bindings = definitions.filter((d) => importPlaces.has(`${d.path}:${d.line}:${d.column}`));
    this.bindingDefinitions = definitions.length > 0 && bindings.length === definitions.length;
    for (const d of bindings) {
      this.bindingLines.add(`${d.path}:${d.line}`);
      this.bindingPlaces.add(`${d.path}:${d.line}:${d.column}`);
    }
    for (const d of definitions) {
      let list = this.defsByPath.get(d.path);
      if (!list) this.defsByPath.set(d.path, (list = []));
      list.push(d);
      this.defAt.set(`${d.path}:${d.line}:${d.column}`, d);
    }
  }

  judge(o: Occurrence): void {
    const v = NAMED_IMPORTS.has(o.file.language) && o.spelling === this.name && this.definitions.length > 0 ? this.scriptVerdict(o) : this.verdict(o);
    // Certain means resolved to one definition: without one it is a name match.
    if (v.certainty === 'certain' && !v.to) {
      o.certainty = 'name-match';
      o.reason = `${v.reason}, which defines it more than once`;
      return;
    }
    o.certainty = v.certainty;
    o.reason = v.reason;
    if (v.to) o.to = v.to;
    if (v.could) o.could = v.could;
  }

  /** The definition at an occurrence's place, if it is one. */
  private definitionAt(o: Occurrence): ReferenceDefinition | undefined {
    return this.defAt.get(`${o.file.path}:${o.line}:${o.column}`);
  }

  /** The owner of a member definition (`Store` of `Store.save`, `Runtime` of `Runtime::block_on`). */
  private ownerOf(d: ReferenceDefinition): string | undefined {
    const parts = d.qualifiedName.split(/::|\.|#/);
    return parts.length > 1 ? parts[parts.length - 2] : undefined;
  }

  /**
   * The definition among `defs` a reference at `line` means: the one whose span holds the line
   * (the innermost), else the only top-level one, else the only one.
   */
  private pick(defs: readonly ReferenceDefinition[], line?: number): ReferenceDefinition | undefined {
    if (defs.length <= 1) return defs[0];
    if (line !== undefined) {
      let best: ReferenceDefinition | undefined;
      for (const d of defs) if (line >= d.startLine && line <= d.endLine && (!best || d.endLine - d.startLine < best.endLine - best.startLine)) best = d;
      if (best && !MEMBER_KINDS.has(best.kind)) return best;
    }
    const top = defs.filter((d) => d.qualifiedName === this.name && !this.selfScoped.has(d));
    return top.length === 1 ? top[0] : undefined;
  }

  /** Member definitions of `path` whose owner the occurrence's enclosing definitions name (`this.m()` inside `class Store`). */
  private enclosingMember(o: Occurrence, defs: readonly ReferenceDefinition[]): ReferenceDefinition | undefined {
    const parts = this.contexts.at(o.seg, o.doc, o.line).context.split(/::|\.|#|›/).map((p) => p.trim());
    const matching = defs.filter((d) => MEMBER_KINDS.has(d.kind) && parts.includes(this.ownerOf(d) ?? '\u0000'));
    return matching.length === 1 ? matching[0] : undefined;
  }

  /** The text of an occurrence's line, as the working tree has it. */
  private lineText(o: Occurrence): string {
    const file = (this.src.snapshot.segments[o.file.seg] as Segment).file(o.file.index);
    return this.src.reader.lineOf(file, o.line, o.column + this.name.length + 1).text ?? '';
  }

  /** The type an annotation in the occurrence's chunk gives its receiver (`h: Handle`), if any. */
  private annotatedOwner(o: Occurrence, receiver: string): string | undefined {
    const seg = this.src.snapshot.segments[o.seg] as Segment;
    const start = seg.docStart.at(o.doc);
    const key = `${o.seg}:${o.doc}`;
    let lines = this.chunkCache.get(key);
    if (!lines) this.chunkCache.set(key, (lines = this.src.reader.text(o.file.path, start, seg.docEnd.at(o.doc))?.split('\n') ?? []));
    return annotatedType(lines.slice(0, o.line - start + 1), receiver, o.file.language);
  }

  /**
   * The definition a local bound to a whole module (`const x = require('./a')`, `import x from
   * './a'`) is: the module's own `x` when it is what the module exports as a whole.
   */
  private wholeExport(from: string, spec: string): ReferenceDefinition | undefined {
    for (const t of this.src.resolveImport(from, spec)) {
      if (t === from) continue;
      const own = this.ownDefinitions(t).filter((d) => !this.isBinding(d) && !MEMBER_KINDS.has(d.kind));
      if (own.length > 0 && exportsWhole(this.src.reader.text(t, 1, Number.MAX_SAFE_INTEGER) ?? '', this.name)) return this.pick(own);
    }
    return undefined;
  }

  /** Whether a script file exports the name as its own (exportsName), read once per lookup. */
  private exports(path: string): boolean {
    let e = this.exportCache.get(path);
    if (e === undefined) this.exportCache.set(path, (e = exportsName(this.src.reader.text(path, 1, Number.MAX_SAFE_INTEGER) ?? '', this.name)));
    return e;
  }

  /** Whether a use in its definition's file is of a local of the same name declared before it in its chunk. */
  private isShadowed(o: Occurrence, own: readonly ReferenceDefinition[]): boolean {
    const seg = this.src.snapshot.segments[o.seg] as Segment;
    const start = seg.docStart.at(o.doc);
    const lines = this.src.reader.text(o.file.path, start, o.line)?.split('\n');
    if (!lines) return false;
    // The use's own line up to the name only: `var range = …` declares at the use.
    const last = lines.length - 1;
    lines[last] = (lines[last] ?? '').slice(0, o.column - 1 + this.name.length + 3);
    const defLine = own.find((d) => d.line >= start && d.line <= o.line)?.line;
    return shadowed(lines, this.name, defLine === undefined ? -1 : defLine - start);
  }

  /** `{ name: value }`: a key of an object literal names a property, not the definition (a ternary's `? name :` aside). */
  private isPropertyKey(o: Occurrence): boolean {
    const text = this.lineText(o);
    const after = text.slice(o.column - 1 + this.name.length);
    return /^\s*:(?!:)/.test(after) && !/\?\s*$/.test(text.slice(0, o.column - 1)) && /[{,]\s*$|^\s*$/.test(text.slice(0, o.column - 1));
  }

  /** A script file's module and export bindings, read once per lookup. */
  private bindingsOf(path: string): JsBindings {
    let b = this.bindingCache.get(path);
    if (!b) this.bindingCache.set(path, (b = jsBindings(this.src.reader.text(path, 1, Number.MAX_SAFE_INTEGER) ?? '')));
    return b;
  }

  /** Whether a definition binds another module's export (`const x = require('./a').x`, `const x = utils.x`). */
  private isBinding(d: ReferenceDefinition): boolean {
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
  private ownDefinitions(path: string, depth = 0): ReferenceDefinition[] {
    return (this.defsByPath.get(path) ?? []).filter((d) => !this.forwardOf(d, depth));
  }

  /**
   * The definition a module specifier written in `from` gives the name as: the imported file's
   * own, or the one it imports or re-exports. `known` when the specifier resolves and nothing
   * in the index is what it gives (a package's export).
   */
  private resolveSpec(from: string, spec: string, depth = 0): { def?: ReferenceDefinition; known: boolean; via: string } {
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

  private resolved(spec: string, r: { def?: ReferenceDefinition; known: boolean; via: string }, how: string): Verdict {
    if (r.def) return { certainty: 'certain', reason: r.def.path === r.via ? `${how} ${r.via}` : `${how} ${r.via}, which gets it from ${r.def.path}`, to: r.def };
    return r.known ? { certainty: 'name-match', reason: `${how} ${spec}, where the index does not define it`, could: [] } : { certainty: 'name-match', reason: `${how} ${r.via}, which the index cannot follow` };
  }

  /**
   * JavaScript and TypeScript: a name resolves through what its file binds it to — its own
   * definition, an import or `require` of another module's export (destructured, a member of
   * the require, an alias of a module's member), a member of a module binding — and a method
   * through a receiver of known type (`this` in its class, `new Store()`).
   */
  private scriptVerdict(o: Occurrence): Verdict {
    const path = o.file.path;
    const b = this.bindingsOf(path);
    const at = this.definitionAt(o);
    if (o.role === 'definition' && at && !this.isBinding(at)) return { certainty: 'certain', reason: 'definition', to: at };
    // A binding's own line: `const { x } = require('./a')`, `import { x as y }`, `const x = utils.x`.
    const onLine = [...b.names].filter(([local, x]) => x.line <= o.line && o.line <= x.endLine && (local === this.name || x.imported === this.name));
    if (onLine.length > 0) {
      const entry = onLine.find(([, x]) => x.imported === this.name);
      if (!entry) return { certainty: 'name-match', reason: 'binds another export to the name', could: [] };
      const [local, x] = entry;
      const r = this.resolveSpec(path, x.spec);
      if (r.def) return this.resolved(x.spec, r, 'imports it from');
      // Nothing in the index behind it (a package): the binding is the definition its file uses.
      if (at) return { certainty: 'certain', reason: 'definition', to: at };
      if (local === this.name && o.role !== 'import' && o.role !== 'member') {
        const own = this.pick(this.ownDefinitions(path), o.line);
        if (own) return { certainty: 'certain', reason: 'same file', to: own };
      }
      return { ...this.resolved(x.spec, r, 'imports it from'), ...(o.role === 'import' || o.role === 'member' ? { reason: "the imported module's own name" } : {}) };
    }
    const own = this.ownDefinitions(path);
    if (o.role === 'member') return this.memberVerdict(o, b, own);
    if (o.role === 'code' && this.isPropertyKey(o)) return { certainty: 'name-match', reason: 'a property key', could: [] };
    // `const x = require('./a')` where a.js's `module.exports = x`: a.js's x.
    const whole = b.wholes.get(this.name);
    const exported = whole === undefined ? undefined : this.wholeExport(path, whole);
    if (exported) return { certainty: 'certain', reason: `requires ${exported.path}, which exports it as the module`, to: exported };
    if (own.length > 0) {
      const inScope = own.filter((d) => !this.selfScoped.has(d) || (o.line >= d.startLine && o.line <= d.endLine));
      // A function expression's name outside it is another binding (`var host = this.host`).
      if (inScope.length === 0) return { certainty: 'name-match', reason: 'outside the function expression it names' };
      if (inScope.every((d) => MEMBER_KINDS.has(d.kind))) return { certainty: 'name-match', reason: 'not a member access' };
      const to = this.pick(inScope.filter((d) => !MEMBER_KINDS.has(d.kind)), o.line);
      if (to && this.isShadowed(o, own)) return { certainty: 'name-match', reason: 'a local of the same name', could: [] };
      return to ? { certainty: 'certain', reason: 'same file', to } : { certainty: 'name-match', reason: 'defined more than once here' };
    }
    const bound = b.names.get(this.name);
    if (bound && bound.imported === this.name) return this.resolved(bound.spec, this.resolveSpec(path, bound.spec), 'imports it from');
    if (bound) return { certainty: 'name-match', reason: `binds ${bound.imported} of ${bound.spec} to the name`, could: [] };
    if (o.role === 'import') {
      const v = this.verdict(o);
      return v;
    }
    if (this.memberDefinitions || this.qualified) return { certainty: 'name-match', reason: 'not a member access' };
    return { certainty: 'name-match', reason: 'the name is not imported here' };
  }

  /** `x.name`: certain where the receiver is known — a module binding, `exports`, `this` in the class, an instance or the class itself. */
  private memberVerdict(o: Occurrence, b: JsBindings, own: readonly ReferenceDefinition[]): Verdict {
    const text = this.lineText(o);
    const receiver = receiverOf(text, o.column);
    const before = text.slice(0, o.column - 1);
    if (/\b(?:module\s*\.\s*)?exports\s*\.\s*$/.test(before)) {
      // `exports.x = x` exports the definition; `exports.x = other()` another value of the name.
      const assigned = new RegExp(String.raw`^\s*=\s*${this.name.replace(/[$]/g, '\\$')}(?![\p{L}\p{N}_$])`, 'u').test(text.slice(o.column - 1 + this.name.length));
      const to = assigned ? this.pick(own.filter((d) => !MEMBER_KINDS.has(d.kind) && !this.isBinding(d))) : undefined;
      return to ? { certainty: 'certain', reason: 'exports it', to } : { certainty: 'name-match', reason: 'exports a value of the name', could: [] };
    }
    if (receiver === undefined) return { certainty: 'name-match', reason: "the receiver's type is not known" };
    const spec = b.modules.get(receiver);
    if (spec !== undefined) return this.resolved(spec, this.resolveSpec(o.file.path, spec), `a member of ${receiver}, which is`);
    if (receiver === 'this' || receiver === 'super') {
      const to = this.enclosingMember(o, own);
      return to ? { certainty: 'certain', reason: 'this, inside its class', to } : { certainty: 'name-match', reason: "the receiver's type is not known" };
    }
    const created = b.instances.get(receiver);
    const annotated = created ? undefined : this.annotatedOwner(o, receiver);
    const owner = created ?? annotated ?? receiver;
    const members = this.definitions.filter((d) => MEMBER_KINDS.has(d.kind) && this.ownerOf(d) === owner);
    if (members.length === 1) {
      const to = members[0] as ReferenceDefinition;
      const reached = to.path === o.file.path || b.names.has(owner) || b.modules.has(owner) || this.reach(o.file.path, o.file.language).defs.has(to.path);
      if (reached) return { certainty: 'certain', reason: owner === receiver ? `a member of ${owner}` : annotated ? `${receiver} is annotated ${owner}` : `${receiver} is a new ${owner}`, to };
    }
    return { certainty: 'name-match', reason: "the receiver's type is not known" };
  }

  /** Other languages: by file — the defining file, a file importing it, its package — and methods by their receiver. */
  private verdict(o: Occurrence): Verdict {
    // `@name`, `$name`: a variable spelled like the name, never a call of the definition.
    if (o.spelling !== this.name) return { certainty: 'name-match', reason: `the variable ${o.spelling}` };
    if (this.definitions.length === 0) return { certainty: 'name-match', reason: 'not defined in the index' };
    const path = o.file.path;
    const at = this.definitionAt(o);
    if (o.role === 'definition' && at) return { certainty: 'certain', reason: 'definition', to: at };
    const here = this.defsByPath.get(path);
    const common = COMMON_MEMBERS.has(this.name);
    if (here) {
      // `var isIP = require('node:net').isIP`: the second isIP is net's, which the binding names.
      if (o.role === 'import' && this.bindingLines.has(`${path}:${o.line}`) && !at) return { certainty: 'name-match', reason: "the imported module's own name" };
      const members = here.every((d) => MEMBER_KINDS.has(d.kind));
      if (o.role === 'member') {
        if (!here.some((d) => MEMBER_KINDS.has(d.kind)) && !this.qualified) return { certainty: 'name-match', reason: 'a member, and the definition here is not one' };
        if (common) return { certainty: 'name-match', reason: 'common member name' };
        return this.receiverVerdict(o, here);
      }
      // A method's bare name calls it only where an implicit receiver does.
      if (o.role === 'code' && (members || this.qualified)) {
        if (!IMPLICIT_RECEIVER.has(o.file.language)) return { certainty: 'name-match', reason: 'not a member access' };
        const to = this.enclosingMember(o, here);
        return to ? { certainty: 'certain', reason: 'inside its class', to } : { certainty: 'name-match', reason: 'outside the class that defines it' };
      }
      return { certainty: 'certain', reason: 'same file', to: this.pick(here.filter((d) => !MEMBER_KINDS.has(d.kind)), o.line) ?? this.pick(here, o.line) };
    }
    // A method is reached through a receiver: a bare name in another file is something else.
    if (o.role === 'code' && (this.qualified || this.memberDefinitions)) return { certainty: 'name-match', reason: 'not a member access' };
    const reach = this.reach(path, o.file.language);
    if (reach.defs.size === 0) return { certainty: 'name-match', reason: this.defsByPath.size === 1 ? `no import of ${[...this.defsByPath.keys()][0]}` : 'no import of a defining file' };
    if (o.role === 'member' && common) return { certainty: 'name-match', reason: 'common member name' };
    if (o.role === 'member' && this.bindingDefinitions) return { certainty: 'name-match', reason: 'the definition binds an imported module, which others do not reach through it' };
    const reached = [...reach.defs].flatMap((d) => this.defsByPath.get(d) ?? []);
    // A method of another file's class: only its class as the receiver says which it is.
    if (o.role === 'member' && reached.some((d) => MEMBER_KINDS.has(d.kind))) return this.receiverVerdict(o, reached);
    if (o.role === 'code' && !o.file.imports && NAMED_IMPORTS.has(o.file.language)) return { certainty: 'name-match', reason: 'the name is not imported here' };
    if (reach.defs.size > 1) return { certainty: 'name-match', reason: 'imports several definitions' };
    return { certainty: 'certain', reason: reach.via, to: this.pick(reached.filter((d) => !MEMBER_KINDS.has(d.kind))) };
  }

  /**
   * A method through its receiver: `self.m()`, `this.m()`, `Self::m()` inside the class (impl)
   * that defines it, or the class named (`Runtime::m`). Any other receiver's type is not known,
   * and a method of one name in several types must not be merged.
   */
  private receiverVerdict(o: Occurrence, defs: readonly ReferenceDefinition[]): Verdict {
    const receiver = receiverOf(this.lineText(o), o.column);
    if (receiver !== undefined && SELF_RECEIVERS.has(receiver)) {
      const to = this.enclosingMember(o, defs.filter((d) => d.path === o.file.path));
      if (to) return { certainty: 'certain', reason: `${receiver}, inside its class`, to };
    } else if (receiver !== undefined) {
      // The class named (`Runtime::m`), or the type the receiver is annotated with (`h: &Handle`).
      const annotated = this.annotatedOwner(o, receiver);
      const owner = annotated ?? receiver;
      const named = defs.filter((d) => MEMBER_KINDS.has(d.kind) && this.ownerOf(d) === owner);
      if (named.length === 1) return { certainty: 'certain', reason: annotated ? `${receiver} is annotated ${owner}` : `a member of ${owner}`, to: named[0] as ReferenceDefinition };
    }
    // A module's function through the module (`models.fetch()`): not a method at all.
    const plain = defs.filter((d) => !MEMBER_KINDS.has(d.kind));
    if (plain.length > 0 && plain.length === defs.length) {
      const to = this.pick(plain);
      if (to && to.path !== o.file.path) return { certainty: 'certain', reason: this.reach(o.file.path, o.file.language).via, to };
    }
    return { certainty: 'name-match', reason: "the receiver's type is not known" };
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
  if (o.to) hit.resolvesTo = { path: o.to.path, line: o.to.line };
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
