// Shared by the context-pack and agent suites: the running extension's API, waiting for the
// fixture's index, polling, and a context-registry entry written into the workspace copy.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type * as vscode from 'vscode';
import { buildManifest } from '../../../src/core/registry';
import type { CairnApi } from '../../../src/vscode/extension';
import { poll } from './cairnHelpers';

// The extension's API, the fixture folder and polling come from the extension suites' helpers.
export { api as cairnApi, folder as workspaceFolder, poll } from './cairnHelpers';

/** Resolves once every folder's index exists and no refresh is running. */
export async function indexReady(api: CairnApi, timeoutMs = 90000): Promise<void> {
  await poll(
    'the fixture workspace to be indexed',
    () => {
      const states = api.services.engine.states();
      return states.length > 0 && states.every((s) => s.kind === 'ready' && s.status?.exists === true);
    },
    timeoutMs,
  );
}

export const REGISTRY_ENTRY_ID = 'greeting/punctuation';

export const REGISTRY_DOC = `# Greeting punctuation

How this team configures the punctuation of greetings.

Pass \`punctuation\` in \`GreeterOptions\`; the default is "!".

\`\`\`bash
npm run greet -- --punctuation "?"
\`\`\`
`;

export const REGISTRY_COMPANION = `# Examples

\`createGreeter('Hi')\` greets with "Hi, Ada!".
`;

/**
 * Removes what a suite wrote into the workspace copy and re-indexes, so suites that run later
 * see the fixture as it was.
 */
export async function removeFromWorkspace(api: CairnApi, folder: vscode.WorkspaceFolder, paths: readonly string[]): Promise<void> {
  for (const p of paths) fs.rmSync(path.join(folder.uri.fsPath, ...p.split('/')), { recursive: true, force: true });
  await api.services.engine.refresh(folder);
  await indexReady(api);
}

/** Writes a local context-registry entry (with a matching manifest) into the workspace copy. */
export function writeRegistryEntry(root: string): void {
  const packDir = path.join(root, '.agent-context', 'registry', ...REGISTRY_ENTRY_ID.split('/'));
  fs.mkdirSync(path.join(packDir, 'examples'), { recursive: true });
  fs.writeFileSync(path.join(packDir, 'DOC.md'), REGISTRY_DOC);
  fs.writeFileSync(path.join(packDir, 'examples', 'greetings.md'), REGISTRY_COMPANION);
  const manifest = buildManifest(packDir, {
    id: REGISTRY_ENTRY_ID,
    sourceId: 'team-docs',
    title: 'Greeting punctuation and salutations',
    description: 'Configuring the punctuation and salutation of greetings',
    tags: ['greeting', 'punctuation'],
    packageVersion: '1.0.0',
    revision: 'r1',
    language: 'typescript',
    trust: 'community',
    primary: 'DOC.md',
    files: [{ path: 'DOC.md' }, { path: 'examples/greetings.md', role: 'example' }],
  });
  fs.writeFileSync(path.join(packDir, 'pack.json'), JSON.stringify(manifest, null, 2));
}

/** Waits for the fixture's index, writes the registry entry into it and indexes that too. */
export async function indexWithRegistryEntry(api: CairnApi, folder: vscode.WorkspaceFolder): Promise<void> {
  await indexReady(api);
  writeRegistryEntry(folder.uri.fsPath);
  await api.services.engine.refresh(folder);
  await indexReady(api);
}
