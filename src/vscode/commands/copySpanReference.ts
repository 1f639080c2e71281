// Cairn: Copy Span Reference — copies `path:start-end` of a result (or, from the editor, of the
// selected lines) to the clipboard.
import * as vscode from 'vscode';
import { copySpan } from '../views/livePick';
import { spanFromArg, spanFromEditor, type CairnCommand } from './types';

export const copySpanReferenceCommand: CairnCommand = {
  id: 'cairn.copySpanReference',
  async run(_deps, arg) {
    const span = spanFromArg(arg) ?? spanFromEditor(vscode.window.activeTextEditor, (u) => vscode.workspace.getWorkspaceFolder(u));
    if (!span) {
      void vscode.window.showInformationMessage('Cairn: select a search result, or lines in a workspace file, to copy their reference.');
      return undefined;
    }
    await copySpan(span);
    return `${span.path}:${span.startLine}-${span.endLine}`;
  },
};
