// Turns file events into refresh requests: a FileSystemWatcher per workspace folder (so
// `git checkout`, formatters and other tools count) and editor saves (when `cairn.indexOnSave`).
// It only translates: each event becomes a `WatchEvent`, the shared planner
// (core/discovery/watchPlan.ts, as `cairn serve`'s watcher uses) turns a turn's events into
// `filesChanged(folder, paths)` or a whole-folder check, and the engine thread's refresh queue
// waits for quiet and coalesces a burst.
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { resolveDiscoveryOptions, WatchBatcher, type DiscoveryOptions, type WatchEvent, type WatchScope } from '../core/clientApi';
import { discoveryOptions } from './engineOptions';
import type { EngineClient } from './services';
import type { CairnSettings } from './settings';

/** How long after a save in VS Code a watcher change may be the save's own echo. */
const SAVE_ECHO_MS = 5000;

export class ChangeWatcher implements vscode.Disposable {
  /**
   * Files VS Code is saving or saved recently: when, and their modification time right after the
   * save (undefined while the save is still being written).
   */
  private readonly recentSaves = new Map<string, { at: number; mtimeMs?: number; done: boolean }>();
  private readonly watchers = new Map<string, vscode.Disposable>();
  private readonly folders = new Map<string, vscode.WorkspaceFolder>();
  /** Each folder's discovery rules, resolved again only when its settings change them. */
  private readonly rules = new Map<string, { settings: string; discovery: DiscoveryOptions }>();
  private readonly batcher: WatchBatcher;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly engine: EngineClient,
    private readonly settings: (folder: vscode.WorkspaceFolder) => CairnSettings,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.batcher = new WatchBatcher(
      (key) => this.scopeOf(key),
      (key, plan) => {
        const folder = this.folders.get(key);
        if (!folder) return;
        const only = plan.kind === 'paths' ? plan.paths : undefined;
        this.log.debug(`[${folder.name}] files changed: ${only ? `${only.slice(0, 5).join(', ')}${only.length > 5 ? ` and ${only.length - 5} more` : ''}` : `whole folder (${plan.kind === 'whole-root' ? plan.reason : ''})`}`);
        this.engine.filesChanged(folder, only);
      },
    );
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
            if (folder) this.enqueue(folder, uri, uri === f.oldUri ? 'delete' : 'create');
          }
        }
      }),
    );
  }

  private watch(folder: vscode.WorkspaceFolder): void {
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, '**/*'));
    const subscriptions = [
      watcher,
      watcher.onDidCreate((uri) => this.enqueue(folder, uri, 'create')),
      watcher.onDidDelete((uri) => this.enqueue(folder, uri, 'delete')),
      watcher.onDidChange((uri) => this.enqueue(folder, uri, 'update', true)),
    ];
    this.watchers.set(folder.uri.toString(), vscode.Disposable.from(...subscriptions));
    this.folders.set(folder.uri.toString(), folder);
  }

  private unwatch(folder: vscode.WorkspaceFolder): void {
    const key = folder.uri.toString();
    this.watchers.get(key)?.dispose();
    this.watchers.delete(key);
    this.folders.delete(key);
    this.rules.delete(key);
    this.batcher.drop(key);
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
    if (folder && this.settings(folder).indexOnSave) this.enqueue(folder, doc.uri, 'update');
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

  private enqueue(folder: vscode.WorkspaceFolder, uri: vscode.Uri, type: WatchEvent['type'], watchedChange = false): void {
    if (uri.scheme !== 'file') return;
    if (watchedChange && this.isSaveEcho(uri.fsPath)) return;
    this.batcher.add(folder.uri.toString(), { type, path: uri.fsPath });
  }

  /** The folder's root and its discovery rules as the index applies them (from its settings). */
  private scopeOf(key: string): WatchScope | undefined {
    const folder = this.folders.get(key);
    if (!folder) return undefined;
    const options = discoveryOptions(this.settings(folder));
    const settings = JSON.stringify(options);
    let rules = this.rules.get(key);
    if (rules?.settings !== settings) this.rules.set(key, (rules = { settings, discovery: resolveDiscoveryOptions(options) }));
    return { root: folder.uri.fsPath, discovery: rules.discovery };
  }

  dispose(): void {
    this.batcher.dispose();
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
