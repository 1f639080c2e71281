// Cairn: Refresh Index — an incremental refresh: only files whose size, time or content changed
// are re-indexed.
import * as vscode from 'vscode';
import { resumeIfPaused } from './indexingPaused';
import { pickFolder } from './pickFolder';
import type { CairnCommand } from './types';

export const refreshIndexCommand: CairnCommand = {
  id: 'cairn.refreshIndex',
  async run(deps, arg) {
    const target = await pickFolder(arg, 'Refresh the index of which folder?', true);
    if (target === 'cancelled' || !(await resumeIfPaused(deps.services.engine, 'refresh the index'))) return;
    // A user asking is the one thing that restarts an engine thread that stayed stopped.
    deps.services.engine.retry();
    // The status bar item and the Index view show the progress (and a rebuild, a notification).
    await deps.services.engine.refresh(target).catch((e: unknown) => vscode.window.showErrorMessage(`Cairn: refresh failed: ${e instanceof Error ? e.message : String(e)}`));
  },
};
