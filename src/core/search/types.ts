// Result shapes of search and symbol lookup. Plain data: returned by the engine, printed by the
// CLI with --json, sent to MCP clients and to the extension's views unchanged.
import type { ChunkKind, Diagnostic, Span } from '../types';
import type { FieldName } from '../index/fields';

/** One addend of a hit's score. The values of a hit's breakdown add up to its score. */
export type ScoreComponent =
  | { kind: 'field'; field: FieldName; term: string; value: number }
  | { kind: 'boost'; name: string; factor: number; value: number }
  | { kind: 'match'; name: string; value: number };

/**
 * `auto` (the default): code first when the query looks like code or a task (an identifier, or
 * a verb first: "fix the retry logic"), no preference otherwise; `code`: code first, strongly;
 * `docs`: prose only; `all`: no preference.
 */
export type Scope = 'auto' | 'code' | 'docs' | 'all';

export interface SearchFilters {
  /** Language ids or aliases (`ts`, `python`). Empty/undefined = any. */
  languages?: string[];
  /** Chunk kinds (`function`, `class`). */
  kinds?: string[];
  /** Path globs relative to the root (`src/**`); a value without glob characters matches as a substring. */
  paths?: string[];
  /**
   * `code`: code first — prose is heavily demoted (it still appears when nothing in code matches);
   * `docs`: only prose (Markdown, rst, text); `all`: no preference.
   */
  scope?: Scope;
}

export interface SearchOptions extends SearchFilters {
  /** `index` (default), `ripgrep` (exact text), or `hybrid` (both, fused). */
  provider?: 'index' | 'ripgrep' | 'hybrid';
  /** With the ripgrep provider: treat the query as a regular expression. */
  regex?: boolean;
  limit?: number;
  offset?: number;
  /** Lines of preview per hit (default 3). */
  previewLines?: number;
  /** Add code definitions named in top doc hits, marked as cross-references (default true). */
  crossReferences?: boolean;
  /**
   * `file`: rank files, not chunks (`Engine.searchFiles`, a FileSearchResponse); limit and
   * offset then count files.
   */
  groupBy?: 'chunk' | 'file';
  /**
   * Chunks of one file allowed before the chunks of other files (default 3); later chunks of
   * that file are pushed below them. 0 turns diversification off.
   */
  maxPerFile?: number;
  /**
   * Search as you type: the query's last word, unless followed by a space, also matches as a
   * prefix (`getSco` finds `getScope`), below the word itself (exact words rank first).
   */
  prefixLast?: boolean;
}

/** A file as the index read it. */
export interface IndexedFile {
  size: number;
  mtimeMs: number;
  /** SHA-256 of the file's bytes, hex. */
  sha256: string;
}

export interface SearchHit extends Span {
  docid: string;
  score: number;
  scoreBreakdown: ScoreComponent[];
  symbol: string;
  kind: ChunkKind;
  language: string;
  context: string;
  /**
   * Lines of the chunk from its best-matching line (the one with the most query words; without
   * a match, its first line with a word in it), matched words marked «like this».
   */
  preview: string;
  /** 1-based file line of the preview's first line (absent without a preview). */
  previewLine?: number;
  /** 1-based lines of the chunk where query words occur: at most 5, the best ones, ascending (absent without a query). */
  matchLines?: number[];
  signature?: string;
  /**
   * Where the hit's symbol is named (1-based line and UTF-16 column), for hits that name one:
   * the place to put the cursor, inside startLine..endLine (which include doc comments and decorators).
   */
  nameLine?: number;
  nameColumn?: number;
  /** Stable chunk id (survives re-indexing unchanged code). */
  id: string;
  /**
   * The version of the file the hit was indexed from — its size, mtime and SHA-256 as the index
   * recorded them — so a caller can tell which text the span refers to; `stale` says whether
   * the file on disk is still that version. Absent for a ripgrep line the index holds no chunk for.
   */
  indexed?: IndexedFile;
  /** True when the file changed since it was indexed: the lines may have moved. */
  stale?: boolean;
  staleReason?: 'modified' | 'deleted';
  /** True when the chunk lacks some of the query's words (it matched only some of them, or only parts of a name). */
  partial?: true;
  /** For cross-references: the doc hit whose text named this definition. */
  crossReferenceFrom?: string;
  /** Workspace folder (multi-root front ends fill this in). */
  root?: string;
}

export interface IndexFreshness {
  files: number;
  chunks: number;
  /** True when the index was refreshed before answering (or nothing changed since). */
  fresh: boolean;
  generation: number;
  /**
   * Files a refresh still running when this was answered has yet to index: their hits are
   * marked `stale`, and the next answer sees more of them.
   */
  pending?: number;
}

