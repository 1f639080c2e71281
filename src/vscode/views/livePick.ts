// A quick pick that asks as you type: requests are debounced, and an answer that arrives after
// a newer request was sent is dropped, so the list never jumps back to an old query. Items are
// spans: accepting one opens it; their buttons copy `path:start-end` or add it to the pack. A
// source may add action items after them ("Show all in the Results view", "Resume indexing").
// Cairn: Search and Cairn: Go to Symbol are two sources for it.
import type { Span as FileSpan } from '../../core/api';
import * as vscode from 'vscode';
import type { CommandDeps } from '../commands/types';
import { spanReference } from '../format';

export const SEARCH_DEBOUNCE_MS = 150;

export const COPY_BUTTON: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('copy'), tooltip: 'Copy Span Reference (path:start-end)' };
export const ADD_BUTTON: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('add'), tooltip: 'Add to Context Pack' };

type Span = Parameters<CommandDeps['services']['openSpan']>[0];

export interface SpanItem extends vscode.QuickPickItem {
  hit: Span;
}

/** An item that does something instead of opening a span. */
export interface ActionItem extends vscode.QuickPickItem {
  action(): unknown;
  /** Keep the pick open (and ask again) after the action, instead of closing it first. */
  keepOpen?: boolean;
}

/** Separators and action items, which a source may put among its span items. */
export type ExtraItem = ActionItem | (vscode.QuickPickItem & { kind: vscode.QuickPickItemKind.Separator });

const isAction = (item: vscode.QuickPickItem): item is ActionItem => typeof (item as Partial<ActionItem>).action === 'function';
const isSpan = (item: vscode.QuickPickItem): item is SpanItem => !!(item as Partial<SpanItem>).hit;

export interface LivePickSource<I extends SpanItem, A> {
  title: string;
  placeholder: string;
  /** Buttons in the title bar, handled by onButton. */
  buttons?: readonly vscode.QuickInputButton[];
  /** The answer for what was typed, or undefined when there is nothing to ask (blank input). */
  ask(input: string): Promise<A | undefined>;
  /** The items and the title that show an answer. */
  present(answer: A | undefined, input: string): { items: Array<I | ExtraItem>; title: string };
  /** A context key that is true while the pick is open (for keybindings that act on it). */
  contextKey?: string;
  /** Called with the pick before it shows (to hide it from elsewhere). */
  onShow?(pick: vscode.QuickPick<I | ExtraItem>): void;
  /** Says what failed, for the title: `Cairn: <failure> — <message>`. */
  failure: string;
  /** Before the accepted item's span opens, with the answer on screen. */
  onAccept?(shown: { input: string; answer: A } | undefined): void;
  onButton?(button: vscode.QuickInputButton, shown: { input: string; answer: A } | undefined, pick: vscode.QuickPick<I | ExtraItem>): Promise<void>;
}

