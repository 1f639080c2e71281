// Cairn: Rebuild Index — discards a folder's index and builds it again (every folder when the
// workspace has several and the user picks "All Folders").
import * as vscode from 'vscode';
import { resumeIfPaused } from './indexingPaused';
import { pickFolder } from './pickFolder';
import type { CairnCommand } from './types';

export const rebuildIndexCommand: CairnCommand = {
  id: 'cairn.rebuildIndex',
  async run(deps, arg) {
    const target = await pickFolder(arg, 'Rebuild the index of which folder?');
    if (target === 'cancelled' || !(await resumeIfPaused(deps.services.engine, 'rebuild the index'))) return;
    // The status bar item and the Index view show the progress (and a rebuild, a notification).
    await deps.services.engine.rebuild(target).catch((e: unknown) => vscode.window.showErrorMessage(`Cairn: rebuild failed: ${e instanceof Error ? e.message : String(e)}`));
  },
};
