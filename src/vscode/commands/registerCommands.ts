// Every command, registered in one place; each lives in its own file. (Show Log is registered
// by activate() itself, before anything can fail: see showLog.ts.)
import * as vscode from 'vscode';
import { addToContextPackCommand } from './addToContextPack';
import { clearSearchResultsCommand } from './clearSearchResults';
import { copyResultReferenceCommand } from './copyResultReference';
import { copySpanReferenceCommand } from './copySpanReference';
import { findReferencesCommand } from './findReferences';
import { goToSymbolCommand } from './goToSymbol';
import { openSpanCommand } from './openSpan';
import { pauseIndexingCommand } from './pauseIndexing';
import { rebuildIndexCommand } from './rebuildIndex';
import { refreshIndexCommand } from './refreshIndex';
import { resumeIndexingCommand } from './resumeIndexing';
import { searchCommand } from './search';
import { showIndexStatusCommand } from './showIndexStatus';
import { showSearchInResultsCommand } from './showSearchInResults';
import type { CairnCommand, CommandDeps } from './types';

export const COMMANDS: readonly CairnCommand[] = [
  searchCommand,
  goToSymbolCommand,
  findReferencesCommand,
  pauseIndexingCommand,
  resumeIndexingCommand,
  rebuildIndexCommand,
  showIndexStatusCommand,
  refreshIndexCommand,
  copySpanReferenceCommand,
  copyResultReferenceCommand,
  showSearchInResultsCommand,
  addToContextPackCommand,
  clearSearchResultsCommand,
  openSpanCommand,
];

export function registerCommands(deps: CommandDeps, log: vscode.LogOutputChannel): vscode.Disposable[] {
  return COMMANDS.map((c) =>
    vscode.commands.registerCommand(c.id, async (...args: unknown[]) => {
      try {
        return await c.run(deps, ...args);
      } catch (e) {
        const message = e instanceof Error ? e.message : String(e);
        log.error(`${c.id} failed: ${e instanceof Error && e.stack ? e.stack : message}`);
        void vscode.window.showErrorMessage(`Cairn: ${message}`);
        return undefined;
      }
    }),
  );
}
