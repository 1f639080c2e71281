// The extension's one activation function: it assembles the objects, pushes every disposable into
// context.subscriptions and returns. It stays cheap — no await, no indexing: the engine thread is
// started on the next tick and each folder is brought up to date incrementally in the background.
import * as vscode from 'vscode';
import { locateAssets } from './assets';
import { WorkspaceBasket } from './basket';
import { ChangeWatcher } from './changeWatcher';
import { registerCommands } from './commands/registerCommands';
import { registerShowLog } from './commands/showLog';
import type { CommandDeps } from './commands/types';
import { WorkerEngineClient } from './engineClient';
import { useLocale } from './format';
import { IndexStateStore } from './indexStateStore';
import { LastSearch } from './lastSearch';
import { SpanOpener } from './openSpan';
import type { CairnServices } from './services';
import { readSettings, SECTION } from './settings';
import { watchFirstIndex } from './views/firstIndexProgress';
import { createIndexView } from './views/indexView';
import { createResultsView, type ResultsView } from './views/resultsView';
import { searchFor } from './views/searchPicker';
import { createStatusBar, showActivationError } from './views/statusBar';
import { registerPackPanel } from './pack/registerPack';
import { insertDialogs, type InsertDialogs } from './pack/markdownActions';
import { registerAgentFeatures } from './agent/agentFeatures';

/** What activate() returns: the assembled parts, for other extensions' tests and our own. */
export interface CairnApi {
  services: CairnServices;
  client: WorkerEngineClient;
  lastSearch: LastSearch;
  /** The Results view (what it shows: a search, or References of X). */
  results: ResultsView;
  /** The index state every view shows (status bar, Index view, Results view). */
  indexState: IndexStateStore;
  /** The questions "Insert at cursor" asks (VS Code refuses modal dialogs under test: tests answer through this). */
  insertDialogs: InsertDialogs;
  /** How long activate() itself took, in ms (wall clock). */
  activationMs: number;
  /** CPU time the extension host thread spent in activate(), in ms (undefined where Node cannot tell). */
  activationCpuMs?: number;
}

type ThreadCpuUsage = (previous?: NodeJS.CpuUsage) => NodeJS.CpuUsage;
/** Node ≥ 23.9 measures the current thread's CPU time; wall time alone overstates on a busy machine. */
const threadCpuUsage = (process as unknown as { threadCpuUsage?: ThreadCpuUsage }).threadCpuUsage?.bind(process);

/** Settings whose change alters which files are indexed or how they are cut (search-only settings do not). */
const INDEXING_SETTINGS = ['include', 'exclude', 'maxFileSize', 'languages', 'chunking', 'registry.dir'].map((k) => `${SECTION}.${k}`);

let activeClient: WorkerEngineClient | undefined;

export function activate(context: vscode.ExtensionContext): CairnApi | undefined {
  const started = performance.now();
  const cpuStart = threadCpuUsage?.();
  const log = vscode.window.createOutputChannel('Cairn', { log: true });
  context.subscriptions.push(log, registerShowLog(log));
  try {
    const parts: string[] = [];
    const api: CairnApi = { ...assemble(context, log, parts), insertDialogs, activationMs: Math.round((performance.now() - started) * 10) / 10 };
    if (cpuStart && threadCpuUsage) {
      const cpu = threadCpuUsage(cpuStart);
      api.activationCpuMs = Math.round((cpu.user + cpu.system) / 100) / 10;
    }
    log.info(`activated in ${api.activationMs} ms${api.activationCpuMs !== undefined ? ` (${api.activationCpuMs} ms CPU)` : ''}: ${parts.join(', ')}; ripgrep: ${api.client.ripgrep ?? 'not found (exact-text search unavailable)'}`);
    return api;
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    log.error(`activation failed: ${e instanceof Error && e.stack ? e.stack : message}`);
    context.subscriptions.push(showActivationError(message));
    void vscode.window.showErrorMessage(`Cairn could not start: ${message}`, 'Show Log').then((c) => c && log.show());
    return undefined;
  }
}

