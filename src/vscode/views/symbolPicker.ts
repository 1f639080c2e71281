// Cairn: Go to Symbol — the engine's symbol table as you type: exact names first, then qualified
// names (`Greeter.greet`), prefixes, camel-case initials (`gA` → greetAll) and near misses. When no
// name matches exactly the title says so, in the engine's words.
import * as vscode from 'vscode';
import { breadcrumbSeparator, type SymbolHit } from '../../core/api';
import type { CommandDeps } from '../commands/types';
import { displayName, formatNumber, kindIcon, previewLine, shortenBreadcrumb } from '../format';
import type { FolderHit, MultiSearchResult } from '../services';
import { ADD_BUTTON, COPY_BUTTON, multiRoot, showLivePick } from './livePick';

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
  const name = displayName(hit.qualifiedName || hit.symbol, hit.language);
  // Where it opens: the name's line, below any doc comment the range starts with.
  const where = `${hit.path}:${hit.nameLine ?? hit.startLine}`;
  return {
    label: `$(${kindIcon(hit.kind)}) ${shortenBreadcrumb(name, breadcrumbSeparator(hit.language))}`,
    description: [where, withFolder ? hit.folder : '', MATCH_LABELS[hit.match] ?? hit.match].filter(Boolean).join(' · '),
    detail: hit.signature || previewLine(hit) || undefined,
    alwaysShow: true,
    buttons: [COPY_BUTTON, ADD_BUTTON],
    hit,
  };
}

const SYMBOL_PICK_TITLE = 'Cairn: Go to Symbol';

/**
 * The pick's title. A name still being typed finds longer names or initials, not an exact one:
 * that is the list working, not a failure, so only a lookup with no such match says "no symbol".
 */
export function symbolTitle(result: Pick<MultiSearchResult<SymbolHit>, 'results'> & { exact?: boolean; note?: string }, name: string): string {
  const title = SYMBOL_PICK_TITLE;
  if (result.exact) return title;
  const partial = result.results.filter((h) => h.match === 'prefix' || h.match === 'camel-case').length;
  if (partial > 0) return `${title} — ${formatNumber(partial)} name${partial === 1 ? '' : 's'} starting with or abbreviated as "${name}"`;
  return `Cairn: ${result.note ?? `no symbol named "${name}"`}`;
}

/** A one-word selection in the editor is a deliberate first query. */
function selectedWord(): string {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.selection.isEmpty || !editor.selection.isSingleLine) return '';
  const text = editor.document.getText(editor.selection).trim();
  return /^[\w$.:#]+$/.test(text) ? text : '';
}

export function showSymbolPicker(deps: CommandDeps, initial?: string): void {
  const withFolder = multiRoot();
  const title = SYMBOL_PICK_TITLE;
  void showLivePick<SymbolItem, MultiSearchResult<SymbolHit>>(
    deps,
    {
      title,
      placeholder: 'Symbol name: exact, qualified (Class.method) or initials (gA for greetAll)',
      ask: async (name) => (name.trim() ? deps.services.engine.findSymbol(name.trim(), { limit: 50 }) : undefined),
      present: (result, name) => {
        if (!result) return { items: [], title };
        const problem = result.warnings[0] ? ` — ${result.warnings[0]}` : '';
        return { items: result.results.map((h) => symbolItem(h, withFolder)), title: `${symbolTitle(result, name.trim())}${problem}` };
      },
      failure: 'symbol lookup failed',
    },
    initial ?? selectedWord(),
  );
}
