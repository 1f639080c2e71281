// References as the resolution tests compare them: one line per reference, and a workspace
// indexed once whose references a table asks for by name or by `path:line`.
import type { ReferenceHit } from '../../../src/core/api';
import { TempWorkspace } from './workspace';

/** `path:line:col role certainty → definition` (the definition's `path:line`, for a certain one). */
export const brief = (r: ReferenceHit): string => `${r.path}:${r.line}:${r.column} ${r.role} ${r.certainty}${r.resolvesTo ? ` → ${r.resolvesTo.path}:${r.resolvesTo.line}` : ''}`;

/** Indexes `files` before the suite's tests and removes them after; `refs` lists a query's references briefly. */
export function indexedForRefs(files: Record<string, string>): { refs: (query: string) => Promise<string[]>; workspace: () => TempWorkspace } {
  let ws: TempWorkspace | undefined;
  before(async () => {
    ws = new TempWorkspace(files);
    await ws.engine().refresh();
  });
  after(() => ws?.dispose());
  const workspace = (): TempWorkspace => {
    if (!ws) throw new Error('the workspace is made before the tests run');
    return ws;
  };
  return { refs: async (query) => (await workspace().engine().references(query, { refresh: 'never' })).references.map(brief), workspace };
}
