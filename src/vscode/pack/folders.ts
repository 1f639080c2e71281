// Which workspace folder a pack (or an agent request) is about, and which text editor was
// last active. While a webview has focus `activeTextEditor` is undefined, so the pack panel
// remembers the last one for "insert at cursor" and for the default folder.
import * as vscode from 'vscode';

/** Workspace folders on disk (the engine indexes local files only). */
export function localFolders(): vscode.WorkspaceFolder[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
}

export function folderNamed(name: string | undefined): vscode.WorkspaceFolder | undefined {
  return name === undefined ? undefined : localFolders().find((f) => f.name === name || f.uri.toString() === name);
}

/** True when a label (folder name or URI, as hits and basket items carry it) means this folder. */
export const isFolder = (label: string, folder: vscode.WorkspaceFolder): boolean => label === folder.name || label === folder.uri.toString();

export class LastEditor implements vscode.Disposable {
  private editor: vscode.TextEditor | undefined = vscode.window.activeTextEditor;
  private readonly subscription = vscode.window.onDidChangeActiveTextEditor((e) => {
    if (e) this.editor = e;
  });

  /** The last text editor that had focus, unless its document has been closed since. */
  get current(): vscode.TextEditor | undefined {
    const e = vscode.window.activeTextEditor ?? this.editor;
    return e && !e.document.isClosed ? e : undefined;
  }

  /** The folder of the last active editor, else the first local folder. */
  defaultFolder(): vscode.WorkspaceFolder | undefined {
    const uri = this.current?.document.uri;
    const owner = uri ? vscode.workspace.getWorkspaceFolder(uri) : undefined;
    return (owner && owner.uri.scheme === 'file' ? owner : undefined) ?? localFolders()[0];
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
