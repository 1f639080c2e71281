// The status bar item: one glance at the index (indexing with %, up to date with counts, paused,
// error). Clicking it opens the status quick pick.
import * as vscode from 'vscode';
import { count, progressPercent, progressText, relativeTime } from '../format';
import type { EngineClient, FolderState } from '../services';

export interface StatusSummary {
  kind: FolderState['kind'];
  text: string;
  tooltip: string;
}

/** The workspace's overall state: an error wins, then indexing, starting, paused, ready. */
export function summarize(states: readonly FolderState[], paused: boolean): StatusSummary {
  const lines = states.map((s) => {
    const st = s.status;
    const what =
      s.kind === 'error' ? `error: ${s.error ?? 'unknown'}`
      : s.kind === 'indexing' ? `indexing (${progressText(s.progress)})`
      : st?.exists ? `${count(st.files, 'file')}, ${count(st.chunks, 'chunk')}, ${s.kind === 'paused' ? 'as of' : 'updated'} ${relativeTime(st.updatedAt)}`
      : s.kind;
    return `${s.folder.name}: ${what}${s.kind === 'paused' ? ' (indexing paused)' : ''}`;
  });
  const tooltip = states.length ? `Cairn index\n${lines.join('\n')}` : 'Cairn: no folder open';
  const files = states.reduce((n, s) => n + (s.status?.files ?? 0), 0);
  if (states.some((s) => s.kind === 'error')) return { kind: 'error', text: '$(error) Cairn', tooltip };
  const indexing = states.filter((s) => s.kind === 'indexing');
  if (indexing.length) {
    const pct = Math.min(...indexing.map((s) => progressPercent(s.progress) ?? 0));
    return { kind: 'indexing', text: `$(sync~spin) Cairn ${pct}%`, tooltip };
  }
  if (states.some((s) => s.kind === 'starting')) return { kind: 'starting', text: '$(loading~spin) Cairn', tooltip };
  if (paused) return { kind: 'paused', text: '$(debug-pause) Cairn paused', tooltip };
  return { kind: 'ready', text: `$(database) Cairn ${count(files, 'file')}`, tooltip };
}

export function createStatusBar(engine: EngineClient): { item: vscode.StatusBarItem; disposables: vscode.Disposable[] } {
  const item = vscode.window.createStatusBarItem('cairn.status', vscode.StatusBarAlignment.Left, 50);
  item.name = 'Cairn Index';
  item.command = 'cairn.showIndexStatus';
  const update = () => {
    const s = summarize(engine.states(), engine.paused);
    item.text = s.text;
    item.tooltip = `${s.tooltip}\n\nClick for status and commands`;
    item.backgroundColor = s.kind === 'error' ? new vscode.ThemeColor('statusBarItem.errorBackground') : s.kind === 'paused' ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    item.accessibilityInformation = { label: s.tooltip };
  };
  update();
  item.show();
  // Relative times in the tooltip go stale; a minute is fine for a tooltip.
  const tick = setInterval(update, 60_000);
  return { item, disposables: [item, engine.onDidChangeState(update), { dispose: () => clearInterval(tick) }] };
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
