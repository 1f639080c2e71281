// Every `cairn` subcommand. Adding one: write src/cli/commands/<name>.ts exporting `command`,
// then add its line here. Modules load on demand, so `cairn --help` stays instant and one
// command never pays for another's dependencies.
import type { Command } from '../command';

export interface CommandEntry {
  name: string;
  /** One line for `cairn --help`. */
  summary: string;
  load(): Promise<Command>;
}

export const COMMANDS: readonly CommandEntry[] = [
  { name: 'index', summary: 'build or refresh the index of a folder (incremental)', load: async () => (await import('./index')).command },
  { name: 'search', summary: 'ranked search over code and docs, with exact spans and score breakdowns', load: async () => (await import('./search')).command },
  { name: 'symbol', summary: 'go to a definition by name (exact matches first)', load: async () => (await import('./symbol')).command },
  { name: 'refs', summary: 'where a name occurs as code (not in comments or strings), certain references first; --callers groups them', load: async () => (await import('./refs')).command },
  { name: 'status', summary: 'what is indexed, when, how fresh, and the store size', load: async () => (await import('./status')).command },
  { name: 'pack', summary: 'a context pack for a task: what to read, why, and what was left out, within a token budget', load: async () => (await import('./pack')).command },
  { name: 'export', summary: 'write every chunk with its metadata as JSON lines (for RAG / graph tools)', load: async () => (await import('./export')).command },
  { name: 'chunks', summary: 'show how files are cut into chunks (no index is written)', load: async () => (await import('./chunks')).command },
  { name: 'context', summary: 'search and fetch guidance packs of the context registry (.agent-context/registry)', load: async () => (await import('./context')).command },
  { name: 'annotate', summary: 'write a note about a context registry entry (user-written, untrusted)', load: async () => (await import('./annotate')).command },
  { name: 'annotations', summary: 'read the notes about a context registry entry', load: async () => (await import('./annotations')).command },
  { name: 'setup', summary: 'add the MCP server to VS Code, Claude Code, Cursor or another client; --check tests it', load: async () => (await import('./setup')).command },
  { name: 'serve', summary: 'keep the index open and watched so search, symbol, pack and status answer at once (started on demand)', load: async () => (await import('./serve')).command },
  { name: 'mcp', summary: 'serve the index to AI agents over the Model Context Protocol (stdio)', load: async () => (await import('./mcp')).command },
  { name: 'eval', summary: "measure retrieval quality on the repository's own git history, against BM25 and grep baselines", load: async () => (await import('./eval')).command },
];

export function findCommand(name: string): CommandEntry | undefined {
  return COMMANDS.find((c) => c.name === name);
}
