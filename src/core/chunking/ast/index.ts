// The tree-sitter AST chunker: one chunk per definition (function, class summary, method...),
// code between definitions packed into `code` chunks, every non-blank line covered.
import * as path from 'node:path';
import type { Node, Tree } from 'web-tree-sitter';
import { languageForPath } from '../../languages';
import type { Chunk, Diagnostic, FileChunks, NestedDefinition, SourceDocument } from '../../types';
import type { AstChunkerLike } from '../contract';
import { makeChunkId, makeDocid } from '../ids';
import type { ChunkingPolicy } from '../policy';
import { scanErrors, type ErrorScan } from './errors';
import { extract, type Draft } from './extract';
import { extractImports } from './imports';
import { declarationLines, findDefinitions, type DefinitionMatch, type Range } from './nested';
import { cutAtDefinitions } from './pieces';
import { placeOccurrences, scanOccurrences, type RawOccurrences } from './occurrences';
import { specFor } from './langs';
import { GRAMMAR_FILES, GrammarCache, initRuntime, safeParse, type Parser } from './runtime';
import { SourceText } from './source';
import { walkTree, type Walked } from './walk';
import type { LanguageSpec } from './spec';
import { timed } from '../../timings';

export interface AstChunkerOptions {
  /** Directory holding the grammar wasm files (scripts/copy-grammars.mjs). */
  grammarsDir: string;
  /** web-tree-sitter's runtime wasm; default `grammarsDir/tree-sitter.wasm`. */
  runtimeWasm?: string;
  /** Restricts the chunker to these language ids. */
  languages?: string[];
}

/** The AST language id for a language id or a path: `.tsx` files use `tsx`, `.jsx` files `javascript`. */
export function astLanguageFor(languageIdOrPath: string): string | undefined {
  if (GRAMMAR_FILES[languageIdOrPath] && specFor(languageIdOrPath)) return languageIdOrPath;
  const id = languageForPath(languageIdOrPath)?.id;
  return id && GRAMMAR_FILES[id] && specFor(id) ? id : undefined;
}

export class AstChunker implements AstChunkerLike {
  private readonly grammars: GrammarCache;
  private readonly allowed: ReadonlySet<string> | undefined;
  /** Languages whose grammar failed to load (missing or incompatible wasm): not offered again. */
  private readonly broken = new Set<string>();

  private constructor(options: AstChunkerOptions) {
    this.grammars = new GrammarCache(options.grammarsDir);
    this.allowed = options.languages ? new Set(options.languages) : undefined;
  }

  static async create(options: AstChunkerOptions): Promise<AstChunker> {
    await initRuntime(options.runtimeWasm ?? path.join(options.grammarsDir, 'tree-sitter.wasm'));
    return new AstChunker(options);
  }

  supports(language: string): boolean {
    return GRAMMAR_FILES[language] !== undefined && specFor(language) !== undefined && !this.broken.has(language) && (this.allowed?.has(language) ?? true);
  }

  /**
   * Loads the grammars for `languages` before parsing starts. V8 compiles a grammar on the
   * same background threads that recompile the grammars in use into optimised code, so a
   * grammar first needed once parsing is under way waits behind them, hundreds of times longer
   * than loaded up front (docs/index-design.md, Measurements).
   * Loads are sequential: web-tree-sitter links grammars into one shared symbol table, and
   * concurrent loads fail.
   */
  async prepare(languages: readonly string[]): Promise<void> {
    for (const language of languages) {
      if (!this.supports(language)) continue;
      for (const grammar of grammarsFor(language)) if (this.supports(grammar)) await this.parserFor(grammar);
    }
  }

