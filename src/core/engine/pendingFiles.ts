// What an answer says about a refresh still running when it was given (the freshness policy's
// `refreshing` state): how many files are pending, and `stale` on each hit from one of them, so a
// reader never takes a hit from a file the index has not caught up with for a current one. Every
// front end (served CLI, MCP and VS Code tools) marks answers with this one function.
import type { FileSearchResponse, IndexFreshness, ReferencesResponse, SearchHit, SearchResponse, SymbolResponse } from '../search/types';

/** A file is pending when the refresh named it, or a folder holding it (a folder created or removed). */
export function pendingMatcher(pending: readonly string[]): (path: string) => boolean {
  const exact = new Set(pending);
  const folders = pending.map((p) => `${p}/`);
  return (path) => exact.has(path) || folders.some((f) => path.startsWith(f));
}

type Answer = SearchResponse | FileSearchResponse | SymbolResponse | ReferencesResponse;

/**
 * The answer with `index.pending` set and hits from pending files marked stale. Without pending
 * files it is returned as it is. A hit already stale keeps its own reason (its file's stat says
 * more than the refresh's list).
 */
export function markPending<T extends Answer>(answer: T, pending: readonly string[]): T {
  if (pending.length === 0) return answer;
  const isPending = pendingMatcher(pending);
  const hit = <H extends { path: string; stale?: boolean }>(h: H): H => (!h.stale && isPending(h.path) ? { ...h, stale: true } : h);
  const index: IndexFreshness = { ...answer.index, fresh: false, pending: pending.length };
  if ('files' in answer) return { ...answer, index, files: answer.files.map((f) => ({ ...hit(f), spans: f.spans.map(hit) })) };
  if ('references' in answer) return { ...answer, index, references: answer.references.map((r) => (!r.stale && isPending(r.path) ? { ...r, stale: true as const } : r)) };
  return { ...answer, index, results: (answer.results as SearchHit[]).map(hit) } as T;
}

/** `refreshing 1,500 files`: the words every front end uses for pending work. */
export function refreshingFiles(count: number): string {
  return `refreshing ${count.toLocaleString('en-US')} file${count === 1 ? '' : 's'}`;
}
