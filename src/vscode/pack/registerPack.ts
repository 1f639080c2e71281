// The context-pack webview's entry point for activation: the command, the serializer that
// brings the panel back after a reload, and the retrieval-quality (eval) view.
import * as vscode from 'vscode';
import { DEFAULT_BUDGET } from '../../core/clientApi';
import type { PackRequest } from '../../webview/pack/protocol';
import type { CairnServices } from '../services';
import { registerEvalCommand } from './evalCommand';
import { LastEditor } from './folders';
import { parseRequest } from './messages';
import { PACK_VIEW_TYPE, PackPanel } from './panel';

export const OPEN_PACK_COMMAND = 'cairn.openContextPack';

/**
 * `cairn.openContextPack` takes nothing (the panel asks for a task), a task string, or
 * `{ task, budgetTokens?, folder? }` (what the sidebar and other commands pass).
 */
export function requestFromArgument(arg: unknown): PackRequest | undefined {
  return parseRequest(typeof arg === 'string' ? { task: arg } : arg, DEFAULT_BUDGET);
}

/** Registers the pack panel's command and serializer and the eval command; the caller disposes what it returns. */
export function registerPackPanel(services: CairnServices): vscode.Disposable[] {
  const lastEditor = new LastEditor();
  const deps = { services, lastEditor };
  return [
    lastEditor,
    vscode.commands.registerCommand(OPEN_PACK_COMMAND, (arg?: unknown) => {
      PackPanel.show(deps, requestFromArgument(arg));
    }),
    vscode.window.registerWebviewPanelSerializer(PACK_VIEW_TYPE, {
      async deserializeWebviewPanel(panel: vscode.WebviewPanel) {
        PackPanel.revive(panel, deps);
      },
    }),
    { dispose: () => PackPanel.open?.dispose() },
    ...registerEvalCommand(services),
  ];
}
