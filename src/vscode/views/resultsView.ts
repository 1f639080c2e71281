// The Results view: the last search, as files (with their number of matches) and their matching
// chunks. A chunk opens at its matched line; its tooltip explains the score; its context menu (and
// Ctrl+C on the focused row) copies `path:start-end`, or adds it to the context pack. While
// indexing is paused the first row says so and resumes it. The view is empty (and shows its
// welcome content) until a search ran. It can show "References of X" instead (referenceNodes.ts)
// until the next search. After Resume, once the queued changes are indexed, the search shown runs
// again (resumeRerun.ts), so its results are not those of the index as it was while paused.
import * as vscode from 'vscode';
import type { SearchHit } from '../../core/api';
import { count, formatNumber, hitTitle, kindIcon, labelHighlights, matchedLine } from '../format';
import type { LastSearch, SavedSearch } from '../lastSearch';
import { groupByFile, type FileNode } from '../resultFiles';
import type { IndexStateStore } from '../indexStateStore';
import { ResumeRerun } from '../resumeRerun';
import type { FolderHit } from '../services';
import { hitTooltip } from './hitTooltip';
import { groupReferences, refFileItem, refItem, referencesMessage, type RefFileNode, type RefNode, type ShownReferences } from './referenceNodes';

export const RESULTS_VIEW_ID = 'cairn.results';
/** The first files are expanded; the rest stay folded so the list stays scannable. */
const EXPANDED_FILES = 8;

export interface HitNode {
  type: 'hit';
  hit: FolderHit<SearchHit>;
}

interface EmptyNode {
  type: 'empty';
  query: string;
  warnings: string[];
}

/** The first row while indexing is paused: the results may miss changes since. */
interface PausedNode {
  type: 'paused';
}

/** References found nothing: the row says why. */
interface NoReferencesNode {
  type: 'noReferences';
  message: string;
}

export type ResultNode = FileNode | HitNode | EmptyNode | PausedNode | RefFileNode | RefNode | NoReferencesNode;

const PAUSED_NODE: PausedNode = { type: 'paused' };
export const PAUSED_ROW_LABEL = 'Indexing paused — Resume';

export class ResultsTreeProvider implements vscode.TreeDataProvider<ResultNode>, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.emitter.event;
  private roots: ResultNode[] = [];
  /** The references shown instead of the last search, until the next search. */
  private shownReferences: ShownReferences | undefined;

  constructor(lastSearch: LastSearch, private readonly paused: () => boolean) {
    this.load(lastSearch.current);
  }

  /** Redraws (the paused row comes and goes with indexing's state). */
  refresh(): void {
    this.emitter.fire();
  }

  get references(): ShownReferences | undefined {
    return this.shownReferences;
  }

  /** Shows "References of X" in place of the last search. */
  showReferences(shown: ShownReferences): void {
    this.shownReferences = shown;
    const files = groupReferences(shown);
    this.roots = files.length ? files : [{ type: 'noReferences', message: referencesMessage(shown) }];
    this.emitter.fire();
  }

  load(saved: SavedSearch | undefined): void {
    this.shownReferences = undefined;
    if (!saved) this.roots = [];
    else if (saved.result.results.length === 0) this.roots = [{ type: 'empty', query: saved.query, warnings: saved.result.warnings }];
    else this.roots = groupByFile(saved.result.results);
    this.emitter.fire();
  }

  getChildren(node?: ResultNode): ResultNode[] {
    if (!node) return this.roots.length && this.paused() ? [PAUSED_NODE, ...this.roots] : this.roots;
    if (node.type === 'file') return node.hits.map((hit) => ({ type: 'hit', hit }));
    if (node.type === 'refFile') return node.refs.map((ref) => ({ type: 'ref', ref, folder: node.folder, folderUri: node.folderUri }));
    return [];
  }

  getParent(node: ResultNode): ResultNode | undefined {
    if (node.type === 'ref') return this.roots.find((r) => r.type === 'refFile' && r.refs.includes(node.ref));
    if (node.type !== 'hit') return undefined;
    return this.roots.find((r) => r.type === 'file' && r.hits.includes(node.hit));
  }

  getTreeItem(node: ResultNode): vscode.TreeItem {
    const multi = (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
    if (node.type === 'paused') {
      const item = new vscode.TreeItem(PAUSED_ROW_LABEL);
      item.id = 'paused';
      item.iconPath = new vscode.ThemeIcon('debug-pause', new vscode.ThemeColor('list.warningForeground'));
      item.description = 'results may miss recent changes';
      item.tooltip = 'Indexing is paused: files changed since are not searched as they are now. Click to resume indexing.';
      item.command = { command: 'cairn.resumeIndexing', title: 'Resume Indexing' };
      item.contextValue = 'cairn.paused';
      return item;
    }
    if (node.type === 'refFile') return refFileItem(node, multi);
    if (node.type === 'ref') return refItem(node);
    if (node.type === 'noReferences') {
      const item = new vscode.TreeItem(node.message);
      item.iconPath = new vscode.ThemeIcon('search-stop');
      item.contextValue = 'cairn.empty';
      return item;
    }
    if (node.type === 'empty') {
      const item = new vscode.TreeItem(`No results for "${node.query}"`);
      item.iconPath = new vscode.ThemeIcon('search-stop');
      item.description = node.warnings[0] ?? 'try other words, or scope:all';
      item.tooltip = node.warnings.length ? node.warnings.join('\n') : undefined;
      item.contextValue = 'cairn.empty';
      return item;
    }
    if (node.type === 'file') {
      const slash = node.path.lastIndexOf('/');
      const dir = slash >= 0 ? node.path.slice(0, slash) : '';
      const item = new vscode.TreeItem(node.path.slice(slash + 1), node.rank < EXPANDED_FILES ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed);
      item.id = `file:${node.folderUri}:${node.path}`;
      item.resourceUri = vscode.Uri.joinPath(vscode.Uri.parse(node.folderUri), ...node.path.split('/'));
      item.iconPath = vscode.ThemeIcon.File;
      // The number of matches after the folder, as VS Code's Search view counts a file's matches.
      item.description = [multi ? node.folder : '', dir, formatNumber(node.hits.length)].filter(Boolean).join(' · ');
      item.tooltip = `${multi ? `${node.folder}: ` : ''}${node.path} — ${count(node.hits.length, 'match', 'matches')}`;
      item.accessibilityInformation = { label: `${node.path}, ${count(node.hits.length, 'match', 'matches')}` };
      item.contextValue = 'cairn.file';
      return item;
    }
    const { hit } = node;
    const title = hitTitle(hit);
    const highlights = labelHighlights(title, hit.preview);
    const item = new vscode.TreeItem(highlights.length ? { label: title, highlights } : title, vscode.TreeItemCollapsibleState.None);
    item.id = `hit:${hit.folderUri}:${hit.docid}`;
    item.iconPath = new vscode.ThemeIcon(hit.stale ? 'warning' : kindIcon(hit.kind));
    const lines = hit.startLine === hit.endLine ? `${hit.startLine}` : `${hit.startLine}–${hit.endLine}`;
    // The line the preview shows (the best match) with its number, as VS Code's Search view lists
    // a match; without a preview, the chunk's lines (unless they are its label already).
    const named = !!(hit.symbol || hit.context);
    const matched = matchedLine(hit);
    item.description = [matched ? '' : named ? lines : '', hit.stale ? 'changed since indexed' : '', hit.partial ? 'partial match' : '', matched].filter(Boolean).join('  ');
    item.tooltip = hitTooltip(hit, multi);
    item.contextValue = 'cairn.hit';
    item.command = { command: 'cairn.openSpan', title: 'Open', arguments: [hit] };
    item.accessibilityInformation = { label: `${hitTitle(hit)}, ${hit.kind}, ${hit.path} lines ${lines}` };
    return item;
  }

  dispose(): void {
    this.emitter.dispose();
  }
}

