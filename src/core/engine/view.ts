// A read view of one store snapshot, and what answers build over it on first use. The engine
// keeps one view while the snapshot stays the same, so a long-lived host decodes each piece once.
import type { FieldName, FieldParams } from '../index/fields';
import { StoreCorruptError, type IndexStore, type Snapshot, type StateTable } from '../store/store';
import { SnapshotScorer } from '../search/scorer';
import { SymbolIndex } from '../search/symbols';
import { ChunkLocator } from '../search/locate';
import { ImportGraph, pathTablesInSteps } from '../pack/graph';
import { FileReader } from '../search/hydrate';
import { groupBy } from '../groupBy';
import type { JudgedLookups } from '../search/judgedLookups';
import type { JudgedLookup } from '../search/refOccurrences';

export interface View {
  key: string;
  snapshot: Snapshot;
  scorer: SnapshotScorer;
  symbols: SymbolIndex;
  locator: ChunkLocator;
  /** Built on first use (packs, task texts), or by a long-lived host while idle (warmView). */
  graph?: ImportGraph;
  /** The view before this one's graph, which `graph` is made from when the paths are the same. */
  previousGraph?: ImportGraph;
  /** Import specifiers resolved for references, on demand and kept with the view. */
  imports?: ImportResolution;
  /** References lookups judged over this view, for the next ask of the same name. */
  judgedReferences?: JudgedLookups<JudgedLookup>;
  /** Indexed paths by base name, built when a task text first names a file, or while idle (warmView). */
  baseNames?: Map<string, string[]>;
}

/** A view's import specifiers, resolved one file at a time as references ask (not the whole graph a pack builds). */
export interface ImportResolution {
  /** Resolves specifiers only: built over the indexed paths, without any file's imports. */
  resolver: ImportGraph;
  paths: ReadonlySet<string>;
  resolved: Map<string, readonly string[]>;
  /** The state table, read on the first import asked for; null when it cannot be read. */
  state?: StateTable | null;
}

/** What tells one snapshot from the next: its generation and each segment's deletions. */
export function viewKey(snapshot: Snapshot): string {
  return `${snapshot.manifest.generation}:${snapshot.manifest.segments.map((s) => `${s.name}/${s.deleted.length}`).join(',')}`;
}

/** A view of `snapshot`; `previous` (the view it replaces) lends its import graph to update. */
export function openView(key: string, snapshot: Snapshot, fieldParams: Record<FieldName, FieldParams>, previous?: View): View {
  const scorer = new SnapshotScorer(snapshot, fieldParams);
  const previousGraph = previous?.graph ?? previous?.previousGraph;
  return { key, snapshot, scorer, symbols: new SymbolIndex(snapshot), locator: new ChunkLocator(snapshot), ...(previousGraph ? { previousGraph } : {}) };
}

/**
 * A reader for one answer over a view: its hits are stale by the refresh's own change test (the
 * stats the view's state table recorded), read once on the first hit.
 */
export function viewReader(root: string, store: IndexStore, view: View): FileReader {
  let state: StateTable | null | undefined;
  return new FileReader(root, (p) => {
    if (state === undefined) {
      try {
        state = store.readState(view.snapshot.manifest);
      } catch {
        // An unreadable state table is the next refresh's to report; hits fall back to size and mtime.
        state = null;
      }
    }
    return state?.get(p);
  });
}

/**
 * The import graph of a view's files (resolved from the state table's import lists): made from
 * the previous view's graph when the files are the same ones, by resolving only changed imports.
 */
export function importGraph(store: IndexStore, view: View): ImportGraph {
  const graph = ImportGraph.updated(view.previousGraph, importLists(store, view), view.locator.paths());
  delete view.previousGraph;
  return graph;
}

/** A long-lived host's warm-up works in slices of about this long between pauses. */
export const WARM_SLICE_MS = 15;

/** How long a slice of idle work may run, and the clock it is measured by. */
export interface WorkSlice {
  ms: number;
  now: () => number;
}

/**
 * `importGraph` built in slices of work, pausing between them: a long-lived host builds it
 * while idle (warm.ts), and a query asked meanwhile waits for one slice, not the whole graph.
 * Slices are measured in time, not files: on a big Java tree a thousand files' imports took
 * hundreds of milliseconds, long enough for a client to give up on the server's hello.
 */
export async function importGraphInSteps(store: IndexStore, view: View, pause: () => Promise<unknown>, slice: WorkSlice = { ms: WARM_SLICE_MS, now: () => performance.now() }): Promise<ImportGraph> {
  if (view.previousGraph && ImportGraph.covers(view.previousGraph, view.locator.paths())) return importGraph(store, view);
  let sliceStart = slice.now();
  const due = () => slice.now() - sliceStart >= slice.ms;
  const next = async () => {
    await pause();
    sliceStart = slice.now();
  };
  const imports = importLists(store, view);
  await next();
  const graph = new ImportGraph(new Map(), [], await pathTablesInSteps(view.locator.paths(), due, next));
  for (const [from, specs] of imports) {
    if (due()) await next();
    graph.addImports(from, specs);
  }
  return graph;
}

function importLists(store: IndexStore, view: View): Map<string, string[]> {
  const imports = new Map<string, string[]>();
  try {
    const state = store.readState(view.snapshot.manifest);
    for (const [p, list] of state.imports()) imports.set(p, list);
  } catch (e) {
    if (!(e instanceof StoreCorruptError)) throw e;
  }
  return imports;
}

export function indexByBaseName(paths: readonly string[]): Map<string, string[]> {
  return groupBy(paths, (p) => p.slice(p.lastIndexOf('/') + 1));
}
