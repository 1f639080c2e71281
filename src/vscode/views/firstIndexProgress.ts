// Building a folder's index from nothing (its first index, or a rebuild) can take a while on a big
// repository: show it as a notification with progress, from the snapshot the status bar and the
// Index view show (indexStateStore.ts). Cancelling pauses indexing (the work stays queued for Resume).
import * as vscode from 'vscode';
import { progressText } from '../format';
import type { IndexStateStore } from '../indexStateStore';
import type { EngineClient } from '../services';

export function watchFirstIndex(store: IndexStateStore, engine: EngineClient): vscode.Disposable {
  const showing = new Set<string>();

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
            const view = store.current.folders.find((f) => f.state.folder.uri.toString() === key);
            if (!view || view.state.kind !== 'indexing') return finish();
            const pct = view.percent ?? 0;
            progress.report({ message: `${progressText(view.state.progress)} — cancel to pause`, increment: Math.max(0, pct - reported) });
            reported = Math.max(reported, pct);
          };
          const sub = store.onDidChange(update);
          const cancel = token.onCancellationRequested(() => {
            engine.pause();
            finish();
          });
          update();
        }),
    );
  };

  return store.onDidChange((snapshot) => {
    for (const f of snapshot.folders) if (f.state.kind === 'indexing' && f.state.fromScratch === true && !showing.has(f.state.folder.uri.toString())) show(f.state.folder);
  });
}
