// Plain data of an evaluation run: the cases mined from git history and the report
// `cairn eval --json` prints. Serialisable as is.
import type { LineRange } from './diffRanges';

/** A file a commit changed, as it was in the commit's parent, with the lines it changed there. */
export interface TruthFile {
  path: string;
  ranges: LineRange[];
}

/** One retrieval task: a commit's cleaned message, answered by the spans it changed in its parent. */
export interface EvalCase {
  commit: string;
  parent: string;
  /** Committer date, ISO 8601. */
  date: string;
  /** Committer date, seconds since the epoch (cases are evaluated in this order). */
  timestamp: number;
  subject: string;
  query: string;
  truth: TruthFile[];
}

/** Why a commit was not used; each reason is counted in the report. */
export type CaseSkipReason =
  | 'root'
  | 'merge'
  | 'version-bump'
  | 'formatting'
  | 'dependencies'
  | 'typo'
  | 'revert'
  | 'too-short'
  | 'too-many-files'
  | 'tests-or-docs-only'
  | 'no-source-change'
  | 'only-new-files'
  | 'whitespace-only'
  | 'no-line-changes'
  | 'missing-blobs';

export interface MiningResult {
  /** Commits looked at, newest first, until enough cases were found or the history ended. */
  scanned: number;
  /** Accepted cases, oldest first. */
  cases: EvalCase[];
  skipped: Partial<Record<CaseSkipReason, number>>;
  /** Each skipped commit with its reason, newest first (for inspecting the filters). */
  skippedCommits: Array<{ commit: string; subject: string; reason: CaseSkipReason }>;
}

/**
 * Systems an evaluation can run. The first four are Cairn's (`files`: the index's files ranked
 * as files, `groupBy: 'file'`); the last two are baselines.
 */
export type SystemKind = 'index' | 'files' | 'hybrid' | 'pack' | 'bm25' | 'rg-words';
export const SYSTEM_KINDS: readonly SystemKind[] = ['index', 'files', 'hybrid', 'pack', 'bm25', 'rg-words'];

/** Mean metrics of one system over the evaluated cases; null where the system cannot be scored (n/a). */
export interface SystemMetrics {
  recallAt1: number;
  recallAt5: number;
  recallAt10: number;
  mrr: number;
  /** Share of cases with a returned span overlapping a changed range among the first 10 results. */
  hitAt10: number | null;
  /** Share of ground-truth files among the pack's must-inspect spans (packs only). */
  packCoverage: number | null;
}

export interface SystemReport {
  /** Row name: `cairn index`, `cairn pack [variant]`, `bm25 whole-file`, `rg query-words`. */
  name: string;
  system: SystemKind;
  /** Engine settings variant (Cairn systems only). */
  variant?: string;
  /** True when the system answers with spans (line ranges) rather than whole files. */
  spans: boolean;
  cases: number;
  /** Null when no case was scored. */
  metrics: SystemMetrics | null;
  meanMs: number;
}

/** One system's outcome on one case. */
export interface CaseOutcome {
  /** 1-based rank of the first ground-truth file among the distinct files returned; null when none. */
  firstRelevantRank: number | null;
  recallAt10: number;
  hitAt10: boolean | null;
  packCoverage: number | null;
  /** The first files returned (at most 10), for reading what went wrong. */
  topFiles: string[];
  ms: number;
}

/** What one incremental refresh did (a subset of the engine's RefreshReport). */
export interface RefreshSummaryLine {
  full: boolean;
  requestedPaths: number;
  filesScanned: number;
  added: number;
  changed: number;
  removed: number;
  unchanged: number;
  durationMs: number;
}

export interface CaseReport {
  commit: string;
  parent: string;
  date: string;
  query: string;
  truth: TruthFile[];
  /** Ground-truth files the searchable tree does not hold (not found by any system, left out). */
  unsearchableTruth: string[];
  /** Files that differ from the previous case's tree (all files for the first case). */
  treeChanges: number | 'all';
  /** Refreshes of each index store (keyed by the first variant using it). */
  refresh: Record<string, RefreshSummaryLine>;
  outcomes: Record<string, CaseOutcome>;
}

export interface EvalReport {
  repository: string;
  head: string;
  settings: {
    maxCases: number;
    maxFiles: number;
    since?: string;
    budgetTokens: number;
    systems: SystemKind[];
    variants: Array<{ name: string; settings: Record<string, unknown> }>;
  };
  mining: { scanned: number; accepted: number; skipped: Partial<Record<CaseSkipReason, number>> };
  /** Cases actually scored (accepted cases minus those whose truth is not searchable). */
  evaluated: number;
  systems: SystemReport[];
  cases: CaseReport[];
  /** Paths left out of the scratch trees because the repository lacks their blobs (distinct, sorted). */
  missingBlobPaths: string[];
  /** Kept scratch folder (with --keep-scratch). */
  scratch?: string;
  warnings: string[];
  tookMs: number;
}
