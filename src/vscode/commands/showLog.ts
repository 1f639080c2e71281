// Cairn: Show Log — the "Cairn" output channel: what was indexed, skipped, rebuilt or failed.
// Registered first thing in activate(), so it works even when activation fails later on.
import * as vscode from 'vscode';

export const SHOW_LOG_ID = 'cairn.showLog';

export function registerShowLog(log: vscode.LogOutputChannel): vscode.Disposable {
  return vscode.commands.registerCommand(SHOW_LOG_ID, () => log.show(true));
}
