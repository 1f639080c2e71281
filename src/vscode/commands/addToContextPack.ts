// Cairn: Add to Context Pack — puts a result (or the selected lines of the editor) into the
// basket the context-pack panel builds from.
import * as vscode from 'vscode';
import { spanReference } from '../format';
import { folderOf } from '../openSpan';
import { spanFromArg, spanFromEditor, type CairnCommand } from './types';

export const addToContextPackCommand: CairnCommand = {
  id: 'cairn.addToContextPack',
  run(deps, arg) {
    const span = spanFromArg(arg) ?? spanFromEditor(vscode.window.activeTextEditor, (u) => vscode.workspace.getWorkspaceFolder(u));
    if (!span) {
      void vscode.window.showInformationMessage('Cairn: select a search result, or lines in a workspace file, to add them to the context pack.');
      return;
    }
    const folder = span.folder ?? folderOf(span)?.name ?? '';
    const docid = span.docid ?? spanReference(span);
    deps.services.basket.add({ folder, docid, path: span.path, startLine: span.startLine, endLine: span.endLine, symbol: span.symbol ?? '', kind: span.kind ?? 'span' });
    vscode.window.setStatusBarMessage(`$(add) Added ${docid} to the context pack (${deps.services.basket.items.length})`, 3000);
  },
};
