// References as the extension answers them: the index's (the engine thread), then, for each
// definition the index found, the language server of its file, merged (merge.ts). Everything
// that asks about references inside VS Code — the Results view's command, the language-model
// tool, `@cairn /refs` — goes through here; the CLI and the MCP server use the index alone.
import type * as vscode from 'vscode';
import type { ReferenceOptions, ReferencePlace, ReferencesResponse, SourcedReferencesResponse } from '../../core/api';
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

type IndexAnswer = ReferencesResponse & { folder: string };

export interface MergedReferenceOptions extends ReferenceOptions {
  folder?: vscode.WorkspaceFolder;
  languageServerMs?: number;
  folderOf: (name: string) => vscode.WorkspaceFolder | undefined;
  /**
   * Where the name was asked from (the cursor; a folder-relative path): on a definition's name,
   * only what resolves to that definition; on a use the index resolves, what resolves to the
   * definition it names; elsewhere, every reference of the name.
   */
  from?: ReferencePlace;
  /** Called with the index's answer as soon as it is there, before any language server answers. */
  onIndex?: (answer: MergedReferences) => void;
}

/** The index's references of `name`, anchored at the definition `from` is on or resolves to when the index can tell. */
async function indexReferences(engine: Pick<EngineClient, 'references'>, name: string, from: ReferencePlace | undefined, options: ReferenceOptions & { folder?: vscode.WorkspaceFolder }): Promise<IndexAnswer> {
  if (!from) return engine.references(name, options);
  const here = await engine.references(name, { ...options, definition: from });
  if (here.definitions.length > 0) return here;
  const byName = await engine.references(name, options);
  const column = from.column ?? 0;
  const use = byName.references.find((r) => r.path === from.path && r.line === from.line && column >= r.column && column <= r.endColumn);
  const to = use?.certainty === 'certain' ? use.resolvesTo : undefined;
  if (!to) return byName;
  const definition = byName.definitions.find((d) => d.path === to.path && d.line === to.line);
  const anchored = await engine.references(name, { ...options, definition: { path: to.path, line: to.line, ...(definition ? { column: definition.column } : {}) } });
  return anchored.definitions.length > 0 ? anchored : byName;
}

export async function findMergedReferences(engine: Pick<EngineClient, 'references'>, name: string, options: MergedReferenceOptions): Promise<MergedReferences> {
  const { folderOf, languageServerMs, limit = DEFAULT_LIMIT, from, onIndex, ...rest } = options;
  const index = await indexReferences(engine, name, from, { ...rest, limit: Math.max(limit, INDEX_LIMIT) });
  const folder = options.folder ?? folderOf(index.folder);
  const known = new Set(index.references.map((r) => `${r.path}:${r.line}:${r.column}`));
  // How long the language servers get, all definitions together, before the index answers alone (`cairn.references.languageServerTimeout`).
  const ms = languageServerMs ?? readSettings(folder?.uri).references.languageServerTimeout;
  const deadline = Date.now() + ms;
  const asked = folder ? index.definitions.slice(0, MAX_ASKED) : [];
  if (ms <= 0) return { ...mergeReferences(index, asked.map((definition) => ({ definition, status: 'off', locations: [] })), limit), folder: index.folder };
  // The index's answer is shown at once; the servers' is merged into it when it comes.
  if (onIndex && asked.length > 0) onIndex({ ...mergeReferences(index, asked.map((definition) => ({ definition, status: 'pending', locations: [] })), limit), folder: index.folder });
  const answers: ServerAnswer[] = await Promise.all(asked.map((d) => askLanguageServer(folder as vscode.WorkspaceFolder, d, deadline, known)));
  return { ...mergeReferences(index, answers, limit), folder: index.folder };
}
