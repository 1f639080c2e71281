// What package.json declares for Cairn's language-model tools (`contributes.languageModelTools`),
// derived from the MCP tool specs: the model-facing description and input schema are the MCP
// server's, plus a `folder` argument for multi-root workspaces. No vscode import, so a plain
// Node script can print it; the in-host tests check package.json against it.
import { toolSpecs, type ToolSpec } from '../../tools/tools';

/** What VS Code shows people; the model reads the MCP description. */
interface LmToolMeta {
  referenceName: string;
  displayName: string;
  userDescription: string;
  icon: string;
}

const META: Record<string, LmToolMeta> = {
  search_code: { referenceName: 'cairnSearch', displayName: 'Cairn: Search Code', userDescription: 'Ranked search over the workspace’s indexed code and docs; returns file:line spans.', icon: '$(search)' },
  find_symbol: { referenceName: 'cairnSymbol', displayName: 'Cairn: Find Symbol', userDescription: 'Where a function, class or type is defined, by name.', icon: '$(symbol-class)' },
  find_references: { referenceName: 'cairnReferences', displayName: 'Cairn: Find References', userDescription: 'Where a name is used in code, grouped by file; certain references first (language servers where present).', icon: '$(references)' },
  get_context_pack: { referenceName: 'cairnPack', displayName: 'Cairn: Context Pack', userDescription: 'What to read for a task, within a token budget, with reasons.', icon: '$(book)' },
  read_span: { referenceName: 'cairnReadSpan', displayName: 'Cairn: Read Span', userDescription: 'The current text of path:start-end, confined to the workspace folder.', icon: '$(file-code)' },
  context_search: { referenceName: 'cairnContextSearch', displayName: 'Cairn: Search Context Registry', userDescription: 'Guidance packs from the repository’s context registry (advisory).', icon: '$(library)' },
  context_get: { referenceName: 'cairnContextGet', displayName: 'Cairn: Read Registry Entry', userDescription: 'The content of a context registry entry, with trust level and provenance (advisory).', icon: '$(library)' },
  index_status: { referenceName: 'cairnIndexStatus', displayName: 'Cairn: Index Status', userDescription: 'What is indexed and how fresh it is.', icon: '$(info)' },
  refresh_index: { referenceName: 'cairnRefreshIndex', displayName: 'Cairn: Refresh Index', userDescription: 'Re-index changed files now (incremental).', icon: '$(refresh)' },
};

export const lmToolName = (spec: ToolSpec): string => `cairn_${spec.name}`;

/** The extra argument every LM tool takes: which workspace folder (multi-root). */
const FOLDER_PROPERTY = {
  type: 'string',
  description: 'Workspace folder name, in a multi-root workspace. Default: the folder of the active editor, else the first folder.',
  maxLength: 1000,
};

/** The tool's JSON Schema as VS Code sends it to models: the MCP schema plus `folder`. */
export function lmInputSchema(spec: ToolSpec): Record<string, unknown> {
  const { $schema: _schema, ...schema } = spec.jsonSchema as { $schema?: string; properties?: Record<string, unknown> };
  return { ...schema, properties: { ...(schema.properties ?? {}), folder: FOLDER_PROPERTY } };
}

/** The `contributes.languageModelTools` entries package.json must carry. */
export function languageModelToolContributions(): Array<Record<string, unknown>> {
  return toolSpecs.map((spec) => {
    const meta = META[spec.name];
    if (!meta) throw new Error(`no language-model metadata for the tool ${spec.name}`);
    return {
      name: lmToolName(spec),
      displayName: meta.displayName,
      toolReferenceName: meta.referenceName,
      canBeReferencedInPrompt: true,
      icon: meta.icon,
      userDescription: meta.userDescription,
      modelDescription: spec.description,
      tags: ['cairn', 'code-search', ...(spec.annotations.readOnlyHint ? ['read-only'] : [])],
      inputSchema: lmInputSchema(spec),
    };
  });
}
