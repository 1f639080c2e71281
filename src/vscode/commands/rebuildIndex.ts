// Cairn: Rebuild Index — builds a folder's index again from nothing (every folder when the
// workspace has several and the user picks "All Folders"), after asking: on a large repository
// it takes a while. The current index keeps answering searches until the new one is ready.
// `{ skipConfirmation: true }` rebuilds without asking (for other features, and for tests: VS Code
// refuses to show modal dialogs in an extension test host).
import * as vscode from 'vscode';
import { pickFolder } from './pickFolder';
import type { CairnCommand } from './types';

export const REBUILD_BUTTON = 'Rebuild';

/** "Rebuild the index of cairn? …", as the confirmation asks it. */
export function rebuildQuestion(folder: vscode.WorkspaceFolder | undefined, paused: boolean): string {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const what = folder ? folder.name : folders.length === 1 ? (folders[0] as vscode.WorkspaceFolder).name : `all ${folders.length} folders`;
  return `Rebuild the index of ${what}? Search keeps using the current index until the new one is ready.${paused ? ' Indexing is paused: rebuilding resumes it.' : ''}`;
}

export const rebuildIndexCommand: CairnCommand = {
  id: 'cairn.rebuildIndex',
  async run(deps, arg) {
    const target = await pickFolder(arg, 'Rebuild the index of which folder?');
    if (target === 'cancelled') return;
    const { engine } = deps.services;
    const asked = (arg as { skipConfirmation?: unknown } | undefined)?.skipConfirmation !== true;
    if (asked && (await vscode.window.showWarningMessage(rebuildQuestion(target, engine.paused), { modal: true }, REBUILD_BUTTON)) !== REBUILD_BUTTON) return;
    if (engine.paused) engine.resume();
    engine.retry();
    // The status bar item and the Index view show the progress (and a rebuild, a notification).
    await engine.rebuild(target).catch((e: unknown) => vscode.window.showErrorMessage(`Cairn: rebuild failed: ${e instanceof Error ? e.message : String(e)}`));
  },
};
