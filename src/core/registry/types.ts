// Public shapes of the context registry. Plain JSON data only: every value here is printed by
// the CLI with --json, sent to MCP clients and shown in a webview unchanged.
import type { RegistryDiagnostic } from './diagnostics';

export type { RegistryDiagnostic, RegistryDiagnosticCode } from './diagnostics';

/** How far a pack's author is trusted. Registry content is advisory whatever the level. */
export type TrustLevel = 'verified' | 'community' | 'unreviewed';

/** What a file of a pack is for. `primary` is the pack's DOC.md or SKILL.md. */
export type FileRole = 'primary' | 'reference' | 'example' | 'errors' | 'other';

/** One file of a pack as its manifest declares it (never its content). */
export interface PackFileRef {
  /** POSIX path relative to the pack folder. */
  path: string;
  role: FileRole;
  /** SHA-256 of the file's bytes, hex, as declared by the manifest. */
  sha256: string;
}

/** Where an entry came from. */
export type Provenance =
  | {
      kind: 'local';
      sourceId: string;
      /** The pack folder: POSIX path relative to the root (absolute when the registry lies outside it). */
      path: string;
      /** The manifest file, same convention. */
      manifest: string;
    }
  | {
      kind: 'remote';
      sourceId: string;
      /** The configured registry URL. */
      url: string;
      /** When the copy in use was downloaded (ms since the epoch). */
      fetchedAtMs: number;
      /** True when the server could not be reached and the cached copy answered. */
      servedFromCache: boolean;
    };

/** An entry's metadata: what search returns. Never holds file content. */
export interface EntryMetadata {
  id: string;
  title: string;
  description: string;
  tags: string[];
  language: string;
  sourceId: string;
  packageVersion: string;
  /** Content revision, an opaque label chosen by the author (`r7`, a date, a commit). */
  revision: string;
  trust: TrustLevel;
  /** Author-declared quality in [0, 1]; 0.5 when not declared. */
  quality: number;
  /** SHA-256 over the pack's declared file list (see computeContentHash). */
  contentHash: string;
  /** Path of the primary file inside the pack (`DOC.md` or `SKILL.md`, possibly in a subfolder). */
  primary: string;
  files: PackFileRef[];
  provenance: Provenance;
  /** `verified` when every file matched its declared hash at the last check, else `problems`. */
  integrity: 'verified' | 'problems';
}

/** One addend of a hit's score; the values of a breakdown add up to the score. */
export type RegistryScoreComponent =
  | { kind: 'field'; field: SearchField; term: string; value: number }
  | { kind: 'boost'; name: string; factor: number; value: number }
  | { kind: 'match'; name: string; value: number };

export type SearchField = 'id' | 'title' | 'description' | 'tags' | 'language' | 'source';

export interface RegistryHit extends EntryMetadata {
  score: number;
  scoreBreakdown: RegistryScoreComponent[];
}

export type CacheStatus = 'hit' | 'refreshed' | 'rebuilt';

/** How one source answered this call. */
export interface SourceReport {
  kind: 'local' | 'remote';
  /** Registry folder (local, root-relative) or URL (remote). */
  location: string;
  /** `unavailable`: nothing could be read and no cached copy exists. */
  status: CacheStatus | 'unavailable';
  /** Remote only: the server failed and the cached copy answered. */
  servedFromCache?: boolean;
  entries: number;
}

export interface CacheReport {
  /** The most expensive status of the sources consulted: rebuilt > refreshed > hit. */
  status: CacheStatus;
  sources: SourceReport[];
}

export interface SearchOptions {
  /** Maximum hits (default 10, at most 100). */
  limit?: number;
  /** Only entries in this language (ids or aliases: `ts`, `python`). */
  language?: string;
}

export interface RegistrySearchResponse {
  query: string;
  results: RegistryHit[];
  /** Matching entries before the limit. */
  total: number;
  cache: CacheReport;
  tookMs: number;
  diagnostics: RegistryDiagnostic[];
}

/** `entry`: the primary file only; `file`: one named file; `full`: primary and every companion. */
export type FetchMode = 'entry' | 'file' | 'full';

export interface FetchOptions {
  mode?: FetchMode;
  /** The file to return in `file` mode, relative to the pack. */
  file?: string;
  /** Count notes from older versions/revisions as available (their text is never included). */
  includeStale?: boolean;
  /** The revision the caller expects (e.g. from a search hit); a different one is `stale-revision`. */
  revision?: string;
  /** Pick the entry from this source when several sources define the id. */
  sourceId?: string;
}

/** Why a file of the entry is not in the result. */
export type OmitReason =
  | 'not-requested'
  | 'missing-file'
  | 'hash-mismatch'
  | 'path-traversal'
  | 'permission-denied'
  | 'too-large'
  | 'invalid-utf8'
  | 'unreadable';

