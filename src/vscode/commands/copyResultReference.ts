// Copy Span Reference in the Results view (its context menu, its inline button, and Ctrl+C):
// copies the row's `path:start-end` — a file row, its path. Bound to Ctrl+C with the arguments
// VS Code's own view actions use for "the focused row" ({ $treeViewId, $focusedTreeItem }), which
// the extension host turns into the focused element: the row the keyboard is on, which need not
// be the selected one. The editor's Copy Span Reference is another command, so the editor's
// context menu does not advertise a Ctrl+C that does not apply there.
import * as vscode from 'vscode';
import { spanReference } from '../format';
import type { FileNode } from '../resultFiles';
import type { HitNode } from '../views/resultsView';
import type { CairnCommand } from './types';

function rowOf(arg: unknown): FileNode | HitNode | undefined {
  const node = arg as Partial<FileNode | HitNode> | null | undefined;
  return node?.type === 'hit' || node?.type === 'file' ? (node as FileNode | HitNode) : undefined;
}

export const copyResultReferenceCommand: CairnCommand = {
  id: 'cairn.copyResultReference',
  async run(deps, arg) {
    // No focused row reached us (nothing focused yet): the selected one.
    const row = rowOf(arg) ?? deps.selectedResult();
    if (!row) return undefined;
    const text = row.type === 'hit' ? spanReference(row.hit) : row.path;
    await vscode.env.clipboard.writeText(text);
    vscode.window.setStatusBarMessage(`$(copy) Copied ${text}`, 3000);
    return text;
  },
};
