// Asking the editor's language server about one definition the index found: its references
// (`vscode.executeReferenceProvider` at the definition's name) and its incoming calls
// (`vscode.prepareCallHierarchy` + `vscode.provideIncomingCalls`), which name the function each
// call is in. Bounded by a deadline: a slow server's answer is dropped and the index stands.
import * as vscode from 'vscode';
import type { ReferenceDefinition } from '../../core/api';
import type { ServerAnswer, ServerLocation } from './merge';

/** Locations read per definition (each one only the server found costs a line read). */
const MAX_LOCATIONS = 500;
const MAX_TEXT = 240;

type Race<T> = { value: T } | { late: true };

function before<T>(work: Thenable<T>, deadline: number): Promise<Race<T>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => resolve({ late: true }), Math.max(0, deadline - Date.now()));
    work.then(
      (value) => (clearTimeout(timer), resolve({ value })),
      (e: unknown) => (clearTimeout(timer), reject(e)),
    );
  });
}

/** The folder-relative path of a URI inside the folder, else undefined (a library's `.d.ts`, another folder). */
function relativePath(folder: vscode.WorkspaceFolder, uri: vscode.Uri): string | undefined {
  if (uri.scheme !== folder.uri.scheme || uri.authority !== folder.uri.authority) return undefined;
  const base = folder.uri.path.replace(/\/$/, '');
  return uri.path.startsWith(`${base}/`) ? uri.path.slice(base.length + 1) : undefined;
}

/** References and call sites of `definition`, as the language server of its file sees them (`known`: `path:line:column` keys). */
export async function askLanguageServer(
  folder: vscode.WorkspaceFolder,
  definition: ReferenceDefinition,
  deadline: number,
  /** References the index has already (their line is not read again). */
  known: ReadonlySet<string> = new Set(),
): Promise<ServerAnswer> {
  const uri = vscode.Uri.joinPath(folder.uri, ...definition.path.split('/'));
  const at = new vscode.Position(definition.line - 1, Math.max(0, definition.column - 1));
  try {
    const refs = await before(vscode.commands.executeCommand<vscode.Location[] | undefined>('vscode.executeReferenceProvider', uri, at), deadline);
    if ('late' in refs) return { definition, status: 'timeout', locations: [] };
    // No provider for the language answers an empty list; a server always lists the definition itself.
    if (!refs.value?.length) return { definition, status: 'none', locations: [] };
    const callers = await before(incomingCalls(uri, at), deadline).catch(() => ({ late: true as const }));
    const contextAt = new Map<string, string>();
    const calls: vscode.Location[] = [];
    if ('value' in callers) {
      for (const call of callers.value) {
        for (const range of call.fromRanges) {
          const loc = new vscode.Location(call.from.uri, range);
          calls.push(loc);
          contextAt.set(`${call.from.uri.toString()}#${range.start.line}:${range.start.character}`, call.from.name);
        }
      }
    }
    const locations: ServerLocation[] = [];
    const seen = new Set<string>();
    for (const loc of [...refs.value, ...calls]) {
      if (locations.length >= MAX_LOCATIONS || Date.now() > deadline) break;
      const path = relativePath(folder, loc.uri);
      const key = `${loc.uri.toString()}#${loc.range.start.line}:${loc.range.start.character}`;
      if (path === undefined || seen.has(key)) continue;
      seen.add(key);
      const context = contextAt.get(key);
      locations.push({
        path,
        line: loc.range.start.line + 1,
        column: loc.range.start.character + 1,
        endColumn: (loc.range.isSingleLine ? loc.range.end.character : loc.range.start.character) + 1,
        text: known.has(`${path}:${loc.range.start.line + 1}:${loc.range.start.character + 1}`) ? '' : await lineText(loc.uri, loc.range.start.line),
        ...(context ? { context } : {}),
      });
    }
    return { definition, status: 'answered', locations };
  } catch (e) {
    return { definition, status: 'failed', locations: [], error: e instanceof Error ? e.message : String(e) };
  }
}

async function incomingCalls(uri: vscode.Uri, at: vscode.Position): Promise<vscode.CallHierarchyIncomingCall[]> {
  const items = await vscode.commands.executeCommand<vscode.CallHierarchyItem[] | undefined>('vscode.prepareCallHierarchy', uri, at);
  const item = items?.[0];
  if (!item) return [];
  return (await vscode.commands.executeCommand<vscode.CallHierarchyIncomingCall[] | undefined>('vscode.provideIncomingCalls', item)) ?? [];
}

async function lineText(uri: vscode.Uri, line: number): Promise<string> {
  try {
    const doc = await vscode.workspace.openTextDocument(uri);
    const text = line < doc.lineCount ? doc.lineAt(line).text.trim() : '';
    return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text;
  } catch {
    return '';
  }
}
