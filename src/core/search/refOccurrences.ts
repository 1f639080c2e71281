// What a reference lookup gathers before judging anything: the definitions go-to-symbol finds
// for a name, and every live occurrence of it in the segments' occurrence tables (with its
// sigil forms where a language writes them), each tagged with its file. Also the breadcrumb
// around an occurrence, which both the judging and the answer read.
import { DEFINITION_KINDS, FLAG_TEST, FLAG_VENDORED } from '../index/fields';
import type { Segment } from '../index/segment';
import { resolveLanguageFilter } from '../languages';
import type { Snapshot } from '../store/store';
import { OCCURRENCE_ROLES, type ChunkKind, type NestedDefinition } from '../types';
import { compilePathFilter } from './filters';
import { symbolHit, type FileReader } from './hydrate';
import type { SymbolIndex } from './symbols';
import type { JudgedLookups } from './judgedLookups';
import type { ReferenceCertainty, ReferenceDefinition, ReferenceOptions, ReferenceRole } from './types';

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
  /** Lookups judged over the same index already (a long-lived host keeps them with its view). */
  judged?: JudgedLookups<JudgedLookup>;
}

/** A name's definitions and every occurrence judged against them, in answer order. */
export interface JudgedLookup {
  found: ReferenceDefinition[];
  occurrences: readonly Occurrence[];
}

/** Definitions of one name considered (a name such as `get` has hundreds). */
const MAX_DEFINITIONS = 500;

/**
 * Languages where a file that uses another's name imports it by that name (`import { x }`,
 * `const { x } = require(…)`) or reaches it through a module object (`utils.x`, a member): a
 * bare name in a file importing the defining one, without an import of the name, is its own
 * (`var etag;` in a file that requires the `utils.js` that defines another `etag`).
 */
export const NAMED_IMPORTS: ReadonlySet<string> = new Set(['typescript', 'tsx', 'javascript']);
/** Definition kinds that belong to a class (or impl), reached through a receiver. */
export const MEMBER_KINDS: ReadonlySet<ChunkKind> = new Set<ChunkKind>(['method', 'constructor', 'property']);
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

/** One occurrence of the name, with how it is judged (filled in by refCertainty.ts). */
export interface Occurrence {
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

/** The file of occurrences, shared by all of them in it. */
export interface FileInfo {
  seg: number;
  index: number;
  path: string;
  language: string;
  /** Any occurrence of the name in this file is an import (the file may re-export it). */
  imports: boolean;
  test: boolean;
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
export function definitionsOf(src: ReferenceSources, name: string, qualifier: string | undefined, kinds: readonly string[] | undefined, selfScoped: Set<ReferenceDefinition>): ReferenceDefinition[] {
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
export function occurrencesOf(snapshot: Snapshot, name: string, options: ReferenceOptions, sigils = false): Occurrence[] {
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

/** The breadcrumb and kind of the definition around a line of a document: the document's, or its innermost nested definition's. */
export class ContextOf {
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
