// The Index view: per workspace folder, what is indexed and how fresh it is — state, file and
// chunk counts, "updated 2 min ago", languages, and skipped files grouped by reason (expandable
// to the paths), and the agents' use of Cairn's tools (the store's usage.json, read
// asynchronously). Relative times are redrawn every 30 s while the view is visible.
import type { IndexStatus, SkipReason } from '../../core/api';
import * as vscode from 'vscode';

import { compactCount, describeEconomy, economyShare, onUsageWritten, readUsage, spanEconomy, usageAllowedByEnv, usageTotals, type ToolUsage, type UsageRead } from '../../tools/usage';
import { readSettings, SECTION } from '../settings';

import { bytes, clockTime, count, formatNumber, languageName, progressPercent, progressText, refreshWords, relativeTime, skipDetail } from '../format';
import type { FolderView } from '../indexSnapshot';
import type { IndexStateStore } from '../indexStateStore';
import type { FolderState } from '../services';

export const INDEX_VIEW_ID = 'cairn.index';
const TICK_MS = 30_000;

type IndexNode =
  | { type: 'folder'; state: FolderState; headline: string }
  | { type: 'info'; id: string; label: string; description?: string; icon: string; tooltip?: string | vscode.MarkdownString; command?: vscode.Command; color?: string }
  | { type: 'languages'; folderUri: string; languages: Record<string, number> }
  | { type: 'language'; folderUri: string; id: string; files: number }
  | { type: 'skipped'; folderUri: string; status: IndexStatus }
  | { type: 'reason'; folderUri: string; reason: string; paths: Array<{ path: string; detail?: string }> }
  | { type: 'skippedFile'; folderUri: string; path: string; reason: string; detail?: string }
  | { type: 'usage'; folderUri: string; usage: UsageRead; counting: boolean };

const STATE_ICONS: Record<FolderState['kind'], [string, string?]> = {
  starting: ['loading~spin'],
  indexing: ['sync~spin'],
  ready: ['pass', 'testing.iconPassed'],
  paused: ['debug-pause', 'list.warningForeground'],
  error: ['error', 'list.errorForeground'],
};

/** Every skip reason has a label: a reason added to the engine fails the typecheck until it has one. */
const REASON_LABELS: Record<SkipReason, string> = {
  'secret-name': 'Secret-looking names',
  'too-large': 'Too large',
  binary: 'Binary',
  'invalid-utf8': 'Not UTF-8',
  unreadable: 'Unreadable',
  vanished: 'Deleted while reading',
  symlink: 'Symbolic links',
  'hard-link': 'Hard links (a file with several names)',
  'not-a-file': 'Not regular files',
};

