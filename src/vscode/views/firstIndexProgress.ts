// Building a folder's index from nothing (its first index, or a rebuild) can take a while on a big
// repository: show it as a notification with progress. Cancelling pauses indexing (the work
// stays queued for Resume).
import * as vscode from 'vscode';
import { progressPercent, progressText } from '../format';
import type { EngineClient, FolderState } from '../services';

export function watchFirstIndex(engine: EngineClient): vscode.Disposable {
  const showing = new Set<string>();

  const isFirstIndex = (s: FolderState) => s.kind === 'indexing' && s.fromScratch === true;

  const show = (folder: vscode.WorkspaceFolder) => {
    const key = folder.uri.toString();
    showing.add(key);
    void vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Cairn: indexing ${folder.name}`, cancellable: true },
      (progress, token) =>
        new Promise<void>((resolve) => {
          let reported = 0;
          const finish = () => {
            sub.dispose();
            cancel.dispose();
            showing.delete(key);
            resolve();
          };
          const update = () => {
            const state = engine.states().find((s) => s.folder.uri.toString() === key);
            if (!state || state.kind !== 'indexing') return finish();
            const pct = progressPercent(state.progress) ?? 0;
            progress.report({ message: `${progressText(state.progress)} — cancel to pause`, increment: Math.max(0, pct - reported) });
            reported = Math.max(reported, pct);
          };
          const sub = engine.onDidChangeState(update);
          const cancel = token.onCancellationRequested(() => {
            engine.pause();
            finish();
          });
          update();
        }),
    );
  };

  return engine.onDidChangeState(() => {
    for (const s of engine.states()) if (isFirstIndex(s) && !showing.has(s.folder.uri.toString())) show(s.folder);
  });
}