export interface ResultsView {
  view: vscode.TreeView<ResultNode>;
  provider: ResultsTreeProvider;
  /** Shows "References of X" until the next search. */
  showReferences(shown: ShownReferences): void;
  disposables: vscode.Disposable[];
}

/** Creates the Results view; it follows the last search and says what it shows. */
export function createResultsView(lastSearch: LastSearch, store: IndexStateStore, rerun: (query: string) => Promise<void>): ResultsView {
  const provider = new ResultsTreeProvider(lastSearch, () => store.current.paused);
  const view = vscode.window.createTreeView(RESULTS_VIEW_ID, { treeDataProvider: provider, showCollapseAll: true });
  const describe = (saved: SavedSearch | undefined) => {
    view.description = saved?.query;
    const n = saved?.result.results.length ?? 0;
    const files = saved && n > 0 ? count(groupByFile(saved.result.results).length, 'file') : '';
    // Partial matches are never called results: the engine's note says so, as the pick's separator does.
    const partial = saved?.result.allTerms === false && saved.result.note;
    view.message = saved && n > 0 ? (partial ? `${partial} (${formatNumber(n)} shown in ${files})` : `${count(n, 'result')} for "${saved.query}" in ${files}`) : undefined;
  };
  describe(lastSearch.current);
  let paused = store.current.paused;
  const resumed = new ResumeRerun(store.current);
  void vscode.commands.executeCommand('setContext', 'cairn.hasResults', (lastSearch.current?.result.results.length ?? 0) > 0);
  const disposables = [
    provider,
    view,
    lastSearch.onDidChange((saved) => {
      provider.load(saved);
      describe(saved);
    }),
    store.onDidChange((snapshot) => {
      // A search shown (not references) was searched while paused: search again.
      if (resumed.observe(snapshot) && lastSearch.current && !provider.references) void rerun(lastSearch.current.query);
      // Snapshots come with progress: redraw only when pausing flips.
      if (snapshot.paused === paused) return;
      paused = snapshot.paused;
      provider.refresh();
    }),
  ];
  const showReferences = (shown: ShownReferences): void => {
    provider.showReferences(shown);
    view.description = `References of ${shown.name}`;
    view.message = referencesMessage(shown);
    void vscode.commands.executeCommand('setContext', 'cairn.hasResults', true);
  };
  return { view, provider, showReferences, disposables };
}