function folderChildren(state: FolderState): IndexNode[] {
  const key = state.folder.uri.toString();
  const s = state.status;
  const out: IndexNode[] = [];
  if (state.kind === 'error' && state.error) {
    const message = state.error.charAt(0).toUpperCase() + state.error.slice(1);
    out.push({ type: 'info', id: `${key}:error`, label: message, icon: 'error', color: 'list.errorForeground', tooltip: `${message}\n\nClick to show the log.`, command: { command: 'cairn.showLog', title: 'Show Log' } });
  }
  if (state.kind === 'indexing') {
    const what = state.refreshingFiles !== undefined && !state.fromScratch ? `Refreshing ${count(state.refreshingFiles, 'file')}` : 'Indexing';
    out.push({ type: 'info', id: `${key}:progress`, label: `${what}: ${progressText(state.progress)}`, description: `${progressPercent(state.progress) ?? 0}%`, icon: 'sync~spin' });
  }
  if (state.kind === 'paused') {
    out.push({ type: 'info', id: `${key}:paused`, label: 'Indexing is paused', description: 'changes are queued', icon: 'debug-pause', command: { command: 'cairn.resumeIndexing', title: 'Resume Indexing' }, tooltip: 'Click to resume indexing' });
  }
  if (!s?.exists) {
    if (state.kind === 'ready') out.push({ type: 'info', id: `${key}:none`, label: 'No index yet', icon: 'circle-slash', command: { command: 'cairn.refreshIndex', title: 'Refresh Index' } });
    return out;
  }
  const last = s.lastRefresh;
  const tooltip = new vscode.MarkdownString(
    [
      `**Index of ${state.folder.name}**`,
      '',
      `Updated ${s.updatedAt ? new Date(s.updatedAt).toLocaleString() : 'never'}; created ${s.createdAt ? new Date(s.createdAt).toLocaleString() : '?'}.`,
      last ? `Last refresh: ${refreshWords(last)}, ${formatNumber(last.unchanged)} unchanged (${formatNumber(last.filesScanned)} scanned) in ${formatNumber(last.durationMs)} ms.` : '',
      `Generation ${s.generation}, ${count(s.segments, 'segment')}, ${bytes(s.storeBytes)} on disk.`,
    ].join('\n'),
  );
  // Paused or mid-refresh, the counts are the last index's, not the folder's: say when they are from.
  const asOf = (state.kind === 'paused' || state.kind === 'indexing') && s.updatedAt ? `as of ${clockTime(s.updatedAt)}${state.kind === 'paused' ? ' (paused)' : ''}` : undefined;
  out.push({
    type: 'info',
    id: `${key}:counts`,
    label: `${count(s.files, 'file')} · ${count(s.chunks, 'chunk')}`,
    description: asOf ?? bytes(s.storeBytes),
    icon: 'files',
    tooltip: `${asOf ? `The index as of ${new Date(s.updatedAt as string).toLocaleString()}; changes since are not counted yet.\n` : ''}Store (${bytes(s.storeBytes)}): ${s.storeDir}`,
  });
  out.push({
    type: 'info',
    id: `${key}:updated`,
    label: `Updated ${relativeTime(s.updatedAt)}`,
    description: last && last.added + last.changed + last.removed > 0 ? refreshWords(last) : undefined,
    icon: 'history',
    tooltip,
  });
  if (state.watching) {
    out.push({ type: 'info', id: `${key}:watched`, label: 'Served to cairn, watched', icon: 'eye', tooltip: 'cairn and MCP clients started from this window\'s terminals are answered from this index; a file watcher indexes every change as it happens (cairn.agent.serveTerminal).' });
  }
  if (Object.keys(s.languages).length) out.push({ type: 'languages', folderUri: key, languages: s.languages });
  out.push({ type: 'skipped', folderUri: key, status: s });
  for (const d of s.diagnostics) out.push({ type: 'info', id: `${key}:diag:${d.code}:${d.path ?? ''}`, label: d.message, icon: d.severity === 'error' ? 'error' : 'warning', color: d.severity === 'error' ? 'list.errorForeground' : 'list.warningForeground' });
  return out;
}

const usageWords = (c: ToolUsage): string => `${count(c.calls, 'call')} · ${count(c.results, 'result')} · ${compactCount(c.tokensServed)} tokens`;

function usageTooltip(name: string, c: ToolUsage): string {
  return [
    `${name}: ${count(c.calls, 'call')}, ${count(c.errors, 'error')}`,
    `${count(c.results, 'result')} listed, ${formatNumber(c.tokensServed)} tokens served`,
    ...(c.wholeFileTokens ? [`the whole files of its spans: ${formatNumber(c.wholeFileTokens)} tokens`] : []),
    `${count(c.spansLaterRead, 'span')} read later with read_span`,
  ].join('\n');
}

/** Per tool, then since when: the children of a folder's "Agent tool use" node. */
function usageChildren(node: Extract<IndexNode, { type: 'usage' }>): IndexNode[] {
  const summary = node.usage.summary;
  if (!summary) return [];
  const key = node.folderUri;
  const tools = Object.entries(summary.tools).sort((a, b) => b[1].calls - a[1].calls || a[0].localeCompare(b[0]));
  const e = spanEconomy(summary);
  const economy: IndexNode[] = e.wholeFileTokens
    ? [
        {
          type: 'info',
          id: `${key}:usage:economy`,
          label: `Served ${compactCount(e.tokensServed)} tokens`,
          description: `whole files ${compactCount(e.wholeFileTokens)} · ${economyShare(e)}`,
          icon: 'dashboard',
          tooltip: `Answers made of spans were ${formatNumber(e.tokensServed)} tokens; the whole files those spans came from are ${formatNumber(e.wholeFileTokens)} tokens (${economyShare(e)}).`,
        },
      ]
    : [];
  return [
    ...economy,
    ...tools.map(([name, c]) => ({ type: 'info' as const, id: `${key}:usage:${name}`, label: name, description: usageWords(c), icon: c.errors ? 'warning' : 'tools', tooltip: usageTooltip(name, c) })),
    { type: 'info', id: `${key}:usage:since`, label: `Since ${new Date(summary.since).toLocaleString()}`, description: `last call ${relativeTime(summary.updatedAt)}`, icon: 'history' },
  ];
}

