// Cairn: Search — a quick pick that searches as you type (livePick.ts), with the filters typed
// inline, and a button that moves the results into the Results view.
import * as vscode from 'vscode';
import type { SearchHit } from '../../core/search/types';
import type { CommandDeps } from '../commands/types';
import { hitLine, hitTitle, kindIcon, previewLine } from '../format';
import { parseSearchInput } from '../searchQuery';
import type { FolderHit, MultiSearchResult } from '../services';
import { ADD_BUTTON, COPY_BUTTON, multiRoot, showLivePick } from './livePick';

export interface HitItem extends vscode.QuickPickItem {
  hit: FolderHit<SearchHit>;
}

const SHOW_IN_VIEW_BUTTON: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('list-tree'), tooltip: 'Show All Results in the Results View' };

export const SEARCH_PLACEHOLDER = 'Search code and docs (filters: lang:ts kind:function path:src/** scope:docs)';

export function hitItem(hit: FolderHit<SearchHit>, withFolder: boolean, buttons: readonly vscode.QuickInputButton[]): HitItem {
  // Where the hit opens: the line its preview shows (the best match), as VS Code's Search lists a match.
  const where = `${hit.path}:${hitLine(hit)}`;
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
  const total = `${result.total}${result.totalIsLowerBound ? '+' : ''}`;
  const shown = result.results.length < result.total ? `${result.results.length} of ${total}` : `${result.results.length}`;
  return `Cairn: ${shown} result${result.total === 1 ? '' : 's'} (${result.tookMs} ms)${warn}`;
}

/**
 * Makes a search the Results view's last search, then asks for the same query's files ranked
 * as files: the view lists files in that order once it arrives.
 */
function rememberSearch(deps: CommandDeps, input: string, answer: MultiSearchResult): void {
  const query = input.trim();
  deps.lastSearch.set(query, answer);
  const { text, filters } = parseSearchInput(input);
  if (!text.trim() || answer.results.length === 0) return;
  const settings = deps.services.settings();
  void deps.services.engine
    .searchFiles(text, { ...filters, scope: filters.scope ?? settings.search.scope, limit: settings.resultLimit })
    .then((r) => {
      if (deps.lastSearch.current?.query === query && deps.lastSearch.current.result === answer) deps.lastSearch.set(query, { ...answer, files: r.files });
    })
    .catch(() => undefined); // the view keeps the order of the chunks
}

export function showSearchPicker(deps: CommandDeps, initial = ''): Promise<void> {
  const withFolder = multiRoot();
  return showLivePick<HitItem, MultiSearchResult>(
    deps,
    {
      title: 'Cairn: Search',
      placeholder: SEARCH_PLACEHOLDER,
      buttons: [SHOW_IN_VIEW_BUTTON],
      ask: (input) => searchFor(deps, input),
      present: (result, input) => ({
        items: (result?.results ?? []).map((h) => hitItem(h, withFolder, [COPY_BUTTON, ADD_BUTTON])),
        title: resultSummary(result, input),
      }),
      failure: 'search failed',
      // The search the user acted on becomes the Results view's last search.
      onAccept: (shown) => {
        if (shown) rememberSearch(deps, shown.input, shown.answer);
      },
      onButton: async (button, shown, pick) => {
        if (button !== SHOW_IN_VIEW_BUTTON || !shown) return;
        rememberSearch(deps, shown.input, shown.answer);
        pick.hide();
        await deps.revealResults(true);
      },
    },
    initial,
  );
}
