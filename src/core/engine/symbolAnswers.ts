// Symbol and reference answers over a view: the name asked for, symbol hits with their match
// explained, and what a references lookup reads besides the occurrence tables.
import type { Diagnostic } from '../types';
import { StoreCorruptError, type IndexStore } from '../store/store';
import { symbolHit } from '../search/hydrate';
import type { SymbolHit, SymbolOptions } from '../search/types';
import type { ReferenceSources } from '../search/refOccurrences';
import type { SymbolCandidate } from '../search/symbols';
import { ImportGraph } from '../pack/graph';
import { JudgedLookups } from '../search/judgedLookups';
import { viewReader, type ImportResolution, type View } from './view';

/** The longest symbol name looked up (MCP's schema allows as much). */
const MAX_SYMBOL_CHARS = 300;

/** The name looked up: no name is this long, and a pasted blob would only be echoed back. */
export function boundName(query: string, diagnostics: Diagnostic[]): string {
  const name = query.length > MAX_SYMBOL_CHARS ? query.slice(0, MAX_SYMBOL_CHARS) : query;
  if (name !== query) diagnostics.push({ code: 'query-cut', severity: 'warning', message: `the name was cut to its first ${MAX_SYMBOL_CHARS} characters (of ${query.length})` });
  return name;
}

/** Symbol hits for candidates, each with its match and penalties as its score breakdown. */
export function symbolResults(root: string, store: IndexStore, view: View, candidates: readonly SymbolCandidate[], options: SymbolOptions): SymbolHit[] {
  const reader = viewReader(root, store, view);
  return candidates.map((c) => {
    const seg = view.snapshot.segments[c.seg];
    const hit = symbolHit(reader, seg as NonNullable<typeof seg>, c.doc, options.previewLines ?? 3, c.nested);
    const breakdown = [{ kind: 'match' as const, name: c.match, value: c.score - c.penalties.reduce((s, p) => s + p.value, 0) }, ...c.penalties.map((p) => ({ kind: 'match' as const, name: p.name, value: p.value }))];
    return { ...hit, score: c.score, scoreBreakdown: breakdown, match: c.match, qualifiedName: c.qualifiedName };
  });
}

/** The note of an answer without an exact match. */
export function closestNote(name: string, results: readonly SymbolHit[]): string {
  return results.length ? `no symbol named "${name}"; closest: ${results.map((r) => r.qualifiedName || r.symbol).join(', ')}` : `no symbol named "${name}" and nothing close`;
}

/** What a references lookup reads besides the occurrence tables; the state table only if an import must be resolved. */
export function referenceSources(root: string, store: IndexStore, view: View): ReferenceSources {
  const imports = (): ImportResolution => {
    if (!view.imports) {
      const paths = new Set(view.locator.paths());
      // The view's import graph, once built (a pack, a host's warm-up), resolves over the same
      // paths and has resolved every module name the tree imports already.
      view.imports = { resolver: view.graph ?? new ImportGraph(new Map(), paths), paths, resolved: new Map() };
    }
    return view.imports;
  };
  return {
    snapshot: view.snapshot,
    symbols: view.symbols,
    reader: viewReader(root, store, view),
    importsOf: (p) => {
      const r = imports();
      if (r.state === undefined) {
        try {
          r.state = store.readState(view.snapshot.manifest);
        } catch (e) {
          if (!(e instanceof StoreCorruptError)) throw e;
          r.state = null; // without imports, references in other files are name matches
        }
      }
      return r.state?.get(p)?.imports;
    },
    resolveImport: (from, spec) => {
      const r = imports();
      // A module path (`express`, `flask.app`, `com.acme.Order`) resolves the same from every
      // file: one resolution serves them all. Relative ones depend on the importing file.
      const key = dependsOnImporter(spec) ? `${from}\u0000${spec}` : spec;
      let targets = r.resolved.get(key);
      if (!targets) r.resolved.set(key, (targets = r.resolver.resolve(from, spec)));
      return targets;
    },
    isIndexed: (p) => imports().paths.has(p),
    judged: (view.judgedReferences ??= new JudgedLookups()),
  };
}

/** A specifier pack/graph.ts resolves against the importing file's folder: `./x`, `../x`, Python's `.x`, a C header `x.h`. */
function dependsOnImporter(spec: string): boolean {
  const s = spec.trim();
  return s.startsWith('.') || s.startsWith('/') || (!s.includes(':') && /\.(h|hpp|hh|c|cc|cpp|php|rb|css|scss)['">]?$/.test(s));
}