export class IndexTreeProvider implements vscode.TreeDataProvider<IndexNode>, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.emitter.event;

  constructor(private readonly store: IndexStateStore) {}

  refresh(): void {
    this.emitter.fire();
  }

  getChildren(node?: IndexNode): IndexNode[] | Promise<IndexNode[]> {
    // The snapshot the status bar shows too: the two never disagree.
    if (!node) return this.store.current.folders.map((f: FolderView) => ({ type: 'folder', state: f.state, headline: f.headline }));
    switch (node.type) {
      case 'folder':
        return this.withUsage(node.state);
      case 'usage':
        return usageChildren(node);
      case 'languages':
        return Object.entries(node.languages)
          .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
          .map(([id, files]) => ({ type: 'language', folderUri: node.folderUri, id, files }));
      case 'skipped': {
        const byReason = new Map<string, Array<{ path: string; detail?: string }>>();
        for (const s of node.status.skipped) byReason.set(s.reason, [...(byReason.get(s.reason) ?? []), { path: s.path, ...(s.detail ? { detail: s.detail } : {}) }]);
        return [...byReason.entries()].sort((a, b) => b[1].length - a[1].length).map(([reason, paths]) => ({ type: 'reason', folderUri: node.folderUri, reason, paths }));
      }
      case 'reason':
        return node.paths.map((p) => ({ type: 'skippedFile', folderUri: node.folderUri, path: p.path, reason: node.reason, ...(p.detail ? { detail: p.detail } : {}) }));
      default:
        return [];
    }
  }

  /** The folder's nodes plus its tool-use counters, read from the store without blocking. */
  private async withUsage(state: FolderState): Promise<IndexNode[]> {
    const nodes = folderChildren(state);
    const storeDir = state.status?.storeDir;
    if (!storeDir) return nodes;
    const usage = await readUsage(storeDir);
    const node: IndexNode = { type: 'usage', folderUri: state.folder.uri.toString(), usage, counting: usageAllowedByEnv() && readSettings(state.folder.uri).agent.usageCounters };
    // Diagnostics stay last, where the eye looks for problems.
    const firstDiagnostic = nodes.findIndex((n) => n.type === 'info' && n.id.includes(':diag:'));
    nodes.splice(firstDiagnostic < 0 ? nodes.length : firstDiagnostic, 0, node);
    return nodes;
  }

  getTreeItem(node: IndexNode): vscode.TreeItem {
    const { None, Collapsed, Expanded } = vscode.TreeItemCollapsibleState;
    switch (node.type) {
      case 'folder': {
        const { state } = node;
        const item = new vscode.TreeItem(state.folder.name, Expanded);
        item.id = `folder:${state.folder.uri.toString()}`;
        const [icon, color] = STATE_ICONS[state.kind];
        item.iconPath = new vscode.ThemeIcon(icon, color ? new vscode.ThemeColor(color) : undefined);
        item.description = node.headline;
        item.tooltip = `${state.folder.uri.fsPath}\n${state.kind}${state.error ? `: ${state.error}` : ''}`;
        item.contextValue = `cairn.folder.${state.kind}`;
        return item;
      }
      case 'info': {
        const item = new vscode.TreeItem(node.label, None);
        item.id = node.id;
        item.description = node.description;
        item.iconPath = new vscode.ThemeIcon(node.icon, node.color ? new vscode.ThemeColor(node.color) : undefined);
        item.tooltip = node.tooltip ?? node.label;
        item.command = node.command;
        return item;
      }
      case 'languages': {
        const entries = Object.entries(node.languages).sort((a, b) => b[1] - a[1]);
        const item = new vscode.TreeItem('Languages', Collapsed);
        item.id = `${node.folderUri}:languages`;
        item.iconPath = new vscode.ThemeIcon('symbol-namespace');
        item.description = formatNumber(entries.length);
        item.tooltip = entries.map(([id, n]) => `${languageName(id)}: ${count(n, 'file')}`).join('\n');
        return item;
      }
      case 'language': {
        const item = new vscode.TreeItem(languageName(node.id), None);
        item.id = `${node.folderUri}:lang:${node.id}`;
        item.description = count(node.files, 'file');
        item.iconPath = new vscode.ThemeIcon('symbol-file');
        return item;
      }
      case 'skipped': {
        const n = node.status.skipped.length;
        const item = new vscode.TreeItem(n ? 'Skipped files' : 'No skipped files', n ? Collapsed : None);
        item.id = `${node.folderUri}:skipped`;
        item.iconPath = new vscode.ThemeIcon(n ? 'eye-closed' : 'check');
        item.description = n ? formatNumber(n) : undefined;
        item.tooltip = n ? 'Files left out of the index, by reason' : 'Every eligible file is indexed';
        return item;
      }
      case 'reason': {
        const item = new vscode.TreeItem(REASON_LABELS[node.reason as SkipReason] ?? node.reason, Collapsed);
        item.id = `${node.folderUri}:reason:${node.reason}`;
        item.description = formatNumber(node.paths.length);
        item.iconPath = new vscode.ThemeIcon(node.reason === 'secret-name' ? 'lock' : node.reason === 'too-large' ? 'file-binary' : 'circle-slash');
        return item;
      }
      case 'usage': {
        const summary = node.usage.summary;
        const item = new vscode.TreeItem('Agent tool use', summary ? Collapsed : None);
        item.id = `${node.folderUri}:usage`;
        item.iconPath = new vscode.ThemeIcon('pulse');
        const totals = summary ? usageTotals(summary) : undefined;
        const off = node.counting ? '' : ' (counting off)';
        item.description = totals ? `${count(totals.calls, 'call')}${off}` : node.counting ? 'no calls yet' : 'counting off';
        item.tooltip = new vscode.MarkdownString(
          [
            totals && summary ? `**${count(totals.calls, 'tool call')}** since ${new Date(summary.since).toLocaleString()}; ${describeEconomy(summary) ?? 'no answer made of spans yet'}.` : 'No agent has called Cairn\'s tools on this folder yet.',
            '',
            ...(node.usage.problem ? [`Warning: ${node.usage.problem}.`, ''] : []),
            `Counted on this machine only, in the folder's index store; never sent anywhere. ${node.counting ? 'Turn off with' : 'Counting is off:'} \`cairn.agent.usageCounters\`.`,
          ].join('\n'),
        );
        return item;
      }
      case 'skippedFile': {
        const item = new vscode.TreeItem(node.path, None);
        item.id = `${node.folderUri}:skip:${node.path}`;
        item.resourceUri = vscode.Uri.joinPath(vscode.Uri.parse(node.folderUri), ...node.path.split('/'));
        item.iconPath = vscode.ThemeIcon.File;
        const detail = skipDetail(node.detail);
        item.description = detail;
        item.tooltip = `${node.path}: ${REASON_LABELS[node.reason as SkipReason] ?? node.reason}${detail ? ` (${detail})` : ''}`;
        return item;
      }
    }
  }

  dispose(): void {
    this.emitter.dispose();
  }
}

export function createIndexView(store: IndexStateStore): vscode.Disposable[] {
  const provider = new IndexTreeProvider(store);
  const view = vscode.window.createTreeView(INDEX_VIEW_ID, { treeDataProvider: provider, showCollapseAll: true });
  // Usage counters and settings change outside the index state: redraw at most a few times a second.
  let pending: NodeJS.Timeout | undefined;
  const redraw = () => {
    if (pending) return;
    pending = setTimeout(() => {
      pending = undefined;
      provider.refresh();
    }, 250);
  };
  const tick = setInterval(() => {
    if (view.visible) provider.refresh();
  }, TICK_MS);
  // The counters change outside the engine: this process's tools write them, MCP servers too (seen when shown again).
  return [
    provider,
    view,
    // The store already spaces progress-only snapshots: a new one is drawn at once, with the status bar.
    store.onDidChange(() => provider.refresh()),
    onUsageWritten(redraw),
    view.onDidChangeVisibility((e) => e.visible && redraw()),
    vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration(`${SECTION}.agent.usageCounters`) && redraw()),
    { dispose: () => (clearInterval(tick), clearTimeout(pending)) },
  ];
}
