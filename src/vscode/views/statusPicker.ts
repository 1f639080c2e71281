// The status quick pick (status bar click, "Cairn: Show Index Status"): every folder's state and
// the commands that act on the index, in one keyboard-friendly list.
import * as vscode from 'vscode';
import { count, progressText, relativeTime } from '../format';
import type { EngineClient, FolderState } from '../services';
import { folderHeadline } from '../indexSnapshot';

interface StatusItem extends vscode.QuickPickItem {
  command?: string;
}

function folderItem(state: FolderState): StatusItem {
  const s = state.status;
  const icon = { starting: 'loading~spin', indexing: 'sync~spin', ready: 'pass', paused: 'debug-pause', error: 'error' }[state.kind];
  const detail =
    state.kind === 'error' ? state.error
    : state.kind === 'indexing' ? progressText(state.progress)
    : s?.exists ? `${count(s.files, 'file')} · ${state.kind === 'paused' ? 'as of' : 'updated'} ${relativeTime(s.updatedAt)} · ${count(Object.keys(s.languages).length, 'language')} · ${count(s.skipped.length, 'file')} skipped`
    : 'no index yet';
  return { label: `$(${icon}) ${state.folder.name}`, description: folderHeadline(state), detail, command: state.kind === 'error' ? 'cairn.showLog' : 'cairn.index.focus' };
}

export async function showStatusPicker(engine: EngineClient): Promise<void> {
  const states = engine.states();
  const items: StatusItem[] = [
    { label: 'Folders', kind: vscode.QuickPickItemKind.Separator },
    ...(states.length ? states.map(folderItem) : [{ label: '$(folder) No folder open', description: 'open a folder to index it' }]),
    { label: 'Commands', kind: vscode.QuickPickItemKind.Separator },
    { label: '$(search) Search', command: 'cairn.search' },
    { label: '$(symbol-class) Go to Symbol', command: 'cairn.goToSymbol' },
    { label: '$(refresh) Refresh Index', description: 'incremental', command: 'cairn.refreshIndex' },
    engine.paused ? { label: '$(debug-continue) Resume Indexing', command: 'cairn.resumeIndexing' } : { label: '$(debug-pause) Pause Indexing', command: 'cairn.pauseIndexing' },
    { label: '$(sync) Rebuild Index', description: 'from scratch', command: 'cairn.rebuildIndex' },
    { label: '$(output) Show Log', command: 'cairn.showLog' },
  ];
  const picked = await vscode.window.showQuickPick(items, { title: 'Cairn: Index Status', placeHolder: 'Folders and index commands' });
  if (picked?.command) await vscode.commands.executeCommand(picked.command);
}
