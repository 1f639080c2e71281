// What the pack builder reads from an engine (kept narrow so it is testable on its own), and the
// lookups every step of a pack makes over it.
import type { FileHit, IndexFreshness, SearchHit, SearchOptions } from '../search/types';
import type { Diagnostic } from '../types';
import type { ImportGraph } from './graph';
import type { CertainCaller } from './callers';
import type { GuidanceEntry } from './types';

export interface PackContext {
  search(query: string, options: SearchOptions): Promise<{ results: SearchHit[]; warnings: string[]; diagnostics: Diagnostic[]; index: IndexFreshness }>;
  /** Files ranked for the task as `search --group file` ranks them (keywords plus the text's frames, paths and names). */
  searchFiles?(query: string, options: SearchOptions): Promise<{ files: FileHit[] }>;
  /** Exact (or qualified) definitions named `name`. */
  definitions(name: string, limit: number): SearchHit[];
  /** The chunk with exactly these lines, or the smallest containing `startLine`. */
  spanAt(path: string, startLine: number, endLine?: number): SearchHit | undefined;
  /** All chunks of an indexed file, in order. */
  chunksOf(path: string): SearchHit[];
  isIndexed(path: string): boolean;
  /** A span's text as the working tree has it: its chunk's own characters (or its lines). */
  text(hit: SearchHit): string | undefined;
  graph: ImportGraph;
  /** Chunks that certainly refer to `def` (index references that resolve to it), at most `limit`, with what each does with it. */
  certainCallers?(def: SearchHit, limit: number): CertainCaller[];
  guidance?(task: string): Promise<GuidanceEntry[]>;
}

/** The most useful chunk of a file when it is pulled in as a whole: its first definition. */
export function bestChunk(ctx: PackContext, path: string): SearchHit | undefined {
  const chunks = ctx.chunksOf(path);
  return chunks.find((h) => h.kind !== 'code' && h.kind !== 'text') ?? chunks[0];
}

/** Test files named after a source file: foo.test.ts, foo.spec.js, test_foo.py, foo_test.go, FooTest.java. */
export function testsFor(ctx: PackContext, path: string): string[] {
  const name = path.split('/').pop() as string;
  const stem = name.replace(/\.[^.]+$/, '');
  const ext = name.slice(stem.length);
  const candidates = new Set<string>();
  const dir = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
  const dirs = [dir, dir.replace(/(^|\/)src(\/|$)/, '$1test$2'), dir.replace(/(^|\/)src(\/|$)/, '$1tests$2'), 'test', 'tests', `${dir}/__tests__`];
  const names = [`${stem}.test${ext}`, `${stem}.spec${ext}`, `test_${stem}${ext}`, `${stem}_test${ext}`, `${stem}Test${ext}`, `${stem}Tests${ext}`];
  for (const d of dirs) for (const n of names) candidates.add(d ? `${d}/${n}` : n);
  return [...candidates].filter((p) => p !== path && ctx.isIndexed(p));
}