  async chunk(doc: SourceDocument, policy: ChunkingPolicy): Promise<FileChunks | null> {
    if (!this.supports(doc.language)) return null;
    const src = new SourceText(doc.text);
    const budget = Math.max(1, policy.astMaxChars);
    // Flow-typed .js files and C/C++ headers: a richer grammar parses much of what the file's
    // own cannot. The grammar that usually reads a file best goes first; when a good part of
    // the file still fails to parse, the other is tried and the one with fewer errors kept.
    const first = firstGrammar(doc);
    const other = first === doc.language ? RICHER_GRAMMAR[doc.language] : doc.language;
    let parsed = await this.parseWith(first, src);
    if (!parsed && first !== doc.language) parsed = await this.parseWith(doc.language, src);
    if (!parsed) return null;
    let outcome: Outcome;
    try {
      if (other && parsed.errors.errorChars * 10 > doc.text.length) {
        // The error scans decide, and only the winner is read for definitions: extracting a
        // tree that is then thrown away was wasted work (75 of the corpus's 3,044 headers).
        const retry = await this.parseWith(other, src);
        if (retry && retry.errors.errorChars < parsed.errors.errorChars) {
          parsed.tree.delete();
          parsed = retry;
        } else retry?.tree.delete();
      }
      outcome = this.outcomeOf(parsed, src, budget);
    } finally {
      parsed.tree.delete();
    }
    const { drafts, defCount, errors, imports, definitions, occurrences } = outcome;
    if (defCount === 0 && errors.errorChars * 2 > doc.text.length) return null;
    const diagnostics: Diagnostic[] = [];
    if (errors.count > 0) {
      diagnostics.push({
        code: 'parse-errors',
        message: `${errors.count}${errors.capped ? '+' : ''} syntax error node${errors.count === 1 ? '' : 's'} (ERROR/MISSING); chunks around them are best-effort`,
        path: doc.path,
        severity: 'warning',
      });
    }
    const chunks = finalize(doc, src, drafts, definitions, budget);
    const result: FileChunks = { path: doc.path, chunks, strategy: 'ast', diagnostics };
    if (imports.length) result.imports = imports;
    const placed = occurrences && timed('occurrences', () => placeOccurrences(occurrences, chunks, src));
    if (placed) result.occurrences = placed;
    return result;
  }

  /** Parses with one grammar and scans the tree for errors; null when the grammar cannot be used. The caller deletes the tree. */
  private async parseWith(language: string, src: SourceText): Promise<Parsed | null> {
    const spec = specFor(language);
    if (!spec) return null;
    const parser = await this.parserFor(language);
    if (!parser) return null;
    const tree = timed('parse', () => safeParse(parser, src.text));
    if (!tree) return null;
    // One root node object for all three walks: a node keeps the list of its children once
    // read, and each `tree.rootNode` is a new object that would list them again.
    const root = tree.rootNode;
    try {
      return { language, spec, tree, root, errors: timed('parse', () => scanErrors(root)) };
    } catch (e) {
      tree.delete();
      throw e;
    }
  }

  /** Reads the drafts and imports out of a parsed tree. */
  private outcomeOf(parsed: Parsed, src: SourceText, budget: number): Outcome {
    const { drafts, defCount } = timed('extract', () => extract(parsed.root, src, parsed.spec, budget));
    const walked = timed('occurrences', () => walkTree(parsed.root, parsed.language));
    const definitions = timed('definitions', () => definitionsOf(parsed, src, drafts, walked));
    // Definitions' names, as the extractor and the definitions query place them.
    const definitionsAt = new Set<number>();
    for (const d of drafts) if (d.nameAt >= 0 && d.kind !== 'code') definitionsAt.add(d.nameAt);
    for (const m of definitions) definitionsAt.add(m.nameAt);
    return {
      drafts,
      defCount,
      errors: parsed.errors,
      imports: timed('imports', () => extractImports(parsed.root, parsed.language, src.text)),
      definitions,
      occurrences: walked && timed('occurrences', () => scanOccurrences(parsed.root.tree.language, parsed.language, walked.names, walked.nameTypes, src, definitionsAt)),
    };
  }

  /** The parser for a language's grammar; undefined, and the language no longer offered, when it cannot be loaded. */
  private async parserFor(language: string): Promise<Parser | undefined> {
    try {
      return await this.grammars.parserFor(language);
    } catch {
      this.broken.add(language);
      return undefined;
    }
  }

  dispose(): void {
    this.grammars.dispose();
  }
}

/** A superset grammar to retry with when a file is mostly unparseable in its own. */
const RICHER_GRAMMAR: Readonly<Record<string, string>> = { javascript: 'tsx', c: 'cpp' };

