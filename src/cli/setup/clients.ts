// The MCP clients `cairn setup` knows: where each keeps a project's server list, under which
// key, in which entry shape, and where it reads instructions for its agent. Sources checked:
// - VS Code: code.visualstudio.com/docs/copilot/reference/mcp-configuration — `.vscode/mcp.json`,
//   a top-level "servers" object, stdio entries { "type": "stdio", "command", "args" }, and
//   predefined variables such as ${workspaceFolder} expanded in them. Copilot reads repository
//   instructions from `.github/copilot-instructions.md` (docs.github.com, "custom instructions").
// - Claude Code: code.claude.com/docs/en/mcp — project scope is `.mcp.json` at the project root,
//   "mcpServers" with { "command", "args", "env"? }; the agent reads `CLAUDE.md`
//   (code.claude.com/docs/en/memory).
// - Cursor: cursor.com/docs/mcp — project scope is `.cursor/mcp.json`, "mcpServers" with
//   { "command", "args", "env"? }; project rules are `.cursor/rules/*.mdc` (front matter, then
//   Markdown), and `AGENTS.md` is read too.
// - Anything else: the "mcpServers" shape is the de-facto common one, and `AGENTS.md` is the
//   cross-tool convention for agent instructions; nothing is written, the snippet is printed.

export type ClientName = 'vscode' | 'claude-code' | 'cursor' | 'generic';

export interface ServerEntry {
  type?: 'stdio';
  command: string;
  args: string[];
}

export interface ClientSpec {
  name: ClientName;
  /** Shown in messages. */
  label: string;
  /** The project configuration file, relative to the root; undefined: print a snippet only. */
  configPath?: string;
  /** The client reads its configuration as JSONC (comments and trailing commas allowed). */
  jsonc: boolean;
  /** The top-level object that maps server names to entries. */
  serversKey: 'servers' | 'mcpServers';
  /** Whether entries carry "type": "stdio" (VS Code requires it). */
  typed: boolean;
  /** How the entry names the root: a variable the client expands, or the absolute path. */
  rootArg: (root: string) => string;
  /** The agent instructions file, relative to the root. */
  instructionsPath: string;
  /** Text that must open a new instructions file (Cursor's rule front matter). */
  instructionsPreamble?: string;
}

const absolute = (root: string): string => root;

export const CLIENTS: readonly ClientSpec[] = [
  { name: 'vscode', label: 'VS Code', configPath: '.vscode/mcp.json', jsonc: true, serversKey: 'servers', typed: true, rootArg: () => '${workspaceFolder}', instructionsPath: '.github/copilot-instructions.md' },
  { name: 'claude-code', label: 'Claude Code', configPath: '.mcp.json', jsonc: false, serversKey: 'mcpServers', typed: false, rootArg: absolute, instructionsPath: 'CLAUDE.md' },
  {
    name: 'cursor',
    label: 'Cursor',
    configPath: '.cursor/mcp.json',
    jsonc: false,
    serversKey: 'mcpServers',
    typed: false,
    rootArg: absolute,
    instructionsPath: '.cursor/rules/cairn.mdc',
    instructionsPreamble: '---\ndescription: Finding code with Cairn (MCP) instead of grep\nalwaysApply: true\n---\n\n',
  },
  { name: 'generic', label: 'other MCP clients', jsonc: false, serversKey: 'mcpServers', typed: false, rootArg: absolute, instructionsPath: 'AGENTS.md' },
];

const ALIASES: Record<string, ClientName> = { code: 'vscode', 'vs-code': 'vscode', claude: 'claude-code', other: 'generic' };

export function findClient(name: string): ClientSpec | undefined {
  const wanted = ALIASES[name.toLowerCase()] ?? name.toLowerCase();
  return CLIENTS.find((c) => c.name === wanted);
}

/** The server name `cairn setup` writes and looks for. */
export const SERVER_NAME = 'cairn';

/**
 * The entry that starts this installed Cairn: the absolute Node binary running it and the
 * absolute `dist/cli.js` (what the `cairn` bin resolves to). Not `npx cairn`: outside a project
 * that depends on Cairn, npx would offer to download an unrelated npm package named `cairn`, and
 * an editor started from a desktop launcher often lacks the shell's PATH (nvm, volta), so a bare
 * `node` may not be found either. The cost is that the entry names this machine's paths; run
 * `cairn setup` again after moving Node or Cairn (`cairn setup --check` tells).
 */
export function serverEntry(client: ClientSpec, root: string, launcher: { node: string; cli: string }): ServerEntry {
  const args = [launcher.cli, 'mcp', '--root', client.rootArg(root)];
  return client.typed ? { type: 'stdio', command: launcher.node, args } : { command: launcher.node, args };
}
