// Offers `cairn mcp` to VS Code's MCP support, one server per workspace folder, so agents that
// speak MCP (and VS Code's own agent mode through it) get Cairn's tools. The server is the
// bundled CLI (dist/cli.js) on the extension's index store for that folder: it reads the same
// index the extension maintains (the store's writer lock keeps their refreshes apart).
import * as path from 'node:path';
import * as vscode from 'vscode';
import { storeDirFor } from '../assets';
import type { CairnServices } from '../services';
import { localFolders } from '../pack/folders';
import { nodeRuntime, type NodeRuntime } from './nodeRuntime';
import { readSettings, SECTION } from '../settings';

export const MCP_PROVIDER_ID = 'cairn.mcpServers';

/** Server label per folder: `Cairn` alone, `Cairn: <folder>` in a multi-root workspace. */
export function serverLabel(folder: vscode.WorkspaceFolder, folderCount: number): string {
  return folderCount > 1 ? `Cairn: ${folder.name}` : 'Cairn';
}

export function mcpServerDefinitions(context: vscode.ExtensionContext, runtime: NodeRuntime, folders: readonly vscode.WorkspaceFolder[]): vscode.McpStdioServerDefinition[] {
  const cli = path.join(context.extensionUri.fsPath, 'dist', 'cli.js');
  const version = String((context.extension.packageJSON as { version?: unknown }).version ?? '0.0.0');
  return folders.map((folder) => {
    const counting = readSettings(folder.uri).agent.usageCounters;
    const args = [cli, 'mcp', '--root', folder.uri.fsPath, '--store', storeDirFor(context, folder), ...(counting ? [] : ['--no-usage'])];
    const server = new vscode.McpStdioServerDefinition(serverLabel(folder, folders.length), runtime.command, args, { ...runtime.env }, version);
    server.cwd = folder.uri;
    return server;
  });
}

/** Registers the provider where this VS Code has the API (feature-detected); otherwise logs why not. */
export function registerMcpServerProvider(services: CairnServices): vscode.Disposable[] {
  const lm = vscode.lm as Partial<typeof vscode.lm>;
  if (typeof lm.registerMcpServerDefinitionProvider !== 'function' || typeof vscode.McpStdioServerDefinition !== 'function') {
    services.log.info('this VS Code has no MCP server definition API; run `cairn mcp` from your MCP client instead');
    return [];
  }
  const changed = new vscode.EventEmitter<void>();
  const provider: vscode.McpServerDefinitionProvider<vscode.McpStdioServerDefinition> = {
    onDidChangeMcpServerDefinitions: changed.event,
    async provideMcpServerDefinitions() {
      const runtime = await nodeRuntime();
      const servers = mcpServerDefinitions(services.context, runtime, localFolders());
      services.log.debug(`MCP: offering ${servers.length} server(s), run with ${runtime.describe}`);
      return servers;
    },
    resolveMcpServerDefinition: (server) => server,
  };
  return [
    changed,
    lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, provider),
    vscode.workspace.onDidChangeWorkspaceFolders(() => changed.fire()),
    // The servers' arguments carry the usage setting (`--no-usage`).
    vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration(`${SECTION}.agent.usageCounters`) && changed.fire()),
  ];
}
