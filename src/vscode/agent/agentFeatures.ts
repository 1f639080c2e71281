// Cairn for AI agents inside VS Code: language-model tools, the MCP server definitions, and
// the `@cairn` chat participant. Everything answers through the extension's engine client
// (the worker thread), except the MCP server, which is its own process on the same store.
import * as vscode from 'vscode';
import type { CairnServices } from '../services';
import { LastEditor } from '../pack/folders';
import { registerChatParticipant } from './chatParticipant';
import { registerLanguageModelTools } from './lmTools';
import { registerMcpServerProvider } from './mcpProvider';
import { FolderToolDeps } from './toolDeps';

/** Registers every agent feature; the caller disposes what it returns. */
export function registerAgentFeatures(services: CairnServices): vscode.Disposable[] {
  const lastEditor = new LastEditor();
  const toolDeps = new FolderToolDeps(services);
  const defaultFolder = (): vscode.WorkspaceFolder | undefined => lastEditor.defaultFolder();
  return [
    lastEditor,
    toolDeps,
    vscode.workspace.onDidChangeWorkspaceFolders(() => toolDeps.prune(vscode.workspace.workspaceFolders ?? [])),
    ...registerLanguageModelTools((folder) => toolDeps.for(folder), defaultFolder),
    ...registerMcpServerProvider(services),
    ...registerChatParticipant(services, lastEditor),
  ];
}
