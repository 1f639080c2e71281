// The context-pack panel: one WebviewPanel, one session (the request, the pack built for it,
// or why there is none). The webview keeps its own copy in its state; this side keeps the
// pack that "copy" and "insert" use and answers the webview's `ready` with the session, which
// is how a panel that was hidden (its webview destroyed) or reloaded catches up.
import * as vscode from 'vscode';
import { DEFAULT_BUDGET } from '../../core/clientApi';
import type { HostMessage, PackError, PackRequest, PackResult, ViewMessage } from '../../webview/pack/protocol';
import type { CairnServices } from '../services';
import { buildPackResult, folderStateOf, notReady, requestFolder } from './buildResult';
import { folderNamed, localFolders, type LastEditor } from './folders';
import { webviewHtml, webviewResourceRoots } from './html';
import { copyPackMarkdown, insertPackMarkdown } from './markdownActions';
import { parseViewMessage } from './messages';

export const PACK_VIEW_TYPE = 'cairn.contextPack';

/** VS Code's `workbench.action.focus<Ordinal>EditorGroup` commands exist for the first eight groups. */
const GROUP_ORDINALS = ['First', 'Second', 'Third', 'Fourth', 'Fifth', 'Sixth', 'Seventh', 'Eighth'];

export interface PackPanelDeps {
  services: CairnServices;
  lastEditor: LastEditor;
}

interface Session {
  request: PackRequest;
  result?: PackResult;
  building: boolean;
  error?: PackError;
}

const PACK_BODY = `
    <main class="pack">
      <header class="pack-header">
        <form id="task-form" class="task-form" autocomplete="off" novalidate>
          <label for="task" class="field-label">Task</label>
          <textarea id="task" rows="2" placeholder="What do you need to do? e.g. make the greeting punctuation configurable" aria-describedby="task-help"></textarea>
          <div class="form-row">
            <label for="budget" class="inline-label">Budget</label>
            <input id="budget" type="number" step="100" inputmode="numeric" aria-describedby="budget-unit">
            <span id="budget-unit" class="meta">tokens</span>
            <span id="folder-field" class="folder-field" hidden>
              <label for="folder" class="inline-label">Folder</label>
              <select id="folder"></select>
            </span>
            <span class="spacer"></span>
            <span id="task-help" class="meta keys">Enter builds the pack</span>
            <button id="build" type="submit" class="primary">Build pack</button>
          </div>
        </form>
        <div class="toolbar" role="toolbar" aria-label="Pack actions">
          <button type="button" class="secondary" data-action="copy" disabled>Copy as Markdown</button>
          <button type="button" class="secondary" data-action="new-document" disabled>New Markdown document</button>
          <button type="button" class="secondary" data-action="insert-cursor" disabled>Insert at cursor</button>
          <span id="live" class="live" role="status" aria-live="polite"></span>
        </div>
      </header>
      <div id="content"></div>
    </main>`;

export function packPanelOptions(extensionUri: vscode.Uri): vscode.WebviewPanelOptions & vscode.WebviewOptions {
  // retainContextWhenHidden stays off: the webview restores itself from its state instead of holding memory while hidden.
  return { enableScripts: true, localResourceRoots: webviewResourceRoots(extensionUri), retainContextWhenHidden: false, enableFindWidget: true };
}

export class PackPanel implements vscode.Disposable {
  private static current: PackPanel | undefined;

  private session: Session | undefined;
  private requestSeq = 0;
  /** True between the webview's `ready` and its destruction (hidden or disposed): messages sent otherwise are lost. */
  private webviewReady = false;
  private disposed = false;
  private lastProgressPost = 0;
  private readonly disposables: vscode.Disposable[] = [];

  /** Opens the panel (or reveals the open one); with a request, builds its pack. */
  static show(deps: PackPanelDeps, request?: PackRequest): PackPanel {
    const existing = PackPanel.current;
    if (existing) {
      existing.panel.reveal(undefined, false);
      if (request) existing.start(request);
      return existing;
    }
    const panel = vscode.window.createWebviewPanel(PACK_VIEW_TYPE, 'Context Pack', { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false }, packPanelOptions(deps.services.context.extensionUri));
    const created = new PackPanel(panel, deps);
    if (request) created.start(request);
    return created;
  }

