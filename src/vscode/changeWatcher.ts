// Turns file events into refreshes: a FileSystemWatcher per workspace folder (so `git checkout`,
// formatters and other tools count) and editor saves (when `cairn.indexOnSave`). Events are
// DEBOUNCED and COALESCED: whatever arrives until things have been quiet for DEBOUNCE_MS becomes
// one `refresh(folder, paths)` per folder. A branch switch delivers thousands of events, so the
// per-event work is a few string operations and a Set insert.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { DEFAULT_EXCLUDE_DIRS } from '../core/discovery/options';
import type { EngineClient } from './services';
import type { CairnSettings } from './settings';

export const DEBOUNCE_MS = 300;
/** How long after a save in VS Code a watcher change may be the save's own echo. */
const SAVE_ECHO_MS = 5000;
/** Files whose change alters which files are eligible: refresh the whole folder. */
const IGNORE_FILES = new Set(['.gitignore', '.cairnignore']);
/** Folder names never indexed (pruned by discovery), so events below them cost nothing. */
const PRUNED = new Set(DEFAULT_EXCLUDE_DIRS.filter((d) => !d.includes('*')));

export function isPrunedPath(relPath: string): boolean {
  return relPath.split('/').some((segment) => PRUNED.has(segment));
}

interface Pending {
  folder: vscode.WorkspaceFolder;
  paths: Set<string>;
  all: boolean;
}

export class ChangeWatcher implements vscode.Disposable {
  private readonly queued = new Map<string, Pending>();
  private timer?: NodeJS.Timeout;
  private lastEventAt = 0;
  /** Files saved in VS Code recently: when, and their modification time right after the save. */
  private readonly recentSaves = new Map<string, { at: number; mtimeMs?: number }>();
  private readonly watchers = new Map<string, vscode.Disposable>();
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
      watcher.onDidChange((uri) => this.onChange(folder, uri)),
    ];
    this.watchers.set(folder.uri.toString(), vscode.Disposable.from(...subscriptions));
  }

  private unwatch(folder: vscode.WorkspaceFolder): void {
    const key = folder.uri.toString();
    this.watchers.get(key)?.dispose();
    this.watchers.delete(key);
    this.queued.delete(key);
  }

  private onSave(doc: vscode.TextDocument): void {
    if (doc.uri.scheme !== 'file') return;
    const entry: { at: number; mtimeMs?: number } = { at: Date.now() };
    this.recentSaves.set(doc.uri.fsPath, entry);
    fs.promises.stat(doc.uri.fsPath).then((st) => (entry.mtimeMs = st.mtimeMs), () => undefined);
    const folder = vscode.workspace.getWorkspaceFolder(doc.uri);
    if (folder && this.settings(folder).indexOnSave) this.enqueue(folder, doc.uri);
  }

  private onChange(folder: vscode.WorkspaceFolder, uri: vscode.Uri): void {
    const saved = this.recentSaves.size > 0 ? this.recentSaves.get(uri.fsPath) : undefined;
    if (!saved || Date.now() - saved.at > SAVE_ECHO_MS) return this.enqueue(folder, uri);
    // The watcher reports the save VS Code just made: the save itself was handled (or, with
    // cairn.indexOnSave off, deliberately not). A later write by another tool changes the mtime.
    fs.promises.stat(uri.fsPath).then(
      (st) => {
        if (saved.mtimeMs === undefined || st.mtimeMs !== saved.mtimeMs) this.enqueue(folder, uri);
      },
      () => this.enqueue(folder, uri),
    );
  }

  private enqueue(folder: vscode.WorkspaceFolder, uri: vscode.Uri): void {
    if (uri.scheme !== 'file') return;
    const root = folder.uri.fsPath;
    const abs = uri.fsPath;
    if (abs.length <= root.length + 1 || !abs.startsWith(root) || abs[root.length] !== path.sep) return;
    const rel = path.sep === '/' ? abs.slice(root.length + 1) : abs.slice(root.length + 1).split(path.sep).join('/');
    if (isPrunedPath(rel)) return;
    const key = folder.uri.toString();
    let entry = this.queued.get(key);
    if (!entry) this.queued.set(key, (entry = { folder, paths: new Set(), all: false }));
    if (IGNORE_FILES.has(path.posix.basename(rel))) entry.all = true;
    else entry.paths.add(rel);
    this.lastEventAt = Date.now();
    this.timer ??= setTimeout(() => this.onQuiet(), DEBOUNCE_MS);
  }

  /** Fires DEBOUNCE_MS after the first event; waits on while events keep coming. */
  private onQuiet(): void {
    const quietFor = Date.now() - this.lastEventAt;
    this.timer = quietFor >= DEBOUNCE_MS ? undefined : setTimeout(() => this.onQuiet(), DEBOUNCE_MS - quietFor);
    if (!this.timer) this.flush();
  }

  /** Sends what has been collected: one refresh per folder. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const now = Date.now();
    for (const [file, saved] of this.recentSaves) if (now - saved.at > SAVE_ECHO_MS) this.recentSaves.delete(file);
    for (const { folder, paths, all } of this.queued.values()) {
      const only = all ? undefined : [...paths].sort();
      const shown = only ? `${only.slice(0, 5).join(', ')}${only.length > 5 ? ` and ${only.length - 5} more` : ''}` : 'ignore rules (whole folder)';
      this.log.debug(`[${folder.name}] files changed: ${shown}`);
      this.engine.refresh(folder, only).catch(() => undefined); // failures are logged and shown by the client
    }
    this.queued.clear();
  }

  dispose(): void {
    clearTimeout(this.timer);
    for (const w of this.watchers.values()) w.dispose();
    this.watchers.clear();
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