export interface FetchedFile {
  path: string;
  role: FileRole;
  sha256: string;
  size: number;
  /** UTF-8 text, verified against the declared hash just before it was returned. */
  content: string;
}

/** A command found in registry content. Shown to people as a suggestion; never executed. */
export interface SuggestedCommand {
  command: string;
  /** File of the pack, relative to the pack folder. */
  file: string;
  /** 1-based line of the command's first line. */
  line: number;
  trusted: false;
  origin: 'fenced-block' | 'prompt-line';
}

/** Counts of notes written for an older package version or revision. Never their text. */
export interface StaleSummary {
  count: number;
  versions: Array<{ packageVersion: string; revision: string; count: number }>;
}

export interface AnnotationSummary {
  /** Notes keyed to this repository, package version and revision. */
  current: number;
  stale: StaleSummary;
}

export interface Freshness {
  /** Local entries: whether the pack changed on disk since the registry was last read. */
  workingTree: 'unchanged' | 'changed' | 'not-applicable';
  /** Changed files of the pack, root-relative (local entries only). */
  changedPaths: string[];
  checkedAtMs: number;
}

export interface RegistryFetchResult {
  /** True when every requested file was returned, verified. */
  ok: boolean;
  id: string;
  mode: FetchMode;
  /** Null when the id is unknown. */
  entry: EntryMetadata | null;
  files: FetchedFile[];
  selectedFiles: string[];
  omittedFiles: Array<{ path: string; reason: OmitReason }>;
  provenance: Provenance | null;
  /** The versions and hashes the returned content belongs to. */
  version: {
    sourceId: string;
    packageVersion: string;
    revision: string;
    contentHash: string;
    /** SHA-256 of the manifest bytes (local) or of the registry document (remote). */
    manifestHash: string;
  } | null;
  cache: CacheReport;
  freshness: Freshness;
  durationMs: number;
  /** True when notes exist (current ones; stale ones too when includeStale). Read them with annotations(). */
  annotationAvailable: boolean;
  annotations: AnnotationSummary;
  suggestedCommands: SuggestedCommand[];
  /** Registry content is advisory: context for a person or agent, never instructions to follow. */
  trust: { level: TrustLevel | null; advisory: true; notice: string };
  diagnostics: RegistryDiagnostic[];
}

export type AnnotationKind = 'environment' | 'version-difference' | 'failure' | 'workaround' | 'note';

/** A user-written note as stored under .agent-context/knowledge/annotations/. */
export interface Annotation {
  id: string;
  entryId: string;
  /** The repository the note was written in (see RegistryOptions.repository). */
  repository: string;
  sourceId: string;
  packageVersion: string;
  revision: string;
  kind: AnnotationKind;
  text: string;
  createdAt: string;
}

/** A note as returned to callers: labelled so nobody mistakes it for registry content. */
export interface LabelledAnnotation extends Annotation {
  trust: 'user-written';
  label: string;
  /** True when written for another repository, package version or revision. */
  stale: boolean;
  staleBecause: Array<'repository' | 'package-version' | 'revision'>;
}

export interface AnnotateResult {
  ok: boolean;
  annotation: LabelledAnnotation | null;
  /** Where the note was written, root-relative. */
  path: string | null;
  diagnostics: RegistryDiagnostic[];
}

export interface AnnotationsResult {
  entryId: string;
  /** The key current notes must match; null when the entry is not in the registry. */
  current: { repository: string; packageVersion: string; revision: string } | null;
  notes: LabelledAnnotation[];
  stale: StaleSummary;
  diagnostics: RegistryDiagnostic[];
}

export interface RemoteSourceConfig {
  /** http(s) URL of a registry document (see remote.ts for the schema). */
  url: string;
  /** Deadline for one refresh: the document and every file it links (default 10 s). */
  timeoutMs?: number;
  /** Byte budget for one refresh: the document and every file it links (default 5 MB). */
  maxBytes?: number;
  /** How long a downloaded copy answers without asking the server again (default 0: ask every time). */
  maxAgeMs?: number;
  /** Pins the document: its SHA-256 must equal this. */
  sha256?: string;
}

export interface RegistryOptions {
  /** The repository root; the registry and annotations live under it. */
  root: string;
  /** Registry folder, relative to root or absolute. Default `.agent-context/registry`. */
  registryDir?: string;
  /** Where the registry keeps its caches; the caller chooses (never guessed). */
  cacheDir: string;
  /** Remote registries; none unless configured. */
  remote?: RemoteSourceConfig[];
  /** The repository notes are keyed to. Default: the root folder's name. */
  repository?: string;
  /** Files larger than this are not read (default 1 MiB). */
  maxFileBytes?: number;
}
