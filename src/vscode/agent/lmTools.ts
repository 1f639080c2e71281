// Cairn's tools for VS Code's language models (agent mode, `#` references): the MCP server's
// tools (src/mcp/tools.ts) with the same descriptions, schemas and handlers, run against the
// extension's engine (see toolDeps.ts). Their package.json declarations: lmToolContributions.ts.
import * as vscode from 'vscode';
import { runTool, toolSpecs, type ToolDeps, type ToolSpec } from '../../tools/tools';
import { folderNamed, localFolders } from '../pack/folders';
import { lmToolName } from './lmToolContributions';

export type ToolInput = Record<string, unknown> & { folder?: unknown };

/** The folder a call is about; throws (for the model to read) when it names an unknown one. */
export function toolFolder(input: ToolInput, fallback: () => vscode.WorkspaceFolder | undefined): vscode.WorkspaceFolder {
  if (input.folder !== undefined) {
    const folder = typeof input.folder === 'string' ? folderNamed(input.folder) : undefined;
    if (!folder) throw new Error(`folder: no workspace folder named ${JSON.stringify(input.folder)}; the folders are ${localFolders().map((f) => f.name).join(', ') || '(none)'}`);
    return folder;
  }
  const folder = fallback();
  if (!folder) throw new Error('no workspace folder is open: Cairn indexes the folders of a workspace');
  return folder;
}

/** One line shown while the tool runs ("Searching … for “retry”"). */
function invocationMessage(spec: ToolSpec, input: ToolInput, folder: string): string {
  const quote = (v: unknown): string => (typeof v === 'string' ? `“${v.length > 80 ? `${v.slice(0, 77)}…` : v}”` : '');
  switch (spec.name) {
    case 'search_code':
      return `Searching ${folder} for ${quote(input.query)}`;
    case 'find_symbol':
      return `Finding the definition of ${quote(input.name)} in ${folder}`;
    case 'find_references':
      return `Finding the references to ${quote(input.name)} in ${folder}`;
    case 'get_context_pack':
      return `Building a context pack in ${folder} for ${quote(input.task)}`;
    case 'read_span':
      return `Reading ${quote(input.span ?? input.path)} in ${folder}`;
    case 'context_search':
      return `Searching the context registry of ${folder} for ${quote(input.query)}`;
    case 'context_get':
      return `Reading registry entry ${quote(input.id)} of ${folder}`;
    case 'index_status':
      return `Checking the index of ${folder}`;
    default:
      return `Refreshing the index of ${folder}`;
  }
}

/** What VS Code shows before a call: a progress line, and for tools that write, a confirmation. */
export function invocationMessages(spec: ToolSpec, input: ToolInput, folderName: string): vscode.PreparedToolInvocation {
  const message = invocationMessage(spec, input, folderName);
  // Reads need no confirmation; refresh_index writes the index, so the user approves it.
  if (spec.annotations.readOnlyHint) return { invocationMessage: message };
  const paths = Array.isArray(input.paths) && input.paths.length ? input.paths.map(String).join(', ') : undefined;
  return {
    invocationMessage: message,
    confirmationMessages: {
      title: 'Refresh the Cairn index?',
      message: new vscode.MarkdownString(`Re-index ${paths ? `\`${paths}\`` : 'the changed files'} of **${folderName}** now. Only files whose content changed are read again.`),
    },
  };
}

export function registerLanguageModelTools(depsFor: (folder: vscode.WorkspaceFolder) => ToolDeps, defaultFolder: () => vscode.WorkspaceFolder | undefined): vscode.Disposable[] {
  return toolSpecs.map((spec) =>
    vscode.lm.registerTool<ToolInput>(lmToolName(spec), {
      prepareInvocation(options) {
        const input = options.input ?? {};
        const folderName = (typeof input.folder === 'string' && input.folder) || defaultFolder()?.name || 'the workspace';
        return invocationMessages(spec, input, folderName);
      },
      async invoke(options) {
        const input = options.input ?? {};
        const folder = toolFolder(input, defaultFolder);
        const { folder: _folder, ...args } = input;
        const result = await runTool(spec.name, args, depsFor(folder));
        const text = result.content.map((c) => c.text).join('\n');
        // A failed call is an error for the model to read and correct (bad arguments, a path outside the folder).
        if (result.isError) throw new Error(text);
        return new vscode.LanguageModelToolResult(result.content.map((c) => new vscode.LanguageModelTextPart(c.text)));
      },
    }),
  );
}
