// Helpers for the extension's own in-host suites (cairn-*.test.ts): the running extension's API,
// polling, the fixture folder, settings, the Cairn log file, and the editor and quick input the
// navigation tests look at.
import type { RefreshReport } from '../../../src/core/api';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CairnApi } from '../../../src/vscode/extension';
import type { MergedReferences } from '../../../src/vscode/references/findReferences';

import { ui } from './ui';

export async function api(): Promise<CairnApi> {
  const ext = vscode.extensions.getExtension<CairnApi | undefined>('cairn-dev.cairn');
  if (!ext) throw new Error('cairn-dev.cairn is not loaded');
  const exports = ext.isActive ? ext.exports : await ext.activate();
  if (!exports) throw new Error('Cairn failed to activate (see the Cairn log)');
  return exports;
}

export function folder(): vscode.WorkspaceFolder {
  const f = vscode.workspace.workspaceFolders?.[0];
  if (!f) throw new Error('no workspace folder is open');
  return f;
}

export function fixturePath(rel: string): string {
  return path.join(folder().uri.fsPath, ...rel.split('/'));
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` every `everyMs` until it returns something other than undefined/false. */
export async function poll<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 20000, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? ` (last error: ${last instanceof Error ? last.message : String(last)})` : ''}`);
    await sleep(everyMs);
  }
}

/** Every folder indexed and nothing running or queued. */
export async function ready(a: CairnApi, timeoutMs = 60000): Promise<void> {
  await poll(
    'every folder to be indexed',
    () => {
      const states = a.services.engine.states();
      return states.length > 0 && states.every((s) => s.kind === 'ready' && s.status?.exists === true);
    },
    timeoutMs,
  );
  await a.client.whenIdle();
}

/** Collects refresh reports until disposed. */
export function recordRefreshes(a: CairnApi): { reports: Array<{ report: RefreshReport; only?: string[]; rebuild: boolean }>; dispose(): void } {
  const reports: Array<{ report: RefreshReport; only?: string[]; rebuild: boolean }> = [];
  const sub = a.client.onDidRefresh((e) => reports.push({ report: e.report, ...(e.only ? { only: e.only } : {}), rebuild: e.rebuild }));
  return { reports, dispose: () => sub.dispose() };
}

/** Paths of the top search results for a query (all scopes). */
export async function foundPaths(a: CairnApi, query: string): Promise<string[]> {
  const r = await a.services.engine.search(query, { scope: 'all', limit: 20 });
  return r.results.map((h) => h.path);
}

/** The text VS Code wrote for the "Cairn" log output channel (the file behind it). */
export function readCairnLog(a: CairnApi): string {
  // Log channels live under the window's log folder: <logs>/<window>/exthost/<extension id>/Cairn.log or similar.
  let dir = a.services.context.logUri.fsPath;
  for (let i = 0; i < 3; i++) dir = path.dirname(dir);
  const found: string[] = [];
  const walk = (d: string, depth: number) => {
    if (depth > 6 || !fs.existsSync(d)) return;
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p, depth + 1);
      else if (/cairn/i.test(e.name) && e.name.endsWith('.log')) found.push(p);
    }
  };
  walk(dir, 0);
  return found.map((f) => fs.readFileSync(f, 'utf8')).join('\n');
}

export async function setSetting(key: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration('cairn').update(key, value, vscode.ConfigurationTarget.Global);
}

export async function closeEditors(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

/** The active editor's file (relative) and selection as 1-based lines. */
export function activeSpan(): { path: string; startLine: number; endLine: number } | undefined {
  const e = vscode.window.activeTextEditor;
  if (!e) return undefined;
  return { path: vscode.workspace.asRelativePath(e.document.uri, false), startLine: e.selection.start.line + 1, endLine: e.selection.end.line + 1 };
}

/** Waits for the quick input's box (Cairn: Search, Go to Symbol) to show. */
export async function waitForQuickInput(): Promise<void> {
  const r = await ui({ waitForSelector: '.quick-input-widget .quick-input-box input' });
  if (!r.ok) throw new Error(`quick input did not open: ${r.error}`);
}

/** Cairn: Find References with the caret on `word` in line `line` (1-based) of `rel`. */
export async function referencesAt(rel: string, line: number, word: string): Promise<MergedReferences> {
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder().uri, ...rel.split('/')));
  const editor = await vscode.window.showTextDocument(doc);
  const column = doc.lineAt(line - 1).text.indexOf(word) + 1;
  editor.selection = new vscode.Selection(line - 1, column, line - 1, column);
  return (await vscode.commands.executeCommand('cairn.findReferences')) as MergedReferences;
}
