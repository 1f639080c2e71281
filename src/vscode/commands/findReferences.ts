// Cairn: Find References — where the name at the cursor (or a name typed) is used, shown as
// "References of X" in the Results view: the index's references merged with the language
// server's for the definitions' files, each marked certain or a name match and by whom.
import * as vscode from 'vscode';
import { findMergedReferences, type MergedReferences } from '../references/findReferences';
import { RESULTS_VIEW_ID } from '../views/resultsView';
import type { CairnCommand } from './types';

/** The selected text on one line, else the identifier under the caret. */
export function nameAtCursor(editor: vscode.TextEditor | undefined): string | undefined {
  if (!editor) return undefined;
  const sel = editor.selection;
  if (!sel.isEmpty && sel.isSingleLine) return editor.document.getText(sel).trim() || undefined;
  const range = editor.document.getWordRangeAtPosition(sel.active, /[A-Za-z_$][\w$]*/);
  return range ? editor.document.getText(range) : undefined;
}

export const findReferencesCommand: CairnCommand = {
  id: 'cairn.findReferences',
  async run(deps, arg): Promise<MergedReferences | undefined> {
    const editor = vscode.window.activeTextEditor;
    const given = typeof arg === 'string' && arg.trim() ? arg.trim() : nameAtCursor(editor);
    const name =
      given ??
      (await vscode.window.showInputBox({ title: 'Cairn: Find References', prompt: 'Where is this name used? (Class.method for one class’s method)', placeHolder: 'parseConfig' }))?.trim();
    if (!name) return undefined;
    const folders = vscode.workspace.workspaceFolders ?? [];
    const folder = (editor && vscode.workspace.getWorkspaceFolder(editor.document.uri)) ?? folders[0];
    const answer = await vscode.window.withProgress({ location: { viewId: RESULTS_VIEW_ID }, title: `Finding references to ${name}` }, () =>
      findMergedReferences(deps.services.engine, name, { ...(folder ? { folder } : {}), folderOf: (n) => folders.find((f) => f.name === n) }),
    );
    const folderUri = (folders.find((f) => f.name === answer.folder) ?? folder)?.uri.toString() ?? '';
    await deps.showReferences({ name, folderUri, answer });
    return answer;
  },
};