export function multiRoot(): boolean {
  return (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
}

export async function copySpan(hit: FileSpan): Promise<void> {
  const ref = spanReference(hit);
  await vscode.env.clipboard.writeText(ref);
  vscode.window.setStatusBarMessage(`$(copy) Copied ${ref}`, 3000);
}

/** The open pick of each context key. */
const openPicks = new Map<string, object>();

/** Shows the pick with `initial` typed in; resolves when it closes. */
export function showLivePick<I extends SpanItem, A>(deps: CommandDeps, source: LivePickSource<I, A>, initial: string): Promise<void> {
  const qp = vscode.window.createQuickPick<I | ExtraItem>();
  qp.title = source.title;
  qp.placeholder = source.placeholder;
  qp.matchOnDescription = false;
  qp.matchOnDetail = false;
  // Keep the engine's ranking: VS Code would otherwise re-sort items by how their labels match.
  (qp as unknown as { sortByLabel: boolean }).sortByLabel = false;
  if (source.buttons) qp.buttons = source.buttons;
  let sequence = 0;
  let timer: NodeJS.Timeout | undefined;
  let shown: { input: string; answer: A } | undefined;
  /** What was typed while the debounce timer runs (undefined once it is asked for). */
  let debounced: string | undefined;
  /** The answer for what is typed is still to come: debouncing, or asked and not answered. */
  let waiting = false;
  /** Enter was pressed while waiting: open the first span of the answer when it arrives. */
  let acceptWhenAnswered = false;

  const open = async (item: I) => {
    source.onAccept?.(shown);
    qp.hide();
    await deps.services.openSpan(item.hit);
  };

  const run = async (input: string) => {
    const mine = ++sequence;
    clearTimeout(timer);
    debounced = undefined;
    waiting = true;
    qp.busy = true;
    try {
      const answer = await source.ask(input);
      if (mine !== sequence) return; // a newer request is on its way
      waiting = false;
      shown = answer === undefined ? undefined : { input, answer };
      const presented = source.present(answer, input);
      show(presented);
      if (acceptWhenAnswered) {
        acceptWhenAnswered = false;
        const first = presented.items.find((x): x is I => isSpan(x));
        if (first) await open(first);
      }
    } catch (e) {
      if (mine !== sequence) return;
      waiting = false;
      acceptWhenAnswered = false;
      qp.items = [];
      qp.title = `Cairn: ${source.failure} — ${e instanceof Error ? e.message : String(e)}`;
    } finally {
      if (mine === sequence) qp.busy = false;
    }
  };

  /** Asks at once for what is typed when the debounce timer has not fired yet. */
  const runNowIfDebouncing = async () => {
    if (debounced !== undefined) await run(debounced);
  };

  const show = ({ items, title }: ReturnType<typeof source.present>) => {
    qp.items = items;
    qp.title = title;
    // A notice may lead the list; Enter still opens the top span.
    const top = items.find(isSpan);
    if (top && items[0] !== top) qp.activeItems = [top];
  };

  return new Promise<void>((resolve) => {
    const subscriptions: vscode.Disposable[] = [
      qp.onDidChangeValue((value) => {
        clearTimeout(timer);
        waiting = true;
        debounced = value;
        timer = setTimeout(() => void run(value), SEARCH_DEBOUNCE_MS);
      }),
      qp.onDidAccept(async () => {
        const item = qp.selectedItems[0] ?? qp.activeItems[0];
        // The items on screen answer an earlier query: open the answer to what is typed instead,
        // when it comes (asked at once if it was still being debounced).
        if (waiting && (!item || isSpan(item))) {
          acceptWhenAnswered = true;
          void runNowIfDebouncing();
          return;
        }
        if (!item) return;
        if (isAction(item)) {
          if (!item.keepOpen) qp.hide();
          await item.action();
          if (item.keepOpen) void run(qp.value);
          return;
        }
        if (!isSpan(item)) return;
        await open(item);
      }),
      qp.onDidTriggerItemButton(async ({ button, item }) => {
        if (!isSpan(item)) return;
        if (button === COPY_BUTTON) await copySpan(item.hit);
        else if (button === ADD_BUTTON) await vscode.commands.executeCommand('cairn.addToContextPack', item.hit);
      }),
      qp.onDidTriggerButton((button) => source.onButton?.(button, shown, qp)),
      qp.onDidHide(() => {
        // A pick shown over this one has set the key already: only the newest pick clears it.
        if (source.contextKey && openPicks.get(source.contextKey) === qp) {
          openPicks.delete(source.contextKey);
          void vscode.commands.executeCommand('setContext', source.contextKey, false);
        }
        clearTimeout(timer);
        sequence++;
        for (const s of subscriptions) s.dispose();
        qp.dispose();
        resolve();
      }),
    ];
    qp.value = initial;
    source.onShow?.(qp);
    if (source.contextKey) {
      openPicks.set(source.contextKey, qp);
      void vscode.commands.executeCommand('setContext', source.contextKey, true);
    }
    qp.show();
    if (initial) void run(initial);
    else show(source.present(undefined, ''));
  });
}
