// Plain, serialisable data shared by every stage of the engine and by all front ends.
// Nothing here may hold a function, a class instance or a handle: these values cross
// worker-thread, process (CLI --json, MCP) and webview boundaries unchanged.

/** A structured problem report. Never thrown at a caller for bad input; always returned. */
/** A range of a file: `path` relative to the root, 1-based inclusive lines (`path:start-end`). */
export interface Span {
  path: string;
  startLine: number;
  endLine: number;
}

export interface Diagnostic {
  /** Stable machine-readable code, e.g. `binary`, `invalid-utf8`, `store-corrupt`. */
  code: string;
  message: string;
  /** POSIX path relative to the root, when the problem concerns one file. */
  path?: string;
  severity: 'error' | 'warning' | 'info';
}

// ---------------------------------------------------------------------------
// Discovery

/** Why a candidate file was left out. Each skip is reported as `{path, reason}`. */
export type SkipReason =
  | 'secret-name' // deny-list of secret-looking file names (name-based guard, not a content scan)
  | 'too-large' // larger than maxFileBytes
  | 'binary' // NUL byte in the first 1024 bytes
  | 'invalid-utf8' // content is not valid UTF-8
  | 'unreadable' // permission denied, I/O error
  | 'vanished' // disappeared between listing and reading
  | 'symlink' // symbolic links are never followed
  | 'hard-link' // a file with more than one name: another may be a refused file (`.env`)
  | 'not-a-file'; // a directory, socket, fifo... where a file was expected

export interface SkippedFile {
  path: string;
  reason: SkipReason;
  detail?: string;
}

/**
 * What lstat says about a file version, as git's index records it: a refresh trusts a file to
 * be unchanged only when all of it matches. Size and mtime alone miss a same-size rewrite whose
 * mtime was put back (`touch -d`, editors and build tools that preserve it); ctime cannot be set
 * back, and inode and device change when another file is renamed over this one. Inode and
 * device are numbers as Node gives them (above 2^53 they lose precision, the same way each time).
 */
export interface FileStat {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
  dev: number;
}

export interface DiscoveredFile extends FileStat {
  /** POSIX path relative to the root. */
  path: string;
}

export interface DiscoveryResult {
  files: DiscoveredFile[];
  skipped: SkippedFile[];
  /** How candidates were listed: `git` (ls-files) or `walk` (filesystem walk with .gitignore). */
  source: 'git' | 'walk';
}

/** A discovered file whose content has been read and validated. */
export interface SourceDocument {
  path: string;
  /** UTF-8 text, BOM stripped. */
  text: string;
  size: number;
  mtimeMs: number;
  /** SHA-256 of the raw bytes, hex. */
  hash: string;
  language: string;
}

// ---------------------------------------------------------------------------
// Chunking

export type ChunkKind =
  | 'function'
  | 'method'
  | 'constructor'
  | 'class'
  | 'interface'
  | 'type'
  | 'enum'
  | 'struct'
  | 'union'
  | 'trait'
  | 'impl'
  | 'module'
  | 'namespace'
  | 'constant'
  | 'variable'
  | 'property'
  | 'macro'
  | 'rule' // CSS rule set, Makefile rule
  | 'element' // HTML element
  | 'key' // top-level key of JSON / YAML / TOML
  | 'section' // Markdown / rst heading section
  | 'code' // code between definitions (imports, top-level statements)
  | 'text'; // line chunk with no structure

export interface Chunk {
  /** `path:startLine-endLine`, the id users and agents see and paste. */
  docid: string;
  /** Stable id: hash of path, kind, symbol, first line and content. Survives re-indexing unchanged code. */
  id: string;
  path: string;
  /** 1-based, inclusive. */
  startLine: number;
  /** 1-based, inclusive. */
  endLine: number;
  text: string;
  language: string;
  kind: ChunkKind;
  /** The chunk's own name (`baz`), '' when it has none. */
  symbol: string;
  /** Breadcrumb including the symbol itself: `Bar.baz`, or `Install > Linux` for prose. */
  context: string;
  signature?: string;
  docstring?: string;
  /** Breadcrumb of the enclosing symbol (`Bar` for `Bar.baz`). */
  parent?: string;
  visibility?: string;
  decorators?: string[];
  /** Where the definition's name is (1-based line and UTF-16 column), for chunks that name one. */
  nameLine?: number;
  nameColumn?: number;
  /** On the first part of a definition split for size: the definition's last line. */
  definitionEndLine?: number;
  /** On the second and later parts of a definition split for size (never a symbol result). */
  continued?: boolean;
  /**
   * The characters the chunk stands for, as UTF-16 offsets into the document's text (end
   * exclusive), when they are not whole lines: code sharing a line with definitions, a piece of
   * a minified line. Absent, the chunk stands for lines startLine..endLine.
   */
  span?: [start: number, end: number];
  /** Definitions inside this chunk's code that have no chunk of their own (nested functions, object-literal methods). */
  nested?: NestedDefinition[];
}

/** A definition found inside another chunk's code: a symbol, not a chunk. Lines are 1-based. */
export interface NestedDefinition {
  kind: ChunkKind;
  symbol: string;
  /** Breadcrumb including the symbol: `create.isArrayType`. */
  context: string;
  startLine: number;
  endLine: number;
  nameLine: number;
  nameColumn: number;
}

/**
 * What a name's occurrence is, syntactically: the name of a definition; inside an import, a
 * require or a re-export; a member (after `.`, `?.`, `->` or `::`); or any other code.
 */
export const OCCURRENCE_ROLES = ['code', 'member', 'import', 'definition'] as const;
export type OccurrenceRole = (typeof OCCURRENCE_ROLES)[number];

/**
 * Where names occur as code in a file's chunks (the AST chunker's identifier nodes: never a
 * comment or a string). Packed: four numbers per occurrence in `entries` — the chunk's index,
 * the 1-based line, the 1-based UTF-16 column, and the name's index in `names` times 4 plus
 * its role (OCCURRENCE_ROLES) — ordered by chunk, then line and column.
 */
export interface FileOccurrences {
  names: string[];
  entries: Int32Array;
}

export type ChunkStrategy = 'ast' | 'lines';

/** The terms of a file's chunks and their field frequencies, as the index stores them (built by `FileAnalyzer`). */
export interface FileAnalysis {
  /** Distinct terms of the file. */
  terms: string[];
  /** Chunk `d` owns entries `docStarts[d] .. docStarts[d+1]-1` of termRefs. */
  docStarts: Uint32Array;
  /** Index into `terms` of each (chunk, term) entry. */
  termRefs: Uint32Array;
  /** FIELD_COUNT field frequencies per (chunk, term) entry. */
  tfs: Uint16Array;
  /** FIELD_COUNT token counts per chunk. */
  fieldLengths: Uint16Array;
}

/** Result of chunking one file. */
export interface FileChunks {
  path: string;
  chunks: Chunk[];
  /** Which chunker produced the chunks (`lines` when the AST chunker fell back). */
  strategy: ChunkStrategy | 'markdown' | 'yaml';
  diagnostics: Diagnostic[];
  /** Import specifiers as written in the file (`./util`, `os.path`, `github.com/x/y`), from the AST chunker. */
  imports?: string[];
  /** Where names occur as code, from the AST chunker (absent for line chunks). */
  occurrences?: FileOccurrences;
  /** The chunks analysed for the index (terms and frequencies), when the chunker was asked to. */
  analysis?: FileAnalysis;
}
