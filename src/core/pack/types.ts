// Context packs: what to read for a task, why, and what was left out. Plain data, rendered as
// Markdown for people and agents, shown in the extension's webview, returned by CLI and MCP.
import type { Diagnostic, Span } from '../types';
import type { IndexFreshness, ScoreComponent } from '../search/types';

/** How an item came to be in the pack. */
export type PackRelation =
  | 'named-span' // the task names this `path:start-end`
  | 'named-file' // the task names this file
  | 'named-symbol' // the task names this definition
  | 'lexical' // matches the task's words
  | 'called-definition' // defines something a top hit calls or mentions
  | 'caller' // calls a must-inspect definition (a certain reference)
  | 'imported' // a top file imports it
  | 'importer' // it imports a top file
  | 'test' // a test exercising a top file
  | 'doc'; // prose mentioning a top symbol or file

export interface PackItem extends Span {
  docid: string;
  symbol: string;
  kind: string;
  language: string;
  context: string;
  relation: PackRelation;
  /** One sentence a person or an agent can act on. */
  reason: string;
  score: number;
  scoreBreakdown: ScoreComponent[];
  /** Estimated tokens of this item as rendered in the Markdown pack. */
  tokens: number;
  /** The span's text as it is in the working tree (must-inspect items only; cut to fit the budget). */
  text?: string;
  /** Set when the text was cut to fit the budget: the lines actually included. */
  truncatedTo?: { startLine: number; endLine: number };
  stale?: boolean;
}

export interface RelatedFile {
  path: string;
  /** The best span in that file, when known. */
  docid?: string;
  relation: PackRelation;
  reason: string;
  score: number;
  scoreBreakdown: ScoreComponent[];
}

export interface RejectedFile {
  path: string;
  docid?: string;
  reason: string;
  score?: number;
}

/**
 * A must-inspect span shortened to fit the token budget (it keeps its first lines), or, in the
 * rare last resort, moved out entirely. Spans with no room at all for their text are listed
 * with the related files instead, with that reason.
 */
export interface CutItem {
  docid: string;
  originalTokens: number;
  keptTokens: number;
  action: 'truncated' | 'moved-to-related';
}

export interface GuidanceEntry {
  id: string;
  title: string;
  score: number;
  /** Primary file content in entry mode, when fetched. */
  summary?: string;
  trust: string;
}

export interface ContextPack {
  task: string;
  budgetTokens: number;
  usedTokens: number;
  mustInspect: PackItem[];
  relatedFiles: RelatedFile[];
  rejectedFiles: RejectedFile[];
  cut: CutItem[];
  /** Guidance packs from the context registry relevant to the task (metadata, entry mode). */
  guidance: GuidanceEntry[];
  index: IndexFreshness;
  tookMs: number;
  warnings: string[];
  diagnostics: Diagnostic[];
}

export interface PackOptions {
  /** Hard limit on the rendered pack, in estimated tokens (default 6000). */
  budgetTokens?: number;
  /** Paths, globs or docids the caller says are irrelevant. */
  negatives?: string[];
  /** At most this many must-inspect spans (default 14: one for each of the 10 files file search ranks first, and four more). */
  maxMustInspect?: number;
  /** At most this many related files (default 12). */
  maxRelated?: number;
  languages?: string[];
  paths?: string[];
  /** Retrieval provider for the lexical candidates (default hybrid). */
  provider?: 'index' | 'hybrid';
}
