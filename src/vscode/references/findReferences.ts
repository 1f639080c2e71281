// References as the extension answers them: the index's (the engine thread), then, for each
// definition the index found, the language server of its file, merged (merge.ts). Everything
// that asks about references inside VS Code — the Results view's command, the language-model
// tool, `@cairn /refs` — goes through here; the CLI and the MCP server use the index alone.
import type * as vscode from 'vscode';
import type { ReferenceOptions, SourcedReferencesResponse } from '../../core/api';
import type { EngineClient } from '../services';
import { readSettings } from '../settings';
import { askLanguageServer } from './languageServer';
import { mergeReferences, type ServerAnswer } from './merge';

/** Definitions a name's language servers are asked about (a common name has many). */
const MAX_ASKED = 5;
/** The index is asked for this many, so a server's confirmations find the index's own entries. */
const INDEX_LIMIT = 1000;
const DEFAULT_LIMIT = 100;

export type MergedReferences = SourcedReferencesResponse & { folder: string };

export async function findMergedReferences(
  engine: Pick<EngineClient, 'references'>,
  name: string,
  options: ReferenceOptions & { folder?: vscode.WorkspaceFolder; languageServerMs?: number; folderOf: (name: string) => vscode.WorkspaceFolder | undefined },
): Promise<MergedReferences> {
  const { folderOf, languageServerMs, limit = DEFAULT_LIMIT, ...rest } = options;
  const index = await engine.references(name, { ...rest, limit: Math.max(limit, INDEX_LIMIT) });
  const folder = options.folder ?? folderOf(index.folder);
  const known = new Set(index.references.map((r) => `${r.path}:${r.line}:${r.column}`));
  // How long the language servers get, all definitions together, before the index answers alone (`cairn.references.languageServerTimeout`).
  const ms = languageServerMs ?? readSettings(folder?.uri).references.languageServerTimeout;
  const deadline = Date.now() + ms;
  const asked = folder ? index.definitions.slice(0, MAX_ASKED) : [];
  const answers: ServerAnswer[] =
    ms > 0 ? await Promise.all(asked.map((d) => askLanguageServer(folder as vscode.WorkspaceFolder, d, deadline, known))) : asked.map((definition) => ({ definition, status: 'off', locations: [] }));
  return { ...mergeReferences(index, answers, limit), folder: index.folder };
}