/** What every search response carries beside its results. */
export interface SearchResponseMeta {
  query: string;
  total: number;
  /**
   * Set when the query matched so many chunks that counting stopped being exact: past
   * 1,000 matches, chunks that cannot make the results are skipped, so at least `total` match.
   */
  totalIsLowerBound?: true;
  /**
   * False when no result holds all of the query's words (for a name, the name itself): the
   * results are partial matches, each marked `partial`, and `note` says so. Absent otherwise.
   */
  allTerms?: false;
  /** With `allTerms: false`: `No result has all of: a, b; N partial matches`. */
  note?: string;
  tookMs: number;
  index: IndexFreshness;
  warnings: string[];
  diagnostics: Diagnostic[];
}

export interface SearchResponse extends SearchResponseMeta {
  results: SearchHit[];
  /** Hits before limit/offset. */
  total: number;
}

/** A file ranked by the evidence of its matching chunks (`groupBy: 'file'`). */
export interface FileHit {
  path: string;
  /** The sum of `scoreBreakdown`. */
  score: number;
  scoreBreakdown: ScoreComponent[];
  /** The file's best matching chunks (at most 3), best first. */
  spans: SearchHit[];
  /** Matching chunks of the file among those scored. */
  matchedChunks: number;
  language: string;
  stale?: boolean;
  /** The file's matching chunks lack a word of the query between them (each span says which of them do: `partial`). */
  partial?: true;
  /** Workspace folder (multi-root front ends fill this in). */
  root?: string;
}

export interface FileSearchResponse extends SearchResponseMeta {
  files: FileHit[];
  /** Files with a matching chunk among those scored, before limit/offset. */
  total: number;
}

export type SymbolMatch = 'exact' | 'exact-ignore-case' | 'qualified' | 'prefix' | 'camel-case' | 'fuzzy';

export interface SymbolHit extends SearchHit {
  match: SymbolMatch;
  /** Breadcrumb-qualified name (`Bar.baz`). */
  qualifiedName: string;
}

export interface SymbolOptions {
  languages?: string[];
  kinds?: string[];
  paths?: string[];
  limit?: number;
  previewLines?: number;
}

export interface SymbolResponse {
  query: string;
  /** True when at least one result matches the name exactly (case-sensitive or not). */
  exact: boolean;
  results: SymbolHit[];
  /** Plain-language summary when there is no exact match. */
  note?: string;
  tookMs: number;
  index: IndexFreshness;
  diagnostics: Diagnostic[];
}

/** Multiplicative boosts; each shows up in a hit's breakdown as the score it added or removed. */
export interface RankingParams {
  /** A definition whose name is a word of the query. */
  exactDefinition: number;
  /** Any named definition (function, class…) over glue code and plain text. */
  definition: number;
  /** Tests, unless the query is about tests. */
  test: number;
  /** Vendored, generated or minified files. */
  vendored: number;
  /** Scope `code`: prose and config relative to code. */
  codeFirstProse: number;
  codeFirstConfig: number;
  /** Scope `auto` (the default), for a query that looks like code or a task: prose relative to code. */
  autoCodeFirstProse: number;
  /**
   * Weight of a joined pair or triple of adjacent query words (`parse args` → `parseargs`,
   * `parse_args`) relative to a typed word.
   */
  joinedWords: number;
  /** A definition named by adjacent query words joined (`unused disable directives` → `unusedDisableDirectives`). */
  joinedName: number;
  /** Chunks of one file on a page before other files' chunks (`SearchOptions.maxPerFile` overrides). */
  maxPerFile: number;
  /** English stop words in a query of three or more other words, relative to a word. */
  stopWords: number;
  /** File ranking (`groupBy: 'file'`): weight of a file's second best chunk… */
  fileOtherChunks: number;
  /** …and the factor each further chunk's weight is multiplied by (a damped sum). */
  fileChunkDecay: number;
  /**
   * File ranking: each query word a file's other chunks match and its best chunk does not,
   * at this share of the word's weight × idf (the file covers more of the query). Off (0):
   * measured worse (docs/ranking-settings.md).
   */
  fileCoverage: number;
  /** Hybrid provider: the ripgrep list's weight in the rank fusion (the index list's is 1). */
  hybridRipgrep: number;
  /** File ranking: a query word is the file's name (`router` → `lib/router.js`, `lib/router/index.js`). */
  fileName: number;
  /**
   * File ranking: the files past commits with a message like the text changed, at this share
   * of the best keyword score (history/similarCommits.ts).
   */
  pastCommit: number;
  /**
   * File ranking: the files the words of the text's subject go with in past commits, at this
   * share of the best keyword score (history/messageWordFiles.ts).
   */
  pastCommitWords: number;
}