function assemble(context: vscode.ExtensionContext, log: vscode.LogOutputChannel, parts: string[]): Omit<CairnApi, 'activationMs' | 'activationCpuMs' | 'insertDialogs'> {
  const coreStarted = performance.now();
  useLocale(vscode.env.language);
  const assets = locateAssets(context.extensionUri);
  const client = new WorkerEngineClient(context, assets, log);
  activeClient = client;
  const basket = new WorkspaceBasket(context.workspaceState);
  const opener = new SpanOpener();
  const lastSearch = new LastSearch(context.workspaceState);
  const services: CairnServices = {
    context,
    engine: client,
    settings: (folder?: vscode.WorkspaceFolder) => readSettings(folder?.uri),
    log,
    basket,
    openSpan: async (hit) => {
      await opener.open(hit);
    },
  };
  // The one state the status bar, the Index view and the Results view show.
  const indexState = new IndexStateStore(client);
  const results = createResultsView(lastSearch, indexState, async (query) => {
    const result = await searchFor(deps, query);
    // Only if it is still the search shown (another may have replaced it meanwhile).
    if (result && lastSearch.current?.query === query) lastSearch.set(query, result);
  });
  const deps: CommandDeps = {
    services,
    client,
    lastSearch,
    revealResults: async (focus = false) => {
      const first = results.provider.getChildren()[0];
      if (first) await results.view.reveal(first, { focus, select: false, expand: true });
      else if (focus) await vscode.commands.executeCommand('cairn.results.focus');
    },
    showReferences: async (shown) => {
      results.showReferences(shown);
      await deps.revealResults(true);
    },
    selectedResult: () => {
      const node = results.view.selection[0];
      return node?.type === 'hit' || node?.type === 'file' ? node : undefined;
    },
  };
  const status = createStatusBar(indexState);
  // State changes fire on every progress report; the context key only crosses to the window when it flips.
  let pausedKey: boolean | undefined;
  const syncContextKeys = () => {
    if (client.paused === pausedKey) return;
    pausedKey = client.paused;
    void vscode.commands.executeCommand('setContext', 'cairn.paused', pausedKey);
  };
  syncContextKeys();

  context.subscriptions.push(
    client,
    basket,
    opener,
    lastSearch,
    ...results.disposables,
    indexState,
    ...createIndexView(indexState),
    ...status.disposables,
    watchFirstIndex(indexState, client),
    ...registerCommands(deps, log),
    new ChangeWatcher(client, (folder) => readSettings(folder.uri), log),
    client.onDidChangeState(syncContextKeys),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('cairn.agent.serveTerminal') || e.affectsConfiguration('cairn.indexOnSave')) client.updateServing();
      const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => INDEXING_SETTINGS.some((k) => e.affectsConfiguration(k, f)));
      if (folders.length === 0) return;
      log.info(`indexing settings changed for ${folders.map((f) => f.name).join(', ')}: refreshing`);
      client.reconfigure(folders);
    }),
    vscode.workspace.onDidChangeWorkspaceFolders((e) => {
      for (const f of e.removed) void client.removeFolder(f);
      for (const f of e.added) client.addFolder(f);
    }),
  );
  parts.push(`core ${(performance.now() - coreStarted).toFixed(1)} ms`);
  // The context-pack panel and the agent features (language-model tools, chat participant, MCP
  // server definitions): a failure there is reported but leaves search and indexing working.
  for (const [name, register] of [['context pack panel', registerPackPanel], ['agent features', registerAgentFeatures]] as const) {
    try {
      const t = performance.now();
      context.subscriptions.push(...register(services));
      parts.push(`${name} ${(performance.now() - t).toFixed(1)} ms`);
    } catch (e) {
      log.error(`could not start the ${name}: ${e instanceof Error && e.stack ? e.stack : String(e)}`);
      void vscode.window.showErrorMessage(`Cairn: the ${name} could not start: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  // The worker thread starts after activation returns; nothing here waits for indexing.
  const kickoff = setTimeout(() => client.start(vscode.workspace.workspaceFolders ?? []), 0);
  context.subscriptions.push({ dispose: () => clearTimeout(kickoff) });
  return { services, client, lastSearch, results, indexState };
}

/** Closes the engines (releasing their store locks) before VS Code disposes the subscriptions. */
export async function deactivate(): Promise<void> {
  await activeClient?.shutdown();
  activeClient = undefined;
}
