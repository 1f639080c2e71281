// Turns file events into refresh requests: a FileSystemWatcher per workspace folder (so
// `git checkout`, formatters and other tools count) and editor saves (when `cairn.indexOnSave`).
// It only translates: each event becomes `filesChanged(folder, [path])`, and the engine thread's
// refresh queue waits for quiet and coalesces a burst (a branch switch delivers thousands of
// events, so the per-event work here is a few string operations).
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { DEFAULT_EXCLUDE_DIRS, isIgnoreRuleFile } from '../core/clientApi';
import type { EngineClient } from './services';
import type { CairnSettings } from './settings';

/** How long after a save in VS Code a watcher change may be the save's own echo. */
const SAVE_ECHO_MS = 5000;
/** Files whose change alters which files are eligible: refresh the whole folder. */
/** Folder names never indexed (pruned by discovery), so events below them cost nothing. */
const PRUNED = new Set(DEFAULT_EXCLUDE_DIRS.filter((d) => !d.includes('*')));

export function isPrunedPath(relPath: string): boolean {
  return relPath.split('/').some((segment) => PRUNED.has(segment));
}

export class ChangeWatcher implements vscode.Disposable {
  /**
   * Files VS Code is saving or saved recently: when, and their modification time right after the
   * save (undefined while the save is still being written).
   */
  private readonly recentSaves = new Map<string, { at: number; mtimeMs?: number; done: boolean }>();
  private readonly watchers = new Map<string, vscode.Disposable>();
  private readonly batch = new Map<string, { folder: vscode.WorkspaceFolder; paths: Set<string>; all: boolean }>();
  private flushing?: NodeJS.Immediate;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly engine: EngineClient,
    private readonly settings: (folder: vscode.WorkspaceFolder) => CairnSettings,
    private readonly log: vscode.LogOutputChannel,
  ) {
    for (const folder of vscode.workspace.workspaceFolders ?? []) this.watch(folder);
    this.disposables.push(
      vscode.workspace.onDidChangeWorkspaceFolders((e) => {
        for (const f of e.removed) this.unwatch(f);
        for (const f of e.added) this.watch(f);
      }),
      vscode.workspace.onWillSaveTextDocument((e) => this.onWillSave(e.document)),
      vscode.workspace.onDidSaveTextDocument((doc) => this.onSave(doc)),
      // Renames made in VS Code also arrive as watcher delete + create; this covers folders too.
      vscode.workspace.onDidRenameFiles((e) => {
        for (const f of e.files) {
          for (const uri of [f.oldUri, f.newUri]) {
            const folder = vscode.workspace.getWorkspaceFolder(uri);
            if (folder) this.enqueue(folder, uri);
          }
        }
      }),
    );
  }

  private watch(folder: vscode.WorkspaceFolder): void {
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, '**/*'));
    const subscriptions = [
      watcher,
      watcher.onDidCreate((uri) => this.enqueue(folder, uri)),
      watcher.onDidDelete((uri) => this.enqueue(folder, uri)),
      watcher.onDidChange((uri) => this.enqueue(folder, uri, true)),
    ];
    this.watchers.set(folder.uri.toString(), vscode.Disposable.from(...subscriptions));
  }

  private unwatch(folder: vscode.WorkspaceFolder): void {
    const key = folder.uri.toString();
    this.watchers.get(key)?.dispose();
    this.watchers.delete(key);
    this.batch.delete(key);
  }

  private onWillSave(doc: vscode.TextDocument): void {
    if (doc.uri.scheme !== 'file') return;
    this.forgetOldSaves();
    this.recentSaves.set(doc.uri.fsPath, { at: Date.now(), done: false });
  }

  private onSave(doc: vscode.TextDocument): void {
    if (doc.uri.scheme !== 'file') return;
    this.recentSaves.set(doc.uri.fsPath, { at: Date.now(), mtimeMs: mtimeOf(doc.uri.fsPath), done: true });
    const folder = vscode.workspace.getWorkspaceFolder(doc.uri);
    if (folder && this.settings(folder).indexOnSave) this.enqueue(folder, doc.uri);
  }

  /**
   * The watcher reports the save VS Code is making or just made: the save itself was handled
   * (or, with cairn.indexOnSave off, deliberately not). The watcher's event may arrive before
   * VS Code's save event (but after the will-save one); a later write by another tool changes
   * the modification time.
   */
  private isSaveEcho(absPath: string): boolean {
    const saved = this.recentSaves.get(absPath);
    if (!saved || Date.now() - saved.at > SAVE_ECHO_MS) return false;
    return !saved.done || mtimeOf(absPath) === saved.mtimeMs;
  }

  private forgetOldSaves(): void {
    const now = Date.now();
    for (const [file, saved] of this.recentSaves) if (now - saved.at > SAVE_ECHO_MS) this.recentSaves.delete(file);
  }

  private enqueue(folder: vscode.WorkspaceFolder, uri: vscode.Uri, watchedChange = false): void {
    if (uri.scheme !== 'file') return;
    const root = folder.uri.fsPath;
    const abs = uri.fsPath;
    if (abs.length <= root.length + 1 || !abs.startsWith(root) || abs[root.length] !== path.sep) return;
    const rel = path.sep === '/' ? abs.slice(root.length + 1) : abs.slice(root.length + 1).split(path.sep).join('/');
    if (isPrunedPath(rel)) return;
    if (watchedChange && this.isSaveEcho(abs)) return;
    const key = folder.uri.toString();
    let batch = this.batch.get(key);
    if (!batch) this.batch.set(key, (batch = { folder, paths: new Set(), all: false }));
    if (isIgnoreRuleFile(path.posix.basename(rel))) batch.all = true;
    else batch.paths.add(rel);
    this.flushing ??= setImmediate(() => this.flush());
  }

  /** Sends the events of one turn of the event loop: one request per folder, not one per file. */
  private flush(): void {
    this.flushing = undefined;
    for (const { folder, paths, all } of this.batch.values()) {
      const only = all ? undefined : [...paths];
      this.log.debug(`[${folder.name}] files changed: ${only ? `${only.slice(0, 5).join(', ')}${only.length > 5 ? ` and ${only.length - 5} more` : ''}` : 'ignore rules (whole folder)'}`);
      this.engine.filesChanged(folder, only);
    }
    this.batch.clear();
  }

  dispose(): void {
    if (this.flushing) clearImmediate(this.flushing);
    for (const w of this.watchers.values()) w.dispose();
    this.watchers.clear();
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}

/** A file's modification time, or undefined when it cannot be read. */
function mtimeOf(absPath: string): number | undefined {
  try {
    return fs.statSync(absPath).mtimeMs;
  } catch {
    return undefined;
  }
}