/** Syntax only the richer grammar reads: C++ in a `.h` file, a Flow pragma in a `.js` one. */
const RICHER_SYNTAX: Readonly<Record<string, RegExp>> = {
  c: /^\s*(?:namespace\s+\w|template\s*<|class\s+\w+\s*(?:[:{]|$)|(?:public|private|protected)\s*:|virtual\s)|\w::~?\w/m,
  javascript: /@flow\b/,
};

/** How much of a file the check reads: markers sit near the top, and huge files stay cheap. */
const RICHER_SYNTAX_WINDOW = 64 * 1024;

/** True when a file's text shows syntax only its language's richer grammar reads (see RICHER_SYNTAX). */
export function showsRicherSyntax(language: string, text: string): boolean {
  const marker = RICHER_SYNTAX[language];
  if (!marker) return false;
  // The Flow pragma belongs to the first comment; C++ constructs may come after the includes.
  return marker.test(language === 'javascript' ? text.slice(0, 2048) : text.slice(0, RICHER_SYNTAX_WINDOW));
}

const HEADER = /\.h$/i;

/**
 * The grammars `firstGrammar` may choose for a language's documents: C headers start with
 * C++. JavaScript's richer grammar (Flow files, retries of mostly broken scripts) is left to
 * load when a file needs it: such files are rare, and TSX's grammar adds ~9 MB to a thread.
 */
export function grammarsFor(language: string): string[] {
  return language === 'c' ? ['c', 'cpp'] : [language];
}

/**
 * The grammar that parses a file first. A header named `.h` starts with C++, which also reads C:
 * measured on the 696 distinct `.h` files of the benchmark corpus, the C grammar left more than
 * a tenth of 173 of them in error nodes (OpenSSL's macro-typed declarations such as
 * `STACK_OF(X) *f(...)` swallow the rest of a file) and C++ only 18, and C++ parsed 269 with
 * fewer errors against 60 the other way. A `.c` file is C unless its text shows C++; a
 * JavaScript file is Flow when it says so.
 */
export function firstGrammar(doc: { path: string; language: string; text: string }): string {
  const richer = RICHER_GRAMMAR[doc.language];
  if (!richer) return doc.language;
  if (doc.language === 'c' && HEADER.test(doc.path)) return richer;
  return showsRicherSyntax(doc.language, doc.text) ? richer : doc.language;
}

/** A tree parsed with one grammar, and its errors: enough to choose between two grammars. */
interface Parsed {
  language: string;
  spec: LanguageSpec;
  tree: Tree;
  root: Node;
  errors: ErrorScan;
}

interface Outcome {
  drafts: Draft[];
  defCount: number;
  errors: ErrorScan;
  imports: string[];
  definitions: DefinitionMatch[];
  occurrences: RawOccurrences | undefined;
}

/** Sorts drafts (containers before members on the same row), merges duplicates, adds ids, names and nested definitions. */
function finalize(doc: SourceDocument, src: SourceText, drafts: Draft[], definitions: DefinitionMatch[], budget: number): Chunk[] {
  const sorted = cutAtDefinitions(inDraftOrder(drafts, src), definitions, src);
  const taken = matchDefinitions(sorted, definitions);
  const chunks: Chunk[] = [];
  const ids = new Set<string>();
  // Duplicates share their lines, so they sit in the run of chunks with the same lines.
  let runStart = 0;
  for (const d of sorted) {
    const startLine = d.startRow + 1;
    const endLine = d.endRow + 1;
    const last = chunks[chunks.length - 1];
    if (!last || last.startLine !== startLine || last.endLine !== endLine) runStart = chunks.length;
    let same: Chunk | undefined;
    // A draft with characters of its own is a chunk of its own: merged, its text would not be one range.
    for (let i = runStart; i < chunks.length && d.spanStart < 0; i++) {
      const c = chunks[i] as Chunk;
      if (c.kind === d.kind && c.symbol === d.symbol && c.span === undefined) {
        same = c;
        break;
      }
    }
    if (same) {
      // Definitions of one name on the same lines: one chunk holding their texts while they fit
      // the budget; beyond it the lines are covered already.
      if (same.text.length + 1 + d.text.length <= budget) {
        ids.delete(same.id);
        same.text += `\n${d.text}`;
        same.id = makeChunkId(doc.path, same.kind, same.symbol, startLine, same.text);
        ids.add(same.id);
      }
      continue;
    }
    const id = makeChunkId(doc.path, d.kind, d.symbol, startLine, d.text);
    if (ids.has(id)) continue;
    ids.add(id);
    const chunk: Chunk = {
      docid: makeDocid(doc.path, startLine, endLine),
      id,
      path: doc.path,
      startLine,
      endLine,
      text: d.text,
      language: doc.language,
      kind: d.kind,
      symbol: d.symbol,
      context: d.path.join('.'),
    };
    if (d.signature) chunk.signature = d.signature;
    if (d.docstring) chunk.docstring = d.docstring;
    if (d.parent.length > 0) chunk.parent = d.parent.join('.');
    if (d.visibility) chunk.visibility = d.visibility;
    if (d.decorators) chunk.decorators = d.decorators;
    // The first part carries the definition's name wherever it is (a long doc comment can
    // fill the first part); a later part carries it when the name is on its lines.
    const nameRow = d.nameAt >= 0 ? src.rowOf(d.nameAt) : -1;
    if (nameRow >= 0 && (d.part === 0 || (nameRow >= d.startRow && nameRow <= d.endRow))) {
      chunk.nameLine = nameRow + 1;
      chunk.nameColumn = d.nameAt - src.rowStart(nameRow) + 1;
    }
    if (d.part === 0 && d.defEndRow > d.endRow) chunk.definitionEndLine = d.defEndRow + 1;
    if (d.part > 0) chunk.continued = true;
    if (d.spanStart >= 0) chunk.span = [d.spanStart, d.spanEnd];
    chunks.push(chunk);
  }
  attachNested(chunks, src, definitions, taken);
  return chunks;
}

/** Languages whose top-level declarations are read from the text where the grammar failed (declarationLines). */
const DECLARATION_TEXT_LANGUAGES: ReadonlySet<string> = new Set(['typescript', 'tsx', 'javascript']);

/** The query's definitions, and for a JS/TS file with syntax errors, declarations the errors hid. */
function definitionsOf(parsed: Parsed, src: SourceText, drafts: readonly Draft[], walked: Walked | undefined): DefinitionMatch[] {
  const found = walked ? findDefinitions(parsed.root, parsed.language, searchRanges(drafts, src), walked.definitions, walked.definitionTypes) : [];
  if (parsed.errors.errorChars === 0 || !DECLARATION_TEXT_LANGUAGES.has(parsed.language)) return found;
  const extra = declarationLines(src.text, found);
  return extra.length === 0 ? found : [...found, ...extra].sort((a, b) => a.nameAt - b.nameAt);
}

/**
 * Kinds whose chunks hold no definition the extractor did not list: containers (their members
 * are drafts of their own), types, macros, keys. The query searches only the other chunks.
 */
const KNOWN_INSIDE: ReadonlySet<string> = new Set(['class', 'struct', 'interface', 'trait', 'impl', 'enum', 'union', 'module', 'namespace', 'type', 'macro', 'key', 'rule', 'element', 'section']);

/** Gaps between chunks up to this many characters are searched too, so neighbours make one range. */
const RANGE_GAP = 256;

/** The text a definitions query should search: functions, methods and code, as merged offset ranges. */
function searchRanges(drafts: readonly Draft[], src: SourceText): Range[] {
  const spans: Array<[number, number]> = [];
  for (const d of drafts) {
    if (KNOWN_INSIDE.has(d.kind) || d.part > 0) continue;
    if (d.nodeStart >= 0) spans.push([d.nodeStart, d.nodeEnd]);
    else spans.push([src.rowStart(d.startRow), src.rowEnd(d.endRow)]);
  }
  spans.sort((a, b) => a[0] - b[0]);
  const out: Array<[number, number]> = [];
  for (const s of spans) {
    const last = out[out.length - 1];
    if (last && s[0] <= last[1] + RANGE_GAP) last[1] = Math.max(last[1], s[1]);
    else out.push([s[0], s[1]]);
  }
  return out;
}

/** How far `matchDefinitions` looks among a definition's matches for its own name. */
const NAME_SEARCH_LIMIT = 64;

/**
 * Finds each draft's definition among the query's matches (same name, its name inside the
 * draft's node; the first such is the definition's own, since a name precedes its body) and
 * takes the match's name position. Returns, per match, the breadcrumb of the draft that took
 * it (undefined: a nested definition, with no chunk of its own).
 */
function matchDefinitions(drafts: readonly Draft[], defs: readonly DefinitionMatch[]): Array<string | undefined> {
  const taken = new Array<string | undefined>(defs.length).fill(undefined);
  if (defs.length === 0) return taken;
  let lastNode = -1;
  let lastAt = -1;
  for (const d of drafts) {
    if (d.nodeStart < 0 || !d.symbol) continue;
    // Every part of a split definition shares its identity: look it up once.
    if (d.nodeStart === lastNode) {
      d.nameAt = lastAt;
      continue;
    }
    let lo = 0;
    let hi = defs.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((defs[mid] as DefinitionMatch).nameAt < d.nodeStart) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo, seen = 0; i < defs.length && seen < NAME_SEARCH_LIMIT; i++, seen++) {
      const m = defs[i] as DefinitionMatch;
      if (m.nameAt >= d.nodeEnd) break;
      if (taken[i] !== undefined || m.name !== d.symbol) continue;
      taken[i] = d.path.join('.');
      d.nameAt = m.nameAt;
      break;
    }
    lastNode = d.nodeStart;
    lastAt = d.nameAt;
  }
  return taken;
}

