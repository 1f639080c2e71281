// The last search shown in the Results view (query and results), kept in workspace state so
// the view comes back as it was after a reload.
import * as vscode from 'vscode';
import type { MultiSearchResult } from './services';

export interface SavedSearch {
  query: string;
  result: MultiSearchResult;
  /** ISO time the search ran. */
  at: string;
}

const STATE_KEY = 'cairn.lastSearch';

export class LastSearch implements vscode.Disposable {
  private saved?: SavedSearch;
  private readonly emitter = new vscode.EventEmitter<SavedSearch | undefined>();
  readonly onDidChange = this.emitter.event;

  constructor(private readonly state: vscode.Memento) {
    this.saved = state.get<SavedSearch>(STATE_KEY);
  }

  get current(): SavedSearch | undefined {
    return this.saved;
  }

  set(query: string, result: MultiSearchResult): void {
    this.update({ query, result, at: new Date().toISOString() });
  }

  clear(): void {
    this.update(undefined);
  }

  private update(next: SavedSearch | undefined): void {
    this.saved = next;
    void this.state.update(STATE_KEY, next);
    void vscode.commands.executeCommand('setContext', 'cairn.hasResults', !!next && next.result.results.length > 0);
    this.emitter.fire(next);
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
