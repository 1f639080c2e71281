// Cairn: Go to Symbol — the engine's symbol table as you type: exact names first, then qualified
// names (`Greeter.greet`), prefixes, camel-case initials (`gA` → greetAll) and near misses. When no
// name matches exactly the title says so, in the engine's words.
import * as vscode from 'vscode';
import type { SymbolHit } from '../../core/search/types';
import type { CommandDeps } from '../commands/types';
import { kindIcon, previewLine } from '../format';
import type { FolderHit } from '../services';
import { ADD_BUTTON, COPY_BUTTON, copySpan, multiRoot, SEARCH_DEBOUNCE_MS } from './searchPicker';

interface SymbolItem extends vscode.QuickPickItem {
  hit: FolderHit<SymbolHit>;
}

const MATCH_LABELS: Record<string, string> = {
  exact: 'exact',
  'exact-ignore-case': 'exact (any case)',
  qualified: 'qualified name',
  prefix: 'prefix',
  'camel-case': 'initials',
  fuzzy: 'similar',
};

function symbolItem(hit: FolderHit<SymbolHit>, withFolder: boolean): SymbolItem {
  const name = hit.qualifiedName || hit.symbol;
  const where = `${hit.path}:${hit.startLine}`;
  return {
    label: `$(${kindIcon(hit.kind)}) ${name}`,
    description: [where, withFolder ? hit.folder : '', MATCH_LABELS[hit.match] ?? hit.match].filter(Boolean).join(' · '),
    detail: hit.signature || previewLine(hit) || undefined,
    alwaysShow: true,
    buttons: [COPY_BUTTON, ADD_BUTTON],
    hit,
  };
}

/** A one-word selection in the editor is a deliberate first query. */
function selectedWord(): string {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.selection.isEmpty || !editor.selection.isSingleLine) return '';
  const text = editor.document.getText(editor.selection).trim();
  return /^[\w$.:#]+$/.test(text) ? text : '';
}

export function showSymbolPicker(deps: CommandDeps, initial?: string): void {
  const qp = vscode.window.createQuickPick<SymbolItem>();
  qp.title = 'Cairn: Go to Symbol';
  qp.placeholder = 'Symbol name: exact, qualified (Class.method) or initials (gA for greetAll)';
  qp.matchOnDescription = false;
  qp.matchOnDetail = false;
  (qp as unknown as { sortByLabel: boolean }).sortByLabel = false;
  const withFolder = multiRoot();
  let sequence = 0;
  let timer: NodeJS.Timeout | undefined;

  const run = async (name: string) => {
    const mine = ++sequence;
    if (!name.trim()) {
      qp.items = [];
      qp.title = 'Cairn: Go to Symbol';
      return;
    }
    qp.busy = true;
    try {
      const result = await deps.services.engine.findSymbol(name.trim(), { limit: 50 });
      if (mine !== sequence) return;
      qp.items = result.results.map((h) => symbolItem(h, withFolder));
      const problem = result.warnings[0] ? ` — ${result.warnings[0]}` : '';
      qp.title = result.exact ? `Cairn: Go to Symbol${problem}` : `Cairn: ${result.note ?? `no symbol named "${name.trim()}"`}${problem}`;
    } catch (e) {
      if (mine !== sequence) return;
      qp.items = [];
      qp.title = `Cairn: symbol lookup failed — ${e instanceof Error ? e.message : String(e)}`;
    } finally {
      if (mine === sequence) qp.busy = false;
    }
  };

  const subscriptions: vscode.Disposable[] = [
    qp.onDidChangeValue((value) => {
      clearTimeout(timer);
      timer = setTimeout(() => void run(value), SEARCH_DEBOUNCE_MS);
    }),
    qp.onDidAccept(async () => {
      const item = qp.selectedItems[0] ?? qp.activeItems[0];
      if (!item) return;
      qp.hide();
      await deps.services.openSpan(item.hit);
    }),
    qp.onDidTriggerItemButton(async ({ button, item }) => {
      if (button === COPY_BUTTON) await copySpan(item.hit);
      else if (button === ADD_BUTTON) await vscode.commands.executeCommand('cairn.addToContextPack', item.hit);
    }),
    qp.onDidHide(() => {
      clearTimeout(timer);
      sequence++;
      for (const s of subscriptions) s.dispose();
      qp.dispose();
    }),
  ];
  const first = initial ?? selectedWord();
  qp.value = first;
  qp.show();
  if (first) void run(first);
}
