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
  /** Changed files the watcher reported: dropped at flush when they are a VS Code save's own echo. */
  watched: Set<string>;
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
      watcher.onDidChange((uri) => this.enqueue(folder, uri, true)),
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
    this.recentSaves.set(doc.uri.fsPath, { at: Date.now(), mtimeMs: mtimeOf(doc.uri.fsPath) });
    const folder = vscode.workspace.getWorkspaceFolder(doc.uri);
    if (folder && this.settings(folder).indexOnSave) this.enqueue(folder, doc.uri);
  }

  /**
   * The watcher reports the save VS Code just made: the save itself was handled (or, with
   * cairn.indexOnSave off, deliberately not). Decided at flush, after the debounce, because the
   * watcher's event may arrive before or after VS Code's save event. A later write by another
   * tool changes the modification time.
   */
  private isSaveEcho(absPath: string, now: number): boolean {
    const saved = this.recentSaves.get(absPath);
    if (!saved || now - saved.at > SAVE_ECHO_MS || saved.mtimeMs === undefined) return false;
    return mtimeOf(absPath) === saved.mtimeMs;
  }

  private enqueue(folder: vscode.WorkspaceFolder, uri: vscode.Uri, watchedChange = false): void {
    if (uri.scheme !== 'file') return;
    const root = folder.uri.fsPath;
    const abs = uri.fsPath;
    if (abs.length <= root.length + 1 || !abs.startsWith(root) || abs[root.length] !== path.sep) return;
    const rel = path.sep === '/' ? abs.slice(root.length + 1) : abs.slice(root.length + 1).split(path.sep).join('/');
    if (isPrunedPath(rel)) return;
    const key = folder.uri.toString();
    let entry = this.queued.get(key);
    if (!entry) this.queued.set(key, (entry = { folder, paths: new Set(), watched: new Set(), all: false }));
    if (IGNORE_FILES.has(path.posix.basename(rel))) entry.all = true;
    else (watchedChange ? entry.watched : entry.paths).add(rel);
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
    for (const { folder, paths, watched, all } of this.queued.values()) {
      for (const rel of watched) if (!paths.has(rel) && !this.isSaveEcho(path.join(folder.uri.fsPath, rel), now)) paths.add(rel);
      if (!all && paths.size === 0) continue;
      const only = all ? undefined : [...paths].sort();
      const shown = only ? `${only.slice(0, 5).join(', ')}${only.length > 5 ? ` and ${only.length - 5} more` : ''}` : 'ignore rules (whole folder)';
      this.log.debug(`[${folder.name}] files changed: ${shown}`);
      this.engine.refresh(folder, only).catch(() => undefined); // failures are logged and shown by the client
    }
    this.queued.clear();
    for (const [file, saved] of this.recentSaves) if (now - saved.at > SAVE_ECHO_MS) this.recentSaves.delete(file);
  }

  dispose(): void {
    clearTimeout(this.timer);
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
