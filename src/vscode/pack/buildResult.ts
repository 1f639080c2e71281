// Turns a request from the webview into a PackResult (or a PackError that says what to do):
// the real pack from the engine, the basket named in its task, and registry guidance for it.
import type * as vscode from 'vscode';
import type { PackError, PackRequest, PackResult } from '../../webview/pack/protocol';
import type { CairnServices, FolderState } from '../services';
import { taskWithBasket } from './basketTask';
import { folderNamed, isFolder, localFolders } from './folders';

/** Registry entries shown with a pack: the few best; each is one click to read. */
const GUIDANCE_LIMIT = 5;

export type BuildOutcome = { result: PackResult } | { error: PackError };

export function folderStateOf(services: CairnServices, folder: vscode.WorkspaceFolder): FolderState | undefined {
  return services.engine.states().find((s) => s.folder.uri.toString() === folder.uri.toString());
}

/** The folder a request is about: the one it names (undefined when there is no such folder), else the caller's default. */
export function requestFolder(request: PackRequest, fallback: () => vscode.WorkspaceFolder | undefined): vscode.WorkspaceFolder | undefined {
  return request.folder !== undefined ? folderNamed(request.folder) : fallback();
}

/** Why this folder cannot answer yet, judged from its index state; undefined when it can (or may). */
export function notReady(state: FolderState | undefined, folder: vscode.WorkspaceFolder): PackError | undefined {
  if (!state || state.kind === 'starting') return { kind: 'indexing', message: `Opening the index of ${folder.name}. The pack is built as soon as it is ready.` };
  if (state.kind === 'indexing' && !state.status?.exists) {
    const p = state.progress;
    return {
      kind: 'indexing',
      message: `Cairn is building the index of ${folder.name}. The pack is built as soon as it is ready.`,
      ...(p ? { progress: { phase: p.phase, done: p.done, total: p.total } } : {}),
    };
  }
  if (state.kind === 'error' && !state.status?.exists) return { kind: 'engine', message: `The index of ${folder.name} could not be built: ${state.error ?? 'unknown error'}` };
  if (state.status && !state.status.exists && state.kind !== 'indexing') {
    return { kind: 'no-index', message: `${folder.name} has not been indexed yet${state.kind === 'paused' ? ' (indexing is paused)' : ''}. Build the index to get a pack.` };
  }
  return undefined;
}

const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

export async function buildPackResult(services: CairnServices, request: PackRequest, folder: vscode.WorkspaceFolder | undefined): Promise<BuildOutcome> {
  if (!folder) {
    return { error: { kind: 'no-folder', message: localFolders().length ? `There is no workspace folder named ${request.folder ?? ''}.` : 'Cairn indexes the folders of a workspace; open a folder first.' } };
  }
  const blocked = notReady(folderStateOf(services, folder), folder);
  if (blocked) return { error: blocked };
  const named = taskWithBasket(request.task, services.basket.items, (label) => isFolder(label, folder), folder.name);
  const guidance = services.engine.contextSearch(request.task, { limit: GUIDANCE_LIMIT, folder }).then(
    (r) => ({ hits: r.results.filter((h) => h.score > 0) }),
    (e: unknown) => ({ hits: [], problem: `Guidance lookup failed: ${messageOf(e)}` }),
  );
  try {
    const pack = await services.engine.buildPack(named.task, { budgetTokens: request.budgetTokens, folder });
    const g = await guidance;
    return {
      result: {
        request,
        pack,
        basketIncluded: named.included,
        basketLeftOut: named.leftOut,
        guidance: g.hits,
        ...('problem' in g ? { guidanceProblem: g.problem } : {}),
        builtAtMs: Date.now(),
      },
    };
  } catch (e) {
    const message = messageOf(e);
    services.log.warn(`context pack for "${request.task}" failed: ${message}`);
    // The engine says "no index" when the store is empty; the state tells whether one is on its way.
    if (/no index/i.test(message)) return { error: notReady(folderStateOf(services, folder), folder) ?? { kind: 'no-index', message: `${folder.name} has not been indexed yet. Build the index to get a pack.` } };
    return { error: { kind: 'engine', message } };
  }
}
