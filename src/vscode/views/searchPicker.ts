// Cairn: Search — a quick pick that searches as you type (livePick.ts), with the filters typed
// inline. A title button, the last item and Ctrl+Enter move the results into the Results view;
// while indexing is paused the title says so and the first item resumes it.
import * as vscode from 'vscode';
import type { SearchHit } from '../../core/api';
import type { CommandDeps } from '../commands/types';
import { formatNumber, hitLine, hitTitle, kindIcon, previewLine } from '../format';
import { parseSearchInput } from '../searchQuery';
import type { FolderHit, MultiSearchResult } from '../services';
import { ADD_BUTTON, COPY_BUTTON, multiRoot, showLivePick, type ActionItem, type ExtraItem } from './livePick';

export interface HitItem extends vscode.QuickPickItem {
  hit: FolderHit<SearchHit>;
}

/** The keybinding of cairn.showSearchInResults (package.json), as the pick mentions it. */
export const SHOW_IN_VIEW_KEY = process.platform === 'darwin' ? '⌘Enter' : 'Ctrl+Enter';
const SHOW_IN_VIEW_BUTTON: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('list-tree'), tooltip: `Show All Results in the Results View (${SHOW_IN_VIEW_KEY})` };
/** True while the Cairn: Search pick is open (the when clause of its Ctrl+Enter). */
export const SEARCH_PICK_KEY = 'cairn.searchPickOpen';
export const PAUSED_ITEM_LABEL = '$(debug-continue) Indexing paused — Resume';

/** What the open search pick shows, for cairn.showSearchInResults. */
let showOpenSearchInView: (() => Promise<void>) | undefined;

/** Moves the open search pick's results into the Results view; false when no search pick shows results. */
export async function showOpenSearchInResults(): Promise<boolean> {
  if (!showOpenSearchInView) return false;
  await showOpenSearchInView();
  return true;
}

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

/** Before the hits while indexing is paused: Resume (livePick keeps the top hit the active item). */
function pausedItems(paused: boolean, resume: () => void): ExtraItem[] {
  if (!paused) return [];
  return [
    { label: PAUSED_ITEM_LABEL, description: 'results may miss recent changes', alwaysShow: true, keepOpen: true, action: resume },
    { label: 'results', kind: vscode.QuickPickItemKind.Separator },
  ];
}

/** After the hits: Show all in the Results view (also the title button, and Ctrl+Enter). */
function showAllItems(n: number, showInView: () => Promise<void>): ExtraItem[] {
  if (n === 0) return [];
  const label = `$(list-tree) Show ${n === 1 ? 'the result' : `all ${formatNumber(n)} results`} in the Results view`;
  return [{ label: '', kind: vscode.QuickPickItemKind.Separator }, { label, description: SHOW_IN_VIEW_KEY, alwaysShow: true, action: showInView } satisfies ActionItem];
}

/** Above partial matches, a separator saying that no result has all the words typed. */
export function partialItems(result: MultiSearchResult | undefined): ExtraItem[] {
  return result?.allTerms === false && result.note && result.results.length > 0 ? [{ label: result.note, kind: vscode.QuickPickItemKind.Separator }] : [];
}

/** Runs a search for what was typed (inline filters lifted out) with the current settings. */
export async function searchFor(deps: CommandDeps, input: string): Promise<MultiSearchResult | undefined> {
  const { text, filters } = parseSearchInput(input);
  if (!text.trim()) return undefined;
  const settings = deps.services.settings();
  // As you type: the last word is a prefix too (`getSco` finds getScope), below exact words.
  return deps.services.engine.search(text, { ...filters, scope: filters.scope ?? settings.search.scope, limit: settings.resultLimit, prefixLast: true });
}

/** The results' title line: count, time and anything the engine warned about. */
export function resultSummary(result: MultiSearchResult | undefined, input: string): string {
  if (!result) return 'Cairn: Search';
  const warn = result.warnings.length ? ` — ${result.warnings[0]}` : '';
  if (result.results.length === 0) return `Cairn: no results for "${input.trim()}"${warn}`;
  if (result.allTerms === false && result.note) return `Cairn: ${result.note} (${formatNumber(result.tookMs)} ms)${warn}`;
  const total = `${formatNumber(result.total)}${result.totalIsLowerBound ? '+' : ''}`;
  const shown = result.results.length < result.total ? `${formatNumber(result.results.length)} of ${total}` : formatNumber(result.results.length);
  return `Cairn: ${shown} result${result.total === 1 ? '' : 's'} (${formatNumber(result.tookMs)} ms)${warn}`;
}

/** Makes a search the Results view's last search: the view lists its hits' files in the order the pick showed them. */
function rememberSearch(deps: CommandDeps, input: string, answer: MultiSearchResult): void {
  deps.lastSearch.set(input.trim(), answer);
}

export function showSearchPicker(deps: CommandDeps, initial = ''): Promise<void> {
  const withFolder = multiRoot();
  const engine = deps.services.engine;
  let pick: { hide(): void } | undefined;
  let mine: typeof showOpenSearchInView;
  const showInView = async (shown: { input: string; answer: MultiSearchResult }) => {
    rememberSearch(deps, shown.input, shown.answer);
    pick?.hide();
    await deps.revealResults(true);
  };
  const closed = showLivePick<HitItem, MultiSearchResult>(
    deps,
    {
      title: 'Cairn: Search',
      placeholder: SEARCH_PLACEHOLDER,
      buttons: [SHOW_IN_VIEW_BUTTON],
      contextKey: SEARCH_PICK_KEY,
      onShow: (qp) => (pick = qp),
      ask: (input) => searchFor(deps, input),
      present: (result, input) => {
        const hits = result?.results ?? [];
        const shown = result ? { input, answer: result } : undefined;
        mine = showOpenSearchInView = shown && hits.length ? () => showInView(shown) : undefined;
        const paused = engine.paused;
        return {
          items: [
            ...pausedItems(paused, () => engine.resume()),
            ...partialItems(result),
            ...hits.map((h) => hitItem(h, withFolder, [COPY_BUTTON, ADD_BUTTON])),
            ...(shown ? showAllItems(hits.length, () => showInView(shown)) : []),
          ],
          title: `${resultSummary(result, input)}${paused ? ' — indexing paused' : ''}`,
        };
      },
      failure: 'search failed',
      // The search the user acted on becomes the Results view's last search.
      onAccept: (shown) => {
        if (shown) rememberSearch(deps, shown.input, shown.answer);
      },
      onButton: async (button, shown) => {
        if (button === SHOW_IN_VIEW_BUTTON && shown) await showInView(shown);
      },
    },
    initial,
  );
  return closed.finally(() => {
    if (showOpenSearchInView === mine) showOpenSearchInView = undefined;
  });
}