  /** Takes over a panel VS Code restored after a reload (the webview state holds the rest). */
  static revive(panel: vscode.WebviewPanel, deps: PackPanelDeps): PackPanel {
    PackPanel.current?.dispose();
    panel.webview.options = packPanelOptions(deps.services.context.extensionUri);
    return new PackPanel(panel, deps);
  }

  static get open(): PackPanel | undefined {
    return PackPanel.current;
  }

  private constructor(
    readonly panel: vscode.WebviewPanel,
    private readonly deps: PackPanelDeps,
  ) {
    PackPanel.current = this;
    const { services } = deps;
    const media = (name: string) => vscode.Uri.joinPath(services.context.extensionUri, 'media', name);
    panel.iconPath = { light: media('pack-icon-light.svg'), dark: media('pack-icon-dark.svg') };
    panel.webview.html = webviewHtml(panel.webview, services.context.extensionUri, { title: 'Context Pack', styles: ['pack.css'], script: 'pack.js', body: PACK_BODY });
    this.disposables.push(
      panel.onDidDispose(() => this.dispose()),
      panel.onDidChangeViewState(() => {
        if (!panel.visible) this.webviewReady = false;
      }),
      panel.webview.onDidReceiveMessage((raw: unknown) => {
        const message = parseViewMessage(raw, this.defaultBudget());
        if (message) void this.onMessage(message);
        else services.log.warn(`context pack: ignored a malformed message from the webview: ${JSON.stringify(raw).slice(0, 200)}`);
      }),
      services.basket.onDidChange(() => this.post({ type: 'basket', items: [...services.basket.items] })),
      services.engine.onDidChangeState(() => this.onIndexStateChange()),
    );
  }

  /** The pack on screen (for tests and commands); undefined while none was built. */
  get result(): PackResult | undefined {
    return this.session?.result;
  }

  private defaultBudget(): number {
    return this.session?.request.budgetTokens ?? DEFAULT_BUDGET;
  }

  private post(message: HostMessage): void {
    if (this.webviewReady && !this.disposed) void this.panel.webview.postMessage(message);
  }

  private async onMessage(message: ViewMessage): Promise<void> {
    const { services } = this.deps;
    try {
      switch (message.type) {
        case 'ready':
          this.webviewReady = true;
          this.post({
            type: 'init',
            folders: localFolders().map((f) => f.name),
            defaultBudgetTokens: DEFAULT_BUDGET,
            basket: [...services.basket.items],
            ...(this.session ? { session: { ...this.session } } : {}),
          });
          // After a window reload only the webview remembers the pack: build it again, fresh.
          if (!this.session && message.restored?.hasResult) this.start(message.restored);
          return;
        case 'build':
          this.start(message.request);
          return;
        case 'open':
          await this.focusAnotherEditorGroup();
          await services.openSpan({ ...this.folderRef(message.target.folder), path: message.target.path, startLine: message.target.startLine, endLine: message.target.endLine });
          return;
        case 'copyMarkdown':
          this.notice(await copyPackMarkdown(this.requirePack()));
          return;
        case 'insertMarkdown': {
          const outcome = await insertPackMarkdown(this.requirePack(), message.target, this.deps.lastEditor.current);
          this.notice(outcome.message);
          void outcome.undone?.then((undone) => undone && this.notice('The insert was undone.'));
          return;
        }
        case 'guidance':
          await this.fetchGuidance(message);
          return;
        case 'removeBasketItem':
          services.basket.remove(message.docid);
          return;
        case 'clearBasket':
          services.basket.clear();
          return;
        case 'refreshIndex': {
          const folder = folderNamed(message.folder) ?? this.deps.lastEditor.defaultFolder();
          if (this.session) this.fail(this.requestSeq, this.session.request, { kind: 'indexing', message: `Cairn is building the index of ${folder?.name ?? 'the workspace'}. The pack is built as soon as it is ready.` });
          // Asking for the index is asking for indexing: while paused, a refresh would only queue.
          if (services.engine.paused) services.engine.resume();
          await services.engine.refresh(folder);
          this.onIndexStateChange();
          return;
        }
      }
    } catch (e) {
      const text = e instanceof Error ? e.message : String(e);
      services.log.warn(`context pack: ${message.type} failed: ${text}`);
      this.notice(text, 'error');
    }
  }

