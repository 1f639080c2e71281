// Cairn: Search — a quick pick that searches as you type. Requests are debounced; a response that
// arrives after a newer request was sent is dropped, so the list never jumps back to an old query.
import * as vscode from 'vscode';
import type { SearchHit } from '../../core/search/types';
import type { CommandDeps } from '../commands/types';
import { hitTitle, kindIcon, previewLine, spanReference } from '../format';
import { parseSearchInput } from '../searchQuery';
import type { FolderHit, MultiSearchResult } from '../services';

export const SEARCH_DEBOUNCE_MS = 150;

export interface HitItem extends vscode.QuickPickItem {
  hit: FolderHit<SearchHit>;
}

export const COPY_BUTTON: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('copy'), tooltip: 'Copy Span Reference (path:start-end)' };
export const ADD_BUTTON: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('add'), tooltip: 'Add to Context Pack' };
const SHOW_IN_VIEW_BUTTON: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('list-tree'), tooltip: 'Show All Results in the Results View' };

export const SEARCH_PLACEHOLDER = 'Search code and docs (filters: lang:ts kind:function path:src/** scope:docs)';

export function multiRoot(): boolean {
  return (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
}

export function hitItem(hit: FolderHit<SearchHit>, withFolder: boolean, buttons: readonly vscode.QuickInputButton[]): HitItem {
  const where = `${hit.path}:${hit.startLine}`;
  return {
    label: `$(${kindIcon(hit.kind)}) ${hitTitle(hit)}`,
    description: withFolder ? `${where} · ${hit.folder}` : where,
    detail: previewLine(hit) || undefined,
    alwaysShow: true,
    buttons,
    hit,
  };
}

/** Runs a search for what was typed (inline filters lifted out) with the current settings. */
export async function searchFor(deps: CommandDeps, input: string): Promise<MultiSearchResult | undefined> {
  const { text, filters } = parseSearchInput(input);
  if (!text.trim()) return undefined;
  const settings = deps.services.settings();
  return deps.services.engine.search(text, { ...filters, scope: filters.scope ?? settings.search.scope, limit: settings.resultLimit });
}

/** The results' title line: count, time and anything the engine warned about. */
export function resultSummary(result: MultiSearchResult | undefined, input: string): string {
  if (!result) return 'Cairn: Search';
  const warn = result.warnings.length ? ` — ${result.warnings[0]}` : '';
  if (result.results.length === 0) return `Cairn: no results for "${input.trim()}"${warn}`;
  const shown = result.results.length < result.total ? `${result.results.length} of ${result.total}` : `${result.results.length}`;
  return `Cairn: ${shown} result${result.total === 1 ? '' : 's'} (${result.tookMs} ms)${warn}`;
}

export async function copySpan(hit: { path: string; startLine: number; endLine: number }): Promise<void> {
  const ref = spanReference(hit);
  await vscode.env.clipboard.writeText(ref);
  vscode.window.setStatusBarMessage(`$(copy) Copied ${ref}`, 3000);
}

export function showSearchPicker(deps: CommandDeps, initial = ''): Promise<void> {
  const qp = vscode.window.createQuickPick<HitItem>();
  qp.title = 'Cairn: Search';
  qp.placeholder = SEARCH_PLACEHOLDER;
  qp.matchOnDescription = false;
  qp.matchOnDetail = false;
  // Keep the engine's ranking: VS Code would otherwise re-sort items by how their labels match.
  (qp as unknown as { sortByLabel: boolean }).sortByLabel = false;
  qp.buttons = [SHOW_IN_VIEW_BUTTON];
  const withFolder = multiRoot();
  let sequence = 0;
  let timer: NodeJS.Timeout | undefined;
  let latest: { input: string; result: MultiSearchResult } | undefined;

  const run = async (input: string) => {
    const mine = ++sequence;
    qp.busy = true;
    try {
      const result = await searchFor(deps, input);
      if (mine !== sequence) return; // a newer request is on its way
      latest = result && { input, result };
      qp.items = (result?.results ?? []).map((h) => hitItem(h, withFolder, [COPY_BUTTON, ADD_BUTTON]));
      qp.title = resultSummary(result, input);
    } catch (e) {
      if (mine !== sequence) return;
      qp.items = [];
      qp.title = `Cairn: search failed — ${e instanceof Error ? e.message : String(e)}`;
    } finally {
      if (mine === sequence) qp.busy = false;
    }
  };

  return new Promise<void>((resolve) => {
    const subscriptions: vscode.Disposable[] = [
      qp.onDidChangeValue((value) => {
        clearTimeout(timer);
        timer = setTimeout(() => void run(value), SEARCH_DEBOUNCE_MS);
      }),
      qp.onDidAccept(async () => {
        const item = qp.selectedItems[0] ?? qp.activeItems[0];
        if (!item) return;
        if (latest) deps.lastSearch.set(latest.input.trim(), latest.result);
        qp.hide();
        await deps.services.openSpan(item.hit);
      }),
      qp.onDidTriggerItemButton(async ({ button, item }) => {
        if (button === COPY_BUTTON) await copySpan(item.hit);
        else if (button === ADD_BUTTON) await vscode.commands.executeCommand('cairn.addToContextPack', item.hit);
      }),
      qp.onDidTriggerButton(async (button) => {
        if (button !== SHOW_IN_VIEW_BUTTON || !latest) return;
        deps.lastSearch.set(latest.input.trim(), latest.result);
        qp.hide();
        await deps.revealResults(true);
      }),
      qp.onDidHide(() => {
        clearTimeout(timer);
        sequence++;
        for (const s of subscriptions) s.dispose();
        qp.dispose();
        resolve();
      }),
    ];
    qp.value = initial;
    qp.show();
    if (initial) void run(initial);
  });
}