/** How many chunks before a name's line are considered as its holder (the smallest containing one). */
const HOLDER_SEARCH_LIMIT = 256;

/**
 * Gives each match that no chunk took to the smallest chunk holding its name, with a
 * breadcrumb through the definitions around it: `create.isArrayType`.
 */
function attachNested(chunks: Chunk[], src: SourceText, defs: readonly DefinitionMatch[], taken: ReadonlyArray<string | undefined>): void {
  if (defs.length === 0 || chunks.length === 0 || taken.every((t) => t !== undefined)) return;
  // Outer definitions before the ones inside them, so a stack follows the nesting.
  const order = [...defs.keys()].sort((a, b) => (defs[a] as DefinitionMatch).start - (defs[b] as DefinitionMatch).start || (defs[b] as DefinitionMatch).end - (defs[a] as DefinitionMatch).end);
  const crumbs = new Array<string>(defs.length);
  const stack: number[] = [];
  for (const i of order) {
    const m = defs[i] as DefinitionMatch;
    while (stack.length > 0 && (defs[stack[stack.length - 1] as number] as DefinitionMatch).end < m.end) stack.pop();
    const own = taken[i];
    const row = src.rowOf(m.nameAt);
    const line = row + 1;
    const holder = own === undefined ? holderOf(chunks, src, line, m.nameAt) : undefined;
    if (own !== undefined) crumbs[i] = own;
    else {
      const outer = stack.length > 0 ? crumbs[stack[stack.length - 1] as number] : holder?.context;
      crumbs[i] = outer ? `${outer}.${m.name}` : m.name;
    }
    stack.push(i);
    if (own !== undefined || !holder) continue;
    const nested: NestedDefinition = {
      kind: m.kind,
      symbol: m.name,
      context: crumbs[i] as string,
      startLine: src.rowOf(m.start) + 1,
      endLine: src.lastRowOf(m.start, m.end) + 1,
      nameLine: line,
      nameColumn: m.nameAt - src.rowStart(row) + 1,
    };
    (holder.nested ??= []).push(nested);
  }
}