// ---------------------------------------------------------------------------
// References: where a name occurs as code (the index's occurrence tables).

/** What an occurrence is, syntactically (core/types.ts OCCURRENCE_ROLES). */
export type ReferenceRole = 'code' | 'member' | 'import' | 'definition';

/**
 * `certain`: the occurrence resolves to a definition the answer lists (the defining file, a
 * file importing it, its package); `name-match`: the same name, which may mean something else.
 */
export type ReferenceCertainty = 'certain' | 'name-match';

export interface ReferenceOptions {
  /** Kinds of the definitions the name is taken to mean (`function`, `method`…). */
  kinds?: string[];
  /** Only references in these paths (globs, or substrings as search filters take them). */
  paths?: string[];
  /** Only references in files of these languages. */
  languages?: string[];
  /** References returned with their text (default 100); every one is counted in `total`, `byFile` and `callers`. */
  limit?: number;
  /** Also group the references by the definition they occur in (`callers`). */
  callers?: boolean;
  /** Read each returned reference's line for `text` (default true; without it no file is read). */
  lineText?: boolean;
  /**
   * Ask from one definition (the place of its name; `cairn refs PATH:LINE` gives it): only
   * references that resolve to it, and name matches that may still be it.
   */
  definition?: ReferencePlace;
}

/** A place in a file: 1-based line, and UTF-16 column when known. */
export interface ReferencePlace {
  path: string;
  line: number;
  column?: number;
}

/** A definition of the name, as go-to-symbol finds it. */
export interface ReferenceDefinition extends Span {
  /** Where its name is (1-based line, UTF-16 column). */
  line: number;
  column: number;
  kind: ChunkKind;
  /** Breadcrumb-qualified name (`Linter.verify`). */
  qualifiedName: string;
  language: string;
}

export interface ReferenceHit {
  path: string;
  /** 1-based line and UTF-16 column of the name; `endColumn` is one past its last character. */
  line: number;
  column: number;
  endColumn: number;
  role: ReferenceRole;
  /** Breadcrumb of the definition the occurrence is inside (`Linter.verify`), '' at the top of a file. */
  context: string;
  /** That definition's kind (`code` at the top of a file). */
  contextKind: ChunkKind;
  /** The line as the file has it now, trimmed (a long line is cut around the name); '' without lineText. */
  text: string;
  certainty: ReferenceCertainty;
  /** Why it is certain, or why only a name match: `same file`, `imports src/x.ts`, `not defined in the index`… */
  reason: string;
  language: string;
  /** The file changed since indexing; the name is still at this place in it. */
  stale?: true;
  /** A certain reference's definition: where that definition's name is. */
  resolvesTo?: { path: string; line: number };
}

/**
 * Who vouches for a reference: the index's occurrence tables, or a language server (the
 * VS Code front end asks the editor's own for the definitions' files and merges both answers).
 */
export type ReferenceSource = 'index' | 'language server';

/** A reference with the source that found or confirmed it; a language server's are `certain`. */
export interface SourcedReferenceHit extends ReferenceHit {
  source: ReferenceSource;
}

/** References merged from the index and language servers (the VS Code front end's answer). */
export interface SourcedReferencesResponse extends Omit<ReferencesResponse, 'references'> {
  references: SourcedReferenceHit[];
  /** One line on who answered: `typescript language server for 1 definition, the index for the rest`. */
  sources: string;
}

/** The references of one file (over all of them, not only those returned). */
export interface ReferenceFileGroup {
  path: string;
  language: string;
  references: number;
  certain: number;
}

/** The references inside one definition: who uses the name (over all of them). */
export interface ReferenceCallerGroup {
  path: string;
  /** The enclosing definition's breadcrumb, '' for the top of the file. */
  context: string;
  kind: ChunkKind;
  references: number;
  certain: number;
  /** Lines of its references, ascending (at most 20). */
  lines: number[];
}

export interface ReferencesResponse {
  /** The name looked up (the member of a `Class.method` form). */
  name: string;
  /** `Class` of a `Class.method` form. */
  qualifier?: string;
  definitions: ReferenceDefinition[];
  /** Certain ones first; at most `limit`. */
  references: ReferenceHit[];
  byFile: ReferenceFileGroup[];
  /** With `callers`. */
  callers?: ReferenceCallerGroup[];
  /** References found (all of them, before `limit`), and how many are certain. */
  total: number;
  certain: number;
  /** More references than `limit` were found. */
  truncated: boolean;
  /** Plain-language summary when there is nothing to show, or the name is not defined. */
  note?: string;
  tookMs: number;
  index: IndexFreshness;
  diagnostics: Diagnostic[];
}
