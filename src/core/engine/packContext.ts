// What a context pack reads of a view (pack/build.ts's PackContext): searches, definitions,
// chunks by place, span text, the import graph and certain callers.
import type { IndexStore, Snapshot } from '../store/store';
import type { FileSearchResponse, SearchOptions, SearchResponse } from '../search/types';
import type { PackContext } from '../pack/context';
import type { GuidanceEntry } from '../pack/types';
import type { certainCallersOf } from '../pack/callers';
import { DEFINITION_KINDS } from '../index/fields';
import type { ImportGraph } from '../pack/graph';
import { viewReader, type View } from './view';

export interface PackSources {
  root: string;
  store: IndexStore;
  view: View;
  graph: ImportGraph;
  search: (query: string, options: SearchOptions) => Promise<SearchResponse>;
  searchFiles: (query: string, options: SearchOptions) => Promise<FileSearchResponse>;
  /** Passed in: pack/callers.ts loads with the pack builder, on first use. */
  certainCallersOf: typeof certainCallersOf;
  /** Asked for per call, as a references lookup asks (each with its own file reader). */
  referenceSources: () => Parameters<typeof certainCallersOf>[0];
  guidance?: (task: string) => Promise<GuidanceEntry[]>;
}

export function packContext(sources: PackSources): PackContext {
  const { view } = sources;
  const reader = viewReader(sources.root, sources.store, view);
  const hitOf = (seg: number, doc: number) => reader.hit(view.snapshot.segments[seg] as Snapshot['segments'][number], doc, 0, undefined);
  const chunkAt = (path: string, line: number) => {
    const ref = view.locator.locate(path, line);
    return ref ? hitOf(ref.seg, ref.doc) : undefined;
  };
  return {
    search: sources.search,
    searchFiles: sources.searchFiles,
    definitions: (name, limit) => {
      const { exact, candidates } = view.symbols.find(name, { limit: limit * 3 });
      if (!exact) return [];
      return candidates
        .filter((c) => c.match === 'exact' || c.match === 'exact-ignore-case' || c.match === 'qualified')
        .filter((c) => DEFINITION_KINDS.has(view.snapshot.segments[c.seg]!.kindOf(c.doc)))
        .slice(0, limit)
        .map((c) => hitOf(c.seg, c.doc));
    },
    spanAt: (path, startLine, endLine) => {
      const refs = view.locator.chunksOf(path);
      const exact = refs.find((r) => {
        const seg = view.snapshot.segments[r.seg]!;
        return seg.docStart.at(r.doc) === startLine && (endLine === undefined || seg.docEnd.at(r.doc) === endLine);
      });
      const ref = exact ?? view.locator.locate(path, startLine);
      return ref ? hitOf(ref.seg, ref.doc) : undefined;
    },
    chunksOf: (path) => view.locator.chunksOf(path).map((r) => hitOf(r.seg, r.doc)),
    isIndexed: (path) => view.locator.has(path),
    text: (hit) => {
      // A chunk standing for part of its lines (minified code) is read as its characters.
      const ref = hit.id ? view.locator.chunksOf(hit.path).find((r) => view.snapshot.segments[r.seg]!.id(r.doc) === hit.id) : undefined;
      const seg = ref && view.snapshot.segments[ref.seg]!;
      return seg && seg.record(ref.doc).span ? reader.chunkText(seg, ref.doc) : reader.text(hit.path, hit.startLine, hit.endLine);
    },
    graph: sources.graph,
    certainCallers: (def, limit) => sources.certainCallersOf(sources.referenceSources(), def, limit, chunkAt),
    guidance: sources.guidance,
  };
}
