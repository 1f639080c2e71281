// `Cairn: Evaluate Retrieval Quality`: runs `cairn eval` on a workspace folder in a child
// process and shows its table in a webview. The command resolves to the report (undefined
// when cancelled or failed), so other commands and tests can use the numbers.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { EvalReport } from '../../eval/types';
import { locateVscodeRipgrep } from '../assets';
import type { CairnServices } from '../services';
import { localFolders } from './folders';
import { webviewHtml, webviewResourceRoots } from './html';
import { EvalProgressTracker } from './evalProgress';
import { EvalError, runEval } from './evalRun';
import { evalErrorBody, evalResultBody, evalRunningBody } from './evalView';

export const EVAL_COMMAND = 'cairn.evaluateRetrieval';
export const EVAL_VIEW_TYPE = 'cairn.evalResults';

/** The folder to evaluate: a URI or path argument, the only folder, or the user's pick. */
async function evalRoot(arg: unknown): Promise<{ root: string; name: string } | undefined> {
  if (arg instanceof vscode.Uri) return { root: arg.fsPath, name: path.basename(arg.fsPath) };
  if (typeof arg === 'string' && arg) return { root: arg, name: path.basename(arg) };
  const folders = localFolders();
  const folder = folders.length > 1 ? await vscode.window.showWorkspaceFolderPick({ placeHolder: 'Folder to evaluate (a git repository with history)' }) : folders[0];
  if (!folder) {
    if (!folders.length) void vscode.window.showWarningMessage('Cairn: open a folder (a git repository with history) to evaluate retrieval quality.');
    return undefined;
  }
  return { root: folder.uri.fsPath, name: folder.name };
}

export function registerEvalCommand(services: CairnServices): vscode.Disposable[] {
  const extensionUri = services.context.extensionUri;
  let panel: vscode.WebviewPanel | undefined;
  let running: AbortController | undefined;

  const show = (title: string, body: string): vscode.WebviewPanel => {
    if (!panel) {
      panel = vscode.window.createWebviewPanel(EVAL_VIEW_TYPE, title, vscode.ViewColumn.Active, { enableScripts: false, localResourceRoots: webviewResourceRoots(extensionUri) });
      panel.onDidDispose(() => {
        panel = undefined;
        running?.abort();
      });
    }
    panel.title = title;
    panel.webview.html = webviewHtml(panel.webview, extensionUri, { title, styles: ['pack.css', 'pack-eval.css'], body });
    return panel;
  };

  const evaluate = async (arg?: unknown): Promise<EvalReport | undefined> => {
    const target = await evalRoot(arg);
    if (!target) return undefined;
    running?.abort();
    const controller = new AbortController();
    running = controller;
    const title = `Retrieval Quality: ${target.name}`;
    // The same resolver the engine's exact-text search uses: VS Code's own ripgrep.
    const ripgrepPath = locateVscodeRipgrep(vscode.env.appRoot);
    services.log.info(`eval of ${target.root}: ripgrep ${ripgrepPath ?? 'not found in VS Code'}`);
    show(title, evalRunningBody(target.name)).reveal(undefined, false);
    try {
      const report = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Cairn: evaluating ${target.name}`, cancellable: true },
        (progress, token) => {
          token.onCancellationRequested(() => controller.abort());
          const tracker = new EvalProgressTracker();
          progress.report({ message: 'reading the history' });
          return runEval(extensionUri.fsPath, target.root, {
            ripgrepPath,
            signal: controller.signal,
            onLine: (l) => services.log.info(`eval: ${l}`),
            onProgress: (p) => progress.report(tracker.step(p)),
          });
        },
      );
      if (running !== controller) return report;
      services.log.info(`eval of ${target.root}: ${report.evaluated} cases in ${report.tookMs} ms`);
      show(title, evalResultBody(report, target.name));
      return report;
    } catch (err) {
      if (running !== controller) return undefined;
      const message = err instanceof Error ? err.message : String(err);
      services.log.warn(`eval of ${target.root} failed: ${message}`);
      const hint = err instanceof EvalError && err.code === 'git-failed' ? 'Evaluation needs a git repository with history: each usable commit becomes a test case.' : undefined;
      show(title, evalErrorBody(target.name, message, hint));
      return undefined;
    } finally {
      if (running === controller) running = undefined;
    }
  };

  return [vscode.commands.registerCommand(EVAL_COMMAND, evaluate), { dispose: () => (running?.abort(), panel?.dispose()) }];
}
