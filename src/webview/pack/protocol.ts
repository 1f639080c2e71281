// The context-pack webview's message protocol, both directions, declared once. Pure types:
// imported by the webview script (src/webview/pack/main.ts) and by the extension side
// (src/vscode/pack/). Every payload is plain JSON; engine results travel unchanged.
import type { ContextPack, RegistryFetchResult, RegistryHit } from '../../core/api';

/** A span the user collected from the sidebar ("Add to Context Pack"); the extension's basket holds these. */
export interface BasketSpan {
  folder: string;
  docid: string;
  path: string;
  startLine: number;
  endLine: number;
  symbol: string;
  kind: string;
}

/** Where a span lives: enough for the extension to open it. */
export interface SpanTarget {
  folder: string;
  path: string;
  startLine: number;
  endLine: number;
}

/** What the user asked for. `folder` is a workspace folder name; omitted = the extension's default folder. */
export interface PackRequest {
  task: string;
  budgetTokens: number;
  folder?: string;
}

/** A built pack and how the user's request became the engine's task. */
export interface PackResult {
  request: PackRequest;
  pack: ContextPack & { folder: string };
  /** Basket spans named in the engine's task, so the pack has them as must-inspect. */
  basketIncluded: string[];
  /** Basket spans that could not be included, with why (another folder). */
  basketLeftOut: Array<{ docid: string; reason: string }>;
  /** Registry entries relevant to the task (metadata only; content is fetched on expand). */
  guidance: RegistryHit[];
  /** Problems looking up guidance; the pack itself is fine. */
  guidanceProblem?: string;
  builtAtMs: number;
}

/**
 * Why no pack could be built. `no-folder`: nothing to index; `no-index`: the folder has no index
 * yet; `indexing`: it is being built (the extension retries when it is ready); `engine`: anything else.
 */
export type PackErrorKind = 'no-folder' | 'no-index' | 'indexing' | 'engine';

export interface PackError {
  kind: PackErrorKind;
  message: string;
  /** Progress of an index build, when kind is `indexing`. */
  progress?: { phase: string; done: number; total: number };
}

export type GuidanceMode = 'entry' | 'full';

/** Registry entry content as fetched on expand; advisory only. */
export interface GuidanceDetail {
  id: string;
  mode: GuidanceMode;
  result: RegistryFetchResult;
}

/** What the webview keeps across hide/show and reloads (vscode.getState/setState). */
export interface PackViewState {
  version: 1;
  /** The task text in the input (possibly edited since the last build). */
  draftTask: string;
  budgetTokens: number;
  folder?: string;
  result?: PackResult;
  /** Keys of open <details> elements (see main.ts `detailsKey`). */
  open: string[];
  guidance: Record<string, GuidanceDetail>;
  scrollY: number;
}

/** Extension → webview. */
export type HostMessage =
  /** Sent once after `ready`: the environment and, when known, the current session. */
  | {
      type: 'init';
      folders: string[];
      defaultBudgetTokens: number;
      basket: BasketSpan[];
      /** The extension's current session; it supersedes the webview's restored state. */
      session?: { request: PackRequest; result?: PackResult; building: boolean; error?: PackError };
    }
  /** The panel was asked (command argument) to build a pack for this request. */
  | { type: 'setRequest'; request: PackRequest }
  | { type: 'building'; requestId: number; request: PackRequest }
  | { type: 'packResult'; requestId: number; result: PackResult }
  | { type: 'packError'; requestId: number; request: PackRequest; error: PackError }
  | { type: 'basket'; items: BasketSpan[] }
  | { type: 'guidanceResult'; detail: GuidanceDetail }
  | { type: 'guidanceError'; id: string; mode: GuidanceMode; message: string }
  /** A short acknowledgement of an action ("Copied …"), announced to screen readers. */
  | { type: 'notice'; text: string; severity: 'info' | 'error' };

/** Where "put it into the editor" goes. */
export type InsertTarget = 'newDocument' | 'cursor';

/** Webview → extension. */
export type ViewMessage =
  /** The script loaded; `restored` is the request found in its saved state, if any. */
  | { type: 'ready'; restored?: PackRequest & { hasResult: boolean } }
  | { type: 'build'; request: PackRequest }
  | { type: 'open'; target: SpanTarget }
  | { type: 'copyMarkdown' }
  | { type: 'insertMarkdown'; target: InsertTarget }
  | { type: 'guidance'; id: string; mode: GuidanceMode; revision?: string; sourceId?: string }
  | { type: 'removeBasketItem'; docid: string }
  | { type: 'clearBasket' }
  /** "Build the index" from the no-index state. */
  | { type: 'refreshIndex'; folder?: string };

/** The first key of every message, for exhaustive switches. */
export type HostMessageType = HostMessage['type'];
export type ViewMessageType = ViewMessage['type'];
