// The spans a user collected for a context pack ("Add to Context Pack"). Kept in workspace state
// so a reload does not lose them; the pack webview reads and edits the same basket.
import * as vscode from 'vscode';
import type { BasketItem, PackBasket } from './services';

const STATE_KEY = 'cairn.basket';

export class WorkspaceBasket implements PackBasket, vscode.Disposable {
  private list: BasketItem[];
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.emitter.event;

  constructor(private readonly state: vscode.Memento) {
    this.list = state.get<BasketItem[]>(STATE_KEY) ?? [];
  }

  get items(): readonly BasketItem[] {
    return this.list;
  }

  /** Adds a span; adding one that is already there (same folder and docid) changes nothing. */
  add(item: BasketItem): void {
    if (this.list.some((i) => i.docid === item.docid && i.folder === item.folder)) return;
    this.update([...this.list, item]);
  }

  remove(docid: string): void {
    this.update(this.list.filter((i) => i.docid !== docid));
  }

  clear(): void {
    this.update([]);
  }

  private update(next: BasketItem[]): void {
    this.list = next;
    void this.state.update(STATE_KEY, next);
    this.emitter.fire();
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