  /**
   * openSpan opens in the active editor group, which is the panel's while it has focus: the
   * span would replace the pack on screen. Focus the group of the last text editor (else any
   * other group) first, so the code opens beside the pack.
   */
  private async focusAnotherEditorGroup(): Promise<void> {
    const own = this.panel.viewColumn;
    const groups = vscode.window.tabGroups.all.filter((g) => g.viewColumn !== own);
    const preferred = this.deps.lastEditor.current?.viewColumn;
    const target = groups.find((g) => g.viewColumn === preferred) ?? groups[0];
    const ordinal = target ? GROUP_ORDINALS[target.viewColumn - 1] : undefined;
    if (ordinal) await vscode.commands.executeCommand(`workbench.action.focus${ordinal}EditorGroup`);
  }

  private folderRef(label: string): { folder: string; folderUri?: string } {
    const folder = folderNamed(label);
    return folder ? { folder: folder.name, folderUri: folder.uri.toString() } : { folder: label };
  }

  private requirePack(): PackResult['pack'] {
    const pack = this.session?.result?.pack;
    if (!pack || this.session?.error) throw new Error('Build a pack first.');
    return pack;
  }

  private notice(text: string, severity: 'info' | 'error' = 'info'): void {
    this.post({ type: 'notice', text, severity });
  }

  /** Builds the pack for a request; a newer request supersedes a running one. */
  start(request: PackRequest): void {
    const id = ++this.requestSeq;
    this.session = { request, building: true, ...(this.session?.result ? { result: this.session.result } : {}) };
    this.post({ type: 'building', requestId: id, request });
    const folder = requestFolder(request, () => this.deps.lastEditor.defaultFolder());
    void buildPackResult(this.deps.services, request, folder).then((outcome) => {
      if (id !== this.requestSeq || this.disposed) return;
      if ('error' in outcome) this.fail(id, request, outcome.error);
      else {
        this.session = { request, result: outcome.result, building: false };
        this.post({ type: 'packResult', requestId: id, result: outcome.result });
      }
    });
  }

  private fail(id: number, request: PackRequest, error: PackError): void {
    this.session = { request, building: false, error, ...(this.session?.result ? { result: this.session.result } : {}) };
    this.post({ type: 'packError', requestId: id, request, error });
  }

  /** While the pack waits for an index, follow its progress and build once it is ready. */
  private onIndexStateChange(): void {
    const session = this.session;
    if (!session?.error || (session.error.kind !== 'indexing' && session.error.kind !== 'no-index')) return;
    const folder = requestFolder(session.request, () => this.deps.lastEditor.defaultFolder());
    if (!folder) return;
    const blocked = notReady(folderStateOf(this.deps.services, folder), folder);
    if (!blocked) {
      this.start(session.request);
      return;
    }
    // Progress arrives many times a second; a few updates a second are plenty.
    const now = Date.now();
    if (blocked.kind === session.error.kind && now - this.lastProgressPost < 250) return;
    this.lastProgressPost = now;
    this.fail(this.requestSeq, session.request, blocked);
  }

  private async fetchGuidance(message: Extract<ViewMessage, { type: 'guidance' }>): Promise<void> {
    const request = this.session?.request;
    const folder = request ? requestFolder(request, () => this.deps.lastEditor.defaultFolder()) : this.deps.lastEditor.defaultFolder();
    try {
      const result = await this.deps.services.engine.contextGet(message.id, {
        mode: message.mode,
        ...(message.revision ? { revision: message.revision } : {}),
        ...(message.sourceId ? { sourceId: message.sourceId } : {}),
        ...(folder ? { folder } : {}),
      });
      if (!result.entry) {
        const why = result.diagnostics.map((d) => d.message).join('; ') || 'the entry is not in the registry';
        this.post({ type: 'guidanceError', id: message.id, mode: message.mode, message: `Could not read ${message.id}: ${why}` });
        return;
      }
      this.post({ type: 'guidanceResult', detail: { id: message.id, mode: message.mode, result } });
    } catch (e) {
      this.post({ type: 'guidanceError', id: message.id, mode: message.mode, message: `Could not read ${message.id}: ${e instanceof Error ? e.message : String(e)}` });
    }
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (PackPanel.current === this) PackPanel.current = undefined;
    this.panel.dispose();
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
