// The context-pack webview's script (bundled to dist/webview/pack.js). It owns the view model,
// keeps it in the webview state (so hiding the panel or reloading the window loses nothing),
// and talks to the extension only through the messages in protocol.ts.
import { byId, h } from './dom';
import { renderContent, type ContentModel, type ViewActions } from './render';
import type { BasketSpan, GuidanceMode, HostMessage, PackError, PackRequest, PackViewState, ViewMessage } from './protocol';

interface VsCodeApi {
  postMessage(message: ViewMessage): void;
  getState(): unknown;
  setState(state: PackViewState): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const MIN_BUDGET = 200;
const MAX_BUDGET = 100_000;
const FALLBACK_BUDGET = 6000;

function restoredState(): PackViewState | undefined {
  const s = vscode.getState() as Partial<PackViewState> | undefined;
  return s && s.version === 1 && typeof s.draftTask === 'string' && typeof s.budgetTokens === 'number'
    ? { open: [], guidance: {}, scrollY: 0, ...s, version: 1, draftTask: s.draftTask, budgetTokens: s.budgetTokens }
    : undefined;
}

const restored = restoredState();
const state: PackViewState = restored ?? { version: 1, draftTask: '', budgetTokens: FALLBACK_BUDGET, open: [], guidance: {}, scrollY: 0 };
let folders: string[] = [];
let basket: BasketSpan[] = [];
let building: { requestId: number; request: PackRequest } | undefined;
let error: { request: PackRequest; error: PackError } | undefined;
let latestRequestId = 0;
const guidanceLoading = new Set<string>();
const guidanceErrors = new Map<string, string>();

const post = (message: ViewMessage): void => vscode.postMessage(message);
const save = (): void => vscode.setState(state);

// --- the form (built once, so typing is never interrupted by a re-render) ------------------

const taskInput = byId<HTMLTextAreaElement>('task');
const budgetInput = byId<HTMLInputElement>('budget');
const folderField = byId<HTMLElement>('folder-field');
const folderSelect = byId<HTMLSelectElement>('folder');
const form = byId<HTMLFormElement>('task-form');
const buildButton = byId<HTMLButtonElement>('build');
const actionButtons = [...document.querySelectorAll<HTMLButtonElement>('[data-action]')];
const contentHost = byId<HTMLElement>('content');
const live = byId<HTMLElement>('live');

taskInput.value = state.draftTask;
budgetInput.value = String(state.budgetTokens);
budgetInput.min = String(MIN_BUDGET);
budgetInput.max = String(MAX_BUDGET);

function currentBudget(): number {
  const n = Math.round(Number(budgetInput.value));
  return Number.isFinite(n) && n >= MIN_BUDGET ? Math.min(MAX_BUDGET, n) : state.budgetTokens;
}

function currentRequest(): PackRequest | undefined {
  const task = taskInput.value.trim();
  if (!task) return undefined;
  const folder = folders.length > 1 ? folderSelect.value : undefined;
  return { task, budgetTokens: currentBudget(), ...(folder ? { folder } : {}) };
}

function build(): void {
  const request = currentRequest();
  if (!request) {
    taskInput.focus();
    announce('Type a task first.', 'error');
    return;
  }
  budgetInput.value = String(request.budgetTokens);
  post({ type: 'build', request });
}

form.addEventListener('submit', (e) => {
  e.preventDefault();
  build();
});
taskInput.addEventListener('keydown', (e) => {
  // Enter builds. A task is one line (the field wraps long ones); the engine gets it as one line anyway.
  if (e.key === 'Enter' && !e.isComposing) {
    e.preventDefault();
    build();
  }
});
taskInput.addEventListener('input', () => {
  state.draftTask = taskInput.value;
  save();
});
budgetInput.addEventListener('change', () => {
  state.budgetTokens = currentBudget();
  budgetInput.value = String(state.budgetTokens);
  save();
  // A new budget for the pack on screen rebuilds it; otherwise it applies to the next build.
  if (state.result && taskInput.value.trim() === state.result.request.task) build();
});
folderSelect.addEventListener('change', () => {
  state.folder = folderSelect.value;
  save();
});
for (const button of actionButtons) {
  button.addEventListener('click', () => {
    const action = button.dataset.action;
    if (action === 'copy') post({ type: 'copyMarkdown' });
    else if (action === 'new-document') post({ type: 'insertMarkdown', target: 'newDocument' });
    else if (action === 'insert-cursor') post({ type: 'insertMarkdown', target: 'cursor' });
  });
}

function renderFolders(): void {
  folderField.hidden = folders.length < 2;
  folderSelect.replaceChildren(...folders.map((f) => h('option', { value: f, selected: f === state.folder }, f)));
}

// --- the content ---------------------------------------------------------------------------

const actions: ViewActions = {
  open: (target) => post({ type: 'open', target }),
  fetchGuidance: (hit, mode: GuidanceMode) => {
    guidanceLoading.add(`${hit.id}|${mode}`);
    guidanceErrors.delete(hit.id);
    post({ type: 'guidance', id: hit.id, mode, revision: hit.revision, sourceId: hit.sourceId });
    render();
  },
  removeBasketItem: (docid) => post({ type: 'removeBasketItem', docid }),
  clearBasket: () => post({ type: 'clearBasket' }),
  refreshIndex: () => post({ type: 'refreshIndex', ...(error?.request.folder ? { folder: error.request.folder } : {}) }),
  retry: () => (error ? post({ type: 'build', request: error.request }) : build()),
};

/** Which <details> a key names, so open ones stay open across re-renders, hide/show and reloads. */
const detailsKey = (el: Element): string | undefined => (el instanceof HTMLDetailsElement ? el.dataset.key : undefined);

function render(): void {
  const model: ContentModel = {
    basket,
    guidance: state.guidance,
    guidanceLoading,
    guidanceErrors,
    ...(state.result ? { result: state.result } : {}),
    ...(building ? { building: building.request } : {}),
    ...(error ? { error } : {}),
  };
  const content = renderContent(model, actions);
  const open = new Set(state.open);
  for (const d of content.querySelectorAll('details')) {
    const key = detailsKey(d);
    if (key && open.has(key)) d.open = true;
  }
  contentHost.replaceChildren(content);
  const hasPack = !!state.result && !error;
  for (const b of actionButtons) b.disabled = !hasPack || !!building;
  buildButton.disabled = !!building;
  buildButton.textContent = building ? 'Building…' : 'Build pack';
}

// `toggle` does not bubble: listen in the capture phase.
contentHost.addEventListener(
  'toggle',
  (e) => {
    const key = e.target instanceof Element ? detailsKey(e.target) : undefined;
    if (!key) return;
    const open = new Set(state.open);
    if ((e.target as HTMLDetailsElement).open) open.add(key);
    else open.delete(key);
    state.open = [...open];
    save();
  },
  true,
);

let scrollTimer: number | undefined;
window.addEventListener('scroll', () => {
  window.clearTimeout(scrollTimer);
  scrollTimer = window.setTimeout(() => {
    state.scrollY = window.scrollY;
    save();
  }, 150);
});

/** A short status beside the actions; the live region stays in the page so screen readers announce it. */
function announce(text: string, severity: 'info' | 'error'): void {
  live.textContent = text;
  live.className = `live ${severity}`;
  window.setTimeout(() => {
    if (live.textContent === text) live.textContent = '';
  }, 5000);
}

function applyRequest(request: PackRequest): void {
  taskInput.value = request.task;
  budgetInput.value = String(request.budgetTokens);
  state.draftTask = request.task;
  state.budgetTokens = request.budgetTokens;
  if (request.folder) state.folder = request.folder;
  renderFolders();
}

function onMessage(message: HostMessage): void {
  switch (message.type) {
    case 'init': {
      folders = message.folders;
      basket = message.basket;
      if (!restored) {
        state.budgetTokens = message.defaultBudgetTokens;
        budgetInput.value = String(state.budgetTokens);
      }
      const session = message.session;
      if (session) {
        applyRequest(session.request);
        if (session.result) state.result = session.result;
        error = session.error ? { request: session.request, error: session.error } : undefined;
        building = session.building ? { requestId: latestRequestId, request: session.request } : undefined;
      }
      renderFolders();
      break;
    }
    case 'setRequest':
      applyRequest(message.request);
      break;
    case 'building':
      latestRequestId = Math.max(latestRequestId, message.requestId);
      building = { requestId: message.requestId, request: message.request };
      applyRequest(message.request);
      break;
    case 'packResult':
      if (message.requestId < latestRequestId) return;
      building = undefined;
      error = undefined;
      if (state.result?.request.task !== message.result.request.task) {
        // Another task: forget what was open and fetched for the previous pack.
        state.open = [];
        state.guidance = {};
      }
      state.result = message.result;
      announce(`Pack ready: ${message.result.pack.mustInspect.length} spans to inspect.`, 'info');
      break;
    case 'packError':
      if (message.requestId < latestRequestId) return;
      building = undefined;
      error = { request: message.request, error: message.error };
      break;
    case 'basket':
      basket = message.items;
      break;
    case 'guidanceResult':
      guidanceLoading.delete(`${message.detail.id}|${message.detail.mode}`);
      state.guidance = { ...state.guidance, [message.detail.id]: message.detail };
      break;
    case 'guidanceError':
      guidanceLoading.delete(`${message.id}|${message.mode}`);
      guidanceErrors.set(message.id, message.message);
      break;
    case 'notice':
      announce(message.text, message.severity);
      return;
  }
  save();
  render();
}

window.addEventListener('message', (event: MessageEvent<HostMessage>) => onMessage(event.data));

render();
if (state.scrollY) window.scrollTo(0, state.scrollY);
taskInput.focus();
post({
  type: 'ready',
  ...(state.result || state.draftTask.trim()
    ? { restored: { task: state.result?.request.task ?? state.draftTask.trim(), budgetTokens: state.result?.request.budgetTokens ?? state.budgetTokens, ...(state.folder ? { folder: state.folder } : {}), hasResult: !!state.result } }
    : {}),
});
