// Cairn: Find References — where the name at the cursor (or a name typed) is used, shown as
// "References of X" in the Results view: the index's references merged with the language
// server's for the definitions' files, each marked certain or a name match and by whom. From
// the cursor, the references are those of the definition it is on or resolves to, when the
// index can tell; the index's answer is shown at once, the language server's merged when it
// comes.
import * as vscode from 'vscode';
import type { ReferencePlace } from '../../core/api';
import { findMergedReferences, type MergedReferences } from '../references/findReferences';
import { RESULTS_VIEW_ID } from '../views/resultsView';
import type { CairnCommand } from './types';

/** The selected text on one line, else the identifier under the caret. */
export function nameAtCursor(editor: vscode.TextEditor | undefined): string | undefined {
  return cursorName(editor)?.name;
}

/** The name at the cursor and where it starts (0-based position). */
function cursorName(editor: vscode.TextEditor | undefined): { name: string; at: vscode.Position } | undefined {
  if (!editor) return undefined;
  const sel = editor.selection;
  if (!sel.isEmpty && sel.isSingleLine) {
    const text = editor.document.getText(sel);
    const name = text.trim();
    return name ? { name, at: sel.start.translate(0, text.length - text.trimStart().length) } : undefined;
  }
  const range = editor.document.getWordRangeAtPosition(sel.active, /[A-Za-z_$][\w$]*/);
  return range ? { name: editor.document.getText(range), at: range.start } : undefined;
}

/** The cursor's place as the index names it: the path inside its folder, 1-based line and UTF-16 column. */
function placeOf(editor: vscode.TextEditor, folder: vscode.WorkspaceFolder | undefined, at: vscode.Position): ReferencePlace | undefined {
  if (!folder) return undefined;
  const base = folder.uri.path.replace(/\/$/, '');
  const uri = editor.document.uri;
  if (uri.scheme !== folder.uri.scheme || !uri.path.startsWith(`${base}/`)) return undefined;
  return { path: uri.path.slice(base.length + 1), line: at.line + 1, column: at.character + 1 };
}

export const findReferencesCommand: CairnCommand = {
  id: 'cairn.findReferences',
  async run(deps, arg): Promise<MergedReferences | undefined> {
    const editor = vscode.window.activeTextEditor;
    const typed = typeof arg === 'string' && arg.trim() ? arg.trim() : undefined;
    const cursor = typed ? undefined : cursorName(editor);
    const name =
      typed ??
      cursor?.name ??
      (await vscode.window.showInputBox({ title: 'Cairn: Find References', prompt: 'Where is this name used? (Class.method for one class’s method)', placeHolder: 'parseConfig' }))?.trim();
    if (!name) return undefined;
    const folders = vscode.workspace.workspaceFolders ?? [];
    const folder = (editor && vscode.workspace.getWorkspaceFolder(editor.document.uri)) ?? folders[0];
    const from = cursor && editor ? placeOf(editor, folder, cursor.at) : undefined;
    const folderUriOf = (answer: MergedReferences) => (folders.find((f) => f.name === answer.folder) ?? folder)?.uri.toString() ?? '';
    // Asked from a definition, the view names it (`Ruler.length`), not every definition of the name.
    const shownName = (answer: MergedReferences) => (from && answer.definitions.length === 1 ? (answer.definitions[0]?.qualifiedName ?? name) : name);
    const show = (answer: MergedReferences) => deps.showReferences({ name: shownName(answer), folderUri: folderUriOf(answer), answer });
    const answer = await vscode.window.withProgress({ location: { viewId: RESULTS_VIEW_ID }, title: `Finding references to ${name}` }, () =>
      findMergedReferences(deps.services.engine, name, {
        ...(folder ? { folder } : {}),
        ...(from ? { from } : {}),
        folderOf: (n) => folders.find((f) => f.name === n),
        onIndex: (first) => void show(first),
      }),
    );
    await show(answer);
    return answer;
  },
};
