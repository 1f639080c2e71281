// What every command gets: the shared services plus the extension's own UI state.
import type * as vscode from 'vscode';
import type { WorkerEngineClient } from '../engineClient';
import type { LastSearch } from '../lastSearch';
import type { CairnServices } from '../services';
import type { ShownReferences } from '../views/referenceNodes';
import type { FileNode } from '../resultFiles';
import type { HitNode } from '../views/resultsView';

export interface CommandDeps {
  services: CairnServices;
  client: WorkerEngineClient;
  lastSearch: LastSearch;
  /** Shows the Results view (and focuses it when `focus`). */
  revealResults(focus?: boolean): Promise<void>;
  /** Shows "References of X" in the Results view (until the next search) and reveals it. */
  showReferences(shown: ShownReferences): Promise<void>;
  /** The row (a file or a chunk) selected in the Results view, if any. */
  selectedResult(): FileNode | HitNode | undefined;
}

export interface CairnCommand {
  /** The command id contributed in package.json. */
  id: string;
  run(deps: CommandDeps, ...args: unknown[]): unknown;
}

/** A span a command acts on: a Results tree node, a search hit, or a plain span object. */
export interface SpanArg {
  path: string;
  startLine: number;
  endLine: number;
  folder?: string;
  folderUri?: string;
  docid?: string;
  symbol?: string;
  kind?: string;
}

function isSpan(value: unknown): value is SpanArg {
  const v = value as Partial<SpanArg> | undefined;
  return !!v && typeof v.path === 'string' && typeof v.startLine === 'number' && typeof v.endLine === 'number';
}

/** The span in a command argument (tree nodes carry theirs in `hit`). */
export function spanFromArg(arg: unknown): SpanArg | undefined {
  if (isSpan(arg)) return arg;
  const hit = (arg as { hit?: unknown } | undefined)?.hit;
  return isSpan(hit) ? hit : undefined;
}

/** The active editor's selection as a span of its workspace folder, if any. */
export function spanFromEditor(editor: vscode.TextEditor | undefined, folderOf: (uri: vscode.Uri) => vscode.WorkspaceFolder | undefined): SpanArg | undefined {
  if (!editor) return undefined;
  const folder = folderOf(editor.document.uri);
  if (!folder) return undefined;
  const rel = editor.document.uri.path.slice(folder.uri.path.replace(/\/$/, '').length + 1);
  const sel = editor.selection;
  // A selection ending at column 0 of a line does not include that line.
  const endLine = sel.end.line > sel.start.line && sel.end.character === 0 ? sel.end.line : sel.end.line + 1;
  return { path: rel, startLine: sel.start.line + 1, endLine, folder: folder.name, folderUri: folder.uri.toString() };
}
