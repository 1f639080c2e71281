// The status bar item: one glance at the index (indexing with %, refreshing N files, up to date
// with counts, paused, error), from the same snapshot the Index view shows (indexStateStore.ts).
// Clicking it opens the status quick pick.
import * as vscode from 'vscode';
import type { IndexStateStore } from '../indexStateStore';

export function createStatusBar(store: IndexStateStore): { item: vscode.StatusBarItem; disposables: vscode.Disposable[] } {
  const item = vscode.window.createStatusBarItem('cairn.status', vscode.StatusBarAlignment.Left, 50);
  item.name = 'Cairn Index';
  item.command = 'cairn.showIndexStatus';
  const update = () => {
    const s = store.current.summary;
    item.text = s.text;
    item.tooltip = `${s.tooltip}\n\nClick for status and commands`;
    item.backgroundColor = s.kind === 'error' ? new vscode.ThemeColor('statusBarItem.errorBackground') : s.kind === 'paused' ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    item.accessibilityInformation = { label: s.tooltip };
  };
  update();
  item.show();
  // Relative times in the tooltip go stale; a minute is fine for a tooltip.
  const tick = setInterval(() => store.publish(), 60_000);
  return { item, disposables: [item, store.onDidChange(update), { dispose: () => clearInterval(tick) }] };
}

/** Shows an activation failure where the user looks first. */
export function showActivationError(message: string): vscode.Disposable {
  const item = vscode.window.createStatusBarItem('cairn.status', vscode.StatusBarAlignment.Left, 50);
  item.name = 'Cairn Index';
  item.text = '$(error) Cairn';
  item.tooltip = `Cairn could not start: ${message}`;
  item.backgroundColor = new vscode.ThemeColor('statusBarItem.errorBackground');
  item.command = 'cairn.showLog';
  item.show();
  return item;
}