/**
 * The smallest chunk holding the name at offset `at` on `line`: its lines hold the line and its
 * characters, when it has a span, the offset (chunks are sorted by first line, then first character).
 */
function holderOf(chunks: readonly Chunk[], src: SourceText, line: number, at: number): Chunk | undefined {
  let lo = 0;
  let hi = chunks.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const c = chunks[mid] as Chunk;
    if (c.startLine < line || (c.startLine === line && (c.span ? c.span[0] : src.rowStart(line - 1)) <= at)) lo = mid + 1;
    else hi = mid;
  }
  let best: Chunk | undefined;
  for (let i = lo - 1, seen = 0; i >= 0 && seen < HOLDER_SEARCH_LIMIT; i--, seen++) {
    const c = chunks[i] as Chunk;
    if (c.endLine < line || (c.span && (at < c.span[0] || at >= c.span[1]))) continue;
    if (!best || isSmaller(c, best)) best = c;
  }
  return best;
}

/** Fewer lines; on as many lines, fewer characters when either stands for characters. */
function isSmaller(a: Chunk, b: Chunk): boolean {
  const lines = a.endLine - a.startLine - (b.endLine - b.startLine);
  if (lines !== 0 || (!a.span && !b.span)) return lines < 0;
  return (a.span ? a.span[1] - a.span[0] : Infinity) < (b.span ? b.span[1] - b.span[0] : Infinity);
}

/**
 * Draft order: by first row, then first character (drafts on shared rows), then longer first,
 * then shallower, then as extracted.
 */
function draftOrder(src: SourceText): (a: Draft, b: Draft) => number {
  const first = (d: Draft): number => (d.spanStart >= 0 ? d.spanStart : src.rowStart(d.startRow));
  return (a, b) => a.startRow - b.startRow || first(a) - first(b) || b.endRow - a.endRow || a.depth - b.depth;
}

/** The drafts in draft order; most files' drafts already are (a header full of macros), and are not copied. */
function inDraftOrder(drafts: Draft[], src: SourceText): Draft[] {
  const order = draftOrder(src);
  let ordered = true;
  for (let i = 1; i < drafts.length && ordered; i++) ordered = order(drafts[i - 1] as Draft, drafts[i] as Draft) <= 0;
  if (ordered) return drafts;
  // Array.prototype.sort is stable: ties keep their extraction order.
  return [...drafts].sort(order);
}
