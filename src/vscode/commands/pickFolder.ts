// Which folder an index command acts on: the one passed in (Index view item), else all of them
// for a refresh, else ask when the workspace has several.
import * as vscode from 'vscode';

/** A folder, `undefined` for every folder, or `'cancelled'`. */
export async function pickFolder(arg: unknown, question: string, allByDefault = false): Promise<vscode.WorkspaceFolder | undefined | 'cancelled'> {
  const fromNode = (arg as { state?: { folder?: vscode.WorkspaceFolder } } | undefined)?.state?.folder;
  if (fromNode) return fromNode;
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length <= 1 || allByDefault) return undefined;
  const all = { label: '$(root-folder) All Folders', folder: undefined };
  const picked = await vscode.window.showQuickPick([all, ...folders.map((f) => ({ label: `$(folder) ${f.name}`, description: f.uri.fsPath, folder: f }))], { title: question });
  return picked ? picked.folder : 'cancelled';
}
